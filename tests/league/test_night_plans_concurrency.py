"""Nights planned, cancelled and started at the same moment: each day gets one night,
and a cancel racing the first round either comes first (the round makes a night anew)
or is refused (the night has started), never a round without its night.

On PostgreSQL only: SQLite writes one transaction at a time, so nothing races there.
Each thread has its own database connection, closed at its end."""

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league.models import CancelledNight, LeagueNight, NightTable
from scorekeeper.league.night_services import (
    NightStarted,
    night_cancel,
    night_plan,
    night_round_start,
    nights_plan,
    weekly,
)
from scorekeeper.table.models import Player

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="concurrent writes race on PostgreSQL only"
    ),
    pytest.mark.django_db(transaction=True),
]

TODAY = timezone.localdate()


def together(*works: Callable[[], object]) -> list[object]:
    """Run each work in a thread of its own, all starting at once: what each returned or
    raised."""
    start = threading.Barrier(len(works))
    results: list[object] = [None] * len(works)

    def run(n: int) -> None:
        try:
            start.wait()
            results[n] = works[n]()
        except Exception as error:  # noqa: BLE001 (the test looks at what each raised)
            results[n] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(works))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_four_organisers_planning_the_same_weeks_plan_each_day_once(season):
    days = weekly(TODAY, season.ends_on, TODAY.weekday())

    results = together(*(lambda: nights_plan(season=season, days=days) for _ in range(4)))

    assert not [r for r in results if isinstance(r, Exception)], results
    planned = LeagueNight.objects.filter(season=season).order_by("played_on")
    assert list(planned.values_list("played_on", flat=True)) == days
    assert sum(len(r.nights) for r in results) == len(days)


def test_a_cancel_racing_the_first_round_never_leaves_a_round_without_its_night(
    club, season, owner
):
    for name in ("Anna", "Ben"):
        Player.objects.create(club=club, name=name)
    seating = Pairing((Table(1, ("Anna", "Ben")),), ())
    for attempt in range(3):
        day = TODAY + timedelta(days=attempt)
        planned = night_plan(season=season, played_on=day)

        cancel, started = together(
            lambda night=planned: night_cancel(night=night, user=owner),
            lambda day=day: night_round_start(
                season=season, owner=owner, seating=seating, played_on=day, round=1
            ),
        )

        assert isinstance(started, LeagueNight), started
        table = NightTable.objects.get(night__played_on=day)
        assert table.night_id == started.pk
        if isinstance(cancel, NightStarted):  # the round came first
            assert started.pk == planned.pk
        else:  # the cancel came first: the round made the day's night anew
            assert isinstance(cancel, CancelledNight), cancel
            assert cancel.night == planned.pk and started.pk != planned.pk
