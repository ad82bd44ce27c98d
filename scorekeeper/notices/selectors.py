"""Reads of the notices: what the club's owner is shown of the deliveries that failed."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Delivery


def has_address(user) -> bool:
    return bool(getattr(user, "email", ""))


def failed_deliveries(club, limit: int = 20) -> QuerySet[Delivery]:
    """The club's deliveries given up on, newest first (the owner reads them on the
    club's page: whom a notice did not reach, and why)."""
    return (
        Delivery.objects.filter(notice__club=club, failed_at__isnull=False)
        .select_related("notice__recipient")
        .order_by("-failed_at", "-pk")[:limit]
    )
