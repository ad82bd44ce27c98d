"""League standings, head-to-head and ratings: every rule of RULES.md §11."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.engine import GameResult, Payment
from scorekeeper.engine.bounds import BoundsError
from scorekeeper.engine.league import (
    RATING_COLUMNS,
    RESULT_COLUMNS,
    HeadToHead,
    LeaguePoints,
    Line,
    Rating,
    standings,
)
from scorekeeper.engine.record import RecordError, loads, record_json, tally
from scorekeeper.engine.season import (
    dumps,
    line_from_json,
    line_json,
    parse_season,
    season_standings,
    standings_from_json,
    standings_json,
)
from scorekeeper.engine.season import loads as loads_season

RECORDS = Path(__file__).resolve().parent.parent / "records"


def game(winner: str, loser: str, points: int = 0, shutout: bool = False) -> GameResult:
    """A two-player game; the loser pays ``points`` (at one cent a point)."""
    paid = (Payment(loser, winner, points, Decimal(points) / 100),) if points else ()
    return GameResult(1, (winner,), (loser,), shutout, ((winner,), (loser,)), (1, 2), paid)


def table(games, players=(), **options):
    return [
        (line.rank, line.player, line.games, line.won, line.lost, line.league_points)
        for line in standings(games, players, **options).lines
    ]


# What a game gives


def test_a_win_gives_2_a_shutout_win_3_and_a_loss_0():
    lines = standings([game("A", "B"), game("A", "C", shutout=True)], ["A", "B", "C"]).lines
    assert [(line.player, line.league_points, line.shutout_wins) for line in lines] == [
        ("A", 5, 1),
        ("B", 0, 0),
        ("C", 0, 0),
    ]


def test_a_season_sets_its_own_league_points():
    points = LeaguePoints(win=3, shutout_win=5, loss=1)
    assert table([game("A", "B"), game("A", "B", shutout=True)], points=points) == [
        (1, "A", 2, 2, 0, 8),
        (2, "B", 2, 0, 2, 2),
    ]


def test_net_points_and_money_are_the_settlement_lines_received_minus_paid():
    lines = standings([game("A", "B", 175), game("B", "A", 40)], []).lines
    assert [(line.player, line.net_points, line.money) for line in lines] == [
        ("A", 135, Decimal("1.35")),
        ("B", -135, Decimal("-1.35")),
    ]


def test_every_player_named_is_listed_also_without_a_counted_game():
    assert table([game("A", "B")], ["B", "Carl", "A"]) == [
        (1, "A", 1, 1, 0, 2),
        (2, "B", 1, 0, 1, 0),
        (2, "Carl", 0, 0, 0, 0),  # level with B on every key: the same rank
    ]


# The order and its tie-breaks


def test_more_league_points_first_then_more_games_won():
    # A: 2 wins (4 points); B: one shutout win and a loss (3); C: 1 win, 2 losses (2)
    games = [game("A", "C"), game("B", "C", shutout=True), game("A", "B"), game("C", "D")]
    assert [line[1] for line in table(games)] == ["A", "B", "C", "D"]

    # Level on points: A's two wins against B's one shutout win worth as much
    points = LeaguePoints(win=2, shutout_win=4, loss=0)
    level = [game("A", "X"), game("A", "X"), game("B", "X", shutout=True)]
    assert table(level, points=points)[:2] == [(1, "A", 2, 2, 0, 4), (2, "B", 1, 1, 0, 4)]


def test_level_on_points_and_wins_more_net_points_first():
    assert [line[1] for line in table([game("B", "X", 10), game("A", "Y", 30)])] == [
        "A",
        "B",
        "X",
        "Y",
    ]


def test_still_level_the_points_won_against_each_other_decide():
    # Zed, Amy and Dee each win once and lose once, netting +20, +20 and −40: Zed and
    # Amy are level on three keys, and Zed beat Amy by 50.
    games = [game("Zed", "Amy", 50), game("Dee", "Zed", 30), game("Amy", "Dee", 70)]
    lines = standings(games, []).lines
    assert [(line.rank, line.player, line.net_points) for line in lines] == [
        (1, "Zed", 20),
        (2, "Amy", 20),
        (3, "Dee", -40),
    ]


def test_players_level_on_all_four_keys_share_the_rank_and_are_listed_by_name():
    games = [game("Fay", "Gus", 10), game("Eve", "Hal", 10)]
    assert [(line[0], line[1]) for line in table(games)] == [
        (1, "Eve"),
        (1, "Fay"),
        (3, "Gus"),
        (3, "Hal"),
    ]


def test_names_compare_character_by_character():
    # "B" (66) comes before "a" (97): no case folding, no locale
    assert [line[1] for line in table([], ["anna", "Ben", "Åsa"])] == ["Ben", "anna", "Åsa"]


def test_players_under_min_games_follow_the_ranked_ones_without_a_rank():
    games = [game("A", "B"), game("A", "C"), game("B", "C")]
    lines = table(games, ["D"], min_games=2)
    assert lines == [
        (1, "A", 2, 2, 0, 4),
        (2, "B", 2, 1, 1, 2),
        (3, "C", 2, 0, 2, 0),
        (None, "D", 0, 0, 0, 0),
    ]
    lines = table(games + [game("D", "E")], min_games=2)
    assert [(line[0], line[1]) for line in lines][3:] == [(None, "D"), (None, "E")]


# Head-to-head


def test_head_to_head_counts_results_and_the_settlement_between_two():
    meetings = standings(
        [game("A", "B", 50), game("B", "A", 20), game("A", "B", 5)], []
    ).head_to_head
    assert meetings["A"]["B"] == HeadToHead(won=2, lost=1, net_points=35)
    assert meetings["B"]["A"] == HeadToHead(won=1, lost=2, net_points=-35)
    assert "C" not in meetings


def record(kind, players, hands, **extra):
    return {"kind": kind, "players": players, "hands": hands, **extra}


def knock(knocker, points):
    return {"knocker": knocker, "knocker_deadwood": 1, "defender_deadwood": points + 1}


def test_a_partnership_sets_each_winner_against_each_loser():
    round_ = {
        "tables": [
            {"knocker": "A", "gin": True, "defender_deadwood": 90},
            {"knocker": "C", "gin": True, "defender_deadwood": 20},
        ]
    }
    season = parse_season(
        {
            "parties": [
                record(
                    "partnership", ["A", "B", "C", "D"], [round_], rules={"preset": "partnership"}
                )
            ]
        }
    )
    meetings = season_standings(season).head_to_head
    assert sorted(meetings["A"]) == ["B", "D"] and sorted(meetings["C"]) == ["B", "D"]
    assert (meetings["A"]["D"].won, meetings["A"]["D"].net_points) == (1, 0)  # no line A–D
    assert meetings["A"]["B"].net_points == meetings["C"]["D"].net_points > 0
    assert "C" not in meetings["A"]  # partners do not meet


# Records of every kind, as a season


def test_a_chouette_game_is_the_box_against_each_member():
    # RULES.md §6: the team wins; X pays 235 to Y and to Z.
    hands = [knock("Y", 20), knock("Y", 15), knock("X", 30), knock("Z", 40), knock("Z", 30)]
    season = parse_season(
        {
            "parties": [
                record("chouette", ["X", "Y", "Z"], hands, stake="0.10"),
                json.loads((RECORDS / "format_example.json").read_text()),
            ]
        }
    )
    data = standings_json(season_standings(season))

    assert [
        (
            line["rank"],
            line["player"],
            line["won"],
            line["league_points"],
            line["net_points"],
            line["money"],
        )
        for line in data["standings"]
    ] == [
        (1, "Y", 1, 2, 235, "23.50"),
        (1, "Z", 1, 2, 235, "23.50"),
        (3, "Anna", 1, 2, 175, "8.75"),
        (4, "Ben", 0, 0, -175, "-8.75"),
        (5, "X", 0, 0, -470, "-47.00"),
    ]
    assert data["head_to_head"]["X"] == {
        "Y": {"won": 0, "lost": 1, "net_points": -235},
        "Z": {"won": 0, "lost": 1, "net_points": -235},
    }
    assert "Z" not in data["head_to_head"]["Y"]  # team mates


def test_a_three_player_winner_meets_each_other_player():
    hands = [knock("P", 60), knock("R", 50), knock("R", 55)]  # R wins; Q shut out
    data = standings_json(
        season_standings(
            parse_season({"parties": [record("three_player", ["P", "Q", "R"], hands)]})
        )
    )
    assert data["head_to_head"]["R"].keys() == {"P", "Q"}
    assert {(h["won"], h["lost"]) for h in data["head_to_head"]["R"].values()} == {(1, 0)}
    assert data["head_to_head"]["P"]["Q"] == {"won": 0, "lost": 0, "net_points": 80}


@pytest.mark.parametrize(
    "name", ["format_example", "hollywood", "match", "partnership", "chouette", "three_player"]
)
def test_net_points_and_money_agree_with_the_tally_of_each_record(name):
    text = (RECORDS / f"{name}.json").read_text()
    settled = tally(loads(text))["balances"]
    lines = season_standings(parse_season({"parties": [json.loads(text)]})).lines

    assert {line.player: (line.net_points, str(line.money)) for line in lines} == {
        player: (balance["points"], balance["amount"]) for player, balance in settled.items()
    }


def test_a_game_still_running_counts_for_nothing():
    data = standings_json(
        season_standings(
            parse_season({"parties": [record("two_player", ["A", "B"], [knock("A", 50)])]})
        )
    )
    assert [(line["player"], line["games"]) for line in data["standings"]] == [("A", 0), ("B", 0)]
    assert data["head_to_head"] == {}


# Ratings


def test_ratings_are_openskill_plackett_luce_updated_once_a_game_in_order():
    games = [
        game("A", "B"),
        GameResult(1, ("C",), ("A", "B"), False, (("C",), ("A", "B")), (1, 2), ()),
        GameResult(1, ("A",), ("B", "C"), False, (("A",), ("B",), ("C",)), (1, 2, 2), ()),
    ]
    result = standings(games, [])

    model = PlackettLuce()
    a, b, c = (model.rating(name=name) for name in "ABC")
    [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    [[c], [a, b]] = model.rate([[c], [a, b]], ranks=[1, 2])
    [[a], [b], [c]] = model.rate([[a], [b], [c]], ranks=[1, 2, 2])
    got = {line.player: line.rating for line in result.lines}
    for name, expected in zip("ABC", (a, b, c), strict=True):
        assert got[name].mu == pytest.approx(expected.mu, abs=1e-12)
        assert got[name].sigma == pytest.approx(expected.sigma, abs=1e-12)
        assert got[name].ordinal == pytest.approx(expected.mu - 3 * expected.sigma, abs=1e-12)
    assert [len(result.history[name]) for name in "ABC"] == [3, 3, 2]


def test_a_player_without_a_game_keeps_the_default_rating():
    (line,) = standings([], ["Solo"]).lines
    assert (line.rating.mu, line.rating.sigma) == (25.0, pytest.approx(25 / 3))
    assert line.rating.ordinal == pytest.approx(0.0)


# Season documents


def test_a_bad_record_is_named_by_its_party_and_hand():
    bad = record("two_player", ["A", "B"], [knock("A", 10), knock("Zoe", 5)])
    season = parse_season({"parties": [record("two_player", ["A", "B"], []), bad]})
    with pytest.raises(RecordError) as error:
        season_standings(season)
    assert error.value.errors == [
        "party 2, hand 2: 'Zoe' is not a player of this game: choose A or B"
    ]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "a season is a JSON object with its parties"),
        ({"format": "other/1"}, "unknown format 'other/1': expected 'scorekeeper-season/1'"),
        ({"points": {"win": "2"}}, "points: win must be a whole number from -99 to 99, not '2'"),
        ({"points": {"loss": -100}}, "points: loss must be a whole number from -99 to 99, not -1"),
        ({"points": {"shutout_win": 100}}, "points: shutout_win must be a whole number from -99"),
        ({"points": {"win": 2.5}}, "points: win must be a whole number from -99 to 99, not 2.5"),
        ({"points": {"win": True}}, "points: win must be a whole number from -99 to 99, not True"),
        ({"points": [2, 3, 0]}, 'points: give them like {"win": 2'),
        ({"points": {"draw": 1}}, "points: unknown 'draw': choose win, shutout_win or loss"),
        ({"min_games": -1}, "min_games: a whole number from 0, not -1"),
        ({"parties": {}}, "parties: a list of game records is expected"),
        ({"parties": [{"kind": "poker"}]}, "party 1, unknown kind 'poker'"),
    ],
)
def test_a_bad_season_document_is_refused_with_a_clear_line(document, message):
    with pytest.raises(RecordError) as error:
        parse_season(document)
    assert any(line.startswith(message) for line in error.value.errors), error.value.errors


# League points from -99 to 99 (RULES.md §11): a loss may cost points


@pytest.mark.parametrize("points", [-99, -1, 0, 99])
def test_every_whole_number_from_minus_99_to_99_is_a_seasons_points(points):
    season = parse_season({"points": {"win": points, "shutout_win": points, "loss": points}})
    assert season.points == LeaguePoints(points, points, points)


@pytest.mark.parametrize("field", ["win", "shutout_win", "loss"])
@pytest.mark.parametrize("value", [-100, 100, 10**6, 1.0, "1", None, True])
def test_the_engine_refuses_points_beyond_minus_99_to_99(field, value):
    with pytest.raises(BoundsError):
        LeaguePoints(**{field: value})
    with pytest.raises(RecordError) as error:
        parse_season({"points": {field: value}})
    assert error.value.errors == [
        f"points: {field} must be a whole number from -99 to 99, not {value!r}"
    ]


def test_every_bad_point_is_named_at_once_in_a_fixed_order():
    with pytest.raises(RecordError) as error:
        parse_season({"points": {"win": 100, "loss": -100, "shutout_win": 3}})
    assert error.value.errors == [
        "points: loss must be a whole number from -99 to 99, not -100",
        "points: win must be a whole number from -99 to 99, not 100",
    ]


def test_a_loss_that_costs_a_point_is_counted_in_the_standings():
    # A beats B twice, B beats C once, C beats A by a shutout; every loss costs 1.
    games = [game("A", "B"), game("A", "B"), game("B", "C"), game("C", "A", shutout=True)]
    points = LeaguePoints(win=2, shutout_win=3, loss=-1)
    assert table(games, points=points) == [
        (1, "A", 3, 2, 1, 3),  # 2 + 2 - 1
        (2, "C", 2, 1, 1, 2),  # 3 - 1
        (3, "B", 3, 1, 2, 0),  # 2 - 1 - 1
    ]


def test_a_season_document_with_a_loss_of_minus_1_gives_its_standings():
    season = parse_season(
        {
            "points": {"win": 2, "shutout_win": 3, "loss": -1},
            "parties": [json.loads((RECORDS / "match.json").read_text())],
        }
    )
    # The best-of-3 match: Anna wins games 1 and 3 (a shutout), Ben game 2 (a shutout).
    lines = standings_json(season_standings(season))["standings"]
    assert [
        (line["rank"], line["player"], line["won"], line["lost"], line["league_points"])
        for line in lines
    ] == [(1, "Anna", 2, 1, 2 + 3 - 1), (2, "Ben", 1, 2, 3 - 1 - 1)]


# A season written back as a document (FORMAT.md, "Season")

KINDS = ["format_example", "hollywood", "match", "partnership", "chouette", "three_player"]


def test_a_season_written_as_a_document_reads_back_the_same():
    document = {
        "format": "scorekeeper-season/1",
        "name": "Autumn · Herbst",
        "points": {"win": 3, "shutout_win": 5, "loss": -1},
        "min_games": 2,
        "parties": [json.loads((RECORDS / f"{name}.json").read_text()) for name in KINDS],
    }
    season = parse_season(document)

    text = dumps(season)

    assert loads_season(text) == season
    assert standings_json(season_standings(loads_season(text))) == standings_json(
        season_standings(season)
    )
    data = json.loads(text)
    assert [data[key] for key in ("format", "name", "points", "min_games")] == [
        "scorekeeper-season/1",
        "Autumn · Herbst",
        {"win": 3, "shutout_win": 5, "loss": -1},
        2,
    ]
    assert data["parties"] == [record_json(record) for record in season.parties]
    assert data["parties"][4]["stakes"] == {"Dan": "0.10"}  # a chouette member's own stake


def test_a_season_document_writes_one_party_a_line():
    season = parse_season(
        {"parties": [json.loads((RECORDS / f"{name}.json").read_text()) for name in KINDS]}
    )
    lines = dumps(season).splitlines()
    parties = [line for line in lines if line.startswith('    {"format": "scorekeeper/1"')]
    assert len(parties) == len(KINDS)
    assert len(lines) == 2 + 5 + 2 + len(KINDS)  # braces, five fields, "parties": [ and ]
    assert dumps(parse_season({})).endswith('  "parties": []\n}\n')
    assert json.loads(dumps(parse_season({})))["parties"] == []


# A season of confirmed games: the pending games


def match_season(**fields) -> dict:
    """A season of the match record (three games: Anna, Ben, Anna) and ``fields``."""
    return {"parties": [json.loads((RECORDS / "match.json").read_text())]} | fields


def games_of(document: dict) -> list[tuple[str, int, int]]:
    return [
        (line.player, line.games, line.won)
        for line in season_standings(parse_season(document)).lines
    ]


def test_a_season_of_confirmed_games_leaves_out_the_pending_games():
    document = match_season(confirmed_games_only=True)
    document["parties"][0]["pending_games"] = [2]

    assert games_of(document) == [("Anna", 2, 2), ("Ben", 2, 0)]
    assert games_of(document | {"confirmed_games_only": False}) == [
        ("Anna", 3, 2),
        ("Ben", 3, 1),
    ]
    season = parse_season(document)
    assert (season.confirmed_games_only, season.pending) == (True, frozenset({(1, 2)}))
    written = json.loads(dumps(season))
    assert written["confirmed_games_only"] is True
    assert written["parties"][0]["pending_games"] == [2]
    assert loads_season(dumps(season)) == season


def test_a_season_without_pending_games_writes_none():
    written = json.loads(dumps(parse_season(match_season())))

    assert written["confirmed_games_only"] is False
    assert "pending_games" not in written["parties"][0]


@pytest.mark.parametrize(
    "fields, pending, message",
    [
        ({"confirmed_games_only": "yes"}, [], "confirmed_games_only: true or false, not 'yes'"),
        ({}, 2, "party 1, pending_games: give a list of game numbers like [2], not 2"),
        ({}, [0], "party 1, pending_games must be at least 1, not 0"),
        ({}, ["2"], "party 1, pending_games must be a whole number, not '2'"),
    ],
)
def test_a_bad_confirmation_in_a_season_document_is_refused_with_a_clear_line(
    fields, pending, message
):
    document = match_season(**fields)
    document["parties"][0]["pending_games"] = pending

    with pytest.raises(RecordError) as refused:
        parse_season(document)

    assert refused.value.errors == [message]


def test_a_pending_game_the_party_did_not_close_is_refused():
    document = match_season(confirmed_games_only=True)
    document["parties"][0]["pending_games"] = [4]

    with pytest.raises(RecordError) as refused:
        season_standings(parse_season(document))

    assert refused.value.errors == ["party 1, pending_games: the party has no closed game 4"]


# The standings' JSON, written and read by the columns of the standings

LINES = st.builds(
    Line,
    rank=st.none() | st.integers(1, 10_000),
    player=st.text(min_size=1, max_size=60),
    games=st.integers(0, 10_000),
    won=st.integers(0, 10_000),
    lost=st.integers(0, 10_000),
    shutout_wins=st.integers(0, 10_000),
    league_points=st.integers(-990_000, 990_000),
    net_points=st.integers(-(10**7), 10**7),
    money=st.decimals(-(10**6), 10**6, places=2, allow_nan=False, allow_infinity=False),
    rating=st.builds(Rating, st.floats(-100, 100), st.floats(0.01, 20)),
)


@given(LINES)
def test_a_line_of_the_standings_json_reads_back_as_it_was_written(line):
    written = json.loads(json.dumps(line_json(line)))

    assert line_from_json(written) == line
    assert list(written) == [column.key for column in RESULT_COLUMNS] + ["rating"]
    assert list(written["rating"]) == [column.key for column in RATING_COLUMNS]
    assert isinstance(written["money"], str)


def test_a_seasons_standings_json_reads_back_the_same_standings():
    season = parse_season(
        {
            "points": {"win": 3, "shutout_win": 5, "loss": -1},
            "min_games": 2,
            "parties": [json.loads((RECORDS / f"{name}.json").read_text()) for name in KINDS],
        }
    )
    table = season_standings(season)
    data = json.loads(json.dumps(standings_json(table)))

    read = standings_from_json(data)

    assert read.lines == table.lines
    assert read.head_to_head == table.head_to_head
    assert standings_json(read) == data
