"""Made-up club seasons for benchmarks and demos: parties of every kind played hand by
hand through the engine, so that every stored figure is one the app would compute.

>>> import random
>>> from scorekeeper import engine
>>> session = play(random.Random(1), "two_player", ["Anna", "Ben"], engine.preset("classic"))
>>> session.is_over(), len(session.lines) > 3
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scorekeeper import engine

# The mix of a club's season: kinds and how often each is played.
KIND_WEIGHTS = {
    "two_player": 35,
    "hollywood": 15,
    "match": 25,
    "chouette": 10,
    "three_player": 8,
    "partnership": 7,
}
MOST_GAMES = 3  # a chouette never ends by itself: the table stops after three games
MOST_ENTRIES = 300  # a guard: no made-up partie runs for ever


def random_hand(rng: random.Random, rules: engine.Ruleset, at_table: Sequence[str]) -> engine.Hand:
    """A plausible hand between the two at the table: knocks, undercuts, gins, no games
    (rules without an upcard: the seeded presets are not Oklahoma)."""
    roll = rng.random()
    knocker = rng.choice(at_table)
    limit = int(rules.knock_limit)
    if roll < 0.07:
        return engine.Hand.no_game()
    if roll < 0.22 or limit == 0:  # straight gin knows only gins
        return engine.Hand.gin(rng.randint(4, 30), knocker=knocker)
    return engine.Hand.knock(rng.randint(1, limit), rng.randint(0, 28), knocker=knocker)


def _entry(rng: random.Random, session: engine.Session) -> engine.Hand | engine.Round:
    """The next entry: a hand between the two at each table."""
    hands = [random_hand(rng, session.rules, pair) for pair in session.turn().seated]
    return session.entry_of(hands)


def play(
    rng: random.Random, kind: str, names: Sequence[str], rules: engine.Ruleset
) -> engine.Session:
    """A partie of ``kind`` played to its end, or to MOST_GAMES closed games (a chouette
    never ends by itself)."""
    session = engine.session_class(kind)(names, rules)
    for _ in range(MOST_ENTRIES):
        closed = sum(game.closed for game in session.games())
        if session.is_over() or closed >= MOST_GAMES:
            break
        session.record(_entry(rng, session))
    return session


def entries_of(session: engine.Session) -> list[engine.Hand | engine.Round]:
    """The session's entries as they were recorded: hands, or rounds of two tables."""
    return [session.entry_of([play.hand for play in row.plays]) for row in session.rows()]
