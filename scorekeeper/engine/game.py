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
scorekeeper.engine.session.GameClosedError: the game is over: A reached 101 of 100
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal  # noqa: F401 (doctests)

from .hand import Hand, HandScore, Outcome
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .seating import PlayerError, next_dealer, score_seated
from .session import GameClosedError, Session, Turn
from .sheet import Column, EntryRow, cells
from .tally import Final, Payment, Tally, final_tally, money


@dataclass(frozen=True)
class TwoPlayerLine:
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


class Game(Session):
    """Two players, one column each, hands recorded in order until the target.

    The game replays from what happened: totals, boxes and the dealer are
    never entered, always derived.
    """

    kind = "two_player"
    what = "a two-player game"
    seats = range(2, 3)

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        super().__init__(players, rules, first_dealer)
        self._dealer = self.first_dealer
        self.points = dict.fromkeys(self.players, 0)
        self.boxes = dict.fromkeys(self.players, 0)
        self.lines: list[TwoPlayerLine] = []
        self.winner: str | None = None

    @property
    def dealer(self) -> str:
        return self._dealer

    def is_over(self) -> bool:
        return self.winner is not None

    def reached(self) -> tuple[str, int]:
        assert self.winner is not None
        return self.winner, self.points[self.winner]

    @property
    def table(self) -> tuple[str, str]:
        return (self.players[0], self.players[1])

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def _record(self, hand: Hand) -> TwoPlayerLine:  # type: ignore[override]
        score, winner = score_seated(hand, self.rules, self.table)
        if winner is not None:
            self.points[winner] += score.points
            self.boxes[winner] += score.boxes
            if self.points[winner] >= self.rules.target:
                self.winner = winner
        line = TwoPlayerLine(
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
        self._dealer = next_dealer(self.rules, self.table, self.dealer, winner)
        return line

    def tally(self) -> Tally:
        return final_tally(self.points, self.boxes, self.winner, self.rules)

    def games(self) -> list[Tally]:
        """A two-player session is one game."""
        return [self.tally()]

    def game_columns(self) -> list[tuple[Column, ...]]:
        return [self.opening_columns()]

    def rows(self) -> list[EntryRow]:
        return [player_row(line, self.players) for line in self.lines]

    def turn(self) -> Turn:
        return Turn(len(self.lines) + 1, None, (self.dealer,), seated=(self.table,))


def player_row(line: TwoPlayerLine, players: Sequence[str], game: int = 1) -> EntryRow:
    """A hand in columns of one player each: the gain goes to its winner."""
    return EntryRow(
        line.number,
        game,
        (line,),
        cells(line.points, line.winner, line.score.points, players),
        seated=((players[0], players[1]),),
    )


__all__ = [
    "Final",
    "Game",
    "GameClosedError",
    "TwoPlayerLine",
    "Outcome",
    "Payment",
    "PlayerError",
    "Tally",
    "final_tally",
    "money",
    "next_dealer",
    "score_seated",
]
