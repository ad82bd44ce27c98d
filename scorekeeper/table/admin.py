"""The Django admin for club officials: every model, read mostly through the services.

Hands, seats, the audit trail and what a partie is played under (rules, kind, first
dealer) change only through ``services``: those replay the hands, write the trail and
rewrite the cached ``Partie.summary`` and ``state`` in one transaction. An admin form
saving a hand directly would do none of that, so the admin shows these rows and fields
read-only and refuses to add or delete them.
"""

from django.contrib import admin
from django.http import HttpRequest

from .models import (
    AccountChangesSeen,
    ClosedGame,
    Evening,
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    ResultConfirmation,
    ResultsChange,
    Seat,
    SettlementLine,
)


class WrittenByServices:
    """Rows that only the services write: viewed in the admin, never added, changed or deleted.

    A partie deleted as a whole takes them along (see ``PartieAdmin``).
    """

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "owner", "created_at"]
    search_fields = ["name", "club__name", "owner__username"]
    list_select_related = ["club", "user", "owner"]
    raw_id_fields = ["club", "user", "owner"]


class SeatInline(WrittenByServices, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "stake"]


class HandInline(WrittenByServices, admin.TabularInline):
    model = Hand
    extra = 0
    fields = [
        "number",
        "table",
        "kind",
        "knocker",
        "knocker_deadwood",
        "defender_deadwood",
        "upcard",
    ]


@admin.register(Partie)
class PartieAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "owner", "kind", "state", "stake", "evening", "started_at"]
    list_filter = ["state", "kind"]
    search_fields = ["seats__player__name", "club__name", "owner__username"]
    list_select_related = ["club", "owner", "evening"]
    # The engine replays the hands under these; the summary caches what it found.
    readonly_fields = [
        "kind",
        "rules",
        "first_dealer",
        "dealer_cut",
        "state",
        "summary",
        "share_token",
        "started_at",
        "closed_at",
    ]
    inlines = [SeatInline, HandInline]
    raw_id_fields = ["club", "owner", "evening"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a partie starts through services.partie_start, seats and all

    def get_deleted_objects(self, objs, request: HttpRequest):
        """A partie deleted as a whole takes its own seats, hands and trail along: no
        total or trail is left untrue, so their admins' refusal does not apply here."""
        to_delete, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        # The results' rows are derived from the hands: they go with them.
        derived = (ClosedGame, PlayerResult, SettlementLine, PartieStats, ResultConfirmation)
        taken_along = {model._meta.verbose_name for model in (Seat, Hand, HandChange, *derived)}
        return to_delete, model_count, perms_needed - taken_along, protected


@admin.register(Seat)
class SeatAdmin(WrittenByServices, admin.ModelAdmin):
    list_display = ["partie", "position", "player"]


@admin.register(Hand)
class HandAdmin(WrittenByServices, admin.ModelAdmin):
    list_display = [
        "partie",
        "number",
        "table",
        "kind",
        "knocker",
        "knocker_deadwood",
        "defender_deadwood",
        "upcard",
    ]
    list_filter = ["kind"]


@admin.register(HandChange)
class HandChangeAdmin(WrittenByServices, admin.ModelAdmin):
    list_display = ["partie", "hand_number", "action", "user", "at"]
    list_filter = ["action"]


class EveningPaymentInline(admin.TabularInline):
    model = EveningPayment
    fk_name = "evening"
    extra = 0
    raw_id_fields = ["payer", "payee", "carried_to"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["name", "played_on", "club", "owner", "settled_at", "confirmed_games_only"]
    list_filter = ["played_on", "confirmed_games_only"]
    search_fields = ["name", "club__name", "owner__username"]
    raw_id_fields = ["club", "owner"]
    inlines = [EveningPaymentInline]


@admin.register(EveningPayment)
class EveningPaymentAdmin(admin.ModelAdmin):
    list_display = ["evening", "payer", "payee", "amount", "paid_at", "carried_to"]
    list_filter = ["paid_at"]
    raw_id_fields = ["evening", "payer", "payee", "carried_to"]


class PlayerResultInline(admin.TabularInline):
    model = PlayerResult
    fields = ["player", "won", "shutout", "net_points", "money_e4", "side", "rank"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(ClosedGame)
class ClosedGameAdmin(WrittenByServices, admin.ModelAdmin):
    list_display = ["partie", "number", "kind", "started_at", "shutout"]
    list_filter = ["club"]
    raw_id_fields = ["partie"]
    inlines = [PlayerResultInline]


@admin.register(SettlementLine)
class SettlementLineAdmin(WrittenByServices, admin.ModelAdmin):
    list_display = ["game", "payer", "payee", "points", "amount"]
    raw_id_fields = ["game", "payer", "payee"]


@admin.register(PartieStats)
class PartieStatsAdmin(WrittenByServices, admin.ModelAdmin):
    list_display = ["partie", "player", "hands", "won", "gins", "undercuts", "points"]
    raw_id_fields = ["partie", "player"]


@admin.register(ResultConfirmation)
class ResultConfirmationAdmin(WrittenByServices, admin.ModelAdmin):
    """The players' confirmations: given by each player on his games' pages, decided or
    unlocked by the club's owner there (services.confirmations), so that the partie's
    trail keeps them."""

    list_display = ["game", "player", "state", "by", "at", "asked_at"]
    list_filter = ["state"]
    search_fields = ["player__name", "note", "by__username"]
    list_select_related = ["game", "player", "by"]
    raw_id_fields = ["game", "player", "by"]


@admin.register(AccountChangesSeen)
class AccountChangesSeenAdmin(WrittenByServices, admin.ModelAdmin):
    """How far each owner has looked at his players' account changes (his list's button)."""

    list_display = ["user", "upto", "at"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(ResultsChange)
class ResultsChangeAdmin(WrittenByServices, admin.ModelAdmin):
    """The outbox of the league's worker: each change of a club's games, and when the
    worker rated the club again after it (empty: due)."""

    list_display = ["club", "since", "at", "done_at"]
    list_filter = ["club"]
