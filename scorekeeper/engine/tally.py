"""What a game comes to: each side's totals with the end bonuses, and who pays whom.

>>> result = final_tally({"A": 101, "B": 46}, {"A": 3, "B": 2}, "A", preset("classic"))
>>> result.players["A"].total, result.players["B"].total, result.net
(261, 86, 175)
>>> result.settle(Decimal("0.05"))
[Payment(payer='B', payee='A', points=175, amount=Decimal('8.75'))]
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .rules import Ruleset, Shutout, preset  # noqa: F401 (preset: doctests)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    points: int
    amount: Decimal


@dataclass(frozen=True)
class Final:
    """A player's totals in one game (without end bonuses while it runs)."""

    points: int
    boxes: int
    box_bonus: int = 0
    game_bonus: int = 0
    shutout_bonus: int = 0

    @property
    def total(self) -> int:
        return self.points + self.box_bonus + self.game_bonus + self.shutout_bonus


@dataclass(frozen=True)
class Tally:
    """One game's result: the totals of each side and what the loser pays."""

    players: dict[str, Final]
    closed: bool
    winner: str | None
    shutout: bool
    net: int  # winner's final − loser's final; may be negative, 0 while running

    def settle(self, stake: Decimal, money_unit: Decimal = Decimal("0.01")) -> list[Payment]:
        """The lower final pays the difference; nothing while the game runs."""
        if not self.closed or self.net == 0:
            return []
        (low, _), (high, _) = sorted(self.players.items(), key=lambda item: item[1].total)
        points = abs(self.net)
        return [Payment(low, high, points, money(points, stake, money_unit))]


def money(points: int, stake: Decimal, unit: Decimal = Decimal("0.01")) -> Decimal:
    """Points at a stake per point, rounded half-up to the money unit.

    >>> money(175, Decimal("0.05")), money(3, Decimal("0.125"))
    (Decimal('8.75'), Decimal('0.38'))
    >>> money(7, Decimal("0.053"), Decimal("0.05"))
    Decimal('0.35')
    """
    # quantize() alone keeps only the unit's exponent: a unit of 0.05 would round
    # to the cent, so count whole units first.
    units = (points * stake / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return units * unit


def running_tally(points: dict[str, int], boxes: dict[str, int]) -> Tally:
    """A game still running: bare points and boxes, no winner, nothing to settle."""
    return Tally({p: Final(points[p], boxes[p]) for p in points}, False, None, False, 0)


def final_tally(
    points: dict[str, int], boxes: dict[str, int], winner: str | None, rules: Ruleset
) -> Tally:
    """End bonuses of one closed game of two sides (§3.2–3.4), or bare points while it runs."""
    if winner is None:
        return running_tally(points, boxes)
    (loser,) = [p for p in points if p != winner]
    shutout = points[loser] == 0  # with the rule 'none' it is still a shutout, worth nothing
    finals = {}
    for player in points:
        won = player == winner
        base = Final(
            points[player],
            boxes[player],
            boxes[player] * rules.box_bonus,
            rules.game_bonus if won else 0,
        )
        extra = shutout_extra(base, rules) if won and shutout else 0
        finals[player] = Final(base.points, base.boxes, base.box_bonus, base.game_bonus, extra)
    return Tally(finals, True, winner, shutout, finals[winner].total - finals[loser].total)


def shutout_extra(final: Final, rules: Ruleset) -> int:
    """What the shutout rule adds to the winner's final (RULES.md §10.6)."""
    return {
        Shutout.BONUS: rules.shutout_bonus,
        Shutout.DOUBLE_TOTAL: final.total,
        Shutout.DOUBLE_HANDS: final.points,
    }.get(rules.shutout, 0)
