"""A game of hands to the target, its end bonuses and its money (RULES.md §3).

The worked example of RULES.md §9, classic values:

>>> game = Game(("A", "B"), preset("classic"), first_dealer="B")
>>> for hand in (Hand.knock(5, 27, knocker="A"), Hand.gin(16, knocker="B"),
...              Hand.knock(7, 7, knocker="A"), Hand.gin(31, knocker="A"), Hand.no_game(),
...              Hand.knock(2, 30, knocker="A")):
...     _ = game.record(hand)
>>> tally = game.tally()
>>> tally.winner, tally.players["A"].total, tally.players["B"].total, tally.net
('A', 261, 86, 175)
>>> tally.settle(Decimal("0.05"))[0]
Payment(payer='B', payee='A', points=175, amount=Decimal('8.75'))
>>> game.record(Hand.knock(1, 5, knocker="B"))
Traceback (most recent call last):
...
scorekeeper.engine.game.GameClosedError: the game is over: A reached 101 of 100
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .hand import Hand, HandError, HandScore, Outcome, score_hand
from .rules import DealerRule, Ruleset, Shutout, preset  # noqa: F401 (preset: doctests)


class GameClosedError(HandError):
    """A hand entered after the game (or the whole session) is over."""

    def __init__(self, message: str, code: str = "game_closed"):
        super().__init__(code, message)


class PlayerError(HandError):
    """A hand naming a player who is not seated in this game (or at this table)."""

    def __init__(self, name: object, players: Sequence[str], where: str = "game"):
        super().__init__(
            "unknown_player",
            f"{name!r} is not a player of this {where}: choose {' or '.join(players)}",
            field="knocker",
            name=name,
        )


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    points: int
    amount: Decimal


@dataclass(frozen=True)
class Line:
    """One recorded hand as it stands on the score sheet."""

    number: int
    dealer: str
    hand: Hand
    score: HandScore
    knocker: str | None
    winner: str | None
    points: dict[str, int]  # running totals after this hand
    boxes: dict[str, int]
    game: int = 1  # the game of a match the hand belongs to


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


def final_tally(
    points: dict[str, int], boxes: dict[str, int], winner: str | None, rules: Ruleset
) -> Tally:
    """End bonuses of one closed game (§3.2–3.4), or bare points while it runs."""
    if winner is None:
        return Tally({p: Final(points[p], boxes[p]) for p in points}, False, None, False, 0)
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
        extra = _shutout_extra(base, rules) if won and shutout else 0
        finals[player] = Final(base.points, base.boxes, base.box_bonus, base.game_bonus, extra)
    return Tally(finals, True, winner, shutout, finals[winner].total - finals[loser].total)


def _shutout_extra(final: Final, rules: Ruleset) -> int:
    """What the shutout rule adds to the winner's final (RULES.md §10.6)."""
    return {
        Shutout.BONUS: rules.shutout_bonus,
        Shutout.DOUBLE_TOTAL: final.total,
        Shutout.DOUBLE_HANDS: final.points,
    }.get(rules.shutout, 0)


def seat(players: Sequence[str], count: int, what: str) -> tuple[str, ...]:
    """The players of a session, checked: ``count`` different names."""
    seated = tuple(players)
    if len(seated) != count or len(set(seated)) != count:
        words = {2: "two", 4: "four"}
        raise ValueError(f"{what} needs {words.get(count, count)} different player names")
    return seated


def score_seated(
    hand: Hand, rules: Ruleset, players: tuple[str, str], where: str = "game"
) -> tuple[HandScore, str | None]:
    """Score a hand between two seated players: its score and its winner (None: nobody).

    Raises HandError for a hand that cannot have happened at this table.
    """
    if hand.knocker is not None and hand.knocker not in players:
        raise PlayerError(hand.knocker, players, where)
    score = score_hand(hand, rules)
    if score.outcome.is_scored and hand.knocker is None:
        raise HandError("knocker_missing", "say who knocked", field="knocker")
    if score.knocker_wins is None:
        return score, None
    other = players[1] if hand.knocker == players[0] else players[0]
    return score, hand.knocker if score.knocker_wins else other


def next_dealer(rules: Ruleset, players: tuple[str, str], dealer: str, winner: str | None) -> str:
    """Who deals after a hand dealt by ``dealer`` and won by ``winner`` (RULES.md §2.10)."""
    if winner is None:  # no game or void: the same dealer deals again
        return dealer
    rule = rules.dealer_rule
    if rule == DealerRule.WINNER:
        return winner
    loser = players[1] if winner == players[0] else players[0]
    if rule == DealerRule.LOSER:
        return loser
    return players[1] if dealer == players[0] else players[0]


class Replayable:
    """Sessions built from what happened: created, then every entry recorded in order."""

    @classmethod
    def replay(
        cls,
        players: Sequence[str],
        rules: Ruleset,
        first_dealer: str | None,
        entries: Iterable[Any],
    ) -> Any:
        session = cls(players, rules, first_dealer)
        for entry in entries:
            session.record(entry)
        return session


class Game(Replayable):
    """Two players, one column each, hands recorded in order until the target.

    The game replays from what happened: totals, boxes and the dealer are
    never entered, always derived.
    """

    kind = "two_player"

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        self.players = seat(players, 2, "a two-player game")
        self.rules = rules
        first_dealer = self.players[0] if first_dealer is None else first_dealer
        if first_dealer not in self.players:
            raise PlayerError(first_dealer, self.players)
        self.dealer = first_dealer
        self.points = dict.fromkeys(self.players, 0)
        self.boxes = dict.fromkeys(self.players, 0)
        self.lines: list[Line] = []
        self.winner: str | None = None

    def is_over(self) -> bool:
        return self.winner is not None

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def record(self, hand: Hand) -> Line:
        """Score the next hand, or raise HandError and change nothing."""
        if self.winner is not None:
            raise GameClosedError(
                f"the game is over: {self.winner} reached "
                f"{self.points[self.winner]} of {self.rules.target}"
            )
        score, winner = score_seated(hand, self.rules, self.players)
        if winner is not None:
            self.points[winner] += score.points
            self.boxes[winner] += score.boxes
            if self.points[winner] >= self.rules.target:
                self.winner = winner
        line = Line(
            len(self.lines) + 1,
            self.dealer,
            hand,
            score,
            hand.knocker,
            winner,
            dict(self.points),
            dict(self.boxes),
        )
        self.lines.append(line)
        self.dealer = self._next_dealer(winner)
        return line

    def _next_dealer(self, winner: str | None) -> str:
        return next_dealer(self.rules, self.players, self.dealer, winner)

    def tally(self) -> Tally:
        return final_tally(self.points, self.boxes, self.winner, self.rules)

    def games(self) -> list[Tally]:
        """The session interface: a two-player session is one game."""
        return [self.tally()]

    def settle(self, stake: Decimal) -> list[Payment]:
        return self.tally().settle(stake, self.rules.money_unit)


__all__ = [
    "Game",
    "GameClosedError",
    "Line",
    "Outcome",
    "Payment",
    "PlayerError",
    "Tally",
    "final_tally",
    "money",
    "next_dealer",
    "score_seated",
    "seat",
]
