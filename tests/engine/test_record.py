"""Game records (FORMAT.md): the example tallies exactly, and bad records say what is wrong."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from scorekeeper.engine.cards import Card
from scorekeeper.engine.chouette import Chouette
from scorekeeper.engine.game import Game
from scorekeeper.engine.hand import Hand, HandKind
from scorekeeper.engine.hollywood import Hollywood
from scorekeeper.engine.match import Match
from scorekeeper.engine.partnership import Partnership, Round
from scorekeeper.engine.record import (
    Record,
    RecordError,
    loads,
    parse_record,
    record_json,
    replay,
    round_json,
    tally,
)
from scorekeeper.engine.rules import preset
from scorekeeper.engine.three_player import ThreePlayer

RECORDS = Path(__file__).resolve().parent.parent / "records"


def read(name):
    return (RECORDS / name).read_text(encoding="utf-8")


def example():
    return json.loads(read("format_example.json"))


def errors_of(data):
    """The error lines of a record given as JSON data or as text."""
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as error:
        tally(loads(text))
    return error.value.errors


def test_format_example_tallies_to_exactly_the_format_tally():
    assert tally(loads(read("format_example.json"))) == json.loads(
        read("format_example_tally.json")
    )


def test_the_tally_is_plain_json():
    data = tally(loads(read("format_example.json")))
    assert json.loads(json.dumps(data)) == data


def test_format_example_reads_into_engine_values():
    record = loads(read("format_example.json"))
    assert record.kind == "two_player"
    assert record.rules == preset("classic")
    assert record.players == ("Anna", "Ben")
    assert record.first_dealer == "Ben"
    assert record.stake == Decimal("0.05")
    assert [h.kind for h in record.hands] == [
        HandKind.KNOCK,
        HandKind.GIN,
        HandKind.KNOCK,
        HandKind.GIN,
        HandKind.NO_GAME,
        HandKind.KNOCK,
    ]


def test_a_record_with_only_players_is_a_classic_two_player_game_without_stake():
    record = parse_record({"players": ["Anna", "Ben"]})
    assert (record.kind, record.rules, record.stake, record.hands) == (
        "two_player",
        preset("classic"),
        Decimal(0),
        (),
    )


def test_a_running_game_tallies_without_bonuses_and_settles_nothing():
    data = example()
    data["hands"] = data["hands"][:2]
    result = tally(parse_record(data))
    (game,) = result["games"]
    assert (game["closed"], game["winner"], game["net"]) == (False, None, 0)
    assert game["players"]["Anna"] == {
        "points": 22,
        "boxes": 1,
        "box_bonus": 0,
        "game_bonus": 0,
        "shutout_bonus": 0,
        "total": 22,
    }
    assert result["settlement"] == []
    assert result["balances"] == {
        "Anna": {"points": 0, "amount": "0.00"},
        "Ben": {"points": 0, "amount": "0.00"},
    }


def test_a_record_without_stake_settles_points_for_no_money():
    data = example()
    del data["stake"]
    assert tally(parse_record(data))["settlement"] == [
        {"from": "Ben", "to": "Anna", "points": 175, "amount": "0.00"}
    ]


def test_a_stake_among_the_rules_counts_when_the_record_has_none():
    data = example()
    del data["stake"]
    data["rules"] = {"preset": "classic", "stake": "0.10"}
    assert tally(parse_record(data))["settlement"][0]["amount"] == "17.50"


def test_the_modern_preset_changes_the_tally():
    data = example()
    data["rules"] = {"preset": "modern"}
    (game,) = tally(parse_record(data))["games"]
    assert (game["players"]["Anna"]["total"], game["players"]["Ben"]["total"], game["net"]) == (
        281,
        116,
        165,
    )


def test_a_big_gin_hand_of_the_format():
    data = {
        "rules": {"preset": "modern"},
        "players": ["Anna", "Ben"],
        "hands": [{"knocker": "Ben", "big_gin": True, "defender_deadwood": 12}],
    }
    assert tally(parse_record(data))["games"][0]["players"]["Ben"]["points"] == 43


def test_an_oklahoma_hand_of_the_format_carries_its_upcard():
    data = {
        "rules": {"preset": "oklahoma"},
        "players": ["Anna", "Ben"],
        "hands": [
            {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": "7S"}
        ],
    }
    record = parse_record(data)
    assert record.hands[0].upcard == Card.parse("7S")
    assert tally(record)["games"][0]["players"]["Anna"]["points"] == 34


# Bad records: one line per problem, naming the hand where there is one.


def test_broken_json_is_one_error_naming_the_line_and_column():
    assert errors_of(read("broken.json")) == [
        "broken JSON at line 5 column 24: Expecting ',' delimiter"
    ]


def test_a_record_that_is_not_an_object_is_refused():
    assert errors_of([1, 2]) == ["a record is a JSON object with kind, rules, players and hands"]


def test_an_unknown_format_is_refused():
    data = example() | {"format": "scorekeeper/9"}
    assert errors_of(data) == ["unknown format 'scorekeeper/9': expected 'scorekeeper/1'"]


def test_an_unknown_kind_is_refused_naming_the_kinds():
    (line,) = errors_of(example() | {"kind": "poker"})
    assert line.startswith("unknown kind 'poker': choose one of two_player, hollywood")


def test_an_unknown_preset_is_refused():
    (line,) = errors_of(example() | {"rules": {"preset": "canasta"}})
    assert line.startswith("rules: unknown preset 'canasta': choose one of classic")


def test_a_preset_that_is_not_text_is_refused():
    (line,) = errors_of(example() | {"rules": {"preset": ["classic"]}})
    assert line.startswith("rules: unknown preset ['classic']")


def test_an_unknown_rule_parameter_is_refused():
    data = example() | {"rules": {"preset": "classic", "jokers": 2}}
    assert errors_of(data) == ["rules: unknown rule parameter 'jokers'"]


def test_a_bad_rule_value_is_refused():
    data = example() | {"rules": {"preset": "classic", "target": "soon"}}
    assert errors_of(data) == ["rules: target must be a whole number, not 'soon'"]


@pytest.mark.parametrize("players", [["Anna"], ["Anna", "Ben", "Carl"], ["Anna", "Anna"], [], None])
def test_the_wrong_number_of_players_is_refused(players):
    data = example() | {"players": players}
    del data["first_dealer"]
    assert errors_of(data) == ["players: a two-player record names two different players"]


def test_an_unknown_first_dealer_is_refused():
    data = example() | {"first_dealer": "Carl"}
    assert errors_of(data) == ["first_dealer: 'Carl' is not one of the players"]


@pytest.mark.parametrize("stake", ["-1", "lots", True, "NaN"])
def test_a_stake_that_is_not_money_is_refused(stake):
    (line,) = errors_of(example() | {"stake": stake})
    assert line.startswith("stake: ")


def test_an_unknown_player_names_the_hand():
    assert errors_of(read("unknown_player.json")) == [
        "hand 3: 'Carl' is not a player of this game: choose Anna or Ben"
    ]


def test_a_knock_over_the_limit_names_the_hand():
    assert errors_of(read("knock_over_limit.json")) == [
        "hand 2: a knock with 12 deadwood is over the knock limit of 10"
    ]


def test_a_hand_after_the_game_closed_names_the_hand():
    assert errors_of(read("hand_after_close.json")) == [
        "hand 7: the game is over: Anna reached 101 of 100"
    ]


def test_every_bad_hand_is_its_own_error_line():
    data = example()
    data["hands"] = [
        {"knocker": "Anna", "knocker_deadwood": 11, "defender_deadwood": 30},
        {"knocker": "Anna", "knocker_deadwood": 2, "defender_deadwood": 30},
        {"knocker": "Ben", "gin": True, "knocker_deadwood": 3, "defender_deadwood": 30},
        {"knocker": "Carl", "knocker_deadwood": 2, "defender_deadwood": 30},
    ]
    with pytest.raises(RecordError) as error:
        tally(parse_record(data))
    assert error.value.errors == [
        "hand 1: a knock with 11 deadwood is over the knock limit of 10",
        "hand 3: a gin has no deadwood, but the knocker's is 3",
        "hand 4: 'Carl' is not a player of this game: choose Anna or Ben",
    ]
    assert str(error.value) == "\n".join(error.value.errors)


def test_record_errors_and_hand_errors_are_reported_together():
    data = example() | {"kind": "poker", "rules": {"preset": "classic", "jokers": 2}}
    data["hands"] = [{"knocker": "Anna", "knocker_deadwood": 2, "defender_deadwood": 3}, "gin"]
    lines = errors_of(data)
    assert len(lines) == 3
    assert lines[1:] == [
        "rules: unknown rule parameter 'jokers'",
        "hand 2: a hand is a JSON object",
    ]


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ({"knocker_deadwood": 3, "defender_deadwood": 20}, "hand 1: say who knocked"),
        ({"knocker": "Anna", "defender_deadwood": 20}, "hand 1: the knocker's deadwood is missing"),
        (
            {"knocker": "Anna", "knocker_deadwood": -3, "defender_deadwood": 20},
            "hand 1: the knocker's",
        ),
        (
            {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 99},
            "hand 1: the defender's",
        ),
        (
            {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 9.5},
            "hand 1: the defender's",
        ),
        ({"knocker": "Anna", "big_gin": True, "defender_deadwood": 12}, "hand 1: big gin is not"),
        (
            {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 9, "upcard": "1X"},
            "hand 1: '1X'",
        ),
    ],
)
def test_a_hand_that_cannot_have_happened_names_the_hand(hand, message):
    data = example()
    data["hands"] = [hand]
    (line,) = errors_of(data)
    assert line.startswith(message)


def test_a_missing_upcard_under_oklahoma_names_the_hand():
    data = example() | {"rules": {"preset": "oklahoma"}}
    data["hands"] = [
        {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": "7S"},
        {"knocker": "Ben", "gin": True, "defender_deadwood": 20},
    ]
    assert errors_of(data) == ["hand 2: Oklahoma rules need the upcard of every scored hand"]


# Export: record_json writes what parse_record reads.


def test_record_json_and_parse_round_trip_the_format_example():
    record = loads(read("format_example.json"))
    assert parse_record(json.loads(json.dumps(record_json(record)))) == record


def test_record_json_and_parse_round_trip_oklahoma_with_overrides():
    record = Record(
        kind="two_player",
        rules=preset("oklahoma", oklahoma_ace="one", extra_boxes_gin=2, big_gin_bonus=50),
        players=("Anna", "Ben"),
        first_dealer=None,
        stake=Decimal("0.125"),
        hands=(
            Hand.knock(3, 20, knocker="Anna", upcard=Card.parse("7S")),
            Hand.gin(12, knocker="Ben", upcard=Card.parse("AH")),
            Hand.no_game(),
            Hand.gin(30, knocker="Ben", upcard=Card.parse("TD"), big=True),
        ),
    )
    text = json.dumps(record_json(record))
    read_back = loads(text)
    # Compared as written: Hand.gin() says knocker_deadwood=0 where a record leaves it out.
    assert record_json(read_back) == record_json(record)
    assert (read_back.rules, read_back.stake, read_back.players) == (
        record.rules,
        record.stake,
        record.players,
    )
    assert [h.upcard for h in read_back.hands] == [h.upcard for h in record.hands]
    assert tally(read_back) == tally(record)


def test_record_json_writes_the_format_names_and_only_the_changed_rules():
    record = parse_record(example() | {"rules": {"preset": "classic", "target": 250}})
    data = record_json(record)
    assert data["format"] == "scorekeeper/1"
    assert data["rules"] == {"preset": "classic", "target": 250}
    assert data["stake"] == "0.05"
    assert data["hands"] == example()["hands"]


# Every kind of session: Hollywood, match, partnership, chouette and three-player
# records (RULES.md §4, §6, §7).

KIND_RECORDS = ["hollywood", "match", "partnership", "chouette", "three_player"]


def kind_record(kind):
    return json.loads(read(f"{kind}.json"))


@pytest.mark.parametrize("kind", KIND_RECORDS)
def test_each_kinds_record_tallies_exactly_to_its_checked_tally(kind):
    # The *_tally.json files were checked by hand against RULES.md (figures below).
    assert tally(loads(read(f"{kind}.json"))) == json.loads(read(f"{kind}_tally.json"))


@pytest.mark.parametrize(
    ("kind", "session_type"),
    [
        ("two_player", Game),
        ("hollywood", Hollywood),
        ("match", Match),
        ("partnership", Partnership),
        ("chouette", Chouette),
        ("three_player", ThreePlayer),
    ],
)
def test_replay_gives_the_kinds_session(kind, session_type):
    name = "format_example.json" if kind == "two_player" else f"{kind}.json"
    record = loads(read(name))
    assert isinstance(replay(record), session_type)
    assert replay(record).kind == kind


def test_hollywood_tallies_three_games_and_doubles_game_3_in_the_settlement_only():
    result = tally(loads(read("hollywood.json")))
    assert [g["number"] for g in result["games"]] == [1, 2, 3]
    assert [g["net"] for g in result["games"]] == [208, 202, 160]
    assert [g["players"]["You"]["boxes"] for g in result["games"]] == [5, 4, 4]
    assert result["settlement"][2] == {"from": "Opp", "to": "You", "points": 320, "amount": "32.00"}
    assert result["balances"]["You"] == {"points": 730, "amount": "73.00"}


def test_a_running_hollywood_session_tallies_three_running_games():
    data = kind_record("hollywood")
    data["hands"] = data["hands"][:7]
    result = tally(parse_record(data))
    assert [g["players"]["You"]["points"] for g in result["games"]] == [80, 62, 37]
    assert [g["players"]["Opp"]["points"] for g in result["games"]] == [62, 50, 20]
    assert [g["closed"] for g in result["games"]] == [False, False, False]
    assert result["settlement"] == []


def test_match_tallies_each_game_and_the_match():
    result = tally(loads(read("match.json")))
    assert [(g["winner"], g["net"]) for g in result["games"]] == [
        ("Anna", 175),
        ("Ben", 338),
        ("Anna", 330),
    ]
    assert result["match"] == {"best_of": 3, "games_won": {"Anna": 2, "Ben": 1}, "winner": "Anna"}
    assert [line["amount"] for line in result["settlement"]] == ["8.75", "16.90", "16.50"]
    assert result["balances"]["Anna"] == {"points": 167, "amount": "8.35"}


def test_a_match_whose_next_game_has_not_started_lists_only_the_games_played():
    data = kind_record("match")
    data["hands"] = data["hands"][:6]
    result = tally(parse_record(data))
    assert len(result["games"]) == 1
    assert result["match"] == {"best_of": 3, "games_won": {"Anna": 1, "Ben": 0}, "winner": None}


def test_partnership_tallies_the_team_columns_and_settles_opposite_numbers():
    result = tally(loads(read("partnership.json")))
    (game,) = result["games"]
    assert list(game["players"]) == ["Anna & Clara", "Ben & Dan"]
    assert (game["players"]["Anna & Clara"]["total"], game["players"]["Ben & Dan"]["total"]) == (
        290,
        70,
    )
    assert result["teams"] == [["Anna", "Clara"], ["Ben", "Dan"]]
    assert result["next_dealer"] == ["Ben", "Dan"]
    assert result["settlement"] == [
        {"from": "Ben", "to": "Anna", "points": 220, "amount": "11.00"},
        {"from": "Dan", "to": "Clara", "points": 220, "amount": "11.00"},
    ]


def test_partnership_hands_are_read_as_rounds():
    record = loads(read("partnership.json"))
    assert all(isinstance(entry, Round) for entry in record.hands)
    assert record.hands[2].tables[0] == Hand.no_game()
    assert round_json(record.hands[0]) == kind_record("partnership")["hands"][0]


@pytest.mark.parametrize("kind", KIND_RECORDS)
def test_record_json_parse_and_tally_round_trip_every_kind(kind):
    record = loads(read(f"{kind}.json"))
    written = json.loads(json.dumps(record_json(record)))
    assert written["hands"] == kind_record(kind)["hands"]
    assert parse_record(written) == record
    assert tally(parse_record(written)) == tally(record)


def test_record_json_keeps_the_hollywood_and_match_rule_changes():
    assert record_json(loads(read("hollywood.json")))["rules"] == {
        "preset": "hollywood",
        "hollywood_game3_double": True,
    }
    assert record_json(loads(read("match.json")))["rules"] == {"preset": "classic", "best_of": 3}


def test_a_record_built_with_the_wrong_players_cannot_be_replayed():
    record = Record("partnership", preset("partnership"), ("A", "B"), None, Decimal(0))
    with pytest.raises(RecordError) as error:
        replay(record)
    assert error.value.errors == ["a partnership needs four different player names"]


@pytest.mark.parametrize(
    ("kind", "players", "line"),
    [
        ("hollywood", ["A", "B", "C"], "players: a hollywood record names two different players"),
        ("match", ["A"], "players: a match record names two different players"),
        ("partnership", ["A", "B"], "players: a partnership record names four different players"),
        (
            "partnership",
            ["A", "B", "C", "A"],
            "players: a partnership record names four different players",
        ),
        (
            "chouette",
            ["X", "X"],
            "players: a chouette record names three to eight different players",
        ),
        (
            "chouette",
            ["X", "Y"],
            "players: a chouette record names three to eight different players",
        ),
        (
            "chouette",
            list("ABCDEFGHI"),
            "players: a chouette record names three to eight different players",
        ),
        (
            "three_player",
            ["X", "Y"],
            "players: a three-player record names three different players",
        ),
        (
            "three_player",
            ["P", "Q", "R", "S"],
            "players: a three-player record names three different players",
        ),
        ("poker", ["X", "X"], "players: give the players as a list of different names"),
    ],
)
def test_the_wrong_players_for_the_kind_are_refused(kind, players, line):
    data = {"kind": kind, "players": players}
    assert line in errors_of(data)


def test_a_partnership_first_dealer_may_be_any_of_the_four():
    data = kind_record("partnership") | {"first_dealer": "Clara", "hands": []}
    assert tally(parse_record(data))["next_dealer"] == ["Anna", "Clara"]
    (line,) = errors_of(data | {"first_dealer": "Eve"})
    assert line == "first_dealer: 'Eve' is not one of the players"


def test_a_bad_partnership_hand_names_its_round_and_table():
    data = kind_record("partnership")
    data["hands"][1]["tables"][1]["knocker"] = "Anna"
    data["hands"][2]["tables"][0] = {
        "knocker": "Ben",
        "knocker_deadwood": 12,
        "defender_deadwood": 30,
    }
    assert errors_of(data) == [
        "hand 2, table 2: 'Anna' is not a player of this table: choose Clara or Dan",
        "hand 3, table 1: a knock with 12 deadwood is over the knock limit of 10",
    ]


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        (
            {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 15},
            "hand 1: a partnership hand is a round",
        ),
        ({"tables": [{"no_game": True}]}, "hand 1: a partnership hand is a round"),
        ({"tables": ["gin", {"no_game": True}]}, "hand 1, table 1: a hand is a JSON object"),
        (
            {
                "tables": [
                    {"no_game": True},
                    {"knocker": "Dan", "gin": True, "defender_deadwood": 3, "upcard": "1X"},
                ]
            },
            "hand 1, table 2: '1X' is not a card",
        ),
        (
            {"tables": [{"no_game": True}, {"knocker_deadwood": 3}]},
            "hand 1, table 2: say who knocked",
        ),
    ],
)
def test_a_malformed_round_names_its_round_and_table(entry, line):
    data = kind_record("partnership") | {"hands": [entry]}
    (error,) = errors_of(data)
    assert error.startswith(line)


def test_a_round_after_the_partnership_game_closed_names_the_round():
    data = kind_record("partnership")
    data["hands"].append({"tables": [{"no_game": True}, {"no_game": True}]})
    assert errors_of(data) == ["hand 5: the game is over: Anna & Clara reached 130 of 125"]


def test_a_hand_after_the_match_is_won_names_the_hand():
    data = kind_record("match")
    data["hands"].append({"knocker": "Ben", "gin": True, "defender_deadwood": 10})
    assert errors_of(data) == ["hand 9: the match is over: Anna won 2 of 3 games"]


def test_a_hand_after_the_hollywood_session_names_the_hand():
    data = kind_record("hollywood")
    data["hands"].append({"no_game": True})
    assert errors_of(data) == ["hand 11: the Hollywood session is over: all three games are closed"]


# Chouette and three-player records (RULES.md §6, §10.10, §10.11).


def test_chouette_tallies_each_game_with_its_box_and_team():
    # Checked by hand: game 1 Anna 105 + 5 × 20 + 100 = 305 v team 10 + 20 = 30;
    # game 2 team 105 + 3 × 20 + 100 = 265 v Anna 10 + 20 = 30; game 3 running.
    result = tally(loads(read("chouette.json")))
    assert [(g["box"], g["winner"], g["net"], g["closed"]) for g in result["games"]] == [
        ("Anna", "Anna", 275, True),
        ("Anna", "team", 235, True),
        ("Dan", None, 0, False),
    ]
    assert [g["team"] for g in result["games"]] == [
        ["Ben", "Clara", "Dan", "Eva"],
        ["Clara", "Dan", "Eva", "Ben"],
        ["Eva", "Ben", "Clara", "Anna"],
    ]
    assert list(result["games"][2]["players"]) == ["Dan", "team"]
    assert result["games"][2]["players"]["team"]["points"] == 16


def test_chouette_settles_box_against_each_member_at_his_stake():
    result = tally(loads(read("chouette.json")))
    assert [(s["from"], s["to"], s["amount"]) for s in result["settlement"]] == [
        ("Ben", "Anna", "13.75"),
        ("Clara", "Anna", "13.75"),
        ("Dan", "Anna", "27.50"),  # Dan plays at 0.10, everyone else at 0.05
        ("Eva", "Anna", "13.75"),
        ("Anna", "Clara", "11.75"),
        ("Anna", "Dan", "23.50"),
        ("Anna", "Eva", "11.75"),
        ("Anna", "Ben", "11.75"),
    ]
    assert result["balances"]["Anna"] == {"points": 160, "amount": "10.00"}
    assert result["balances"]["Dan"] == {"points": -40, "amount": "-4.00"}
    assert result["transfers"] == [
        {"from": "Ben", "to": "Anna", "amount": "2.00"},
        {"from": "Clara", "to": "Anna", "amount": "2.00"},
        {"from": "Dan", "to": "Anna", "amount": "4.00"},
        {"from": "Eva", "to": "Anna", "amount": "2.00"},
    ]


def test_chouette_tally_gives_the_roles_of_the_next_hand():
    result = tally(loads(read("chouette.json")))
    assert result["roles"] == {
        "box": "Dan",
        "captain": "Eva",
        "out": ["Ben", "Clara", "Anna"],
        "team": ["Eva", "Ben", "Clara", "Anna"],
    }
    assert result["next_dealer"] == "Dan"


def test_chouette_roles_for_the_next_game_once_a_game_closed():
    data = kind_record("chouette")
    data["hands"] = data["hands"][:10]
    result = tally(parse_record(data))
    assert result["roles"]["box"] == "Dan"
    assert result["next_dealer"] == "Eva"
    assert len(result["games"]) == 2  # game 3 starts with its first hand


def test_chouette_stakes_are_read_and_written():
    record = loads(read("chouette.json"))
    assert record.stakes == {"Dan": Decimal("0.10")}
    assert record_json(record)["stakes"] == {"Dan": "0.10"}
    assert "stakes" not in record_json(loads(read("three_player.json")))


def test_chouette_stakes_for_every_member_need_no_stake():
    data = kind_record("chouette")
    del data["stake"]
    data["stakes"] = {name: "0.01" for name in data["players"]}
    result = tally(parse_record(data))
    assert {s["amount"] for s in result["settlement"]} == {"2.75", "2.35"}


@pytest.mark.parametrize(
    ("kind", "stakes", "line"),
    [
        ("chouette", {"Zed": "0.10"}, "stakes: 'Zed' is not one of the players"),
        ("chouette", {"Dan": "lots"}, "stakes: Dan: 'lots' is not a money amount per point"),
        ("chouette", {"Dan": "-1"}, "stakes: Dan: '-1' is not a money amount per point"),
        ("chouette", ["Dan"], "stakes: give each player's stake per point"),
        ("three_player", {"Paula": "0.10"}, "stakes: a stake per player is for a chouette"),
    ],
)
def test_bad_stakes_are_refused(kind, stakes, line):
    data = kind_record(kind) | {"stakes": stakes}
    (error,) = errors_of(data)
    assert error.startswith(line)


@pytest.mark.parametrize("knocker", ["Anna", "Zed"])
def test_a_chouette_knocker_not_at_the_table_names_the_hand_and_who_is(knocker):
    data = kind_record("chouette")
    data["hands"][10]["knocker"] = knocker  # game 3: Dan boxes, Eva captains
    assert errors_of(data) == [
        f"hand 11: {knocker!r} is not at the table: Dan (box) plays Eva (captain)"
    ]


def test_a_chouette_first_dealer_must_be_the_first_captain():
    data = kind_record("chouette") | {"first_dealer": "Anna"}
    assert errors_of(data) == [
        "in a chouette the first captain deals the first hand: the first dealer is Ben, not 'Anna'"
    ]
    assert tally(parse_record(data | {"first_dealer": "Ben"})) == tally(
        parse_record(kind_record("chouette"))
    )


def test_a_player_called_team_cannot_sit_in_a_chouette():
    data = kind_record("chouette") | {"players": ["Anna", "team", "Clara"], "hands": []}
    del data["stakes"]
    assert errors_of(data) == ["a chouette player cannot be called 'team': it names the team"]


def test_three_player_tallies_individual_columns_and_pairs():
    # Checked by hand: Paula 100 + 2 × 20 + 100 + shutout 100 (Quinn at 0) = 340,
    # Quinn 0, Rita 27 + 2 × 20 = 67; pairs 340, 240 − 67 = 173, 67.
    result = tally(loads(read("three_player.json")))
    (game,) = result["games"]
    assert {name: f["total"] for name, f in game["players"].items()} == {
        "Paula": 340,
        "Quinn": 0,
        "Rita": 67,
    }
    assert (game["winner"], game["shutout"], game["shut_out"], game["net"]) == (
        "Paula",
        True,
        ["Quinn"],
        513,
    )
    assert [(s["from"], s["to"], s["points"], s["amount"]) for s in result["settlement"]] == [
        ("Quinn", "Paula", 340, "17.00"),
        ("Rita", "Paula", 173, "8.65"),
        ("Quinn", "Rita", 67, "3.35"),
    ]
    assert result["transfers"] == [
        {"from": "Quinn", "to": "Paula", "amount": "20.35"},
        {"from": "Rita", "to": "Paula", "amount": "5.30"},
    ]


def test_three_player_roles_name_the_player_out():
    data = kind_record("three_player")
    expected = [
        {"box": "Paula", "captain": "Quinn", "out": "Rita"},
        {"box": "Paula", "captain": "Rita", "out": "Quinn"},
        {"box": "Rita", "captain": "Quinn", "out": "Paula"},
        {"box": "Rita", "captain": "Quinn", "out": "Paula"},  # after the no game
        {"box": "Rita", "captain": "Paula", "out": "Quinn"},
        {"box": "Paula", "captain": "Quinn", "out": "Rita"},
    ]
    for played, roles in enumerate(expected):
        result = tally(parse_record(data | {"hands": data["hands"][:played]}))
        assert (result["roles"], result["next_dealer"]) == (roles, roles["box"])


def test_the_player_out_cannot_knock_in_a_three_player_record():
    data = kind_record("three_player")
    data["hands"][1]["knocker"] = "Quinn"
    assert (
        errors_of(data)[0]
        == "hand 2: 'Quinn' is not at the table: Paula (box) plays Rita (captain)"
    )


def test_a_hand_after_the_three_player_game_names_the_hand():
    data = kind_record("three_player")
    data["hands"].append({"no_game": True})
    assert errors_of(data) == ["hand 6: the game is over: Paula reached 100 of 100"]


def test_three_player_first_dealer_must_be_the_box():
    data = kind_record("three_player") | {"first_dealer": "Rita"}
    assert errors_of(data) == [
        "in a three-player rotation the box deals every hand: the first dealer is Paula, not 'Rita'"
    ]


def test_two_player_kinds_have_no_roles_or_transfers():
    result = tally(loads(read("format_example.json")))
    assert "roles" not in result and "transfers" not in result
