"""``manage.py evaluate``: melds and deadwood of a hand, or a knock played out, as JSON;
bad input gives error lines on standard error and status 2."""

import json

import pytest

from tests.commands import Run, manage, run

KNOCKER = "TH JH QH 4S 4D 4C AC 2C 3C 5H"
DEFENDER = "9H 8H KS KD 7C 7D 2H 6S 9S JC"


def evaluate(*args: str, stdin: str | None = None) -> Run:
    """Run the command in-process: (exit status, stdout, stderr)."""
    return run("evaluate", *args, stdin=stdin)


def test_ten_cards_print_deadwood_melds_and_deadwood_cards():
    status, out, err = evaluate("AS 2S 3S 4S 7H 7D 7C KD QH 5C")
    assert (status, err) == (0, "")
    assert json.loads(out) == {
        "deadwood": 25,
        "melds": [["AS", "2S", "3S", "4S"], ["7H", "7D", "7C"]],
        "deadwood_cards": ["QH", "KD", "5C"],
    }


def test_eleven_cards_add_the_discard_and_big_gin():
    status, out, _ = evaluate("as,2s,3s,4s,7h,7d,7c,kd,qh,5c,6c")
    assert status == 0
    assert json.loads(out) == {
        "deadwood": 21,
        "melds": [["AS", "2S", "3S", "4S"], ["7H", "7D", "7C"]],
        "deadwood_cards": ["QH", "5C", "6C"],
        "discard": "KD",
        "big_gin": False,
    }
    _, out, _ = evaluate("AS 2S 3S 4S 7H 7D 7C 7S 9C TC JC")
    assert (json.loads(out)["discard"], json.loads(out)["big_gin"]) == (None, True)


def test_the_rules_preset_decides_round_the_corner():
    _, out, _ = evaluate("KH AH 2H AS 5D 6D 7D 8C 8D 8S", "--rules", "round_the_corner")
    assert json.loads(out)["deadwood"] == 15
    _, out, _ = evaluate("KH AH 2H AS 5D 6D 7D 8C 8D 8S")
    assert json.loads(out)["deadwood"] == 14


def test_a_knock_prints_both_sides_the_lay_offs_and_the_result():
    status, out, err = evaluate("--knocker", KNOCKER, "--defender", DEFENDER)
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result == {
        "knocker_deadwood": 5,
        "knocker_melds": [["TH", "JH", "QH"], ["AC", "2C", "3C"], ["4S", "4D", "4C"]],
        "knocker_deadwood_cards": ["5H"],
        "discard": None,
        "gin": False,
        "big_gin": False,
        "defender_deadwood_before": 78,
        "defender_deadwood": 61,
        "defender_melds": [],
        "defender_deadwood_cards": ["6S", "9S", "KS", "2H", "7D", "KD", "7C", "JC"],
        "layoffs": [{"card": "9H", "meld": 0}, {"card": "8H", "meld": 0}],
        "result": "knock",
        "points": 56,
        "winner": "knocker",
    }


def test_a_knock_under_oklahoma_takes_the_upcard():
    _, out, _ = evaluate(
        "--knocker", KNOCKER, "--defender", DEFENDER, "--rules", "oklahoma", "--upcard", "5S"
    )
    assert json.loads(out)["points"] == (61 - 5) * 2
    status, _, err = evaluate(
        "--knocker", KNOCKER, "--defender", DEFENDER, "--rules", "oklahoma", "--upcard", "4S"
    )
    assert (status, err) == (2, "error: a knock with 5 deadwood is over the knock limit of 4\n")


