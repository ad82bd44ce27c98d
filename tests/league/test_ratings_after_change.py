"""A change that puts rated games out of place (a partie deleted or restored at the
season's start, a hand edited, a game closing before one rated already, a season's
dates changed, a partie given to a season) rates them again right after it is
committed, for the club's all time and for its open seasons: the request that made the
change waits for it, and the next viewer of the standings finds them in place. A rating
that fails there leaves the change done, and the next view rates."""

import logging
from datetime import timedelta

import pytest

from scorekeeper.league import ratings, selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.models import RatedGame
from scorekeeper.table import services
from tests.league.conftest import G, K, moved
from tests.league.test_ratings import afresh, read

pytestmark = pytest.mark.django_db


def scopes(season) -> list[ratings.Scope]:
    return [
        selectors.season_book(season).rating_scope,
        selectors.club_book(season.league.club).rating_scope,
    ]


def rated_rows(season) -> list[tuple]:
    """Every rated game of the season and of its club, with its key (a rating again
    writes new rows): what a read that found them in place leaves as it was."""
    rows = RatedGame.objects.filter(season=season) | RatedGame.objects.filter(
        club=season.league.club
    )
    return list(rows.order_by("pk").values_list("pk", "game_id", "seq"))


@pytest.fixture
def rated(evening, season):
    """The evening's parties, every rating of the season and the club in place."""
    for scope in scopes(season):
        ratings.ensure(scope)
    return evening


def assert_rated_before_anyone_reads(season) -> None:
    for scope in scopes(season):
        assert ratings._state(scope).in_place
    kept = rated_rows(season)
    assert read(season) == afresh(season)
    assert rated_rows(season) == kept, "the read rated again: the change had not"


def test_a_partie_deleted_at_the_start_and_restored_is_rated_again_by_the_change(
    rated, season, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.partie_delete(partie=rated[0], user=owner)
    assert callbacks
    assert_rated_before_anyone_reads(season)

    with django_capture_on_commit_callbacks(execute=True):
        services.partie_restore(partie=rated[0], user=owner)
    assert_rated_before_anyone_reads(season)


def test_an_edited_hand_is_rated_again_by_the_edit(
    rated, season, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_edit(partie=rated[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    assert_rated_before_anyone_reads(season)


def test_a_game_closing_before_one_rated_is_rated_once_its_hand_is_committed(
    season, play, owner, django_capture_on_commit_callbacks
):
    early = play(["Anna", "Ben"], [K(5, 27, knocker="Anna")])  # still running
    moved(early, season.starts_on)
    late = play(["Carl", "Anna"], [G(90, knocker="Carl")])
    moved(late, season.starts_on + timedelta(days=2))
    for scope in scopes(season):
        ratings.ensure(scope)
    kept = rated_rows(season)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.hand_record(partie=early, hand=G(90, knocker="Ben"), user=owner)
        assert rated_rows(season) == kept  # not in the hand's transaction
    assert callbacks
    assert_rated_before_anyone_reads(season)


def test_a_game_closing_last_is_rated_in_its_transaction_and_asks_for_nothing_after(
    rated, season, play, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        play(["Ben", "Dora"], [G(90, knocker="Ben")])  # today: last in the order
    assert callbacks == []
    assert_rated_before_anyone_reads(season)


def test_a_season_whose_first_day_moves_is_rated_again_by_the_change(
    rated, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        league_services.season_settings_change(
            season=season, starts_on=season.starts_on + timedelta(days=2)
        )
    assert_rated_before_anyone_reads(season)


def test_a_partie_given_to_another_season_is_rated_again_by_the_change(
    rated, season, owner, django_capture_on_commit_callbacks
):
    other = league_services.season_create(
        league=season.league,
        name="Winter",
        starts_on=season.ends_on + timedelta(days=1),
        ends_on=season.ends_on + timedelta(days=30),
    )
    with django_capture_on_commit_callbacks(execute=True):
        league_services.partie_season_assign(partie=rated[0], season=other)
    assert_rated_before_anyone_reads(season)
    assert_rated_before_anyone_reads(other)


def test_a_rating_that_fails_after_the_change_leaves_it_done_and_the_next_view_rates(
    rated, season, owner, django_capture_on_commit_callbacks, monkeypatch, caplog
):
    def fails(scope):
        raise RuntimeError("the rating broke off")

    with monkeypatch.context() as patched, caplog.at_level(logging.ERROR):
        patched.setattr(ratings, "ensure", fails)
        with django_capture_on_commit_callbacks(execute=True):
            services.partie_delete(partie=rated[0], user=owner)

    assert "the rating broke off" in caplog.text
    rated[0].refresh_from_db()
    assert rated[0].deleted_at is not None  # the change stands
    assert not ratings._state(selectors.season_book(season).rating_scope).in_place
    assert read(season) == afresh(season)  # the view rated them
