"""Round robin (Berger tables) and Swiss (the table and the pairing of a round).

Berger tables: with n players (n even; an odd field adds a bye as player n), in round
r players i and j (both below n) meet when i + j ≡ r + 1 (mod n - 1), and player n
meets the i with 2i ≡ r + 1. Every pair meets once in n - 1 rounds.

>>> berger_round(4, 1), berger_round(4, 2), berger_round(4, 3)
([(1, 4), (2, 3)], [(1, 2), (3, 4)], [(1, 3), (2, 4)])
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from ..matching import cheapest_pairs
from .values import MatchState, SwissLine


def berger_round(players: int, round_: int) -> list[tuple[int, int]]:
    """The pairs (1-based, the lower first) of round ``round_`` of an even field."""
    last = players - 1
    pairs = []
    for i in range(1, players):
        j = (round_ + 1 - i) % last or last
        if j == i:
            pairs.append((i, players))
        elif i < j:
            pairs.append((i, j))
    return sorted(pairs)


def swiss_table(players: Sequence[str], matches: Sequence[MatchState]) -> list[SwissLine]:
    """The Swiss order: score (a win or a bye counts 1), Buchholz (the opponents' scores
    added up, over the matches played), head-to-head among those level on both (wins
    against each other), then the seed. Every place is one player's."""
    score = {p: 0 for p in players}
    byes = {p: 0 for p in players}
    opponents: dict[str, list[str]] = {p: [] for p in players}
    beat: dict[str, list[str]] = {p: [] for p in players}
    for match in matches:
        if match.winner is None:
            continue
        score[match.winner] += 1
        if match.bye:
            byes[match.winner] += 1
            continue
        loser = match.loser
        assert loser is not None
        opponents[match.winner].append(loser)
        opponents[loser].append(match.winner)
        beat[match.winner].append(loser)
    buchholz = {p: sum(score[o] for o in opponents[p]) for p in players}
    seed = {p: i for i, p in enumerate(players)}
    level: dict[tuple[int, int], list[str]] = {}
    for p in players:
        level.setdefault((score[p], buchholz[p]), []).append(p)

    def head_to_head(p: str) -> int:
        group = level[(score[p], buchholz[p])]
        return sum(1 for o in beat[p] if o in group)

    order = sorted(players, key=lambda p: (-score[p], -buchholz[p], -head_to_head(p), seed[p]))
    return [
        SwissLine(place, p, score[p], buchholz[p], byes[p], tuple(opponents[p]))
        for place, p in enumerate(order, start=1)
    ]


def swiss_bye(table: Sequence[SwissLine]) -> str | None:
    """For an odd field, the lowest placed player who has had no bye (a field that
    withdrawals made odd late may have none left: then the lowest placed of those
    with the fewest byes)."""
    if len(table) % 2 == 0:
        return None
    fewest = min(line.byes for line in table)
    return next(line.player for line in reversed(table) if line.byes == fewest)


def swiss_cost(table: Sequence[SwissLine], met: set[frozenset[str]]):
    """The cost of pairing two players of the table (the bye left out), as one whole
    number whose parts never outweigh the part above them: first a rematch, then the
    square of the score gap (a player floats out of his score group no further than he
    must), then the pairing inside a score group (the upper half meets the lower half in
    order, 1 v 5, 2 v 6, ... of 8; a floater meets the nearest player below)."""
    n = len(table)
    top_score = max((line.score for line in table), default=0)
    gap_unit = n * n + 1  # the largest sum of the group parts, plus one
    rematch_unit = ((n // 2) * top_score * top_score + 1) * gap_unit
    place = {line.player: i for i, line in enumerate(table)}
    group_start: dict[int, int] = {}
    group_size: dict[int, int] = {}
    for i, line in enumerate(table):
        group_start.setdefault(line.score, i)
        group_size[line.score] = group_size.get(line.score, 0) + 1
    score = {line.player: line.score for line in table}

    def cost(a: str, b: str) -> int:
        if place[a] > place[b]:
            a, b = b, a
        distance = place[b] - place[a]
        size = group_size[score[a]]
        inside = abs(2 * distance - size) if score[a] == score[b] else 2 * distance
        gap = (score[a] - score[b]) ** 2
        return (frozenset((a, b)) in met) * rematch_unit + gap * gap_unit + inside

    return cost


def swiss_pairs(
    table: Sequence[SwissLine],
    met: set[frozenset[str]],
    seed: str,
    out: frozenset[str] = frozenset(),
) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """A Swiss round of the players of the table not ``out`` (withdrawn): the pairs of
    the smallest total ``swiss_cost`` (an exact matching; equal costs broken by the
    order a ``random.Random(seed)`` gives the players), each pair and the list in the
    table's order, and the bye.

    The same table, meetings, seed and withdrawals give the same round, and the app
    replays a tournament on every page: the rounds are remembered, so that a replay
    pairs none again (a round of 128 players takes about a tenth of a second)."""
    return _swiss_pairs(tuple(table), frozenset(met), seed, frozenset(out))


@functools.lru_cache(maxsize=1024)
def _swiss_pairs(
    table: tuple[SwissLine, ...], met: frozenset[frozenset[str]], seed: str, out: frozenset[str]
) -> tuple[tuple[tuple[str, str], ...], str | None]:
    playing = [line for line in table if line.player not in out]
    bye = swiss_bye(playing)
    lines = [line for line in playing if line.player != bye]
    cost = swiss_cost(lines, met)
    names = [line.player for line in lines]
    shuffled = list(range(len(names)))
    random.Random(seed).shuffle(shuffled)
    pairs = cheapest_pairs(len(names), lambda a, b: cost(names[a], names[b]), shuffled)
    return tuple((names[a], names[b]) for a, b in sorted(pairs)), bye
