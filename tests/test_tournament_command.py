"""``manage.py tournament FILE --format json|text``: the state of a tournament document,
or one ``error: ...`` line per problem and status 2 (no test here touches the database)."""

import json

import pytest

from tests.commands import ROOT, Run, manage, run
from tests.sheets.helpers import text_of

FORMAT = "scorekeeper-tournament/1"
EIGHT = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gus", "Hans"]


def document(**fields) -> dict:
    return {"format": FORMAT, "name": "Club championship", "system": "single_elimination",
            "players": EIGHT, "results": []} | fields  # fmt: skip


def tournament(doc: dict, *args: str) -> Run:
    return run("tournament", "-", *args, stdin=json.dumps(doc).encode())


def test_the_state_of_a_single_elimination_as_json():
    result = tournament(document(results=[{"match": "W1-2", "winner": "Emil"}]))
    assert result.status == 0, result.err
    assert result.err == ""
    state = json.loads(result.out)
    assert state["champion"] is None and state["standings"] == []
    assert state["matches"][:2] == [
        {"id": "W1-1", "stage": "winners", "round": 1, "players": ["Anna", "Hans"],
         "winner": None, "playable": True, "bye": False},
        {"id": "W1-2", "stage": "winners", "round": 1, "players": ["Dora", "Emil"],
         "winner": "Emil", "playable": False, "bye": False},
    ]  # fmt: skip
    assert state["matches"][4] == {
        "id": "W2-1", "stage": "winners", "round": 2, "players": [None, "Emil"],
        "winner": None, "playable": False, "bye": False,
    }  # fmt: skip
    assert result.out == json.dumps(state, indent=2, ensure_ascii=False) + "\n"


def test_a_finished_tournament_names_its_champion_and_every_place():
    results = [{"match": m, "winner": w} for m, w in [
        ("W1-1", "Anna"), ("W1-2", "Dora"), ("W1-3", "Ben"), ("W1-4", "Carl"),
        ("W2-1", "Anna"), ("W2-2", "Carl"), ("3P", "Dora"), ("W3-1", "Carl"),
    ]]  # fmt: skip
    state = json.loads(tournament(document(third_place=True, results=results)).out)
    assert state["champion"] == "Carl"
    assert state["standings"] == [
        {"place": 1, "players": ["Carl"]},
        {"place": 2, "players": ["Anna"]},
        {"place": 3, "players": ["Dora"]},
        {"place": 4, "players": ["Ben"]},
        {"place": 5, "players": ["Emil", "Fritz", "Gus", "Hans"]},
    ]


def test_a_bye_has_its_one_player_as_winner():
    state = json.loads(tournament(document(players=EIGHT[:3])).out)
    assert state["matches"][0] == {
        "id": "W1-1", "stage": "winners", "round": 1, "players": ["Anna"],
        "winner": "Anna", "playable": False, "bye": True,
    }  # fmt: skip


def test_the_text_format_lists_the_rounds_and_the_standings():
    doc = document(system="swiss", players=EIGHT[:4], rounds=1, seed=7, results=[
        {"match": "S1-1", "winner": "Anna"}, {"match": "S1-2", "winner": "Dora"}])  # fmt: skip
    result = tournament(doc, "--format", "text")
    assert result.status == 0, result.err
    assert result.out.splitlines() == [
        "Club championship: swiss, 4 players",
        "",
        "Round 1",
        "  S1-1  Anna v Carl: Anna won",
        "  S1-2  Ben v Dora: Dora won",
        "",
        "Swiss table (place, player, score, Buchholz)",
        "    1. Anna  1  0",
        "    2. Dora  1  0",
        "    3. Ben  0  1",
        "    4. Carl  0  1",
        "",
        "Champion: Anna",
        "Standings",
        "    1. Anna",
        "    2. Dora",
        "    3. Ben",
        "    4. Carl",
    ]


