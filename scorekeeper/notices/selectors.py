"""Reads of the notices: what the club's owner is shown of the deliveries that failed;
what a member is shown of his address and his devices."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from .models import AddressCheck, Delivery, PushSubscription


@dataclass(frozen=True)
class AddressState:
    """The account's mail address as his settings page shows it: verified or not, and
    the latest link that checks it (on its way, sent, or failed), if any."""

    address: str  # empty: none given
    verified: bool
    check: AddressCheck | None

    @property
    def link_out_of_date(self) -> bool:
        """Its latest link was sent, and works no more."""
        sent = self.check is not None and self.check.sent_at is not None
        return sent and self.check.expires_at <= timezone.now()

    @property
    def waiting(self) -> bool:
        """Given, not verified yet: no notice is mailed to it."""
        return bool(self.address) and not self.verified


def address_state(user) -> AddressState:
    address = getattr(user, "email", "")
    if not address:
        return AddressState("", verified=False, check=None)
    checks = AddressCheck.objects.filter(user=user, address=address)
    verified = checks.filter(verified_at__isnull=False).exists()
    return AddressState(address, verified=verified, check=None if verified else checks.first())


def push_enabled() -> bool:
    """Whether the site can push: it has its VAPID keys (settings.py checks them)."""
    return bool(settings.VAPID_PRIVATE_KEY)


def devices(user) -> QuerySet[PushSubscription]:
    """The devices where the user allowed notifications, oldest first."""
    return PushSubscription.objects.filter(user=user).order_by("created_at", "pk")


def failed_deliveries(club, limit: int = 20) -> QuerySet[Delivery]:
    """The club's deliveries given up on, newest first (the owner reads them on the
    club's page: whom a notice did not reach, and why)."""
    return (
        Delivery.objects.filter(notice__club=club, failed_at__isnull=False)
        .select_related("notice__recipient")
        .order_by("-failed_at", "-pk")[:limit]
    )
