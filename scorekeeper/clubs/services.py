"""Every write to clubs, memberships and invitations: keyword-only and transactional.

A refused change raises ``ClubError`` (its ``code`` says why, ``str()`` says it in the
reader's language) and leaves the database as it was.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.names import cleaned
from scorekeeper.tokens import new_share_token

from .models import (
    INVITATION_DAYS,
    RESTORE_DAYS,
    CalendarLink,
    Club,
    Invitation,
    Membership,
    Role,
)

MESSAGES = {
    "last_owner": _("A club needs an owner: make another member an owner first."),
    "personal": _(
        "Your personal club is yours alone: found a club to play with others and invite them there."
    ),
    "revoked": _("This invitation was withdrawn. Ask the club's owner for a new link."),
    "used": _("This invitation has been used already. Ask the club's owner for a new link."),
    "expired": _("This invitation has expired. Ask the club's owner for a new link."),
    "member": _("You are a member of this club already."),
    "personal_delete": _("Your personal club keeps your own games: it cannot be deleted."),
    "deleted": _("This club was deleted."),
    "too_late": format_lazy(
        _("This club was deleted more than {days} days ago: it can no longer be restored."),
        days=RESTORE_DAYS,
    ),
}


class ClubError(ValueError):
    """A change that a club refuses; ``code`` is one of ``MESSAGES``."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code

    def __str__(self) -> str:
        return str(MESSAGES[self.code])


def personal_club(user: AbstractBaseUser) -> Club:
    """The user's own club, where his games go unless he chooses another.

    Signing up makes it and the migration made it for the users before clubs; any
    other user without one (``createsuperuser``, a test's user) gets it here.
    """
    club = _personal_club_of(user)
    if club is not None:
        return club
    with transaction.atomic():
        # The user's row locked, so that two first requests at once make one club.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        club = _personal_club_of(user)
        # Sign-up bounds a username by a club's name; an account made otherwise (the
        # admin, createsuperuser) may have a longer one, cut here to what the name holds.
        name = user.get_username()[: Club._meta.get_field("name").max_length]
        return club or club_create(name=name, owner=user, personal=True)


def _personal_club_of(user: AbstractBaseUser) -> Club | None:
    # A personal club has one member, its owner: no invitation leads there.
    return Club.objects.filter(personal=True, memberships__user=user).first()


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser, personal: bool = False) -> Club:
    """A new club with its first owner; its short name (for its address) from its name."""
    name = cleaned(name)
    club = Club.objects.create(name=name, slug=free_slug(name), personal=personal)
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def free_slug(name: str) -> str:
    """The name as a short name for addresses, numbered when another club has it."""
    longest = Club._meta.get_field("slug").max_length - 4  # room for "-999"
    base = slugify(name)[:longest].strip("-") or "club"
    # A deleted club keeps its short name until it is purged: it may be restored.
    taken = set(Club.all_objects.filter(slug__startswith=base).values_list("slug", flat=True))
    number = 1
    slug = base
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


@transaction.atomic
def invitation_create(
    *, club: Club, role: Role, created_by: AbstractBaseUser, days: int = INVITATION_DAYS
) -> Invitation:
    """A link that lets one person join the club in ``role`` within ``days``."""
    if club.personal:
        raise ClubError("personal")
    return Invitation.objects.create(
        club=club,
        role=role,
        created_by=created_by,
        expires_at=timezone.now() + timedelta(days=days),
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> Invitation:
    """Withdraw a link nobody has used yet; withdrawing it twice changes nothing."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is not None:
        raise ClubError("used")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_check(*, invitation: Invitation, user: AbstractBaseUser | None) -> None:
    """Raise ClubError if ``user`` (None: someone not logged in yet) cannot join through
    this link (what the page says before he confirms). A member is told he is one,
    whatever became of the link: it may be the one he joined with."""
    members = Membership.objects.filter(club_id=invitation.club_id)
    if user is not None and members.filter(user=user).exists():
        raise ClubError("member")
    if invitation.club.deleted_at is not None:
        raise ClubError("deleted")
    if invitation.refusal:
        raise ClubError(invitation.refusal)


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """Join the club through the link, which is then used up.

    The club's row is locked before the check: one person confirming two links to the
    club at once joins once, and the second request finds him a member (``"member"``)
    instead of breaking the membership's unique constraint.
    """
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    Club.all_objects.select_for_update().filter(pk=invitation.club_id).first()
    invitation_check(invitation=invitation, user=user)
    membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return membership


@transaction.atomic
def club_delete(*, club: Club) -> Club:
    """Delete a club: gone from every page and list at once, restorable by its owner for
    RESTORE_DAYS (``club_restore``), then purged (``purge_clubs``). A personal club
    keeps its user's own games and is never deleted; deleting twice changes nothing."""
    club = Club.all_objects.select_for_update().get(pk=club.pk)
    if club.personal:
        raise ClubError("personal_delete")
    if club.deleted_at is None:
        club.deleted_at = timezone.now()
        club.save(update_fields=["deleted_at"])
    return club


@transaction.atomic
def club_restore(*, club: Club) -> Club:
    """Bring a deleted club back as it was, within RESTORE_DAYS of its deletion."""
    club = Club.all_objects.select_for_update().get(pk=club.pk)
    if club.deleted_at is None:
        return club
    if club.deleted_at + timedelta(days=RESTORE_DAYS) <= timezone.now():
        raise ClubError("too_late")
    club.deleted_at = None
    club.save(update_fields=["deleted_at"])
    return club


@transaction.atomic
def membership_set_role(*, membership: Membership, role: Role) -> Membership:
    """Give a member another role; the club's last owner stays one."""
    membership = _locked(membership)
    if membership.role == Role.OWNER and role != Role.OWNER:
        _keep_an_owner(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Take a member out of the club (or let him leave); never its last owner."""
    membership = _locked(membership)
    if membership.role == Role.OWNER:
        _keep_an_owner(membership)
    # His address of the club's calendar goes with him: joining again later, he makes a
    # new one, and a copy of the old one left somewhere stays dead.
    CalendarLink.objects.filter(user=membership.user, club=membership.club).delete()
    membership.delete()


def _locked(membership: Membership) -> Membership:
    """The membership read again under a lock of its club: two owners demoting each
    other at once must not leave the club without one."""
    Club.objects.select_for_update().filter(pk=membership.club_id).first()
    return Membership.objects.select_related("club", "user").get(pk=membership.pk)


def _keep_an_owner(membership: Membership) -> None:
    others = Membership.objects.filter(club_id=membership.club_id, role=Role.OWNER).exclude(
        pk=membership.pk
    )
    if not others.exists():
        raise ClubError("last_owner")


@transaction.atomic
def calendar_link_make(
    *, user: AbstractBaseUser, club: Club | None = None, language: str
) -> CalendarLink:
    """A new private address of the club's calendar (``club`` None: of the user's own
    nights), in ``language``; it replaces the one he had, whose address stops working.
    Whether he is a member is the caller's check (``access.club_of``) and the feed's, at
    every request."""
    link, made = CalendarLink.objects.select_for_update().get_or_create(
        user=user, club=club, defaults={"language": language}
    )
    if not made:
        link.token = new_share_token()
        link.language = language
        link.save(update_fields=["token", "language"])
    return link


@transaction.atomic
def calendar_link_withdraw(*, user: AbstractBaseUser, club: Club | None = None) -> None:
    """Withdraw the user's address of the club's calendar (or of his own): it stops working."""
    CalendarLink.objects.filter(user=user, club=club).delete()