def test_a_swiss_pairs_a_withdrawn_player_in_no_round_paired_after_he_withdrew():
    results = [{"match": "S1-1", "winner": "Anna"}, {"match": "S1-2", "winner": "Dora"}]
    doc = document(system="swiss", players=EIGHT[:4], rounds=2, seed=7, results=results,
                   withdrawn=[{"player": "Carl", "after": 1}])  # fmt: skip
    state = json.loads(tournament(doc).out)
    second = [(m["players"], m["bye"]) for m in state["matches"] if m["round"] == 2]
    assert second == [(["Anna", "Dora"], False), (["Ben"], True)]
    assert state["withdrawn"] == ["Carl"]
    # Withdrawn once round 1 was over, round 2 had been paired: his match there stays,
    # for its result to say he forfeited it.
    doc["withdrawn"] = [{"player": "Carl", "after": 2}]
    state = json.loads(tournament(doc).out)
    assert [m["players"] for m in state["matches"] if m["round"] == 2] == [
        ["Anna", "Dora"],
        ["Ben", "Carl"],
    ]
    text = tournament(doc, "--format", "text").out.splitlines()
    assert "    4. Carl (withdrawn)  0  1" in text and "Withdrawn: Carl" in text


def test_a_file_is_read_and_the_real_command_prints_names_outside_ascii(tmp_path):
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(document(players=["Zoë", "Jürgen"]), ensure_ascii=False))
    result = manage("tournament", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["matches"][0]["players"] == ["Zoë", "Jürgen"]
    assert result.stderr == b""


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"players": ["Anna", "Ben", "Anna"]}, "players: Anna is named twice"),
        ({"players": ["Anna"]}, "players: a tournament needs at least 2 players, not 1"),
        (
            {"system": "knockout"},
            "unknown system 'knockout': choose single_elimination, double_elimination, "
            "round_robin or swiss",
        ),
        (
            {"results": [{"match": "W9-1", "winner": "Anna"}]},
            "result 1: there is no match W9-1 in this tournament",
        ),
        (
            {"results": [{"match": "W1-1", "winner": "Ben"}]},
            "result 1: Ben is not a player of W1-1 (Anna v Hans)",
        ),
        (
            {"results": [{"match": "W2-1", "winner": "Anna"}]},
            "result 1: W2-1 is not playable yet: its players are not known",
        ),
        (
            {"system": "swiss", "rounds": 3, "top_cut": 6},
            "top_cut: the best 2, 4, 8, ... go on, at most the 8 players, not 6",
        ),
        (
            {"system": "swiss", "rounds": 3, "top_cut": 16},
            "top_cut: the best 2, 4, 8, ... go on, at most the 8 players, not 16",
        ),
        ({"system": "swiss"}, "rounds: 8 players play from 1 to 7 Swiss rounds, not 0"),
        ({"rounds": 3}, "rounds: a single_elimination has no rounds: leave it out"),
        ({"format": "scorekeeper/1"}, "unknown format 'scorekeeper/1': expected " + repr(FORMAT)),
        ({"third_place": "yes"}, "third_place must be true or false, not 'yes'"),
        ({"seed": -1}, "seed must be at least 0, not -1"),
        (
            {"colour": "red"},
            "unknown key 'colour': a tournament has format, name, system, "
            "players, rounds, top_cut, third_place, consolation, seed, results, withdrawn",
        ),  # fmt: skip
        (
            {"results": [{"match": "W1-1"}, 7]},
            'result 2: a result is {"match": "W1-2", "winner": "Ben"}, not 7',
        ),  # fmt: skip
        ({"players": ["Anna", " Ben"]}, "players: ' Ben' begins or ends with a space: remove it"),
        (
            {"withdrawn": [{"player": "Zoë", "after": 0}]},
            "withdrawn 1: 'Zoë' is not a player of the tournament",
        ),
        (
            {"withdrawn": [{"player": "Ben", "after": 0}, {"player": "Ben", "after": 0}]},
            "withdrawn 2: Ben withdrew once already",
        ),
        (
            {"withdrawn": [{"player": "Ben", "after": 3}]},
            "withdrawn 1: Ben withdrew after 3 results, but 0 were given",
        ),
        (
            {"withdrawn": [{"player": "Ben", "after": -1}]},
            "withdrawn 1: after must be at least 0, not -1",
        ),
        (
            {"withdrawn": [{"player": "Ben"}]},
            'withdrawn 1: a withdrawal is {"player": "Ben", "after": 4} (the number of results '
            "given before it), not {'player': 'Ben'}",
        ),  # fmt: skip
    ],
)
def test_bad_input_is_one_error_line_and_status_2(fields, line):
    result = tournament(document(**fields))
    assert (result.status, result.out) == (2, "")
    assert result.err == f"error: {line}\n"


