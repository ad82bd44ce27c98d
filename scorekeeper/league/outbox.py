"""The league's outbox: what a change set in motion, done once, outside the request.

Every change of a club's games writes a ``ResultsChange`` row in its own transaction
(the table's services, and this app's for a season's dates, kinds and parties): the
club's games changed from its ``since`` on. ``rate_due`` claims a club's rows that are
not done, rates the club's all time and each of its open seasons again once from the
earliest ``since`` (``ratings.rate_from``), and marks the rows done, all in one
transaction under the club's row lock. So two workers never rate one club at once (the
second leaves a club held to the first, whose next round takes what was written
meanwhile), and a worker killed halfway leaves the rows due, not lost. It runs as the
task ``results_changed`` (``scorekeeper/tasks.py``) that each row's change enqueues
beside it, and in the worker's sweep.

Rows done are kept a day (``KEPT``): the club's newest row, done or not, is part of its
board's ETag, so that a board sees the ratings land.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from scorekeeper.clubs.models import Club
from scorekeeper.table.models import ResultsChange

from . import ratings, selectors
from .models import Season

KEPT = timedelta(days=1)


def rate_due(club_id: int | None = None) -> int:
    """Rate every club with rows due (or ``club_id`` alone), one club per transaction,
    until none is left: how many clubs it rated."""
    rated = 0
    while _rate_one(club_id):
        rated += 1
    if club_id is None:
        ResultsChange.objects.filter(done_at__lt=timezone.now() - KEPT).delete()
    return rated


def _rate_one(club_id: int | None) -> bool:
    """Claim one club with work due that no other worker holds, and do it: whether
    there was one. The club's row lock comes first, its rows after (another worker
    holding the club holds its rows too)."""
    rows = ResultsChange.due() if club_id is None else ResultsChange.due().filter(club_id=club_id)
    for candidate in list(rows.order_by().values_list("club_id", flat=True).distinct()):
        with transaction.atomic():
            club = (
                Club.all_objects.select_for_update(skip_locked=True, no_key=True)
                .filter(pk=candidate)
                .first()
            )
            if club is None:
                continue  # another worker rates it
            claimed = list(
                ResultsChange.due().filter(club=club).select_for_update().values_list("pk", "since")
            )
            if not claimed:
                continue  # done by another worker since the candidates were read
            _rate_club(club, _earliest(since for _, since in claimed))
            done = ResultsChange.objects.filter(pk__in=[pk for pk, _ in claimed])
            done.update(done_at=timezone.now())
            return True
    return False


def _earliest(sinces) -> datetime | None:
    sinces = list(sinces)
    return None if None in sinces else min(sinces)


def _rate_club(club: Club, since: datetime | None) -> None:
    """The club's all time and each open season (a closed one keeps the standings of
    its close) rated again from ``since``."""
    ratings.rate_from(selectors.club_book(club).rating_scope, since)
    for season in Season.objects.filter(league__club=club, closed_at__isnull=True):
        ratings.rate_from(selectors.season_book(season).rating_scope, since)
