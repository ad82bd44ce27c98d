"""Tournaments in the admin: their settings and entries may be put right here; the
tables and the results are the record the bracket is replayed from, so they are read
only (a correction goes through the organiser's page, which the engine checks)."""

from django.contrib import admin

from .models import Entry, MatchResult, Tournament, TournamentMatch


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("player", "seed", "checked_in", "withdrawn_at")
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "played_on", "system", "started_at", "finished_at")
    list_filter = ("system", "rated", "club")
    search_fields = ("name", "club__name")
    raw_id_fields = ("owner", "evening")
    readonly_fields = ("created_at",)
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("tournament", "player", "seed", "checked_in", "withdrawn_at")
    search_fields = ("tournament__name", "player__name")
    raw_id_fields = ("tournament", "player")


class RecordAdmin(admin.ModelAdmin):
    """Read only: the record the engine replays."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TournamentMatch)
class TournamentMatchAdmin(RecordAdmin):
    list_display = ("tournament", "match", "table", "partie", "started_at")
    search_fields = ("tournament__name", "match")


@admin.register(MatchResult)
class ResultAdmin(RecordAdmin):
    list_display = ("tournament", "match", "winner", "source", "by", "at")
    list_filter = ("source",)
    search_fields = ("tournament__name", "match", "winner__name")