def test_the_knocker_melds_can_be_given():
    # Laid down without the run of hearts, the knock leaves 35: refused.
    status, _, err = evaluate(
        "--knocker", KNOCKER, "--defender", DEFENDER, "--knocker-melds", "4S 4D 4C; AC 2C 3C"
    )
    assert (status, err) == (2, "error: a knock with 35 deadwood is over the knock limit of 10\n")
    status, out, err = evaluate(
        "--knocker",
        "TH JH QH 4S 4D 4C AC 2C 3C 4H",
        "--defender",
        DEFENDER,
        "--knocker-melds",
        "TH JH QH | 4S 4D 4C 4H | AC 2C 3C",
    )
    assert (status, err) == (0, "")
    assert json.loads(out)["gin"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["AS 2S 3X"], "error: '3X' is not a card"),
        (["AS 2S 3S"], "error: 3 cards given: a hand here has 10 or 11 cards"),
        (["AS AS 2S 3S 4S 5S 6S 7S 8S 9S"], "error: AS is given twice"),
        ([], "error: give 10 or 11 cards to evaluate, or both --knocker and --defender"),
        (["--knocker", KNOCKER], "error: give 10 or 11 cards to evaluate"),
        (["AS 2S 3S", "--knocker", KNOCKER], "error: give either one hand's cards or"),
        (["--knocker", KNOCKER, "--defender", "5H" + DEFENDER[2:]], "error: 5H is in both"),
        (
            ["--knocker", KNOCKER, "--defender", DEFENDER, "--rules", "nope"],
            "error: unknown preset",
        ),
        (
            ["--knocker", "TH JH QH 4S 4D 4C AC 2C 9C 5H", "--defender", DEFENDER],
            "error: a knock with 17 deadwood is over the knock limit of 10",
        ),
        (
            ["--knocker", KNOCKER, "--defender", DEFENDER, "--knocker-melds", "4S 4D 5H"],
            "error: 4S 4D 5H is not a meld",
        ),
        (["AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "--upcard", "5S"], "error: --upcard and"),
    ],
)
def test_bad_input_says_what_is_wrong_and_exits_2(args, message):
    status, out, err = evaluate(*args)
    assert (status, out) == (2, "")
    assert err.startswith(message), err
    assert err.count("\n") == 1


def test_jsonl_writes_one_result_per_line_and_reports_bad_lines_at_the_end():
    lines = [
        json.dumps(
            {"cards": ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "KD", "QH", "5C"], "id": "a"}
        ),
        "",
        json.dumps({"knocker": KNOCKER, "defender": DEFENDER.split(), "rules": "modern"}),
        "not json",
        json.dumps({"cards": ["AS"]}),
        json.dumps([1, 2]),
        json.dumps({"cards": 5}),
        json.dumps(
            {
                "knocker": KNOCKER,
                "defender": DEFENDER,
                "rules": {"preset": "oklahoma", "spade_double": "off"},
                "upcard": "5S",
            }
        ),
        json.dumps({"cards": "KH AH 2H AS 5D 6D 7D 8C 8D 8S", "rules": "round_the_corner"}),
    ]
    status, out, err = evaluate("--jsonl", stdin="\n".join(lines) + "\n")
    assert status == 2
    results = [json.loads(line) for line in out.splitlines()]
    assert [r.get("id") for r in results] == ["a", None, None, None]
    assert results[0]["deadwood"] == 25
    assert (results[1]["result"], results[1]["points"]) == ("knock", 56)
    assert results[2]["points"] == 56
    assert results[3]["deadwood"] == 15
    assert err.splitlines() == [
        "error: line 4: broken JSON at column 1: Expecting value",
        "error: line 5: 1 card given: a hand here has 10 or 11 cards",
        'error: line 6: each line is a JSON object: {"cards": [...]} '
        'or {"knocker": [...], "defender": [...]}',
        "error: line 7: cards: give card codes as a string or a list of strings",
    ]
    assert all("\n" not in line for line in out.splitlines())


def test_jsonl_with_only_good_lines_exits_0():
    status, out, err = evaluate(
        "--jsonl", stdin=json.dumps({"cards": "AS 2S 3S 4S 7H 7D 7C KD QH 5C"}) + "\n"
    )
    assert (status, err, len(out.splitlines())) == (0, "", 1)


def test_jsonl_refuses_cards_on_the_command_line():
    status, _, err = evaluate("--jsonl", "--knocker", KNOCKER)
    assert (status, err) == (2, "error: --jsonl reads its hands from standard input, not knocker\n")


def test_the_command_runs_without_a_database_and_reads_utf8_bytes():
    """The real entry point: bytes on standard input, card codes with suit symbols in
    the arguments, and a database that cannot be reached."""
    env = {"DATABASE_URL": "postgres://nobody@0.0.0.0:1/x"}
    lines = json.dumps({"cards": "A♠ 2♠ 3♠ 4♠ 7♥ 7♦ 7♣ K♦ Q♥ 5♣"}, ensure_ascii=False) + "\n"
    result = manage(
        "evaluate", "--jsonl", env=env, stdin=b"\xef\xbb\xbf" + lines.encode() + b"\xff\xfe\n"
    )
    assert result.returncode == 2, result.stderr
    assert json.loads(result.stdout)["deadwood"] == 25
    assert result.stderr.decode() == "error: line 2: the line is not UTF-8 text\n"
    single = manage("evaluate", "Q♠ K♠ A♠ 2D 3D 4D 6C 6H 9H 9D", env=env)
    assert single.returncode == 0, single.stderr
    assert json.loads(single.stdout)["deadwood"] == 51
