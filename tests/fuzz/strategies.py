"""Malformed and extreme inputs for the fuzz tests: records, values and raw JSON text.

Shared by the modules of tests/fuzz; plain hypothesis strategies, no Django.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.table.conftest import FORMAT_RECORD

# Fast and reproducible enough for CI: a fixed seed (and, like every property test, no
# deadline: the profile of tests/conftest.py).
FUZZ = settings(
    max_examples=60,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# Through the views, with a database and PDFs: fewer examples, each slower.
FUZZ_WEB = settings(FUZZ, max_examples=40)

# FORMAT.md's record, the start of every mutation (the one the table tests use).
RECORD: dict[str, Any] = FORMAT_RECORD

# Values that broke, or could break, something downstream.
EXTREME_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    10**15,
    -(10**15),
    2**63,
    1e308,
    -1e308,
    1e-30,
    0.1,
    "",
    " ",
    "0",
    "-0.05",
    "1e3",
    "1e9",
    "1e-30",
    "0.00001",
    "999999.9999",
    "NaN",
    "Infinity",
    "\ud800",
    "A\x00B",
    "A\tB",
    "x" * 61,
    "x" * 5000,
    "Zoë ♠",
    [],
    {},
    [1, 2],
    {"preset": "classic"},
]
extreme = st.sampled_from(EXTREME_VALUES) | st.integers() | st.text(max_size=30)

# Where a record's values go: top-level fields, rule parameters and hand fields.
TOP_FIELDS = ["format", "kind", "rules", "players", "first_dealer", "stake", "stakes", "hands"]
RULE_FIELDS = [
    "preset",
    "knock_limit",
    "undercut_bonus",
    "tie_is_undercut",
    "gin_bonus",
    "big_gin_bonus",
    "box_bonus",
    "game_bonus",
    "target",
    "shutout",
    "shutout_bonus",
    "best_of",
    "money_unit",
    "extra_boxes_gin",
    "hollywood_game3_double",
    "no_such_rule",
]
HAND_FIELDS = [
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "gin",
    "big_gin",
    "no_game",
    "upcard",
    "knocker_cards",
    "tables",
]


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    """FORMAT.md's record with one to three values replaced by extreme ones."""
    record = copy.deepcopy(RECORD)
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(["top", "rule", "hand", "player", "kind"]))
        value = draw(extreme)
        if place == "top":
            record[draw(st.sampled_from(TOP_FIELDS))] = value
        elif place == "rule" and isinstance(record.get("rules"), dict):
            record["rules"][draw(st.sampled_from(RULE_FIELDS))] = value
        elif place == "hand" and isinstance(record.get("hands"), list) and record["hands"]:
            hand = draw(st.sampled_from(record["hands"]))
            if isinstance(hand, dict):
                hand[draw(st.sampled_from(HAND_FIELDS))] = value
        elif place == "player" and isinstance(record.get("players"), list):
            record["players"][draw(st.integers(0, 1))] = value
        elif place == "kind":
            record["kind"] = draw(
                st.sampled_from(
                    ["hollywood", "match", "chouette", "three_player", "partnership", "x"]
                )
            )
    return record


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)

# Raw texts no JSON encoder writes: deep nesting, huge numbers, broken escapes.
RAW_TEXTS = [
    "[" * 1000 + "]" * 1000,
    '{"hands": ' + "[" * 5000,
    '{"stake": ' + "9" * 5000 + "}",
    '{"players": ["A", "B"], "stake": 1' + "0" * 400 + "}",
    '{"stake": 1e999}',
    '{"stake": NaN}',
    '{"stake": -Infinity}',
    '{"players": ["\\ud800", "B"]}',
    '{"players": ["A\\u0000", "B"]}',
    '{"players": ["A", "B"], "hands": [{"knocker": "A", "knocker_deadwood": 1e308}]}',
    "\ufeff" + json.dumps(RECORD),
    "",
    "   ",
    "null",
    "[]",
    '"text"',
    "{",
    "\x00",
]


def record_texts() -> st.SearchStrategy[str]:
    """JSON texts of records: mutated ones, any JSON value, and raw hostile text."""
    return (
        mutated_records().map(lambda r: json.dumps(r, ensure_ascii=False))
        | mutated_records().map(json.dumps)
        | json_values.map(json.dumps)
        | st.sampled_from(RAW_TEXTS)
        | st.text(max_size=40)
    )


def as_text(text: str) -> str:
    """What a text stream would hand over: lone surrogates kept as escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
