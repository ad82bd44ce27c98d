"""Who plays whom on a league night: tables of two (or one of three) and a bye.

Two ways to seat the players present:

- ``round_robin``: over the season, fewest repeats first. Each pair costs the number
  of times the two have met this season; the pairing with the smallest total wins.
- ``swiss``: by tonight's standings, with no rematch tonight. Each pair costs a
  rematch (far above anything else) for every time the two met tonight, plus the
  square of the gap between their scores tonight, so players meet their neighbours
  in the standings and a player far off is floated no further than he must be.

An odd count leaves one player out: the bye goes to the player with the fewest byes
this season, then the lowest standing. Or, with ``three_player_table``, nobody sits
out and one table seats three (it costs its three pairs).

Ties are broken by ``random.Random(seed)``: the same input and seed give the same
tables. The cheapest pairing is exact, whatever the count: a minimum-cost perfect
matching (``matching.py``, the pairing engine the tournaments' Swiss rounds use too),
and for a table of three the matching tried for each possible third player of the
table, skipping those whose least cost cannot win.

Nobody has met yet, so four players make two tables:

>>> night = round_robin(["Anna", "Ben", "Carl", "Dora"], met={}, seed=1)
>>> sorted(sorted(table.players) for table in night.tables), night.byes
([['Anna', 'Ben'], ['Carl', 'Dora']], ())

Anna and Ben met twice, Carl and Dora once, Anna and Carl once: the only pairing
with no repeat is Anna–Dora and Ben–Carl, whatever the seed.

>>> met = {("Anna", "Ben"): 2, ("Carl", "Dora"): 1, ("Anna", "Carl"): 1}
>>> {tuple(sorted(pair(*table.players) for table in round_robin(
...     ["Anna", "Ben", "Carl", "Dora"], met=met, seed=seed).tables)) for seed in range(9)}
{(('Anna', 'Dora'), ('Ben', 'Carl'))}

With the season's standings given, the best placed player sits at table 1, first:

>>> print(round_robin(["Anna", "Ben", "Carl", "Dora"], met=met, standing=["Ben", "Anna"]))
1: Ben – Carl
2: Anna – Dora

Five players: the bye goes to the one with the fewest byes this season, then the
lowest standing (``standing`` lists names best first; a name not in it is lowest).

>>> night = round_robin(["Anna", "Ben", "Carl", "Dora", "Emil"], met={},
...                     byes={"Emil": 1}, standing=["Anna", "Ben", "Carl", "Dora", "Emil"])
>>> night.byes
('Dora',)
>>> night = round_robin(["Anna", "Ben", "Carl", "Dora", "Emil"], met={},
...                     three_player_table=True, seed=3)
>>> sorted(len(table.players) for table in night.tables), night.byes
([2, 3], ())

Swiss after one round tonight: Anna and Carl won, Ben and Dora lost. The winners
meet, and so do the losers; Anna–Carl is table 1 (the top of the standings).

>>> night = swiss(["Anna", "Ben", "Carl", "Dora"], scores={"Anna": 2, "Carl": 2},
...               met={("Anna", "Ben"): 1, ("Carl", "Dora"): 1}, standing=["Anna", "Ben"])
>>> print(night)
1: Anna – Carl
2: Ben – Dora
>>> night.as_dict()["tables"][0]
{'table': 1, 'players': ['Anna', 'Carl']}

A rematch is taken only when every pairing has one:

>>> night = swiss(["Anna", "Ben"], scores={}, met={("Anna", "Ben"): 1})
>>> sorted(night.seated), night.repeats({("Ben", "Anna"): 1})
(['Anna', 'Ben'], 1)
>>> round_robin(["Anna", "Anna"], met={})
Traceback (most recent call last):
...
scorekeeper.engine.pairings.PairingError: Anna is present twice
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from .matching import cheapest_pairs, cheapest_with_trio

Pair = tuple[str, str]


class Method(Enum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class PairingError(ValueError):
    """Players that cannot be paired as given (a name twice, an empty name)."""


def pair(one: str, other: str) -> Pair:
    """The key of a pair of players, in either order.

    >>> pair("Ben", "Anna") == pair("Anna", "Ben") == ("Anna", "Ben")
    True
    """
    return (one, other) if one <= other else (other, one)


@dataclass(frozen=True)
class Table:
    """One table of the night: its number (1 first) and its players, best standing first."""

    number: int
    players: tuple[str, ...]

    def pairs(self) -> list[Pair]:
        """Every pair of players who meet at this table (three at a table of three)."""
        seated = self.players
        return [pair(a, b) for i, a in enumerate(seated) for b in seated[i + 1 :]]


@dataclass(frozen=True)
class Pairing:
    """The tables of one round and who sits out (the bye)."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict:
        """The command line's JSON: ``{"tables": [{"table": 1, "players": [..]}],
        "byes": [..]}``."""
        return {
            "tables": [{"table": t.number, "players": list(t.players)} for t in self.tables],
            "byes": list(self.byes),
        }

    def __str__(self) -> str:
        lines = [f"{table.number}: {' – '.join(table.players)}" for table in self.tables]
        return "\n".join(lines + ([f"bye: {', '.join(self.byes)}"] if self.byes else []))

    @property
    def seated(self) -> list[str]:
        return [name for table in self.tables for name in table.players]

    def repeats(self, met: Mapping[Pair, int]) -> int:
        """How many earlier meetings the pairs of this round repeat, in total."""
        counts = _normalised(met)
        return sum(counts.get(p, 0) for table in self.tables for p in table.pairs())

    def swapped(self, one: str, other: str) -> Pairing:
        """The same round with two players' places exchanged (at tables or on the bye).

        >>> night = Pairing((Table(1, ("Anna", "Ben")), Table(2, ("Carl", "Dora"))), ("Emil",))
        >>> print(night.swapped("Ben", "Emil"))
        1: Anna – Emil
        2: Carl – Dora
        bye: Ben
        >>> night.swapped("Ben", "Zoe")
        Traceback (most recent call last):
        ...
        scorekeeper.engine.pairings.PairingError: Zoe is not in this round
        """
        names = set(self.seated) | set(self.byes)
        for name in (one, other):
            if name not in names:
                raise PairingError(f"{name} is not in this round")

        def place(name: str) -> str:
            return other if name == one else one if name == other else name

        tables = tuple(Table(t.number, tuple(place(n) for n in t.players)) for t in self.tables)
        return Pairing(tables, tuple(place(n) for n in self.byes))


