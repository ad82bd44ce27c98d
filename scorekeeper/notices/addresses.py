"""The links that check a member's mail address, mailed by the worker.

``send_links_due`` runs with the notices (``outbox.send_due`` calls it): it claims,
mails and marks the checks due as the outbox does its deliveries (``sending``: a lease,
one connection, a failure tried again later, then recorded as failed, which the member
reads on his settings page), each link in the member's language. A check whose address
is no longer the account's is not mailed.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from . import sending
from .mail import absolute, language_of
from .models import ADDRESS_LINK_DAYS, AddressCheck
from .services import address_token

ADDRESS_CHANGED = "not sent: the account's address changed"


def send_links_due() -> int:
    """Mail every link due, batch by batch, until none is: how many were sent."""
    sent = 0
    while claimed := _claim():
        sent += _send(claimed)
    return sent


def _claim() -> list[AddressCheck]:
    return sending.claim(AddressCheck.due(), "user")


def _send(claimed: list[AddressCheck]) -> int:
    """Mail the links of the claimed checks whose address is still the account's (a
    check of an address changed since fails at once): how many were sent."""
    now = timezone.now()
    changed = [check.pk for check in claimed if check.address != check.user.email]
    AddressCheck.objects.filter(pk__in=changed).update(failed_at=now, error=ADDRESS_CHANGED)
    batch = [check for check in claimed if check.pk not in changed]
    errors = sending.send_mails(batch, address_mail) if batch else []
    for check, error in zip(batch, errors, strict=True):
        sending.mark(check, error)
    return errors.count(None)


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
