"""Reads of clubs: the one query of what a user may see, and what a club page shows."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils import timezone

from .models import RESTORE_DAYS, Club, Invitation, Membership, Role


def clubs_of(user: AbstractBaseUser | AnonymousUser, need: Role = Role.MEMBER) -> QuerySet[Club]:
    """The clubs whose players, evenings and parties the user may see; with ``need``,
    those where his role lets him do that much (``Role.SCORER``: start a partie there)."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user, memberships__role__in=Role.at_least(need))


def memberships_of(user: AbstractBaseUser) -> QuerySet[Membership]:
    """The user's clubs with his role in each, his personal club first."""
    return (
        Membership.objects.filter(user=user, club__deleted_at=None)
        .select_related("club")
        .order_by("-club__personal", "club__name", "club_id")
    )


def deleted_clubs_of(user: AbstractBaseUser) -> QuerySet[Club]:
    """The clubs the user owns that were deleted and can still be restored, last
    deleted first."""
    return Club.all_objects.filter(
        deleted_at__gt=timezone.now() - timedelta(days=RESTORE_DAYS),
        memberships__user=user,
        memberships__role=Role.OWNER,
    ).order_by("-deleted_at", "-id")


def clubs_to_purge(now: datetime | None = None) -> QuerySet[Club]:
    """The deleted clubs whose time to be restored is over."""
    now = now or timezone.now()
    return Club.all_objects.filter(deleted_at__lte=now - timedelta(days=RESTORE_DAYS))


def club_members(club: Club) -> list[Membership]:
    """The members, owners first."""
    order = {Role.OWNER: 0, Role.SCORER: 1, Role.MEMBER: 2}
    members = Membership.objects.filter(club=club).select_related("user")
    return sorted(members, key=lambda m: (order[m.role], m.user.get_username().casefold()))


def open_invitations(club: Club) -> QuerySet[Invitation]:
    """The links still good, newest first."""
    return Invitation.objects.filter(
        club=club, revoked_at=None, accepted_at=None, expires_at__gt=timezone.now()
    ).select_related("created_by")