def round_robin(
    present: Sequence[str],
    *,
    met: Mapping[Pair, int],
    byes: Mapping[str, int] | None = None,
    standing: Sequence[str] = (),
    three_player_table: bool = False,
    seed: int = 0,
) -> Pairing:
    """Pair the players present so that the season's meetings (pair: count) repeat as
    little as possible. ``standing``: the season's standings, names best first."""
    rng = random.Random(seed)
    order = _order(present, standing, {}, rng)
    counts = _normalised(met)
    return _pair_up(
        order,
        lambda a, b: counts.get(pair(a, b), 0),
        byes or {},
        three_player_table,
        rng,
    )


def swiss(
    present: Sequence[str],
    *,
    scores: Mapping[str, int],
    met: Mapping[Pair, int],
    byes: Mapping[str, int] | None = None,
    standing: Sequence[str] = (),
    three_player_table: bool = False,
    seed: int = 0,
) -> Pairing:
    """Pair neighbours in tonight's standings (``scores``: tonight's points, none for a
    player not in it), with no pair that met tonight (``met``) where that can be
    avoided. Equal scores are ordered by the season's ``standing``, then by lot."""
    rng = random.Random(seed)
    order = _order(present, standing, scores, rng)
    counts = _normalised(met)
    points = {name: scores.get(name, 0) for name in order}
    spread = max(points.values(), default=0) - min(points.values(), default=0)
    # One rematch costs more than the worst standings gaps of a whole round.
    rematch = (len(order) // 2 + 1) * 3 * spread * spread + 1
    return _pair_up(
        order,
        lambda a, b: rematch * counts.get(pair(a, b), 0) + (points[a] - points[b]) ** 2,
        byes or {},
        three_player_table,
        rng,
    )


def pairings(method: Method | str, present: Sequence[str], **options) -> Pairing:
    """``round_robin`` or ``swiss`` by name (``scores`` is Swiss's alone)."""
    method = Method(method)
    if method is Method.ROUND_ROBIN:
        options.pop("scores", None)
        return round_robin(present, **options)
    options.setdefault("scores", {})
    return swiss(present, **options)


def _normalised(met: Mapping[Pair, int]) -> dict[Pair, int]:
    counts: dict[Pair, int] = {}
    for (one, other), count in met.items():
        key = pair(one, other)
        counts[key] = counts.get(key, 0) + count
    return counts


def _order(
    present: Sequence[str], standing: Sequence[str], scores: Mapping[str, int], rng: random.Random
) -> list[str]:
    """The players present, best first: by score (Swiss), then the season's standing
    (a player not in it after those who are), then by lot."""
    seen: set[str] = set()
    for name in present:
        if not name:
            raise PairingError("a present player has no name")
        if name in seen:
            raise PairingError(f"{name} is present twice")
        seen.add(name)
    rank = {name: i for i, name in enumerate(standing)}
    lots = {name: rng.random() for name in sorted(present)}
    return sorted(
        present,
        key=lambda n: (-scores.get(n, 0), rank.get(n, len(rank)), lots[n]),
    )


def _pair_up(
    order: list[str],
    cost: Callable[[str, str], int],
    byes: Mapping[str, int],
    three: bool,
    rng: random.Random,
) -> Pairing:
    players = list(order)
    sitting_out: tuple[str, ...] = ()
    if len(players) % 2 == 1 and not (three and len(players) >= 3):
        # The fewest byes this season, then the lowest standing.
        out = min(reversed(players), key=lambda n: byes.get(n, 0))
        sitting_out = (out,)
        players.remove(out)
    groups = _cheapest(players, cost, rng)
    position = {name: i for i, name in enumerate(order)}
    seated = [tuple(sorted(group, key=position.__getitem__)) for group in groups]
    seated.sort(key=lambda group: [position[n] for n in group])
    tables = tuple(Table(number, group) for number, group in enumerate(seated, start=1))
    return Pairing(tables, sitting_out)


def _cheapest(
    players: list[str], cost: Callable[[str, str], int], rng: random.Random
) -> list[tuple[str, ...]]:
    """The groups (pairs, and one table of three for an odd count) of the smallest total
    cost, exactly (``matching``). The players are numbered in the order of a lot, so
    that among seatings of equal cost the seed decides, the same way every time."""
    if not players:
        return []
    lot = list(players)
    rng.shuffle(lot)
    prices = {(a, b): cost(lot[a], lot[b]) for a in range(len(lot)) for b in range(a + 1, len(lot))}

    def price(a: int, b: int) -> int:
        return prices[(a, b)]

    if len(lot) % 2 == 0:
        groups = cheapest_pairs(len(lot), price)
    else:
        trio, pairs = cheapest_with_trio(len(lot), price)
        groups = [trio, *pairs]
    return [tuple(lot[i] for i in group) for group in groups]
