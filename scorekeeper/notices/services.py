"""Writes of the notices: what is due to whom, recorded by the services of the change
that makes it due, in that change's transaction; a member's choices.

The table's and the league's services call ``notices_record``; this app imports no
table or league code (it sits beside the clubs). Who is told is filtered here, once for
every kind: only members of the club (an outsider or a removed member learns nothing),
only by the channels each wants the kind by (nothing is written for a member who wants
it by none).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper import tasks
from scorekeeper.clubs.models import Membership

from .models import (
    ADDRESS_LINK_DAYS,
    ADDRESS_LINKS_A_DAY,
    AddressCheck,
    Channel,
    Delivery,
    Kind,
    Notice,
    Preferences,
    PushSubscription,
)
from .selectors import push_enabled

UNSUBSCRIBE_SALT = "scorekeeper.notices.unsubscribe"
ADDRESS_SALT = "scorekeeper.notices.address"


@dataclass(frozen=True)
class Tell:
    """One recipient of an event: his account, the path of the page where he acts, and
    what his notice's words are written from (names and numbers, never a sentence)."""

    user_id: int
    link: str
    params: dict = field(default_factory=dict)


def notices_record(*, club_id: int, kind: Kind, event: str, tell: Iterable[Tell]) -> int:
    """Record the event ``event`` (unique for its kind, e.g. a game's key) as due to each
    of ``tell`` who is a member of the club and wants ``kind`` by some channel: a notice
    and a delivery per channel. Recording it again (a retried change) adds nothing. How
    many notices were new."""
    tell = {t.user_id: t for t in tell if t.user_id is not None}
    if not tell:
        return 0
    channels = _channels_wanted(kind, club_id, tell)
    if not channels:
        return 0
    key = f"{kind}:{event}"
    known = set(
        Notice.objects.filter(recipient_id__in=channels, key=key).values_list(
            "recipient_id", flat=True
        )
    )
    new = [
        Notice(
            recipient_id=user_id,
            club_id=club_id,
            kind=kind,
            key=key,
            link=tell[user_id].link,
            params=tell[user_id].params,
        )
        for user_id in sorted(channels)
        if user_id not in known
    ]
    # ignore_conflicts: a notice another transaction wrote meanwhile stays the one.
    Notice.objects.bulk_create(new, ignore_conflicts=True)
    written = Notice.objects.filter(recipient_id__in=[n.recipient_id for n in new], key=key)
    Delivery.objects.bulk_create(
        [
            Delivery(notice_id=pk, channel=channel)
            for pk, user_id in written.values_list("pk", "recipient_id")
            for channel in channels[user_id]
        ],
        ignore_conflicts=True,
    )
    if new:
        tasks.notices_due.enqueue()
    return len(new)


def _channels_wanted(kind: str, club_id: int, user_ids: Iterable[int]) -> dict[int, list[str]]:
    """Each member's channels for ``kind`` (those with none left out): mail for one whose
    address is verified (``AddressCheck``), push for one who allowed it on a device
    (while the site can push), each unless he switched it off. One query (two with
    push): a round of 32 tables asks it of 64 players in the request that starts it."""
    verified = AddressCheck.verified().filter(
        user_id=OuterRef("user_id"), address=OuterRef("user__email")
    )
    members = list(
        Membership.objects.filter(club_id=club_id, user_id__in=list(user_ids))
        .annotate(verified=Exists(verified))
        .values_list("user_id", "user__email", "user__notice_preferences__off", "verified")
    )
    pushed = _pushed([user_id for user_id, *_rest in members])
    wanted: dict[int, list[str]] = {}
    for user_id, email, off, verified in members:
        preferences = Preferences(off=off or [])
        reachable = {Channel.MAIL: bool(email) and verified, Channel.PUSH: user_id in pushed}
        channels = [c for c in Channel if reachable[c] and preferences.wants(kind, c)]
        if channels:
            wanted[user_id] = channels
    return wanted


