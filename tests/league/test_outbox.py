"""What a change of the club's games sets in motion is written with the change and done
by the worker: the change writes a ``ResultsChange`` from its place in playing order
and rates nothing; a read rates nothing either; the worker rates the club's all time and
its open seasons again from there, once, and marks the rows done. A worker that fails
halfway leaves the work due."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.league import outbox, ratings, selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.models import CurrentRating, RatedGame
from scorekeeper.table import services
from scorekeeper.table.models import ResultsChange
from tests.league.conftest import G, K, moved, work
from tests.league.test_ratings import afresh, read

pytestmark = pytest.mark.django_db


def rated_rows(season) -> list[tuple]:
    """Every rated game of the season and of its club, with its key (a rating again
    writes new rows)."""
    rows = RatedGame.objects.filter(season=season) | RatedGame.objects.filter(
        club=season.league.club
    )
    return list(rows.order_by("pk").values_list("pk", "game_id", "seq"))


def due(season) -> list:
    return list(
        ResultsChange.objects.filter(club=season.league.club, done_at=None).values_list(
            "since", flat=True
        )
    )


def test_a_change_writes_what_is_due_and_rates_nothing_until_the_worker_does(
    evening, season, owner
):
    kept = rated_rows(season)
    services.partie_delete(partie=evening[0], user=owner)

    assert due(season) == [evening[0].started_at]
    assert rated_rows(season) != kept  # its own rated rows went with its games, no more
    with CaptureQueriesContext(connection) as queries:
        read(season)
    assert not [q["sql"] for q in queries if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")]

    work()
    assert due(season) == []
    assert read(season) == afresh(season)


@pytest.mark.parametrize(
    "change",
    ["delete and restore", "edit a hand", "first day moves", "given to another season"],
)
def test_after_each_change_the_worker_leaves_the_ratings_of_a_fresh_rating(
    change, evening, season, owner
):
    if change == "delete and restore":
        services.partie_delete(partie=evening[0], user=owner)
        work()
        services.partie_restore(partie=evening[0], user=owner)
    elif change == "edit a hand":
        services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    elif change == "first day moves":
        league_services.season_settings_change(
            season=season, starts_on=season.starts_on + timedelta(days=2)
        )
    else:
        other = league_services.season_create(
            league=season.league,
            name="Cup",
            starts_on=season.starts_on,
            ends_on=season.ends_on,
        )
        league_services.partie_season_assign(partie=evening[1], season=other)
    assert due(season)
    work()
    assert read(season) == afresh(season)
    club_scope = selectors.club_book(season.league.club).rating_scope
    stored = dict(ratings.current_rows(club_scope.owner).values_list("player_id", "mu"))
    ratings.rate_from(club_scope, None)  # the club's all time rated afresh
    assert dict(ratings.current_rows(club_scope.owner).values_list("player_id", "mu")) == stored


def test_a_hand_deleted_after_a_game_closed_last_leaves_no_stale_rating(
    evening, season, play, owner
):
    """The issue's first defect: the game closed last, read, then its hand undone."""
    partie = play(["Ben", "Dora"], [G(90, knocker="Ben")])
    read(season)
    services.hand_delete(partie=partie, number=1, user=owner)
    work()

    assert read(season) == afresh(season)  # Ben's rating is his before the deleted game


def test_a_worker_that_fails_halfway_leaves_the_work_due(evening, season, owner):
    services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    before = list(CurrentRating.objects.order_by("pk").values_list("pk", "mu"))
    real = ratings.rate_from
    calls = []

    def fails_on_the_second(*args):
        calls.append(args)
        if len(calls) == 2:
            raise RuntimeError("the worker was killed")
        return real(*args)

    with (
        mock.patch.object(ratings, "rate_from", fails_on_the_second),
        pytest.raises(RuntimeError),
    ):
        outbox.rate_due()
    assert len(due(season)) == 1
    assert list(CurrentRating.objects.order_by("pk").values_list("pk", "mu")) == before

    work()
    assert due(season) == []
    assert read(season) == afresh(season)


def test_the_worker_rates_a_club_once_for_all_its_rows_from_the_earliest(evening, season, owner):
    services.hand_edit(partie=evening[3], number=1, hand=G(80, knocker="Dora"), user=owner)
    services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    with mock.patch.object(ratings, "rate_from", wraps=ratings.rate_from) as rate:
        assert outbox.rate_due() == 1
    sinces = {call.args[1] for call in rate.call_args_list}
    assert sinces == {evening[1].started_at}  # the earlier of the two, for every scope
    assert read(season) == afresh(season)


def test_the_worker_command_does_what_is_due_and_exits(evening, season, owner):
    services.partie_delete(partie=evening[2], user=owner)
    call_command("worker", "--until-idle")
    assert due(season) == []
    assert read(season) == afresh(season)


def test_a_closing_season_rates_what_is_due_before_it_keeps_its_standings(evening, season, owner):
    services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    close = league_services.season_close(season=season, user=owner)
    kept = {row["player"]: row["rating"]["mu"] for row in close.final_standings["standings"]}
    fresh = {row["player"]: row["rating"]["mu"] for row in afresh(season)["standings"]}
    assert kept == fresh


def test_a_partie_moved_earlier_is_rated_again_from_its_new_place(season, play):
    late = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    moved(late, season.starts_on + timedelta(days=1))
    first = play(["Carl", "Anna"], [G(90, knocker="Carl")])
    moved(first, season.starts_on)
    assert read(season) == afresh(season)


@pytest.mark.parametrize("interval", ["0", "-1", "nan", "99999"])
def test_the_worker_refuses_an_interval_it_cannot_wait(interval):
    with pytest.raises(CommandError, match="--interval: seconds from more than 0 to 3600"):
        call_command("worker", "--interval", interval)
