"""A match: best of ``best_of`` games, each scored as RULES.md §3 (§7, §10.9).

After a game closes, the next hand starts the next game; the dealer rule runs
on across the games. The match is over once a player has won a majority.

>>> match = Match(("A", "B"), preset("classic", best_of=3), first_dealer="B")
>>> for _ in range(4):
...     _ = match.record(Hand.gin(40, knocker="A"))  # 60 a hand: two close a game
>>> match.games_won(), match.winner, [line.game for line in match.lines]
({'A': 2, 'B': 0}, 'A', [1, 1, 2, 2])
>>> match.record(Hand.gin(10, knocker="B"))
Traceback (most recent call last):
...
scorekeeper.engine.match.MatchOverError: the match is over: A won 2 of 3 games
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .game import Game, TwoPlayerLine, player_row
from .hand import Hand
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .session import GameClosedError, Session, Standing, Turn
from .sheet import Column, EntryRow
from .tally import Payment, Tally


class MatchOverError(GameClosedError):
    """A hand entered after a player has won the match."""

    def __init__(self, message: str):
        super().__init__(message, code="match_over")


class Match(Session):
    """Two players, a series of games until one has won a majority of ``best_of``."""

    kind = "match"
    what = "a match"
    seats = range(2, 3)
    numbered = True
    ignores = frozenset({"hollywood_game3_double"})

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        super().__init__(players, rules, first_dealer)
        self._games = [Game(self.players, rules, self.first_dealer)]
        self.lines: list[TwoPlayerLine] = []

    @property
    def all_games(self) -> tuple[Game, ...]:
        """Every game started so far; the last may still be running."""
        return tuple(self._games)

    @property
    def current(self) -> Game:
        """The game being played, or the last one when the match is over."""
        return self._games[-1]

    @property
    def dealer(self) -> str:
        # A closed game still names its next dealer: the first dealer of the next game.
        return self._games[-1].dealer

    @property
    def needed(self) -> int:
        """Games needed to win the match: a majority of best_of."""
        return self.rules.best_of // 2 + 1

    def games_won(self) -> dict[str, int]:
        won = dict.fromkeys(self.players, 0)
        for game in self._games:
            if game.winner is not None:
                won[game.winner] += 1
        return won

    @property
    def winner(self) -> str | None:
        return next((p for p, n in self.games_won().items() if n >= self.needed), None)

    def is_over(self) -> bool:
        return self.winner is not None

    def closed_error(self) -> GameClosedError:
        assert self.winner is not None
        return MatchOverError(
            f"the match is over: {self.winner} won {self.games_won()[self.winner]} "
            f"of {self.rules.best_of} games"
        )

    def _record(self, hand: Hand) -> TwoPlayerLine:  # type: ignore[override]
        """Score the next hand, in a new game if the last one closed; or raise HandError."""
        game = self._games[-1]
        if game.is_over():
            game = Game(self.players, self.rules, game.dealer)
            line = game.record(hand)  # a refused hand leaves the match as it was
            self._games.append(game)
        else:
            line = game.record(hand)
        line = dataclasses.replace(line, number=len(self.lines) + 1, game=len(self._games))
        self.lines.append(line)
        return line

    def games(self) -> list[Tally]:
        return [game.tally() for game in self._games]

    def game_columns(self) -> list[tuple[Column, ...]]:
        return [self.opening_columns()] * len(self._games)

    def rows(self) -> list[EntryRow]:
        return [player_row(line, self.players, line.game) for line in self.lines]

    def turn(self) -> Turn:
        """The next hand; it starts the next game once the last one has closed."""
        number = len(self._games) + (1 if self.current.is_over() else 0)
        return Turn(len(self.lines) + 1, number, (self.dealer,), seated=(self.current.table,))

    def standing(self) -> Standing:
        return Standing(self.rules.best_of, self.games_won(), self.winner)

    def tally_extras(self, payments: Sequence[Payment]) -> dict[str, object]:
        return {
            "match": {
                "best_of": self.rules.best_of,
                "games_won": self.games_won(),
                "winner": self.winner,
            }
        }