def _pushed(user_ids: list[int]) -> set[int]:
    """Which of the users allowed push on some device (none while the site cannot push)."""
    if not user_ids or not push_enabled():
        return set()
    devices = PushSubscription.objects.filter(user_id__in=user_ids)
    return set(devices.values_list("user_id", flat=True))


def still_wanted(deliveries: Iterable[Delivery]) -> set[int]:
    """The deliveries whose recipient wants them now, by key (the worker asks before
    sending: a member gone, a choice changed or a device gone since the notice was
    written count). One ask of ``_channels_wanted`` per kind and club of the batch."""
    groups: dict[tuple[str, int], list[Delivery]] = {}
    for delivery in deliveries:
        groups.setdefault((delivery.notice.kind, delivery.notice.club_id), []).append(delivery)
    wanted = set()
    for (kind, club_id), batch in groups.items():
        channels = _channels_wanted(kind, club_id, {d.notice.recipient_id for d in batch})
        wanted |= {d.pk for d in batch if d.channel in channels.get(d.notice.recipient_id, ())}
    return wanted


@transaction.atomic
def preferences_set(
    *,
    user: AbstractBaseUser,
    off: Iterable[str],
    language: str | None = None,
    email: str | None = None,
) -> Preferences:
    """The user's choices: the ``kind:channel`` entries he switched off (every other
    kind he gets by every channel), and when given his language and his mail address
    (kept on his account; empty: no mails). A new address is checked before any notice
    is mailed to it: the link to verify it is due (``address_check_request``), and the
    checks followed before are void (so is the address they checked, when he gives it
    again)."""
    if email is not None and email != user.email:
        user.email = email
        user.save(update_fields=["email"])
        AddressCheck.verified().filter(user=user).update(verified_at=None)
        if email:
            # Refused only when he asked for too many today: the page says none is on
            # its way, and "Send the link again" says why.
            with contextlib.suppress(AddressError):
                address_check_request(user=user)
    preferences, _ = Preferences.objects.select_for_update().get_or_create(user=user)
    preferences.off = sorted(set(off))
    if language is not None:
        preferences.language = language
    preferences.save()
    return preferences


def preferences_language_set(*, user: AbstractBaseUser, language: str) -> Preferences:
    """The language the user reads the app in (he switched it): his mails are written in
    it from now on."""
    preferences, created = Preferences.objects.get_or_create(
        user=user, defaults={"language": language}
    )
    if not created and preferences.language != language:
        preferences.language = language
        preferences.save(update_fields=["language"])
    return preferences


@transaction.atomic
def mail_unsubscribe(*, user: AbstractBaseUser) -> Preferences:
    """Switch off every kind of mail for the user (the one-click unsubscribe), and drop
    the mails still due to him."""
    preferences, _ = Preferences.objects.select_for_update().get_or_create(user=user)
    preferences.off = sorted(set(preferences.off) | {f"{k}:{Channel.MAIL}" for k in Kind})
    preferences.save(update_fields=["off"])
    Delivery.unsent().filter(notice__recipient=user, channel=Channel.MAIL).delete()
    return preferences


def unsubscribe_token(user: AbstractBaseUser) -> str:
    """The signed token of the user's one-click unsubscribe link: it names him and
    nothing else, and it stays good (an old mail's link must still work)."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(user.pk))


def unsubscribe_user(token: str) -> AbstractBaseUser | None:
    """The user a token was made for, or None for a token forged, mangled or his account
    gone."""
    try:
        user_id = int(signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return get_user_model().objects.filter(pk=user_id).first()


@dataclass(frozen=True)
class Device:
    """What a browser says of its push subscription (``PushSubscription.toJSON()``)."""

    endpoint: str
    p256dh: str
    auth: str
    user_agent: str = ""


@transaction.atomic
def push_subscribe(*, user: AbstractBaseUser, device: Device) -> PushSubscription:
    """The user allowed notifications on ``device``: its pushes are his from now on, also
    when the device was someone else's before (one browser, one subscription)."""
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=device.endpoint,
        defaults={
            "user": user,
            "p256dh": device.p256dh,
            "auth": device.auth,
            "user_agent": device.user_agent[:300],
        },
    )
    return subscription


