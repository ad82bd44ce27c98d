"""The links that check a member's mail address, mailed by the worker.

``send_links_due`` runs with the notices (``outbox.send_due`` calls it): it claims the
checks due as the outbox claims deliveries (a lease, ``select_for_update(skip_locked=
True)``), mails each its link in the member's language over one connection, and marks
it sent; a failure waits as a delivery's does (``models.wait_after``: its retry is a
task enqueued to run then) and after
``MAX_ATTEMPTS`` tries is recorded as failed, which the member reads on his settings
page. A check whose address is no longer the account's is not mailed.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from django.conf import settings
from django.core import mail
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scorekeeper import tasks

from .mail import absolute, language_of
from .models import ADDRESS_LINK_DAYS, MAX_ATTEMPTS, AddressCheck, wait_after
from .services import address_token

BATCH = 50
LEASE = timedelta(minutes=10)  # longer than any batch takes to send
ADDRESS_CHANGED = "not sent: the account's address changed"

log = logging.getLogger(__name__)


def send_links_due() -> int:
    """Mail every link due, batch by batch, until none is: how many were sent."""
    sent = 0
    while claimed := _claim():
        sent += _send(claimed)
    return sent


def _claim() -> list[AddressCheck]:
    with transaction.atomic():
        pks = list(
            AddressCheck.due()
            .select_for_update(skip_locked=True)
            .order_by("next_try_at", "pk")
            .values_list("pk", flat=True)[:BATCH]
        )
        AddressCheck.objects.filter(pk__in=pks).update(
            next_try_at=timezone.now() + LEASE, attempts=F("attempts") + 1
        )
    return list(AddressCheck.objects.filter(pk__in=pks).select_related("user"))


def _send(claimed: list[AddressCheck]) -> int:
    now = timezone.now()
    changed = [check.pk for check in claimed if check.address != check.user.email]
    AddressCheck.objects.filter(pk__in=changed).update(failed_at=now, error=ADDRESS_CHANGED)
    batch = [check for check in claimed if check.pk not in changed]
    if not batch:
        return 0
    connection = mail.get_connection(fail_silently=False)
    try:
        connection.open()
    except Exception as error:  # refused, timed out, bad login: all wait and try again
        for check in batch:
            _mark(check, error)
        return 0
    sent = 0
    try:
        for check in batch:
            try:
                taken = connection.send_messages([address_mail(check, connection)])
            except Exception as error:  # this address refused: the others still go
                _mark(check, error)
            else:
                _mark(check, None if taken else "the mail server took no mail")
                sent += bool(taken)
    finally:
        with contextlib.suppress(Exception):  # the server went away: what was sent is sent
            connection.close()
    return sent


def _mark(check: AddressCheck, error: Exception | str | None) -> None:
    now = timezone.now()
    rows = AddressCheck.objects.filter(pk=check.pk)
    if error is None:
        rows.update(sent_at=now, error="")
        return
    said = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    if check.attempts >= MAX_ATTEMPTS:
        log.warning("gave up on the link to %s after %s tries: %s", check, check.attempts, said)
        rows.update(failed_at=now, error=said[:500])
    else:
        next_try = now + wait_after(check.attempts)
        with transaction.atomic():  # the retry and its task: both or neither
            rows.update(next_try_at=next_try, error=said[:500])
            tasks.notices_due.using(run_after=next_try).enqueue()


def address_mail(check: AddressCheck, connection=None) -> EmailMessage:
    """The mail with the check's link, in the member's language: what it verifies, for
    which account, and for how long it works."""
    user = check.user
    language = language_of(user)
    with translation.override(language):
        body = render_to_string(
            "notices/address_mail.txt",
            {
                "username": user.get_username(),
                "address": check.address,
                "link": absolute(reverse("address_verify", args=[address_token(check)])),
                "days": ADDRESS_LINK_DAYS,
                "settings_link": absolute(reverse("notices_settings")),
            },
        )
        subject = _("Scorekeeper: verify your mail address")
    return EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[check.address],
        connection=connection,
        headers={"Auto-Submitted": "auto-generated", "Content-Language": language},
    )
