"""Hollywood: three games scored at once from one series of hands (RULES.md §4).

Play is normal gin; only the recording changes. A hand's winner enters his
points in every open game where he already has an entry, and in the
lowest-numbered open game where he has none yet, so his first win counts in
game 1, his second in games 1 and 2, and every later one in all three.

The example of RULES.md §4 (GRC): You+18, Opp+12, You+25, Opp+30, You+15,
You+22, Opp+20.

>>> session = Hollywood(("You", "Opp"), preset("hollywood"))
>>> for knocker, points in (("You", 18), ("Opp", 12), ("You", 25), ("Opp", 30),
...                         ("You", 15), ("You", 22), ("Opp", 20)):
...     line = session.record(Hand.knock(1, points + 1, knocker=knocker))
>>> [game["You"] for game in session.points], [game["Opp"] for game in session.points]
([80, 62, 37], [62, 50, 20])
>>> line.entered
(0, 1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from .hand import Hand, HandScore
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .seating import next_dealer, score_seated
from .session import GameClosedError, Session, Stakes, Turn
from .sheet import Cell, Column, EntryRow
from .tally import Payment, Tally, final_tally

GAMES = 3


@dataclass(frozen=True)
class HollywoodLine:
    """One recorded hand on the Hollywood sheet, with what it did to each game."""

    number: int
    dealer: str
    hand: Hand
    score: HandScore
    knocker: str | None
    winner: str | None
    entered: tuple[int, ...]  # the games (0-based) the hand's points went to
    points: tuple[dict[str, int], ...]  # running totals per game after this hand
    closed: tuple[bool, ...]  # per game, after this hand
    boxes: tuple[dict[str, int], ...]  # running boxes per game after this hand


class Hollywood(Session):
    """Two players, three games recorded at once; over when all three are closed."""

    kind = "hollywood"
    what = "a Hollywood session"
    seats = range(2, 3)
    numbered = True
    side_by_side = True
    preset = "hollywood"
    ignores = frozenset({"best_of"})

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        super().__init__(players, rules, first_dealer)
        self._dealer = self.first_dealer
        self._points = [dict.fromkeys(self.players, 0) for _ in range(GAMES)]
        self._boxes = [dict.fromkeys(self.players, 0) for _ in range(GAMES)]
        # Whether a player has an entry in a game: points alone cannot tell, since a
        # tie won under tie_is_undercut=false enters 0 points and a box.
        self._entries = [dict.fromkeys(self.players, False) for _ in range(GAMES)]
        self._winners: list[str | None] = [None] * GAMES
        self.lines: list[HollywoodLine] = []

    @property
    def dealer(self) -> str:
        return self._dealer

    @property
    def table(self) -> tuple[str, str]:
        return (self.players[0], self.players[1])

    @property
    def points(self) -> tuple[dict[str, int], ...]:
        """Each game's running totals (copies)."""
        return tuple(dict(game) for game in self._points)

    @property
    def boxes(self) -> tuple[dict[str, int], ...]:
        return tuple(dict(game) for game in self._boxes)

    @property
    def closed(self) -> tuple[bool, ...]:
        return tuple(winner is not None for winner in self._winners)

    @property
    def winners(self) -> tuple[str | None, ...]:
        return tuple(self._winners)

    def is_over(self) -> bool:
        return all(self.closed)

    def open_games(self) -> list[int]:
        return [g for g in range(GAMES) if self._winners[g] is None]

    def entry_games(self, player: str) -> tuple[int, ...]:
        """The games (0-based) a win by ``player`` would go to now (§4.1)."""
        open_games = self.open_games()
        entered = [g for g in open_games if self._entries[g][player]]
        fresh = [g for g in open_games if not self._entries[g][player]]
        return tuple(sorted(entered + fresh[:1]))

    def closed_error(self) -> GameClosedError:
        return GameClosedError("the Hollywood session is over: all three games are closed")

    def _record(self, hand: Hand) -> HollywoodLine:  # type: ignore[override]
        """Score the next hand into the open games, or raise HandError and change nothing."""
        score, winner = score_seated(hand, self.rules, self.table)
        entered: tuple[int, ...] = ()
        if winner is not None:
            entered = self.entry_games(winner)
            for g in entered:
                self._points[g][winner] += score.points
                self._boxes[g][winner] += score.boxes
                self._entries[g][winner] = True
            # Only the hand's winner gained, so only he can have reached the target.
            for g in self.open_games():
                if self._points[g][winner] >= self.rules.target:
                    self._winners[g] = winner
        line = HollywoodLine(
            len(self.lines) + 1,
            self.dealer,
            hand,
            score,
            hand.knocker,
            winner,
            entered,
            self.points,
            self.closed,
            self.boxes,
        )
        self.lines.append(line)
        self._dealer = next_dealer(self.rules, self.table, self.dealer, winner)
        return line

    def games(self) -> list[Tally]:
        """The three games, each with its own end bonuses (undoubled, §10.8)."""
        return [
            final_tally(self._points[g], self._boxes[g], self._winners[g], self.rules)
            for g in range(GAMES)
        ]

    def game_columns(self) -> list[tuple[Column, ...]]:
        return [self.opening_columns()] * GAMES

    def rows(self) -> list[EntryRow]:
        """One table of all three games; each hand marks the games it closed."""
        rows = []
        before = (False,) * GAMES
        for line in self.lines:
            cells = tuple(
                Cell(
                    line.score.points if line.winner == name and g in line.entered else None,
                    line.points[g][name],
                )
                for g in range(GAMES)
                for name in self.players
            )
            closes = tuple(g + 1 for g, now in enumerate(line.closed) if now and not before[g])
            rows.append(
                EntryRow(line.number, 1, (line,), cells, closes=closes, seated=(self.table,))
            )
            before = line.closed
        return rows

    def turn(self) -> Turn:
        return Turn(len(self.lines) + 1, None, (self.dealer,), seated=(self.table,))

    def payments(self, stake: Decimal, own: Stakes | None = None) -> list[tuple[Payment, ...]]:
        """One payment per closed game; game 3 counts double with hollywood_game3_double."""
        games = super().payments(stake)
        if self.rules.hollywood_game3_double:
            # Doubled after rounding, so the line is exactly twice game 3's money.
            games[-1] = tuple(
                Payment(p.payer, p.payee, 2 * p.points, 2 * p.amount) for p in games[-1]
            )
        return games
