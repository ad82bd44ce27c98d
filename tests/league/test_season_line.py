"""A player's line in a season, as his page shows it, is counted for him alone: the same
line and rank as the season's page gives him, whatever decides it (league points, wins,
net points, the head-to-head of the players level with him, the season's minimum of
games); a player listed before his first closed game has no rank and pushes nobody
down, on either page."""

import re
from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.clubs.models import Role
from scorekeeper.engine import Rating
from scorekeeper.league import selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, Player
from scorekeeper.table.services import confirmations
from tests.clubs.conftest import join
from tests.league.conftest import G, K, work

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(play, season):
    """Anna and Ben level on points, wins and net points, Anna ahead on their meeting;
    Carl and Dora one game each; Eva and Fritz at a table with no closed game yet."""
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Anna"], [G(90, knocker="Carl")])
    play(["Ben", "Dora"], [G(90, knocker="Ben")])
    play(["Eva", "Fritz"], [K(3, 20, knocker="Eva")])  # running: listed, no game
    return season


def every_line(season):
    """Each player's line as the season's page shows it, by name (ranked among those with
    a counted game; the others without a rank); None: not listed."""
    table = selectors.season_table(season)
    shown = {row.player_id: row.line for row in table.played_rows}
    for row in table.rows:
        shown.setdefault(row.player_id, row.line.ranked_as(None))
    players = Player.objects.filter(club=season.league.club)
    return {player.name: shown.get(player.pk) for player in players}


def alone(season, rating=True):
    players = Player.objects.filter(club=season.league.club)
    return {player.name: selectors.season_line(season, player, rating) for player in players}


def unrated(lines):
    return {name: line and replace(line, rating=Rating()) for name, line in lines.items()}


@pytest.mark.parametrize(
    "settings",
    [{}, {"points_loss": -1}, {"min_games": 2}, {"points_win": 1, "points_shutout_win": 1}],
)
def test_a_players_line_counted_alone_is_his_line_in_the_standings(evening, settings):
    for field, value in settings.items():
        setattr(evening, field, value)
    evening.save()

    expected = every_line(evening)

    assert alone(evening) == expected
    assert alone(evening, rating=False) == unrated(expected)  # as the player's page asks
    if not settings:
        ranks = {name: line.rank for name, line in expected.items()}
        assert ranks["Anna"] < ranks["Ben"]  # level but for their meeting


def test_players_listed_without_a_game_push_nobody_down_on_his_page(evening):
    """The issue's second defect: Eva and Fritz play their first game; Dora, the one
    player with a lost game, is 4th on the season's page and on her own."""
    page = {row.line.player: row.line.rank for row in selectors.season_table(evening).played_rows}
    assert page["Dora"] == 4
    assert alone(evening)["Dora"].rank == 4
    assert alone(evening)["Eva"].rank is None and alone(evening)["Eva"].games == 0


def test_players_level_on_every_key_share_the_rank(play, season):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])

    lines = alone(season)

    assert (lines["Anna"].rank, lines["Carl"].rank) == (1, 1)
    assert (lines["Ben"].rank, lines["Dora"].rank) == (3, 3)
    assert lines == every_line(season)


def test_in_a_season_of_confirmed_games_a_players_line_is_his_line_in_the_standings(
    play, season, club, owner, django_user_model
):
    """Anna and Ben are asked to confirm their games: until both have, a game of theirs
    does not count, and the one that waits lists them with no counted game."""
    for name in ("Anna", "Ben"):
        user = django_user_model.objects.create_user(name.lower())
        join(club, user, Role.MEMBER)
        services.player_link(player=services.player_add(club=club, name=name, owner=owner),
                             user=user)  # fmt: skip
    season.confirmed_games_only = True
    season.save()
    first = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])  # nobody to ask: counts

    assert alone(season) == every_line(season)
    assert alone(season)["Anna"].games == 0

    game = ClosedGame.objects.get(partie=first)
    for user in User.objects.filter(username__in=["anna", "ben"]):
        confirmations.result_confirm(game=game, user=user)

    assert alone(season) == every_line(season)
    assert alone(season)["Anna"].games == 1


def test_the_player_page_makes_as_many_queries_for_five_seasons_as_for_two(evening, owner, client):
    """Dora (level with nobody) on her page: with the season and a closed one, then
    with two more of each."""
    client.force_login(owner)
    dora = Player.objects.get(club=evening.league.club, name="Dora")
    url = reverse("player_detail", args=[dora.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    def season(name: str, closed: bool) -> None:
        new = league_services.season_create(
            league=evening.league, name=name, starts_on=evening.starts_on,
            ends_on=evening.ends_on,
        )  # fmt: skip
        work()
        if closed:
            league_services.season_close(season=new, user=owner)

    season("Spring", closed=True)
    two = queries()
    for name, closed in (("Summer", False), ("Cup", True), ("Winter", False)):
        season(name, closed)
    five = queries()

    assert five == two
    page = client.get(url).content.decode()
    assert all(name in page for name in ("Spring", "Summer", "Cup", "Winter", evening.name))


def test_the_player_page_reads_the_tie_breaks_of_five_seasons_as_of_two(evening, owner, client):
    """Ben, level with Anna on every key but their meeting (Anna won it), in every
    season: the head-to-head of the players level with him is read for all his seasons
    at once, and ranks him as each season's page does."""
    client.force_login(owner)
    ben = Player.objects.get(club=evening.league.club, name="Ben")
    url = reverse("player_detail", args=[ben.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    def season(name: str) -> None:
        league_services.season_create(
            league=evening.league, name=name, starts_on=evening.starts_on,
            ends_on=evening.ends_on,
        )  # fmt: skip
        work()

    season("Spring")
    two = queries()
    for name in ("Summer", "Cup", "Winter"):
        season(name)
    five = queries()

    assert five == two
    seasons = list(Season.objects.filter(league=evening.league))
    lines = selectors.season_lines(ben, seasons)
    for each in seasons:
        page = {row.line.player: row.line.rank for row in selectors.season_table(each).played_rows}
        assert lines[each.pk].rank == page["Ben"] == page["Anna"] + 1


def season_rows(client, player):
    """The cells of each row of the player page's table of seasons, as text."""
    page = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    table = re.search(r'<table class="sheet player-seasons">.*?</table>', page, re.S).group()
    rows = re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, re.S)
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in rows]  # fmt: skip


@pytest.mark.parametrize("closed", [False, True])
def test_the_player_page_writes_a_lost_point_with_a_minus_and_no_rank_without_a_game(
    play, season, owner, client, closed
):
    """The issue's defect: Ben's −2 was printed "-2"; Carl, at a table with no closed
    game yet, has no rank (the season's page lists him without one), open or closed."""
    season.points_loss = -2
    season.save(update_fields=["points_loss"])
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [K(3, 20, knocker="Carl")])  # running
    if closed:
        league_services.season_close(season=season, user=owner)
    client.force_login(owner)
    players = {p.name: p for p in Player.objects.filter(club=season.league.club)}
    name = f"{season.league.name}: {season.name}"

    # Season, Games, Won, Lost, Points, Rank
    assert season_rows(client, players["Anna"]) == [[name, "1", "1", "0", "3", "1"]]
    assert season_rows(client, players["Ben"]) == [[name, "1", "0", "1", "−2", "2"]]
    assert season_rows(client, players["Carl"]) == [[name, "0", "0", "0", "0", "–"]]
