"""Clubs own the players, evenings and parties; members see them by their role.

Every user has a personal club of his own (``services.personal_club``): the games he
keeps for himself go there, so that a user without any other club plays as before.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.tokens import new_share_token

INVITATION_DAYS = 7  # how long an invitation link stays good
RESTORE_DAYS = 30  # how long a deleted club can be restored before it is purged


class Role(models.TextChoices):
    """What a member may do; each role may do everything of the roles below it.

    >>> Role.OWNER.includes(Role.SCORER), Role.MEMBER.includes(Role.SCORER)
    (True, False)
    >>> [str(role) for role in Role.at_least(Role.SCORER)]
    ['owner', 'scorer']
    """

    OWNER = "owner", _("owner")  # everything, the members and the seasons included
    SCORER = "scorer", _("scorer")  # records and corrects parties, runs evenings
    MEMBER = "member", _("member")  # reads; scores the parties he plays in

    @property
    def rights(self) -> str:
        """What the role may do, in words: the invitation form, an invitation and the
        club's page say it (``table.access`` and ``clubs.access`` hold it)."""
        return ROLE_RIGHTS[self]

    def includes(self, need: Role) -> bool:
        return RANKS[self] >= RANKS[Role(need)]

    @classmethod
    def at_least(cls, need: Role) -> list[Role]:
        """The roles that may do what ``need`` may."""
        return [role for role in cls if role.includes(need)]


RANKS = {Role.OWNER: 3, Role.SCORER: 2, Role.MEMBER: 1}
ROLE_RIGHTS = {
    Role.MEMBER: _(
        "A member sees the club's games and standings, scores the parties he plays in and "
        "confirms his results."
    ),
    Role.SCORER: _(
        "A scorer does what a member does, and also records and corrects every partie, runs "
        "evenings and league nights and keeps the roster."
    ),
    Role.OWNER: _(
        "An owner does what a scorer does, and also invites and removes members, gives roles, "
        "runs the leagues and their seasons and decides disputed results."
    ),
}


class LiveClubManager(models.Manager):
    """The clubs not deleted: what every page and list reads (``Club.objects``).

    A deleted club keeps its members, parties and evenings until its owner restores it
    (``services.club_restore``) or ``purge_clubs`` removes it for good after
    ``RESTORE_DAYS``; ``Club.all_objects`` (the default manager, so that related
    managers and the admin see every row) reads it too.
    """

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(deleted_at=None)


class Club(models.Model):
    """A group that plays together: its players, evenings and parties are shared by its
    members, each as far as his role goes."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    personal = models.BooleanField(
        _("personal"),
        default=False,
        help_text=_("A user's own club: only he is a member."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Deleted by its owner, restorable until RESTORE_DAYS later: gone from every page.
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)

    all_objects = models.Manager()
    objects = LiveClubManager()

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["-personal", "name", "id"]  # one's own club first
        default_manager_name = "all_objects"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", args=[self.slug])

    @property
    def restorable_until(self) -> datetime | None:
        """Until when a deleted club can be restored (None: not deleted)."""
        if self.deleted_at is None:
            return None
        return self.deleted_at + timedelta(days=RESTORE_DAYS)


class Membership(models.Model):
    """A user in a club, with his role there."""

    Role = Role

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_per_club_and_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.club})"


def account_name(user) -> str:
    """How a person is named to others: his account's full name, else its username."""
    return user.get_full_name().strip() or user.get_username()


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


def invitation_expiry():
    return timezone.now() + timedelta(days=INVITATION_DAYS)


class Invitation(models.Model):
    """A link that lets whoever has it join the club once, in the given role, until it
    expires or the owner withdraws it."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    token = models.CharField(
        _("token"), max_length=64, unique=True, default=new_invitation_token, editable=False
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), default=invitation_expiry)
    revoked_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.club}: {self.get_role_display()} ({self.created_at:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("invitation_accept", args=[self.token])

    @property
    def inviter_name(self) -> str:
        """Who made the link, as the invited person reads it ("" for an account gone)."""
        return account_name(self.created_by) if self.created_by_id else ""

    @property
    def rights(self) -> str:
        """What the guest may do in the club, in the role he is invited in."""
        return Role(self.role).rights

    @property
    def refusal(self) -> str | None:
        """Why the link no longer lets anybody in ("revoked", "used", "expired"), or None."""
        if self.revoked_at is not None:
            return "revoked"
        if self.accepted_at is not None:
            return "used"
        if self.expires_at <= timezone.now():
            return "expired"
        return None

    @property
    def is_open(self) -> bool:
        return self.refusal is None


class CalendarLink(models.Model):
    """A member's private address of a calendar feed: the club's (``club`` set) or his own
    nights in all his clubs (``club`` None). Whoever holds it reads the feed, as a calendar
    app does without a session; it answers only while ``user`` is a member of the club
    (his own feed: of the clubs he is a member of now), in ``language``, that of the page
    it was made on. A new link replaces the token (the old address ends); withdrawn, the
    row goes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="calendar_links",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="calendar_links",
        verbose_name=_("club"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_share_token)
    language = models.CharField(_("language"), max_length=10)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("calendar link")
        verbose_name_plural = _("calendar links")
        ordering = ["user", "club", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="calendar_link_per_club"),
            # NULLs are distinct in a unique pair: one own feed per user needs its own rule.
            models.UniqueConstraint(
                fields=["user"], condition=Q(club=None), name="own_calendar_link_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.club or '—'}"  # no club: his own nights


class CalendarMove(models.Model):
    """An event of a club's calendar moved to another day, one row a move. The feeds count
    an event's moves as its SEQUENCE and take the newest as its LAST-MODIFIED, so that a
    calendar app moves the entry it holds. ``event`` names the event as its UID does
    ("night-12"), without a foreign key: the clubs app sits below the league, and a
    tournament's match will be an event too."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    event = models.CharField(_("event"), max_length=40)
    before = models.DateField(_("before"))
    after = models.DateField(_("after"))
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("calendar move")
        verbose_name_plural = _("calendar moves")
        ordering = ["club", "event", "at", "id"]
        indexes = [models.Index(fields=["club", "event"], name="calendar_move_event")]

    def __str__(self) -> str:
        return f"{self.club} {self.event}: {self.before} → {self.after}"
