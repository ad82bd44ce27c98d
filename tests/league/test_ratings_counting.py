"""The ratings follow whatever changes which games a season counts without changing a
game: an assignment to another season, a game confirmed (a season of confirmed games
only). After each, once the worker has run, the stored ratings are those of rating the
counted games afresh, in their places."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from scorekeeper.clubs.models import Role
from scorekeeper.league import ratings, selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.models import CurrentRating, RatedGame
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame
from scorekeeper.table.services import confirmations
from tests.clubs.conftest import join
from tests.league.conftest import G, moved, work

pytestmark = pytest.mark.django_db


def stored(scope: ratings.Scope) -> dict[int, tuple[float, float, int]]:
    rows = CurrentRating.objects.filter(**scope.key)
    return {pk: (mu, sigma, seq) for pk, mu, sigma, seq in
            rows.values_list("player_id", "mu", "sigma", "seq")}  # fmt: skip


def assert_rated_as_afresh(season) -> None:
    """The season's games rated in their places, with the ratings of rating them again."""
    scope = selectors.season_book(season).rating_scope
    work()
    games = list(scope.games.order_by(*ratings.ORDER).values_list("pk", flat=True))
    rated = RatedGame.objects.filter(**scope.key).order_by("seq")
    assert list(rated.values_list("game_id", "seq")) == [(g, n) for n, g in enumerate(games, 1)]
    kept = stored(scope)
    ratings.rate_from(scope, None)
    assert stored(scope) == kept


def test_a_partie_assigned_to_another_season_in_exchange_for_one_rates_again(play, season, club):
    parties = [play([a, b], [G(90, knocker=a)]) for a, b in
               [("Anna", "Ben"), ("Carl", "Anna"), ("Ben", "Carl"), ("Dora", "Anna")]]  # fmt: skip
    for days, partie in enumerate(parties):
        moved(partie, season.starts_on + timedelta(days=days + 1))
    outside = play(["Dora", "Ben"], [G(90, knocker="Ben")])
    moved(outside, season.starts_on - timedelta(days=3))
    assert_rated_as_afresh(season)
    other = league_services.season_create(
        league=season.league,
        name="Spring",
        starts_on=season.starts_on - timedelta(days=60),
        ends_on=season.starts_on - timedelta(days=31),
    )

    # As many games counted as before: one out at the start, one in before it.
    league_services.partie_season_assign(partie=parties[0], season=other)
    league_services.partie_season_assign(partie=outside, season=season)

    assert_rated_as_afresh(season)


def test_a_game_confirmed_in_the_middle_of_the_season_rates_from_its_place(
    play, season, club, owner, django_user_model
):
    for name in ("Anna", "Ben"):
        user = django_user_model.objects.create_user(name.lower())
        join(club, user, Role.MEMBER)
        services.player_link(player=services.player_add(club=club, name=name, owner=owner),
                             user=user)  # fmt: skip
    league_services.season_settings_change(season=season, confirmed_games_only=True)
    parties = [play([a, b], [G(90, knocker=a)]) for a, b in
               [("Carl", "Dora"), ("Anna", "Ben"), ("Carl", "Eva"), ("Dora", "Eva")]]  # fmt: skip
    for days, partie in enumerate(parties):
        moved(partie, season.starts_on + timedelta(days=days + 1))
    assert_rated_as_afresh(season)  # three games: Anna's and Ben's waits for them
    assert RatedGame.objects.filter(season=season).count() == 3

    game = ClosedGame.objects.get(partie=parties[1])
    for user in User.objects.filter(username__in=["anna", "ben"]):
        confirmations.result_confirm(game=game, user=user)

    assert_rated_as_afresh(season)
    assert RatedGame.objects.filter(season=season).count() == 4


def test_a_closing_game_is_rated_for_each_open_season_that_counts_its_partie(season, play):
    cup = league_services.season_create(
        league=season.league, name="Cup", starts_on=season.starts_on, ends_on=season.ends_on
    )
    ended = league_services.season_create(
        league=season.league, name="Spring", starts_on=season.starts_on, ends_on=season.ends_on
    )
    league_services.season_close(season=ended, user=None)
    both = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    cup_only = play(["Carl", "Dora"], [G(90, knocker="Carl")])
    league_services.partie_season_assign(partie=cup_only, season=cup)
    work()

    def rated_games(season):
        return set(RatedGame.objects.filter(season=season).values_list("game__partie", flat=True))

    assert rated_games(season) == {both.pk}
    assert rated_games(cup) == {both.pk, cup_only.pk}
    assert rated_games(ended) == set()  # closed: its standings were kept at its close
    assert_rated_as_afresh(season)
    assert_rated_as_afresh(cup)
