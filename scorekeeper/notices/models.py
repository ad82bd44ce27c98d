"""What a member is told, and by which channel: recorded with the change that makes it
due, sent once by the worker (``notices.outbox``).

A ``Notice`` is one event told to one member of one club: its kind, the path of the page
where he acts and the parameters its words are written from at send time, in his
language. ``key`` names the event; (recipient, key) is unique, so that a change retried
writes nothing more. Each channel he wants it by is a ``Delivery`` with its own state:
due (``next_try_at``), sent, or failed after ``MAX_ATTEMPTS`` tries (shown to the club's
owner). A member who wants a kind by no channel gets no row at all.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club

MAX_ATTEMPTS = 6  # tries of one delivery before it is recorded as failed
FIRST_WAIT = timedelta(minutes=1)  # the wait after a first failure; doubled after each
ADDRESS_LINK_DAYS = 3  # how long the link that checks a mail address stays good
ADDRESS_LINKS_A_DAY = 5  # links to check his address a member may have sent in 24 hours


class Kind(models.TextChoices):
    TABLES_OUT = "tables_out", _("Tonight's tables are out")
    CONFIRM_WANTED = "confirm_wanted", _("A result waits for your confirmation")
    RESULT_DISPUTED = "result_disputed", _("Your result was disputed")
    RESULT_UNLOCKED = "result_unlocked", _("Your result was unlocked")
    RESULT_CORRECTED = "result_corrected", _("Your result was corrected")
    DISPUTE_OPENED = "dispute_opened", _("A dispute was opened (owners and scorers)")
    SEASON_CLOSED = "season_closed", _("The season closed: your final place")


class Channel(models.TextChoices):
    """How a notice reaches a member: by mail, on by default for a member with an
    address; by push, on by default once he allowed it on a device (a
    ``PushSubscription``), and only while the site has its VAPID keys."""

    MAIL = "mail", _("mail")
    PUSH = "push", _("push")


class Preferences(models.Model):
    """A member's choices: which kinds he does not want by which channel (everything
    else he gets), and the language he reads the app in, for the mails he is sent."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notice_preferences",
        verbose_name=_("user"),
    )
    # "kind:channel" entries switched off; a list rather than a row each: read whole.
    off = models.JSONField(_("switched off"), default=list, blank=True)
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, blank=True
    )

    class Meta:
        verbose_name = _("notice preferences")
        verbose_name_plural = _("notice preferences")

    def __str__(self) -> str:
        return str(self.user)

    def wants(self, kind: str, channel: str) -> bool:
        return f"{kind}:{channel}" not in self.off


class Notice(models.Model):
    """One event told to one member of one club (see the module)."""

    Kind = Kind

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notices",
        verbose_name=_("recipient"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="notices", verbose_name=_("club")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(_("event"), max_length=100)
    link = models.CharField(_("link"), max_length=200)  # a path; the site's address is added
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["recipient", "key"], name="one_notice_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} → {self.recipient}"


class Delivery(models.Model):
    """A notice by one channel: due from ``next_try_at`` on until sent, or failed."""

    Channel = Channel

    notice = models.ForeignKey(
        Notice, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("notice")
    )
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    # When it is (next) due; a worker that claims it moves it on by ``LEASE`` first, so a
    # worker killed while sending leaves it due again then.
    next_try_at = models.DateTimeField(_("next try"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        ordering = ["next_try_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["notice", "channel"], name="one_delivery_per_channel")
        ]
        indexes = [
            # The worker's query: the rows not sent nor failed, by when they are due.
            models.Index(
                fields=["next_try_at"],
                name="delivery_due",
                condition=Q(sent_at__isnull=True, failed_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.notice} ({self.get_channel_display()})"

    @classmethod
    def unsent(cls) -> models.QuerySet:
        """Neither sent nor failed: due now or after a wait."""
        return cls.objects.filter(sent_at=None, failed_at=None)

    @classmethod
    def due(cls, now=None) -> models.QuerySet:
        return cls.unsent().filter(next_try_at__lte=now or timezone.now())


def wait_after(attempts: int) -> timedelta:
    """How long a delivery waits after its ``attempts``-th failed try: 1, 2, 4 ... minutes.

    >>> [int(wait_after(n).total_seconds() // 60) for n in (1, 2, 3, 5)]
    [1, 2, 4, 16]
    """
    return FIRST_WAIT * 2 ** (attempts - 1)


class PushSubscription(models.Model):
    """A device (a browser) where the user allowed notifications: the push service's
    address for it and the keys its pushes are encrypted with (RFC 8291). The endpoint is
    the device's: when another account subscribes on it, the row moves to him. It goes
    when the user logs out on the device, stops the notifications there, or when the push
    service answers 404 or 410 (the browser forgot it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key (p256dh)"), max_length=100)
    auth = models.CharField(_("authentication secret"), max_length=50)
    user_agent = models.CharField(_("browser"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_success_at = models.DateTimeField(_("last push taken"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["user", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.user_agent or self.endpoint[:60]}"

    def info(self) -> dict:
        """As ``pywebpush`` takes it (the browser's ``PushSubscription.toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class AddressCheck(models.Model):
    """A check that a mail address is the member's: a link mailed to it, which he follows
    to verify it (``verified_at``). No notice is mailed to an address before: a mistyped
    address tells a stranger nothing of the clubs.

    Recorded when he gives or changes his address on his settings page, or asks for the
    link again; the worker mails it once, outside the request, and tries again after a
    failure as it does a delivery (``addresses.send_links_due``). It is a mail of its own,
    not a notice: no club, no choice to switch it off, no unsubscribe.

    The account's address is verified while a check of that very address is followed:
    an address changed (anywhere, the admin too) is unverified, and a change on the
    settings page voids the checks followed before (``verified_at`` emptied), so that an
    address given again later is checked anew. An address given before addresses were
    checked counts as verified: migration 0004 wrote a check for it, followed, with no
    mail (``sent_at`` empty); voided, such a check is due, and the worker drops it
    unsent unless its address is the account's again.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="address_checks",
        verbose_name=_("user"),
    )
    address = models.EmailField(_("mail address"), max_length=254)
    created_at = models.DateTimeField(_("asked"), default=timezone.now)
    # Its mail, due from ``next_try_at`` until sent or failed, as a delivery's.
    next_try_at = models.DateTimeField(_("next try"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    failed_at = models.DateTimeField(_("failed"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)
    verified_at = models.DateTimeField(_("verified"), null=True, blank=True)

    class Meta:
        verbose_name = _("address check")
        verbose_name_plural = _("address checks")
        ordering = ["-created_at", "-id"]
        indexes = [
            # The worker's query: the links not sent, failed nor followed, by when due.
            models.Index(
                fields=["next_try_at"],
                name="address_check_due",
                condition=Q(sent_at__isnull=True, failed_at__isnull=True, verified_at__isnull=True),
            ),
            # Whether an account's address is verified (recording a notice asks it).
            models.Index(fields=["user", "address"], name="address_check_user_address"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.address}"

    @classmethod
    def due(cls, now=None) -> models.QuerySet:
        return cls.objects.filter(
            sent_at=None, failed_at=None, verified_at=None, next_try_at__lte=now or timezone.now()
        )

    @classmethod
    def verified(cls) -> models.QuerySet:
        return cls.objects.filter(verified_at__isnull=False)

    @property
    def expires_at(self):
        """When its link stops working (counted from the mail's sending)."""
        return self.sent_at and self.sent_at + timedelta(days=ADDRESS_LINK_DAYS)
