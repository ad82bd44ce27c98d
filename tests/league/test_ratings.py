"""Ratings carried forward: whatever happened to the season's parties, once the worker
has done what the change made due, the ratings read are those of rating its games
afresh in playing order (RULES.md §11); a game closed last rates that game alone."""

import json
from dataclasses import replace
from datetime import timedelta

import pytest

from scorekeeper.engine import LeaguePoints, Rating
from scorekeeper.engine.record import record_json
from scorekeeper.engine.season import parse_season, season_standings, standings_json
from scorekeeper.league import ratings, selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.models import CurrentRating, PlayerRating, RatedGame
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame
from scorekeeper.table.selectors import partie_record
from tests.league.conftest import G, K, moved, work

pytestmark = pytest.mark.django_db


def afresh(season):
    """The standings of the season's parties counted from their records by the engine."""
    parties = selectors.season_parties(season).order_by("started_at", "id")
    document = {
        "points": {"win": season.points_win, "shutout_win": season.points_shutout_win,
                   "loss": season.points_loss},
        "min_games": season.min_games,
        "parties": [record_json(partie_record(p)) for p in parties],
    }  # fmt: skip
    return standings_json(season_standings(parse_season(json.loads(json.dumps(document)))))


def read(season):
    return standings_json(selectors.season_table(season).standings)


def rated(season):
    return list(RatedGame.objects.filter(season=season).order_by("seq").values_list("pk", "seq"))


def test_the_ratings_read_are_those_rated_afresh(evening, season):
    assert read(season) == afresh(season)
    assert [seq for _, seq in rated(season)] == list(range(1, len(rated(season)) + 1))


def test_a_game_closed_last_rates_that_game_alone(evening, season, play):
    read(season)
    before = rated(season)
    player_ratings = PlayerRating.objects.filter(season=season).count()

    play(["Ben", "Dora"], [G(90, knocker="Ben")])
    assert read(season) == afresh(season)

    assert rated(season)[:-1] == before  # the earlier games keep their ratings, untouched
    assert rated(season)[-1][1] == len(before) + 1
    assert PlayerRating.objects.filter(season=season).count() == player_ratings + 2


def test_the_worker_rates_a_game_closed_last_for_the_season_and_the_club_from_its_place(
    evening, season, play, club
):
    before, club_games = rated(season), RatedGame.objects.filter(club=club).count()

    partie = play(["Ben", "Dora"], [G(90, knocker="Ben")])  # today: last in the order

    # The worker rated it after the close, for the season and the club's all time.
    game = ClosedGame.objects.get(partie=partie)
    assert rated(season)[:-1] == before
    assert RatedGame.objects.get(season=season, game=game).seq == len(before) + 1
    assert RatedGame.objects.get(club=club, game=game).seq == club_games + 1
    assert PlayerRating.objects.filter(result__game=game).count() == 4  # two players, twice
    assert read(season) == afresh(season)


def test_a_partie_deleted_at_the_start_and_restored_rates_again_from_there(evening, season, owner):
    read(season)
    services.partie_delete(partie=evening[0], user=owner)
    work()
    assert read(season) == afresh(season)
    assert "Anna" in [line["player"] for line in read(season)["standings"]]

    services.partie_restore(partie=evening[0], user=owner)
    work()
    assert read(season) == afresh(season)


def test_a_game_closing_in_a_partie_started_earlier_rates_the_later_games_again(
    season, play, owner
):
    early = play(["Anna", "Ben"], [K(5, 27, knocker="Anna")])  # still running
    moved(early, season.starts_on)
    late = play(["Carl", "Anna"], [G(90, knocker="Carl")])
    moved(late, season.starts_on + timedelta(days=2))
    read(season)
    kept = rated(season)

    services.hand_record(partie=early, hand=G(90, knocker="Ben"), user=owner)

    assert rated(season) == kept  # not in its transaction: by the worker
    assert read(season) == read(season)  # nor by a read
    assert rated(season) == kept
    work()
    assert read(season) == afresh(season)
    assert [seq for _, seq in rated(season)] == [1, 2]
    assert rated(season)[1][0] != kept[0][0]  # Carl's game, rated again after Ben's


def test_an_edited_hand_rates_its_game_and_the_later_ones_again(evening, season, owner):
    read(season)
    services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    work()
    assert read(season) == afresh(season)


def test_a_rename_changes_no_rating(evening, season, owner):
    read(season)
    before = rated(season), list(CurrentRating.objects.values_list("pk", "mu"))

    services.player_rename(player=evening[0].seats.get(position=0).player, name="Anne", user=owner)

    assert read(season) == afresh(season)
    assert (rated(season), list(CurrentRating.objects.values_list("pk", "mu"))) == before


def test_lines_read_before_any_rating_carry_the_names_and_the_default_rating(evening, season):
    book = selectors.season_book(season)
    CurrentRating.objects.filter(season=season).delete()
    before = selectors.book_lines(book)  # nothing rated: no stored rating joined
    ratings.rate_from(book.rating_scope, None)
    after = selectors.book_lines(book)

    assert {line.player for line in before.values()} == {"Anna", "Ben", "Carl", "Dora"}
    assert {line.rating for line in before.values()} == {Rating()}
    assert {pk: replace(line, rating=Rating()) for pk, line in after.items()} == before
    stored = dict(CurrentRating.objects.filter(season=season).values_list("player_id", "mu"))
    assert {pk: line.rating.mu for pk, line in after.items()} == stored


def test_a_merge_rates_the_merged_players_games_again(season, play, owner):
    first = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    second = play(["ann", "Carl"], [G(90, knocker="Carl")])
    moved(first, season.starts_on)
    moved(second, season.starts_on + timedelta(days=1))
    read(season)
    anna = first.seats.get(position=0).player

    services.player_merge(keep=anna, gone=second.seats.get(position=0).player, user=owner)
    work()

    assert read(season) == afresh(season)
    assert [line["player"] for line in read(season)["standings"]].count("Anna") == 1


def test_the_seasons_kinds_and_points_change_its_standings_once_rated(evening, season):
    league_services.season_settings_change(
        season=season, kinds=["two_player"], points=LeaguePoints(win=2, shutout_win=3, loss=-1)
    )
    work()
    assert read(season) == afresh(season)
    league_services.season_settings_change(season=season, kinds=[])
    work()
    assert read(season) == afresh(season)
