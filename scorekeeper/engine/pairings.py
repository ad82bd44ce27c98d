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
tables. The cheapest pairing is found by a branch-and-bound search that is exact up
to ``SEARCH_LIMIT`` steps (every club night we know of); past that the best pairing
found so far is used, which is always a complete one.

Nobody has met yet, so four players make two tables:

>>> night = round_robin(["Anna", "Ben", "Carl", "Dora"], met={}, seed=1)
>>> sorted(sorted(table.players) for table in night.tables), night.byes
([['Anna', 'Dora'], ['Ben', 'Carl']], ())

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

# Steps of the exact search before the best pairing found so far is taken.
SEARCH_LIMIT = 50_000

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
    cost, with equal costs in the order of a lot. A table of three is tried cheapest
    first, the pairs of the rest found by ``_Search``; a table whose cost and the least
    the rest can cost reach the best found is not tried."""
    search = _Search(players, cost, rng)
    everyone = (1 << len(players)) - 1
    if len(players) % 2 == 0:
        search.pairs(everyone, 0, [])
    else:
        n, matrix, lots = len(players), search.matrix, search.lots
        trios = sorted(
            (matrix[a][b] + matrix[a][c] + matrix[b][c], lots[a] + lots[b] + lots[c], (a, b, c))
            for a in range(n)
            for b in range(a + 1, n)
            for c in range(b + 1, n)
        )
        for price, _, trio in trios:
            left = everyone & ~sum(1 << i for i in trio)
            if search.best is not None and 2 * price + search.bound(left) >= 2 * search.best:
                continue
            search.pairs(left, price, [trio])
    return [tuple(players[i] for i in group) for group in search.groups]


class _Search:
    """Branch and bound over the pairs of a set of players (a bit mask): depth first
    from the best placed player left, his cheapest partners first; pruned by a lower
    bound and by the best cost seen before at the same players left."""

    def __init__(self, players: list[str], cost: Callable[[str, str], int], rng: random.Random):
        n = len(players)
        self.matrix = [[cost(a, b) if a != b else 0 for b in players] for a in players]
        self.lots = [rng.random() for _ in players]
        self.partners = [
            sorted(
                (j for j in range(n) if j != i),
                key=lambda j, i=i: (self.matrix[i][j], self.lots[j]),
            )
            for i in range(n)
        ]
        self.best: int | None = None
        self.groups: list[tuple[int, ...]] = []
        self.seen: dict[int, int] = {}
        self.steps = 0

    def bound(self, left: int) -> int:
        """Twice a lower bound of what the players left cost: each pays at least half
        his cheapest pair among them."""
        total = 0
        for i in range(len(self.partners)):
            if left >> i & 1:
                for j in self.partners[i]:
                    if left >> j & 1:
                        total += self.matrix[i][j]
                        break
        return total

    def pairs(self, left: int, spent: int, groups: list[tuple[int, ...]]) -> None:
        if left == 0:
            if self.best is None or spent < self.best:
                self.best, self.groups = spent, list(groups)
            return
        self.steps += 1
        if self.best is not None:
            if self.steps > SEARCH_LIMIT or 2 * spent + self.bound(left) >= 2 * self.best:
                return
            if self.seen.get(left, spent + 1) <= spent:
                return
        self.seen[left] = spent
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        for j in self.partners[first]:
            if rest >> j & 1:
                groups.append((first, j))
                self.pairs(rest & ~(1 << j), spent + self.matrix[first][j], groups)
                groups.pop()
