"""Fixtures of the table app: the worked example, FORMAT.md's record, parties to play on.

The plain helpers that post the forms (start, record, ...) are in helpers.py.
"""

import copy
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Evening, Partie
from tests.table.helpers import rules_form_data, start_form_data

K, G = engine.Hand.knock, engine.Hand.gin

# RULES.md §9 with FORMAT.md's names: Anna 101 + 100 + 3 × 20 = 261, Ben 46 + 2 × 20 = 86.
WORKED_EXAMPLE = (
    K(5, 27, knocker="Anna"),  # Anna +22
    G(16, knocker="Ben"),  # Ben +36
    K(7, 7, knocker="Anna"),  # undercut: Ben +10
    G(31, knocker="Anna"),  # Anna +51
    engine.Hand.no_game(),
    K(2, 30, knocker="Anna"),  # Anna +28: 101, the partie is over
)

# The record printed in FORMAT.md, word for word.
FORMAT_RECORD: dict[str, Any] = {
    "format": "scorekeeper/1",
    "kind": "two_player",
    "rules": {"preset": "classic"},
    "players": ["Anna", "Ben"],
    "first_dealer": "Ben",
    "stake": "0.05",
    "hands": [
        {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27},
        {"knocker": "Ben", "gin": True, "defender_deadwood": 16},
        {"knocker": "Anna", "knocker_deadwood": 7, "defender_deadwood": 7},
        {"knocker": "Anna", "gin": True, "defender_deadwood": 31},
        {"no_game": True},
        {"knocker": "Anna", "knocker_deadwood": 2, "defender_deadwood": 30},
    ],
}


@pytest.fixture
def worked_example() -> tuple[engine.Hand, ...]:
    return WORKED_EXAMPLE


@pytest.fixture
def format_record() -> dict[str, Any]:
    """FORMAT.md's record as JSON data; each test gets its own copy to change."""
    return copy.deepcopy(FORMAT_RECORD)


@pytest.fixture
def start_partie(owner: User) -> Callable[..., Partie]:
    """Start a classic Anna v Ben partie of the owner's, Ben dealing, at 0.05 a point."""

    def start(rules: engine.Ruleset | None = None, user: User | None = None) -> Partie:
        return services.partie_start(
            owner=user or owner,
            names=["Anna", "Ben"],
            rules=rules or engine.preset("classic"),
            stake=Decimal("0.05"),
            first_dealer="Ben",
        )

    return start


@pytest.fixture
def partie(start_partie: Callable[..., Partie]) -> Partie:
    """A running partie without hands."""
    return start_partie()


@pytest.fixture
def play(owner: User) -> Callable[..., Partie]:
    """Record hands on a partie through the service, as the owner."""

    def play(partie: Partie, hands: tuple[engine.Hand, ...] | list[engine.Hand]) -> Partie:
        for hand in hands:
            services.hand_record(partie=partie, hand=hand, user=owner)
        partie.refresh_from_db()
        return partie

    return play


@pytest.fixture
def closed_partie(partie: Partie, play: Callable[..., Partie]) -> Partie:
    """The worked example played to its end: Anna won 261 to 86."""
    return play(partie, WORKED_EXAMPLE)


@pytest.fixture
def start_data() -> Callable[..., dict[str, Any]]:
    return start_form_data


@pytest.fixture
def rules_data() -> Callable[..., dict[str, Any]]:
    return rules_form_data


@pytest.fixture
def evening(owner: User) -> Evening:
    """An open evening of the owner's, without parties yet: "Club night (2026-11-20)"."""
    return services.evening_start(owner=owner, name="Club night", played_on=date(2026, 11, 20))
