"""What the notices' outbox and the links that check an address share: rows due claimed
a batch at a time under a lease, mails sent over one connection, and each row marked
sent, waiting (its retry a task enqueued for then) or, after ``MAX_ATTEMPTS``, failed.

The rows are of a model with ``next_try_at``, ``attempts``, ``sent_at``, ``failed_at``
and ``error`` (``Delivery``, ``AddressCheck``). The claim takes rows no other worker
holds (``select_for_update(skip_locked=True)`` on PostgreSQL; SQLite takes its write
lock) and moves them ``LEASE`` on in one short transaction; the sending happens outside
it, so a slow mail server holds no lock, and a worker killed while sending leaves them
due again when the lease runs out.
"""

from __future__ import annotations

import contextlib
import logging
import smtplib
from collections.abc import Callable
from datetime import timedelta

from django.core import mail
from django.core.mail import EmailMessage
from django.db import models, transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper import tasks

from .models import MAX_ATTEMPTS, wait_after

BATCH = 50
LEASE = timedelta(minutes=10)  # longer than any batch takes to send

log = logging.getLogger(__name__)


def claim(due: models.QuerySet, *related: str) -> list:
    """Claim up to ``BATCH`` of the rows ``due`` that no other worker holds: their lease
    begins and their try is counted. Read back with ``related``."""
    model = due.model
    with transaction.atomic():
        pks = list(
            due.select_for_update(skip_locked=True)
            .order_by("next_try_at", "pk")
            .values_list("pk", flat=True)[:BATCH]
        )
        model.objects.filter(pk__in=pks).update(
            next_try_at=timezone.now() + LEASE, attempts=F("attempts") + 1
        )
    return list(model.objects.filter(pk__in=pks).select_related(*related))


def mark(row: models.Model, error: str | None) -> None:
    """The claimed row sent (``error`` None), or waiting for its next try (a task
    enqueued for then), or after its last try failed with ``error``."""
    now = timezone.now()
    rows = type(row).objects.filter(pk=row.pk)
    if error is None:
        rows.update(sent_at=now, error="")
    elif row.attempts >= MAX_ATTEMPTS:
        log.warning("gave up on %s after %s tries: %s", row, row.attempts, error)
        rows.update(failed_at=now, error=error[:500])
    else:
        next_try = now + wait_after(row.attempts)
        with transaction.atomic():  # the retry and its task: both or neither
            rows.update(next_try_at=next_try, error=error[:500])
            tasks.notices_due.using(run_after=next_try).enqueue()


def send_mails(batch: list, mail_of: Callable[..., EmailMessage]) -> list[str | None]:
    """Send each row's mail (``mail_of(row, connection)``) over one connection: None for
    each sent, else the error (every one of them when the server cannot be reached)."""
    connection = mail.get_connection(fail_silently=False)
    try:
        connection.open()
    except Exception as error:  # refused, timed out, bad login: all wait and try again
        return [error_text(error)] * len(batch)
    errors: list[str | None] = []
    try:
        for row in batch:
            try:
                taken = connection.send_messages([mail_of(row, connection)])
            except Exception as error:  # one address refused: the others still go
                errors.append(error_text(error))
            else:
                errors.append(None if taken else "the mail server took no mail")
    finally:
        with contextlib.suppress(Exception):  # the server went away: what was sent is sent
            connection.close()
    return errors


def error_text(error: Exception) -> str:
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