def test_a_correction_that_later_results_depend_on_names_the_matches_to_void():
    played = [("W1-1", "Anna"), ("W1-2", "Dora"), ("W2-1", "Anna"), ("W1-1", "Hans")]
    results = [{"match": m, "winner": w} for m, w in played]
    result = tournament(document(results=results))
    assert result.status == 2
    assert result.err == (
        "error: result 4: W1-1's result cannot change while W2-1 depends on it: void W2-1 first\n"
    )
    results[3:3] = [{"match": "W2-1", "winner": None}]
    state = json.loads(tournament(document(results=results)).out)
    assert state["matches"][0]["winner"] == "Hans"


def test_every_problem_of_a_document_is_its_own_line():
    result = tournament(document(system="swiss", players=["Anna", "Anna", "Ben"], top_cut=3))
    assert result.status == 2
    assert result.err.splitlines() == [
        "error: players: Anna is named twice",
        "error: rounds: 3 players play from 1 to 3 Swiss rounds, not 0",
        "error: top_cut: the best 2, 4, 8, ... go on, at most the 3 players, not 3",
    ]


@pytest.mark.parametrize(
    ("stdin", "line"),
    [
        (b'{"system": ', "error: broken JSON at line 1 column 12: Expecting value"),
        (b"[1]", "error: a tournament is a JSON object with system, players and results"),
        (b"[" * 40 + b"]" * 40, "error: the JSON nests deeper than 32 levels"),
    ],
)
def test_text_that_is_no_tournament_is_one_line_and_status_2(stdin, line):
    result = run("tournament", "-", stdin=stdin)
    assert (result.status, result.err) == (2, line + "\n")


def test_a_missing_file_or_one_not_utf8_is_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("tournament", "no_such_cup.json")
    assert (result.status, result.err) == (
        2,
        "error: cannot read no_such_cup.json: No such file or directory\n",
    )
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Zo\u00eb"]}'.encode("latin-1"))
    result = run("tournament", str(path))
    assert (result.status, result.err) == (2, f"error: cannot read {path}: it is not UTF-8 text\n")


# --format pdf: the bracket or the placings, as the tournament's page prints them


def test_the_bracket_and_the_placings_print_as_pdf(tmp_path):
    results = [{"match": m, "winner": w} for m, w in [
        ("W1-1", "Anna"), ("W1-2", "Dora"), ("W1-3", "Ben"), ("W1-4", "Carl"),
        ("W2-1", "Anna"), ("W2-2", "Carl"), ("W3-1", "Carl"),
    ]]  # fmt: skip
    bracket, placings = tmp_path / "bracket.pdf", tmp_path / "placings.pdf"
    doc = document(results=results)
    assert tournament(doc, "--format", "pdf", "-o", str(bracket)).status == 0
    args = ("--format", "pdf", "--sheet", "placings", "-o", str(placings))
    assert tournament(doc, *args).status == 0
    words = text_of(bracket.read_bytes())
    assert "Club championship" in words and "Champion: Carl" in words and "Carl ✓" in words
    assert "1 Carl 3 0 2 Anna 2 1 3 Ben 1 1 3 Dora 1 1" in text_of(placings.read_bytes())


def test_a_pdf_needs_the_file_to_write():
    result = tournament(document(), "--format", "pdf")
    assert result.status == 2
    assert result.err == "error: --format pdf: name the PDF to write with -o FILE (- for stdout)\n"
