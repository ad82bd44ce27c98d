"""A club season's standings: the parties it counts, stored results kept in step with
every correction, the same standings as the engine gives the season's records."""

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.engine.record import record_json
from scorekeeper.engine.season import parse_season, season_standings, standings_json
from scorekeeper.league import selectors
from scorekeeper.league.models import Assignment
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, PartieStats
from scorekeeper.table.selectors import partie_record
from tests.league.conftest import G, K, moved

pytestmark = pytest.mark.django_db


def lines(season):
    return [
        (line.rank, line.player, line.games, line.won, line.league_points, line.net_points)
        for line in selectors.season_table(season).standings.lines
    ]


def test_the_closed_games_of_the_clubs_parties_in_the_seasons_dates_count(play, season):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # Anna 330: a shutout win, 3 points
    play(["Carl", "Dora"], [K(3, 20, knocker="Carl")])  # still running: counts nothing
    old = play(["Anna", "Eva"], [G(90, knocker="Eva")])
    moved(old, season.starts_on - timedelta(days=1))  # before the season

    assert lines(season) == [
        (1, "Anna", 1, 1, 3, 330),
        (2, "Carl", 0, 0, 0, 0),
        (2, "Dora", 0, 0, 0, 0),
        (4, "Ben", 1, 0, 0, -330),
    ]


def test_a_partie_assigned_to_the_season_counts_whatever_its_date(play, season):
    old = moved(play(["Anna", "Eva"], [G(90, knocker="Eva")]), season.starts_on - timedelta(days=9))
    Assignment.objects.create(partie=old, season=season)

    assert [line[1] for line in lines(season)] == ["Eva", "Anna"]


def test_a_season_counts_only_its_kinds(play, season):
    season.kinds = ["hollywood"]
    season.save()
    play(["Anna", "Ben"], [G(90, knocker="Anna")])

    assert lines(season) == []


def test_correcting_a_hand_changes_the_standings_at_once(play, season, owner):
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    assert lines(season)[0][1] == "Anna"

    services.hand_edit(partie=partie, number=1, hand=G(90, knocker="Ben"), user=owner)
    assert lines(season)[0][:2] == (1, "Ben")

    services.hand_delete(partie=partie, number=1, user=owner)
    assert ClosedGame.objects.filter(partie=partie).count() == 0
    assert [line[2] for line in lines(season)] == [0, 0]


def test_hand_statistics_count_the_hands_up_to_the_last_closed_game(play, season, owner):
    hands = [K(5, 27, knocker="Anna"), G(16, knocker="Ben"), K(7, 7, knocker="Anna")]
    partie = play(["Anna", "Ben"], hands)
    assert PartieStats.objects.filter(partie=partie).count() == 2  # as the partie started
    assert selectors.season_table(season).rows[0].stats.hands == 0  # no game closed yet

    services.hand_record(partie=partie, hand=G(90, knocker="Anna"), user=owner)  # closes

    rows = {row.line.player: row.stats for row in selectors.season_table(season).rows}
    assert (rows["Anna"].hands, rows["Anna"].won, rows["Anna"].points) == (4, 2, 132)
    assert (rows["Ben"].gins, rows["Ben"].undercuts, rows["Ben"].won) == (1, 1, 2)


def test_the_database_season_gives_the_standings_of_its_records(play, season, capsys):
    """``standings --season`` and ``standings FILE`` of the same parties agree."""
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(
        ["X", "Y", "Z"],
        [
            K(1, 21, knocker="Y"),
            K(1, 16, knocker="Y"),
            K(1, 31, knocker="X"),
            K(1, 41, knocker="Z"),
            K(1, 31, knocker="Z"),
        ],
        kind="chouette",
    )
    play(["Ben", "Anna"], [G(50, knocker="Ben"), G(50, knocker="Ben")], kind="match")
    parties = selectors.season_parties(season).order_by("started_at", "id")
    document = {"parties": [record_json(partie_record(p)) for p in parties]}
    expected = standings_json(season_standings(parse_season(json.loads(json.dumps(document)))))

    call_command("standings", "--season", str(season.pk))

    got = json.loads(capsys.readouterr().out)
    for one, two in zip(got["standings"], expected["standings"], strict=True):
        assert one == two
    assert got == expected


def test_the_standings_page_runs_the_same_queries_for_few_and_many_parties(
    play, season, client_owner
):
    url = reverse("season_detail", args=[season.pk])
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])  # level with Anna: her head-to-head is read
    client_owner.get(url)
    with CaptureQueriesContext(connection) as few:
        client_owner.get(url)
    for n in range(6):
        play([f"P{n}", f"Q{n}"], [G(90, knocker=f"P{n}")])
    client_owner.get(url)  # rates the games closed since
    with CaptureQueriesContext(connection) as many:
        response = client_owner.get(url)

    assert response.status_code == 200
    # 14: one of them is the header's notice of results to confirm (every page of a user)
    assert len(many) == len(few) <= 14


def test_the_standings_follow_the_seasons_own_settings(play, season):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    assert [line[0] for line in lines(season)] == [1, 2]

    season.min_games = 2
    season.save()

    assert [line[0] for line in lines(season)] == [None, None]


def test_a_three_player_shutout_is_the_shut_out_players_alone(play, season):
    """RULES.md §10.11: P reaches the target with Q at 0 and R at 27 (finals P 340,
    Q 0, R 67). The shutout bonus of 100 counts only in P's pair with Q: R pays
    240 − 67, not 340 − 67."""
    hands = [K(1, 21, knocker="P"), K(1, 16, knocker="R"), K(1, 13, knocker="R"),
             G(60, knocker="P")]  # fmt: skip
    play(["P", "Q", "R"], hands, kind="three_player")

    table = selectors.season_table(season)

    assert [
        (line.rank, line.player, line.won, line.shutout_wins, line.league_points,
         line.net_points, str(line.money))
        for line in table.standings.lines
    ] == [
        (1, "P", 1, 1, 3, 340 + 173, "25.65"),
        (2, "R", 0, 0, 0, -173 + 67, "-5.30"),
        (3, "Q", 0, 0, 0, -340 - 67, "-20.35"),
    ]  # fmt: skip
    assert table.head_to_head["P"] == {"Q": (1, 0, 340), "R": (1, 0, 173)}
    assert table.head_to_head["R"]["Q"] == (0, 0, 67)


def test_a_page_reads_the_hands_of_its_rows_and_a_sort_by_the_hands_reads_every_row(play, season):
    play(["Anna", "Ben"], [G(40, knocker="Anna"), G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(30, knocker="Dora"), G(90, knocker="Carl")])
    every = {row.line.player: row.stats for row in selectors.season_table(season).rows}
    assert (every["Anna"].gins, every["Carl"].gins, every["Dora"].gins) == (2, 1, 1)

    table = selectors.season_table(season)
    with CaptureQueriesContext(connection) as queries:
        ranked = table.sorted_rows("rank")
    assert not [query for query in queries if "partiestats" in query["sql"]]
    page = table.with_details(ranked[:2])
    assert [row.stats for row in page] == [every[row.line.player] for row in page]

    by_gins = selectors.season_table(season).sorted_rows("gins", descending=True)
    assert by_gins[0].line.player == "Anna"
    assert {row.line.player: row.stats for row in by_gins} == every
