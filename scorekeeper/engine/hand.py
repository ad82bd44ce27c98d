"""One hand between a knocker and a defender, scored as RULES.md §2.

>>> classic = preset("classic")
>>> score_hand(Hand.knock(knocker_deadwood=3, defender_deadwood=11), classic)
HandScore(outcome=<Outcome.KNOCK: 'knock'>, knocker_wins=True, points=8, boxes=1, multiplier=1)
>>> score_hand(Hand.knock(knocker_deadwood=7, defender_deadwood=7), classic).outcome
<Outcome.UNDERCUT: 'undercut'>
>>> score_hand(Hand.gin(defender_deadwood=28), preset("modern")).points
53

Oklahoma: the upcard K♠ sets the limit to 10 and doubles the hand.

>>> score_hand(Hand.knock(4, 19, upcard=Card.parse("KS")), preset("oklahoma")).points
30
>>> score_hand(Hand.knock(6, 19, upcard=Card.parse("5S")), preset("oklahoma"))
Traceback (most recent call last):
...
scorekeeper.engine.hand.HandError: a knock with 6 deadwood is over the knock limit of 5
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .bounds import MAX_DEADWOOD, MAX_DEADWOOD_ROUND_THE_CORNER
from .cards import Card, Suit
from .rules import OklahomaAce, Ruleset, SpadeDouble, preset  # noqa: F401 (preset: doctests)


class HandError(ValueError):
    """A hand that cannot have happened under the rules, with the field at fault.

    ``code`` and ``params`` let a user interface word the message in its own
    language; ``str()`` gives the English sentence.
    """

    def __init__(self, code: str, message: str, *, field: str | None = None, **params: Any):
        super().__init__(message)
        self.code, self.field, self.params = code, field, params
        self.table: int | None = None  # partnership: the table (1 or 2) of the refused hand


class HandKind(enum.StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    NO_GAME = "no_game"


class Outcome(enum.StrEnum):
    KNOCK = "knock"  # the knocker wins (a tie under tie_is_undercut=false too)
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    NO_GAME = "no_game"
    VOID = "void"  # round-the-corner gin laid off to 0

    @property
    def is_scored(self) -> bool:
        return self not in (Outcome.NO_GAME, Outcome.VOID)


@dataclass(frozen=True)
class Hand:
    """What the players report: who knocked, how, the deadwoods, the upcard."""

    kind: HandKind
    knocker: str | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None  # after lay-offs
    upcard: Card | None = None

    def __post_init__(self) -> None:
        # A gin's knocker deadwood is 0 whether a record gives it or leaves it out.
        if self.kind in (HandKind.GIN, HandKind.BIG_GIN) and self.knocker_deadwood is None:
            object.__setattr__(self, "knocker_deadwood", 0)

    @classmethod
    def knock(
        cls,
        knocker_deadwood: int,
        defender_deadwood: int,
        *,
        knocker: str | None = None,
        upcard: Card | None = None,
    ) -> Hand:
        return cls(HandKind.KNOCK, knocker, knocker_deadwood, defender_deadwood, upcard)

    @classmethod
    def gin(
        cls,
        defender_deadwood: int,
        *,
        knocker: str | None = None,
        upcard: Card | None = None,
        big: bool = False,
    ) -> Hand:
        kind = HandKind.BIG_GIN if big else HandKind.GIN
        return cls(kind, knocker, 0, defender_deadwood, upcard)

    @classmethod
    def no_game(cls) -> Hand:
        return cls(HandKind.NO_GAME)


@dataclass(frozen=True)
class HandScore:
    outcome: Outcome
    knocker_wins: bool | None  # None when nobody wins (no game, void)
    points: int
    boxes: int
    multiplier: int


NOTHING = HandScore(Outcome.NO_GAME, None, 0, 0, 1)


def knock_limit(rules: Ruleset, upcard: Card | None) -> int:
    """The most deadwood a knock may have; 0 means only gin is allowed."""
    if not rules.is_oklahoma:
        return int(rules.knock_limit)
    if upcard is None:
        raise HandError(
            "upcard_missing", "Oklahoma rules need the upcard of every scored hand", field="upcard"
        )
    if upcard.rank == 1:
        return 1 if rules.oklahoma_ace == OklahomaAce.ONE else 0
    return upcard.value


def multiplier(rules: Ruleset, upcard: Card | None) -> int:
    doubled = rules.is_oklahoma and rules.spade_double != SpadeDouble.OFF
    return 2 if doubled and upcard is not None and upcard.suit == Suit.SPADES else 1


def score_hand(hand: Hand, rules: Ruleset) -> HandScore:
    """Score one hand, or raise HandError naming what cannot be right."""
    if hand.kind == HandKind.NO_GAME:
        return NOTHING
    dk, dd = _checked_deadwoods(hand, rules)
    kind = HandKind.GIN if hand.kind == HandKind.KNOCK and dk == 0 else hand.kind
    limit = knock_limit(rules, hand.upcard)
    if kind == HandKind.KNOCK and dk > limit:
        if limit == 0:
            raise HandError(
                "gin_only",
                "these rules allow only gin: a knock needs 0 deadwood",
                field="knocker_deadwood",
            )
        raise HandError(
            "over_limit",
            f"a knock with {dk} deadwood is over the knock limit of {limit}",
            field="knocker_deadwood",
            deadwood=dk,
            limit=limit,
        )
    if kind == HandKind.BIG_GIN and rules.big_gin_bonus is None:
        raise HandError("big_gin_off", "big gin is not played under these rules", field="kind")
    m = multiplier(rules, hand.upcard)
    # Round-the-corner allows lay-offs against a gin (a big gin too): if they bring
    # the defender to 0, the hand is void (§10.4).
    if kind in (HandKind.GIN, HandKind.BIG_GIN) and dd == 0 and rules.round_the_corner:
        return HandScore(Outcome.VOID, None, 0, 0, m)

    if kind == HandKind.GIN:
        outcome, knocker_wins, points = Outcome.GIN, True, dd + rules.gin_bonus
    elif kind == HandKind.BIG_GIN:
        outcome, knocker_wins, points = Outcome.BIG_GIN, True, dd + (rules.big_gin_bonus or 0)
    elif dk < dd or (dk == dd and not rules.tie_is_undercut):
        outcome, knocker_wins, points = Outcome.KNOCK, True, dd - dk
    else:
        outcome, knocker_wins, points = Outcome.UNDERCUT, False, dk - dd + rules.undercut_bonus

    boxes = 1 + {
        Outcome.GIN: rules.extra_boxes_gin,
        Outcome.BIG_GIN: rules.extra_boxes_gin,
        Outcome.UNDERCUT: rules.extra_boxes_undercut,
    }.get(outcome, 0)
    if rules.spade_double == SpadeDouble.POINTS_AND_BOXES:
        boxes *= m
    return HandScore(outcome, knocker_wins, points * m, boxes, m)


def _checked_deadwoods(hand: Hand, rules: Ruleset) -> tuple[int, int]:
    highest = MAX_DEADWOOD_ROUND_THE_CORNER if rules.round_the_corner else MAX_DEADWOOD
    dk = (
        0
        if hand.kind != HandKind.KNOCK and hand.knocker_deadwood is None
        else hand.knocker_deadwood
    )
    if hand.kind != HandKind.KNOCK and dk:
        raise HandError(
            "gin_with_deadwood",
            f"a gin has no deadwood, but the knocker's is {dk}",
            field="knocker_deadwood",
            deadwood=dk,
        )
    for field, value, who in (
        ("knocker_deadwood", dk, "knocker"),
        ("defender_deadwood", hand.defender_deadwood, "defender"),
    ):
        if value is None:
            raise HandError(
                "deadwood_missing", f"the {who}'s deadwood is missing", field=field, who=who
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise HandError(
                "deadwood_not_number",
                f"the {who}'s deadwood must be a whole number",
                field=field,
                who=who,
            )
        if value < 0:
            raise HandError(
                "deadwood_negative",
                f"the {who}'s deadwood cannot be negative",
                field=field,
                who=who,
            )
        if value > highest:
            raise HandError(
                "deadwood_impossible",
                f"the {who}'s deadwood of {value} is impossible: ten cards hold at most {highest}",
                field=field,
                who=who,
                deadwood=value,
                highest=highest,
            )
    return dk, hand.defender_deadwood
