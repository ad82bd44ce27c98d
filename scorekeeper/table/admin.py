"""The Django admin for club officials: every model, read mostly through the services."""

from django.contrib import admin

from .models import Evening, EveningPayment, Hand, HandChange, Partie, Player, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["owner"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "kind", "knocker", "knocker_deadwood", "defender_deadwood", "upcard"]
    raw_id_fields = ["knocker"]
    # Hands change through the services so that totals and the audit trail follow.
    readonly_fields = fields
    can_delete = False


@admin.register(Partie)
class PartieAdmin(admin.ModelAdmin):
    list_display = ["__str__", "owner", "kind", "state", "stake", "evening", "started_at"]
    list_filter = ["state", "kind"]
    search_fields = ["seats__player__name", "owner__username"]
    readonly_fields = ["summary", "share_token", "started_at", "closed_at"]
    inlines = [SeatInline, HandInline]
    raw_id_fields = ["first_dealer", "owner", "evening"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["partie", "position", "player"]
    raw_id_fields = ["partie", "player"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = [
        "partie",
        "number",
        "kind",
        "knocker",
        "knocker_deadwood",
        "defender_deadwood",
        "upcard",
    ]
    list_filter = ["kind"]
    raw_id_fields = ["partie", "knocker"]
    readonly_fields = ["entered_at"]


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin):
    list_display = ["partie", "hand_number", "action", "user", "at"]
    list_filter = ["action"]
    readonly_fields = ["partie", "hand_number", "action", "user", "at", "before", "after"]

    def has_add_permission(self, request):  # the trail is written by the services only
        return False


class EveningPaymentInline(admin.TabularInline):
    model = EveningPayment
    fk_name = "evening"
    extra = 0
    raw_id_fields = ["payer", "payee", "carried_to"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["name", "played_on", "owner", "settled_at"]
    list_filter = ["played_on"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    inlines = [EveningPaymentInline]


@admin.register(EveningPayment)
class EveningPaymentAdmin(admin.ModelAdmin):
    list_display = ["evening", "payer", "payee", "amount", "paid_at", "carried_to"]
    list_filter = ["paid_at"]
    raw_id_fields = ["evening", "payer", "payee", "carried_to"]
