"""The notices' worker: each delivery due sent once, outside the request.

``send_due`` is the worker's task ``notices_due`` (``scorekeeper/tasks.py``), which
``notices_record`` enqueues with the deliveries it writes. It claims a batch of
deliveries due (``select_for_update(skip_locked=True)`` on PostgreSQL: rows another
worker holds are left to it; SQLite takes its write lock for the claim) and moves them
``LEASE`` on in the same short transaction, then sends them outside it: a slow mail
server holds no lock, and a worker killed while sending leaves them due again when the
lease runs out (the worker's sweep sends them). A delivery sent is marked sent; a
failure waits (``wait_after``: 1, 2, 4 ... minutes; the task is enqueued to run then)
and is tried again, and after ``MAX_ATTEMPTS`` tries is recorded as failed with its
error, which the club's owner sees on the club's page. A recipient no longer a member
of the club, or who switched the kind off since, is sent nothing (his delivery is
dropped).

A push delivery goes to every device of the recipient (``push.send_pushes``): it is sent
when one of them took it; a device the push service says is gone (404, 410) is deleted,
and a delivery none of whose devices is left is dropped at its next try.

Each channel has its sender in ``SENDERS``: a function that sends a batch of one
channel's deliveries and says, for each, None (sent) or the error.
"""

from __future__ import annotations

import contextlib
import logging
import smtplib
from collections.abc import Callable
from datetime import timedelta

from django.core import mail
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper import tasks

from . import services
from .addresses import send_links_due
from .mail import notice_mail
from .models import MAX_ATTEMPTS, Channel, Delivery, wait_after
from .push import send_pushes

BATCH = 50
LEASE = timedelta(minutes=10)  # longer than any batch takes to send

log = logging.getLogger(__name__)


def send_due() -> int:
    """Send every delivery due, batch by batch, until none is, then the links that check
    a member's address (``addresses``): how many were sent."""
    sent = 0
    while claimed := _claim():
        sent += _send(claimed)
    return sent + send_links_due()


def _claim() -> list[Delivery]:
    """Claim up to ``BATCH`` deliveries due that no other worker holds: their lease
    begins and their try is counted."""
    with transaction.atomic():
        pks = list(
            Delivery.due()
            .select_for_update(skip_locked=True)
            .order_by("next_try_at", "pk")
            .values_list("pk", flat=True)[:BATCH]
        )
        Delivery.objects.filter(pk__in=pks).update(
            next_try_at=timezone.now() + LEASE, attempts=F("attempts") + 1
        )
    return list(
        Delivery.objects.filter(pk__in=pks).select_related("notice__recipient", "notice__club")
    )


def _send(claimed: list[Delivery]) -> int:
    kept = services.still_wanted(claimed)
    wanted = [d for d in claimed if d.pk in kept]
    Delivery.objects.filter(pk__in={d.pk for d in claimed} - {d.pk for d in wanted}).delete()
    sent = 0
    for channel in {d.channel for d in wanted}:
        batch = [d for d in wanted if d.channel == channel]
        for delivery, error in zip(batch, SENDERS[channel](batch), strict=True):
            _mark(delivery, error)
            sent += error is None
    return sent


def _mark(delivery: Delivery, error: str | None) -> None:
    now = timezone.now()
    rows = Delivery.objects.filter(pk=delivery.pk)
    if error is None:
        rows.update(sent_at=now, error="")
    elif delivery.attempts >= MAX_ATTEMPTS:
        log.warning("gave up on %s after %s tries: %s", delivery, delivery.attempts, error)
        rows.update(failed_at=now, error=error[:500])
    else:
        next_try = now + wait_after(delivery.attempts)
        with transaction.atomic():  # the retry and its task: both or neither
            rows.update(next_try_at=next_try, error=error[:500])
            tasks.notices_due.using(run_after=next_try).enqueue()


def send_mails(batch: list[Delivery]) -> list[str | None]:
    """Send each delivery's mail over one connection: None for each sent, else the
    error (every one of them when the server cannot be reached)."""
    connection = mail.get_connection(fail_silently=False)
    try:
        connection.open()
    except Exception as error:  # refused, timed out, bad login: all wait and try again
        return [_error_text(error)] * len(batch)
    errors: list[str | None] = []
    try:
        for delivery in batch:
            try:
                taken = connection.send_messages([notice_mail(delivery.notice, connection)])
            except Exception as error:  # one address refused: the others still go
                errors.append(_error_text(error))
            else:
                errors.append(None if taken else "the mail server took no mail")
    finally:
        with contextlib.suppress(Exception):  # the server went away: what was sent is sent
            connection.close()
    return errors


def _error_text(error: Exception) -> str:
    """The server's answer as it gave it ("451 4.3.0 Try again later"), for the owner;
    another failure by its kind and message."""
    if isinstance(error, smtplib.SMTPResponseException):
        return f"{error.smtp_code} {_text(error.smtp_error)}"
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return "; ".join(
            f"{to}: {code} {_text(why)}" for to, (code, why) in error.recipients.items()
        )
    return f"{type(error).__name__}: {error}"


def _text(said: bytes | str) -> str:
    return said.decode(errors="replace") if isinstance(said, bytes) else said


SENDERS: dict[str, Callable[[list[Delivery]], list[str | None]]] = {
    Channel.MAIL: send_mails,
    Channel.PUSH: send_pushes,
}
