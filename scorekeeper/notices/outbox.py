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

from collections.abc import Callable

from . import sending, services
from .addresses import send_links_due
from .mail import notice_mail
from .models import Channel, Delivery
from .push import send_pushes


def send_due() -> int:
    """Send every delivery due, batch by batch, until none is, then the links that check
    a member's address (``addresses``): how many were sent."""
    sent = 0
    while claimed := _claim():
        sent += _send(claimed)
    return sent + send_links_due()


def _claim() -> list[Delivery]:
    """Claim a batch of deliveries due (``sending.claim``)."""
    return sending.claim(Delivery.due(), "notice__recipient", "notice__club")


def _send(claimed: list[Delivery]) -> int:
    kept = services.still_wanted(claimed)
    wanted = [d for d in claimed if d.pk in kept]
    Delivery.objects.filter(pk__in={d.pk for d in claimed} - {d.pk for d in wanted}).delete()
    sent = 0
    for channel in {d.channel for d in wanted}:
        batch = [d for d in wanted if d.channel == channel]
        for delivery, error in zip(batch, SENDERS[channel](batch), strict=True):
            sending.mark(delivery, error)
            sent += error is None
    return sent


def send_mails(batch: list[Delivery]) -> list[str | None]:
    """Send each delivery's mail over one connection (``sending.send_mails``)."""
    return sending.send_mails(
        batch, lambda delivery, connection: notice_mail(delivery.notice, connection)
    )


SENDERS: dict[str, Callable[[list[Delivery]], list[str | None]]] = {
    Channel.MAIL: send_mails,
    Channel.PUSH: send_pushes,
}
