"""tally, sheet, standings and evaluate under malformed and extreme input: a clear
``error:`` line and status 2, or a good result; never a traceback.

The commands run in-process (tests/commands.py) so that hypothesis can try many inputs;
tests/test_*_command.py and tests/sheets/test_commands.py run each once as a process.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import bounds
from tests.commands import run
from tests.fuzz.strategies import (
    FUZZ,
    RECORD,
    as_text,
    extreme,
    json_values,
    mutated_records,
    record_texts,
)


def assert_clear_refusal_or_result(status: int, out: str, err: str, prints: bool = True) -> Any:
    """Status 2 with ``error:`` lines and nothing printed, or status 0 and JSON (when the
    command ``prints`` its result)."""
    assert status in (0, 2), (status, err)
    if status == 2:
        lines = err.splitlines()
        assert lines, "a refusal says why"
        assert all(line.startswith("error: ") for line in lines), err
        assert "Traceback" not in err
        assert out == ""
        return None
    assert err == ""
    return json.loads(out) if prints else None


@FUZZ
@given(text=record_texts())
def test_tally_refuses_any_bad_record_clearly(text):
    assert_clear_refusal_or_result(*run("tally", "-", stdin=as_text(text)))


@FUZZ
@given(record=mutated_records())
def test_a_tally_that_succeeds_is_within_the_bounds(record):
    result = assert_clear_refusal_or_result(*run("tally", "-", stdin=as_text(json.dumps(record))))
    if result is not None:  # accepted: every amount fits what the database can store
        for line in result["settlement"]:
            assert abs(float(line["amount"])) <= bounds.largest_evening_amount()


@FUZZ
@given(text=record_texts())
def test_sheet_refuses_any_bad_record_clearly(text, tmp_path):
    pdf = tmp_path / "sheet.pdf"
    status, out, err = run("sheet", "-", "-o", str(pdf), stdin=as_text(text))
    assert_clear_refusal_or_result(status, out, err, prints=False)
    if status == 0:
        assert pdf.read_bytes().startswith(b"%PDF")


@FUZZ
@given(title=st.text(max_size=300) | st.sampled_from(["", "x" * 201, "A\x00B", "A\nB"]))
def test_sheet_refuses_a_title_too_long_or_unprintable(title, tmp_path):
    pdf = tmp_path / "sheet.pdf"
    status, out, err = run(
        "sheet", "-", "-o", str(pdf), "--title", as_text(title), stdin=json.dumps(RECORD)
    )
    assert_clear_refusal_or_result(status, out, err, prints=False)
    if len(title.strip()) > bounds.MAX_TITLE_LENGTH or not title.strip():
        assert status == 2 and "--title" in err


def season_records() -> st.SearchStrategy[dict]:
    """Mutated records as a season holds them, some naming pending games."""
    pending = st.lists(extreme | st.integers(0, 4), max_size=3) | extreme
    return st.builds(
        lambda record, games: record if games is None else record | {"pending_games": games},
        mutated_records(),
        st.none() | pending,
    )


@FUZZ
@given(
    season=st.fixed_dictionaries(
        {"parties": st.lists(season_records(), min_size=1, max_size=2)},
        optional={
            "points": st.dictionaries(
                st.sampled_from(["win", "shutout_win", "loss", "draw"]), extreme, max_size=3
            )
            | extreme,
            "min_games": extreme,
            "confirmed_games_only": extreme,
            "name": extreme,
            "format": extreme,
        },
    )
)
def test_standings_refuses_any_bad_season_clearly(season):
    assert_clear_refusal_or_result(*run("standings", "-", stdin=as_text(json.dumps(season))))


@FUZZ
@given(text=record_texts())
def test_standings_refuses_any_text_clearly(text):
    assert_clear_refusal_or_result(*run("standings", "-", stdin=as_text(text)))


CARDS = "AS 2S 3S 4S 7H 7D 7C KD QH 5C"
lines = (
    json_values.map(json.dumps)
    | st.fixed_dictionaries(
        {},
        optional={
            "cards": extreme | st.just(CARDS),
            "knocker": extreme | st.just(CARDS + " 9D"),
            "defender": extreme | st.just("TH JH QH 4D 4H 8S 8C 9H 2D 6C"),
            "rules": extreme | st.sampled_from(["classic", "oklahoma", {"target": 10**15}]),
            "upcard": extreme,
            "knocker_melds": extreme,
            "id": extreme,
        },
    ).map(json.dumps)
    | st.sampled_from(["[" * 1000, '{"cards": ' + "1" * 5000 + "}", "x" * 200_000])
)


@FUZZ
@given(batch=st.lists(lines, min_size=1, max_size=4))
def test_evaluate_jsonl_answers_or_refuses_every_line(batch):
    status, out, err = run("evaluate", "--jsonl", stdin=as_text("\n".join(batch) + "\n"))
    assert status in (0, 2)
    assert "Traceback" not in err
    assert all(line.startswith("error: line ") for line in err.splitlines()), err
    for line in out.splitlines():
        json.loads(line)  # every result a line of JSON


@FUZZ
@given(cards=st.text(max_size=60) | st.sampled_from(["AS " * 1000, "\x00", "10" * 600]))
def test_evaluate_refuses_any_cards_clearly(cards):
    assert_clear_refusal_or_result(*run("evaluate", as_text(cards)))


# What the terminal shows: one error line, never a traceback.


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"[" * 100_000, "error: the JSON nests deeper than 32 levels"),
        (b'{"stake": ' + b"1" * 5000 + b"}", "error: the number 111111111111"),
        (b'{"players": ["\\ud800", "B"]}', "error: the text holds a lone surrogate (\\ud800)"),
        (b'{"players": ["A\\u0000", "B"]}', "error: the text holds a NUL character"),
        (b'{"players": ["A", "B"], "stake": "1e9"}', "error: stake: '1e9' is not a money"),
        (b'{"players": ["A", "B"], "stake": 1e308}', "error: stake: 1e+308 is not a money"),
        (
            b'{"players": ["A", "B"], "rules": {"money_unit": "1e-30"}}',
            "error: rules: money_unit must be a positive decimal",
        ),
        (b" " * (bounds.MAX_RECORD_BYTES + 1), "error: cannot read -: it is larger than"),
    ],
)
def test_tally_prints_one_error_line_and_exits_2(stdin, message):
    status, out, err = run("tally", "-", stdin=stdin)
    assert (status, out) == (2, "")
    assert err.startswith(message), err
    assert err.count("\n") == 1


def test_sheet_refuses_a_title_of_20000_characters_at_once(tmp_path):
    start = time.monotonic()
    status, _, err = run(
        "sheet", "-", "-o", str(tmp_path / "s.pdf"), "--title", "x" * 20_000,
        stdin=json.dumps(RECORD),
    )  # fmt: skip
    assert status == 2
    assert err == "error: --title: the title is longer than 200 characters\n"
    assert time.monotonic() - start < 30  # it took 120 s to draw


def test_sheet_draws_the_longest_title_allowed_quickly(tmp_path):
    pdf = tmp_path / "s.pdf"
    title = "x" * bounds.MAX_TITLE_LENGTH  # one unbreakable word: the slowest to wrap
    start = time.monotonic()
    status, _, err = run("sheet", "-", "-o", str(pdf), "--title", title, stdin=json.dumps(RECORD))
    assert (status, err) == (0, "")
    assert time.monotonic() - start < 10
    assert pdf.read_bytes().startswith(b"%PDF")
