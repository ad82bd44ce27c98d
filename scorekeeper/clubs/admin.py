"""The admin of clubs, their members and invitation links.

The last-owner rule lives in the services; the admin lets an official repair what a club
cannot (an owner who left the site), so it edits memberships directly.
"""

from django.contrib import admin

from .models import CalendarLink, CalendarMove, Club, Invitation, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "personal", "created_at", "deleted_at"]
    list_filter = ["personal", "deleted_at"]
    search_fields = ["name", "slug", "memberships__user__username"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club__personal"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]
    raw_id_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "created_by", "created_at", "expires_at", "revoked_at",
                    "accepted_by", "accepted_at"]  # fmt: skip
    list_filter = ["role"]
    search_fields = ["club__name", "created_by__username", "accepted_by__username"]
    list_select_related = ["club", "created_by", "accepted_by"]
    raw_id_fields = ["club", "created_by", "accepted_by"]
    # A link is made and withdrawn on the club's page; here it is looked at.
    readonly_fields = ["token", "created_at", "accepted_by", "accepted_at"]


@admin.register(CalendarLink)
class CalendarLinkAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "language", "created_at"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]
    raw_id_fields = ["user", "club"]
    # Made, renewed and withdrawn by its member on the club's page or on My games.
    readonly_fields = ["token", "created_at"]


@admin.register(CalendarMove)
class CalendarMoveAdmin(admin.ModelAdmin):
    list_display = ["club", "event", "before", "after", "at"]
    search_fields = ["club__name", "event"]
    list_select_related = ["club"]
    raw_id_fields = ["club"]
    readonly_fields = ["at"]
