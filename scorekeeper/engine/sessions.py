"""Every kind of session, by its name: two-player, Hollywood, match, partnership,
chouette and three-player rotation, each a Session (see ``session``).

>>> cls = session_class("hollywood")
>>> cls.kind, cls.seats, session_class("partnership").seats, session_class("chouette").seats
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

from .chouette import Chouette
from .game import Game
from .hand import Hand  # noqa: F401 (doctests)
from .hollywood import Hollywood
from .match import Match
from .partnership import Partnership
from .rules import preset  # noqa: F401 (doctests)
from .session import Session
from .three_player import ThreePlayer

# Every kind of FORMAT.md, in its order.
SESSION_KINDS: dict[str, type[Session]] = {
    cls.kind: cls for cls in (Game, Hollywood, Chouette, ThreePlayer, Partnership, Match)
}
KINDS = tuple(SESSION_KINDS)


class KindError(ValueError):
    """A kind of session that does not exist."""


def session_class(kind: str) -> type[Session]:
    """The class that scores a kind of session, or KindError."""
    if kind in SESSION_KINDS:
        return SESSION_KINDS[kind]
    raise KindError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")


def seats(kind: str) -> range:
    """How many players a kind of session seats: ``len(players) in seats(kind)``."""
    return session_class(kind).seats