def push_unsubscribe(*, user: AbstractBaseUser, endpoint: str) -> bool:
    """The user's device at ``endpoint`` shows his notifications no more (he stopped
    them there, or logged out on it). Whether there was one."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


class AddressError(ValueError):
    """A link to check an address that cannot be sent or followed: why, in words, and
    ``code`` (``broken``, ``expired``, ``another_account``, ``changed``, ``verified``,
    ``none``, ``too_many``)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def address_check_request(*, user: AbstractBaseUser) -> AddressCheck:
    """A link to verify the user's address, due to be mailed by the worker (the one
    still on its way, if there is one); refused (``AddressError``) for an address
    verified already, or after ``ADDRESS_LINKS_A_DAY`` links asked for within a day
    (nobody makes the site mail a stranger's address without end)."""
    if not user.email:
        raise AddressError(_("Give your mail address first."), "none")
    if address_verified(user):
        raise AddressError(_("Your mail address is verified already."), "verified")
    checks = AddressCheck.objects.filter(user=user)
    on_its_way = checks.filter(address=user.email, sent_at=None, failed_at=None).first()
    if on_its_way is not None:
        return on_its_way
    if checks.filter(created_at__gt=timezone.now() - timedelta(days=1)).count() >= (
        ADDRESS_LINKS_A_DAY
    ):
        raise AddressError(
            _("You have asked for %(count)d links within a day: ask again tomorrow.")
            % {"count": ADDRESS_LINKS_A_DAY},
            "too_many",
        )
    with transaction.atomic():  # the link and the worker's task that mails it
        check = AddressCheck.objects.create(user=user, address=user.email)
        tasks.notices_due.enqueue()
    return check


def address_verified(user: AbstractBaseUser) -> bool:
    """Whether notices may be mailed to the user's address: a check of it was followed."""
    return bool(user.email) and (
        AddressCheck.verified().filter(user=user, address=user.email).exists()
    )


def address_token(check: AddressCheck) -> str:
    """The signed token of the check's link: it names the check, and it is good for
    ``ADDRESS_LINK_DAYS`` from its making (when its mail is sent)."""
    return signing.TimestampSigner(salt=ADDRESS_SALT).sign(str(check.pk))


def address_check_of(token: str, *, user: AbstractBaseUser) -> AddressCheck:
    """The check a link's token names, for ``user`` to follow; refused (``AddressError``)
    when the token is forged, mangled or out of date, or the check is another account's
    or of an address the account no longer has."""
    try:
        pk = signing.TimestampSigner(salt=ADDRESS_SALT).unsign(
            token, max_age=timedelta(days=ADDRESS_LINK_DAYS)
        )
        check = AddressCheck.objects.select_related("user").get(pk=int(pk))
    except signing.SignatureExpired:
        raise AddressError(
            _("This link is out of date: a link works for %(days)d days.")
            % {"days": ADDRESS_LINK_DAYS},
            "expired",
        ) from None
    except (signing.BadSignature, ValueError, AddressCheck.DoesNotExist):
        raise AddressError(
            _("This link does not work: it was not copied whole."), "broken"
        ) from None
    _followable(check, user)
    return check


def _followable(check: AddressCheck, user: AbstractBaseUser) -> None:
    if check.user_id != user.pk:
        raise AddressError(
            _("This link verifies the address of another account: log in as its owner."),
            "another_account",
        )
    if check.address != check.user.email:
        raise AddressError(
            _("This link is for %(address)s, which is no longer your account's address.")
            % {"address": check.address},
            "changed",
        )


@transaction.atomic
def address_verify(*, check: AddressCheck, user: AbstractBaseUser) -> AddressCheck:
    """The user followed the check's link, logged in: his address is verified (if the
    check is his and of the address his account has now: ``address_check_of``)."""
    check = AddressCheck.objects.select_for_update().select_related("user").get(pk=check.pk)
    _followable(check, user)
    if check.verified_at is None:
        check.verified_at = timezone.now()
        check.save(update_fields=["verified_at"])
    return check
