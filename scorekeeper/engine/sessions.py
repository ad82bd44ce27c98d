"""Every kind of session behind one interface: two-player, Hollywood, match, partnership,
chouette and three-player rotation.

A session seats its players, records its entries (hands, or rounds for a
partnership) one at a time, and tells its games and its settlement:

>>> cls = session_class("hollywood")
>>> cls.kind, seats("hollywood"), seats("partnership"), seats("chouette")
('hollywood', range(2, 3), range(4, 5), range(3, 9))
>>> session = cls.replay(("A", "B"), preset("hollywood"), None, [Hand.gin(98, knocker="A")])
>>> [game.players["A"].points for game in session.games()]
[118, 0, 0]
>>> session_class("poker")
Traceback (most recent call last):
...
scorekeeper.engine.sessions.KindError: unknown kind 'poker': choose one of two_player, \
hollywood, chouette, three_player, partnership, match
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, Protocol

from . import chouette, three_player
from .chouette import Chouette
from .game import Game, Payment, Tally
from .hand import Hand  # noqa: F401 (doctests)
from .hollywood import Hollywood
from .match import Match
from .partnership import Partnership
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .three_player import ThreePlayer

# Every kind of FORMAT.md, in its order; every one is supported now.
KINDS = ("two_player", "hollywood", "chouette", "three_player", "partnership", "match")
PLANNED_KINDS: tuple[str, ...] = ()


class KindError(ValueError):
    """A kind of session that does not exist, or is not supported yet."""


class Session(Protocol):
    """What every kind of session offers (Game, Hollywood, Match, Partnership, Chouette,
    ThreePlayer)."""

    kind: str
    players: tuple[str, ...]
    rules: Ruleset
    lines: list[Any]

    @property
    def dealer(self) -> Any: ...  # a name; for a partnership (table 1's, table 2's)

    def record(self, entry: Any) -> Any: ...

    def is_over(self) -> bool: ...

    def games(self) -> list[Tally]: ...

    def settle(self, stake: Decimal) -> list[Payment]: ...

    @classmethod
    def replay(
        cls,
        players: Sequence[str],
        rules: Ruleset,
        first_dealer: str | None,
        entries: Iterable[Any],
    ) -> Session: ...


SESSION_KINDS: dict[str, type] = {
    Game.kind: Game,
    Hollywood.kind: Hollywood,
    Match.kind: Match,
    Partnership.kind: Partnership,
    Chouette.kind: Chouette,
    ThreePlayer.kind: ThreePlayer,
}
# How many players each kind seats: fewest to most.
_SEATS = {
    Game.kind: range(2, 3),
    Hollywood.kind: range(2, 3),
    Match.kind: range(2, 3),
    Partnership.kind: range(4, 5),
    Chouette.kind: range(chouette.FEWEST, chouette.MOST + 1),
    ThreePlayer.kind: range(three_player.SEATS, three_player.SEATS + 1),
}


def session_class(kind: str) -> type:
    """The class that scores a kind of session, or KindError."""
    if kind in SESSION_KINDS:
        return SESSION_KINDS[kind]
    if kind in PLANNED_KINDS:
        raise KindError(f"kind {kind!r} is not supported yet")
    raise KindError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")


def seats(kind: str) -> range:
    """How many players a supported kind of session seats: ``len(players) in seats(kind)``."""
    session_class(kind)
    return _SEATS[kind]
