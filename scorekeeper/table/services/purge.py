"""A deleted club purged for good once its time to be restored is over: its parties,
evenings and players first (a club protects what it holds from being deleted by
accident), then the club with its members, links and leagues."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from scorekeeper.clubs.models import Club
from scorekeeper.clubs.selectors import clubs_to_purge

from ..models import Evening, Partie, Player


def clubs_purge(*, now: datetime | None = None) -> list[str]:
    """Purge every club deleted longer ago than it can be restored; the names of those
    purged. Each club is purged in a transaction of its own."""
    purged = []
    for pk in list(clubs_to_purge(now).values_list("pk", flat=True)):
        name = club_purge(pk=pk, now=now)
        if name is not None:
            purged.append(name)
    return purged


@transaction.atomic
def club_purge(*, pk: int, now: datetime | None = None) -> str | None:
    """Delete the club ``pk`` and all it holds, if it is still due (it may have been
    purged, or restored, since it was listed); its name, or None."""
    club = clubs_to_purge(now).select_for_update().filter(pk=pk).first()
    if club is None:
        return None
    Partie.all_objects.filter(club=club).delete()  # seats, hands, results, audit trail
    Evening.objects.filter(club=club).delete()  # payments
    Player.objects.filter(club=club).delete()
    Club.all_objects.filter(pk=club.pk).delete()  # members, links, leagues
    return club.name
