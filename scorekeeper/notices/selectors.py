"""Reads of the notices: what the club's owner is shown of the deliveries that failed."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from .models import Delivery, PushSubscription


def has_address(user) -> bool:
    return bool(getattr(user, "email", ""))


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
