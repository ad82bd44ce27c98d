"""``manage.py tally FILE``: the tally of a record as JSON, or error lines and status 2.

The command runs in-process (tests/commands.py), and once as a real process. No test
here has the django_db mark: pytest-django fails any that touches the database.
"""

import json

import pytest

from tests.commands import RECORDS, ROOT, Run, manage, run

EXAMPLE = RECORDS / "format_example.json"


def tally(*args: str, stdin: bytes | None = None) -> Run:
    return run("tally", *args, stdin=stdin)


def expected_tally() -> dict:
    return json.loads((RECORDS / "format_example_tally.json").read_text(encoding="utf-8"))


def test_tally_prints_exactly_the_format_example_tally():
    result = tally(str(EXAMPLE))
    assert result.status == 0, result.err
    assert json.loads(result.out) == expected_tally()
    assert result.err == ""


def test_tally_prints_json_indented_by_two_spaces():
    result = tally(str(EXAMPLE))
    assert result.out == json.dumps(expected_tally(), indent=2) + "\n"


def test_tally_reads_standard_input_for_a_dash():
    result = tally("-", stdin=EXAMPLE.read_bytes())
    assert result.status == 0, result.err
    assert json.loads(result.out) == expected_tally()


def test_tally_on_the_terminal_keeps_names_outside_ascii_as_they_are():
    """The real entry point: UTF-8 bytes in on standard input, UTF-8 bytes out."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record = json.loads(json.dumps(record).replace("Anna", "Zoë").replace("Ben", "Jürgen"))
    result = manage("tally", "-", stdin=json.dumps(record, ensure_ascii=False).encode())
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert '"next_dealer": "Jürgen"' in result.stdout.decode()
    assert json.loads(result.stdout)["settlement"] == [
        {"from": "Jürgen", "to": "Zoë", "points": 175, "amount": "8.75"}
    ]


@pytest.mark.parametrize(
    ("record", "line"),
    [
        ("broken.json", "error: broken JSON at line 5 column 24: Expecting ',' delimiter"),
        (
            "knock_over_limit.json",
            "error: hand 2: a knock with 12 deadwood is over the knock limit of 10",
        ),
        (
            "unknown_player.json",
            "error: hand 3: 'Carl' is not a player of this game: choose Anna or Ben",
        ),
        ("hand_after_close.json", "error: hand 7: the game is over: Anna reached 101 of 100"),
    ],
)
def test_a_bad_record_prints_its_error_line_and_exits_with_status_2(record, line):
    result = tally(str(RECORDS / record))
    assert result.status == 2
    assert result.err == line + "\n"
    assert result.out == ""


def test_a_bad_record_on_standard_input_exits_with_status_2():
    result = tally("-", stdin=b'{"players": ["Anna"]}')
    assert result.status == 2
    assert result.err == "error: players: a two-player record names two different players\n"


def test_every_problem_of_a_record_is_its_own_line():
    record = {
        "players": ["Anna", "Ben"],
        "hands": [
            {"knocker": "Anna", "knocker_deadwood": 11, "defender_deadwood": 30},
            {"knocker": "Carl", "knocker_deadwood": 2, "defender_deadwood": 30},
        ],
    }
    result = tally("-", stdin=json.dumps(record).encode())
    assert result.status == 2
    assert result.err.splitlines() == [
        "error: hand 1: a knock with 11 deadwood is over the knock limit of 10",
        "error: hand 2: 'Carl' is not a player of this game: choose Anna or Ben",
    ]


def test_a_missing_file_is_a_clear_message_and_status_2(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = tally("tests/records/no_such_record.json")
    assert result.status == 2
    assert result.err == (
        "error: cannot read tests/records/no_such_record.json: No such file or directory\n"
    )


def test_a_directory_is_not_a_record(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = tally("tests/records")
    assert result.status == 2
    assert result.err.startswith("error: cannot read tests/records: ")


def test_a_file_that_is_not_utf8_is_a_clear_message(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Zo\u00eb", "Ben"]}'.encode("latin-1"))
    result = tally(str(path))
    assert result.status == 2
    assert result.err == f"error: cannot read {path}: it is not UTF-8 text\n"


# Every kind of session: the checked tally of each kind's record (RULES.md §4, §6, §7).


@pytest.mark.parametrize("kind", ["hollywood", "match", "partnership", "chouette", "three_player"])
def test_tally_prints_the_checked_tally_of_each_kind(kind):
    result = tally(str(RECORDS / f"{kind}.json"))
    assert result.status == 0, result.err
    expected = json.loads((RECORDS / f"{kind}_tally.json").read_text(encoding="utf-8"))
    assert json.loads(result.out) == expected
    assert result.err == ""


def test_tally_of_a_hollywood_record_doubles_game_3_in_the_settlement():
    result = json.loads(tally(str(RECORDS / "hollywood.json")).out)
    assert [game["net"] for game in result["games"]] == [208, 202, 160]
    assert [line["amount"] for line in result["settlement"]] == ["20.80", "20.20", "32.00"]


def test_tally_of_a_match_record_names_the_match_winner():
    result = json.loads(tally(str(RECORDS / "match.json")).out)
    assert result["match"] == {"best_of": 3, "games_won": {"Anna": 2, "Ben": 1}, "winner": "Anna"}


def test_tally_of_a_partnership_record_names_both_next_dealers():
    result = json.loads(tally(str(RECORDS / "partnership.json")).out)
    assert result["next_dealer"] == ["Ben", "Dan"]
    assert result["teams"] == [["Anna", "Clara"], ["Ben", "Dan"]]


def test_a_bad_partnership_round_names_its_hand_and_table():
    record = json.loads((RECORDS / "partnership.json").read_text(encoding="utf-8"))
    record["hands"][0]["tables"][1]["knocker"] = "Ben"
    result = tally("-", stdin=json.dumps(record).encode())
    assert result.status == 2
    assert result.err == (
        "error: hand 1, table 2: 'Ben' is not a player of this table: choose Clara or Dan\n"
    )


def test_tally_of_a_chouette_record_settles_the_box_with_each_member():
    result = json.loads(tally(str(RECORDS / "chouette.json")).out)
    assert [(game["box"], game["net"]) for game in result["games"]] == [
        ("Anna", 275),
        ("Anna", 235),
        ("Dan", 0),
    ]
    assert len(result["settlement"]) == 8
    assert result["roles"] == {
        "box": "Dan",
        "captain": "Eva",
        "out": ["Ben", "Clara", "Anna"],
        "team": ["Eva", "Ben", "Clara", "Anna"],
    }
    assert [t["amount"] for t in result["transfers"]] == ["2.00", "2.00", "4.00", "2.00"]


def test_tally_of_a_three_player_record_settles_pairwise():
    result = json.loads(tally(str(RECORDS / "three_player.json")).out)
    assert [line["amount"] for line in result["settlement"]] == ["17.00", "8.65", "3.35"]
    assert result["roles"] == {"box": "Paula", "captain": "Quinn", "out": "Rita"}


def test_a_chouette_knocker_not_at_the_table_names_the_hand_and_who_is():
    record = {
        "kind": "chouette",
        "players": ["X", "Y", "Z"],
        "hands": [
            {"knocker": "Y", "knocker_deadwood": 1, "defender_deadwood": 21},
            {"knocker": "Z", "knocker_deadwood": 1, "defender_deadwood": 21},
        ],
    }
    result = tally("-", stdin=json.dumps(record).encode())
    assert result.status == 2
    assert result.err == "error: hand 2: 'Z' is not at the table: X (box) plays Y (captain)\n"
    assert result.out == ""


def test_a_three_player_record_with_four_players_exits_with_status_2():
    record = {"kind": "three_player", "players": ["P", "Q", "R", "S"]}
    result = tally("-", stdin=json.dumps(record).encode())
    assert result.status == 2
    assert result.err == ("error: players: a three-player record names three different players\n")
