"""League officials edit leagues and seasons (their players too) here; the ratings are
derived from the stored results (rated again after every change), so they are read only."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.engine import bounds

from .models import (
    Assignment,
    CurrentRating,
    League,
    LeagueNight,
    PlayerRating,
    RatedGame,
    Season,
    SeasonChange,
    SeasonClose,
)
from .night_models import night_started
from .night_services import night_cancel


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ("name", "starts_on", "ends_on", "min_games")


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "created_at")
    list_filter = ("club",)
    search_fields = ("name", "club__name")
    inlines = [SeasonInline]


class SeasonAdminForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = "__all__"  # noqa: DJ007 (the admin edits every field of a season)

    def clean(self):
        data = super().clean()
        league, players = data.get("league"), data.get("players")
        if league and players and any(p.club_id != league.club_id for p in players):
            self.add_error("players", _("Choose players of the league's club."))
        if data.get("players_from") == Season.Players.ROSTER and not players:
            message = _("Tick the season's players, or choose everyone who played.")
            self.add_error("players", message)
        if data.get("night_rules"):
            try:
                engine.Ruleset.from_dict(data["night_rules"])
            except engine.RulesError as error:
                self.add_error("night_rules", str(error))
        stake = data.get("night_stake")
        if stake is not None and not 0 <= stake <= bounds.MAX_STAKE:
            self.add_error("night_stake", _("A stake per point is 0 to 100."))
        return data


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = (
        "name", "league", "starts_on", "ends_on", "min_games", "players_from",
        "confirmed_games_only", "closed_at",
    )  # fmt: skip
    list_filter = ("league__club", "players_from", "confirmed_games_only")
    search_fields = ("name", "league__name")
    readonly_fields = ("closed_at",)  # closed and reopened on the season's page, audited
    autocomplete_fields = ("players",)


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("partie", "season")
    raw_id_fields = ("partie",)


class DerivedAdmin(admin.ModelAdmin):
    """Rows the services derive from the hands: shown, never written by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RatedGame)
class RatedGameAdmin(DerivedAdmin):
    list_display = ("seq", "season", "club", "game")
    list_filter = ("season",)
    raw_id_fields = ("game",)


@admin.register(PlayerRating)
class PlayerRatingAdmin(DerivedAdmin):
    list_display = ("seq", "season", "club", "player", "mu", "sigma")
    list_filter = ("season",)
    raw_id_fields = ("result", "player")


@admin.register(CurrentRating)
class CurrentRatingAdmin(DerivedAdmin):
    list_display = ("player", "season", "club", "mu", "sigma")
    list_filter = ("season",)
    raw_id_fields = ("player",)


@admin.register(SeasonClose)
class SeasonCloseAdmin(DerivedAdmin):
    """A season's closes and reopenings: the final standings as they were kept."""

    list_display = ("season", "closed_at", "closed_by", "reopened_at", "reopened_by")
    list_filter = ("season__league__club",)


@admin.register(SeasonChange)
class SeasonChangeAdmin(DerivedAdmin):
    """The changes of a season's settings by its owner: its audit trail, read only."""

    list_display = ("season", "at", "user")
    list_filter = ("season__league__club",)


@admin.register(LeagueNight)
class LeagueNightAdmin(admin.ModelAdmin):
    """A season's night: what its tables play and its evening; its rounds are started
    on the night page (their parties through the services), so they are not added here."""

    list_display = ("season", "played_on", "night_kind", "night_stake", "evening")
    list_filter = ("season__league__club",)
    raw_id_fields = ("evening",)
    readonly_fields = ("season", "played_on")

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        """A planned night is deleted as the season's nights page cancels it (the
        calendars keep it, cancelled); one that has started, or of a closed season, is
        not deleted."""
        if obj is not None and (
            obj.season.closed_at is not None
            or LeagueNight.objects.filter(night_started(), pk=obj.pk).exists()
        ):
            return False
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj) -> None:
        night_cancel(night=obj, user=request.user)

    def delete_queryset(self, request, queryset) -> None:
        for night in queryset:  # each one allowed above
            night_cancel(night=night, user=request.user)
