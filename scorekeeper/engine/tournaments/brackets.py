"""Elimination brackets, as slots that say where each seat comes from: a seed, the
winner or the loser of an earlier match, or nobody (a bye).

A bracket has the size of the next power of two; seed s meets seed size+1-s in the first
round, in the standard positions, so that seeds 1 and 2 can meet only in the final and
the semi-finals are 1-4 and 2-3 when the seeds hold. The seeds past the field are
nobody: the byes go to the top seeds.

>>> seed_positions(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> [(s.id, s.feeds) for s in knockout(3)][:2]  # doctest: +NORMALIZE_WHITESPACE
[('W1-1', (Feed(kind='seed', source=0), Feed(kind='none', source=0))),
 ('W1-2', (Feed(kind='seed', source=1), Feed(kind='seed', source=2)))]

A slot whose two seats are nobody is never played and is left out; a slot with one
is a bye. Those follow from the bracket alone, not from the results.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .values import MatchState, Stage

# The seat of a bye's missing player (no name is empty); None is a player not known yet.
NOBODY = ""


@dataclass(frozen=True)
class Feed:
    """Where a seat comes from: ``seed`` (source: the index in the seed order),
    ``winner`` or ``loser`` (source: a match id), or ``none`` (a bye)."""

    kind: str
    source: int | str


NONE = Feed("none", 0)


@dataclass(frozen=True)
class Slot:
    """A match of a bracket before any result. ``reset``: the grand final's reset,
    played only when the first final's second seat (the losers' bracket's winner) won."""

    id: str
    stage: Stage
    round: int
    feeds: tuple[Feed, Feed]
    reset: bool = False


def bracket_size(count: int) -> int:
    """The next power of two from ``count`` (at least 2)."""
    return max(2, 1 << (count - 1).bit_length())


def seed_positions(size: int) -> list[int]:
    """Seeds 1..size in bracket order, top to bottom: each seed s of the bracket of half
    the size is followed by the seed it meets first in this one, size + 1 - s."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def knockout(
    count: int,
    *,
    prefix: str = "W",
    stage: Stage = Stage.WINNERS,
    third_place: bool = False,
    consolation: bool = False,
) -> list[Slot]:
    """A single elimination of ``count`` seeds: ``{prefix}{round}-{n}`` (n from the top
    of the bracket), the third-place match ``3P`` between the semi-finals' losers, and
    the consolation bracket ``C{round}-{n}`` of the first round's losers."""
    size = bracket_size(count)
    rounds = size.bit_length() - 1
    positions = seed_positions(size)

    def seed(s: int) -> Feed:
        return Feed("seed", s - 1) if s <= count else NONE

    slots = [
        Slot(f"{prefix}1-{i + 1}", stage, 1, (seed(positions[2 * i]), seed(positions[2 * i + 1])))
        for i in range(size // 2)
    ]
    slots += _rounds_after(prefix, stage, 1, size // 2)
    if third_place and rounds >= 2:
        semis = (f"{prefix}{rounds - 1}-1", f"{prefix}{rounds - 1}-2")
        slots.append(
            Slot(
                "3P", Stage.THIRD_PLACE, rounds, (Feed("loser", semis[0]), Feed("loser", semis[1]))
            )
        )
    # A bracket of 4 whose semi-finals' losers play for third place has them meet
    # there: a consolation bracket of the same two would be that match again.
    if consolation and rounds >= 2 and not (third_place and rounds == 2):
        first = [
            Slot(
                f"C1-{i}",
                Stage.CONSOLATION,
                1,
                (Feed("loser", f"{prefix}1-{2 * i - 1}"), Feed("loser", f"{prefix}1-{2 * i}")),
            )
            for i in range(1, size // 4 + 1)
        ]
        slots += first + _rounds_after("C", Stage.CONSOLATION, 1, len(first))
    return slots


def _rounds_after(prefix: str, stage: Stage, round_: int, matches: int) -> list[Slot]:
    """The rounds of a knockout after ``round_`` (of ``matches`` matches), to its final."""
    slots = []
    while matches > 1:
        round_, matches = round_ + 1, matches // 2
        slots += [
            Slot(
                f"{prefix}{round_}-{i}",
                stage,
                round_,
                (
                    Feed("winner", f"{prefix}{round_ - 1}-{2 * i - 1}"),
                    Feed("winner", f"{prefix}{round_ - 1}-{2 * i}"),
                ),
            )
            for i in range(1, matches + 1)
        ]
    return slots


def double_knockout(count: int) -> list[Slot]:
    """A double elimination: the winners' bracket ``W``, the losers' bracket ``L`` (its
    odd rounds pair its own winners, each even round 2j takes in the losers of winners'
    round j+1), the grand final ``GF`` and its reset ``GF2``.

    The losers of a winners' round drop in reversed (j odd) or shifted by half the round
    (j even), so that a player meets in the losers' bracket nobody from his own part of
    the winners' bracket, as far as the size allows (a bracket of 4 cannot).
    """
    size = bracket_size(count)
    rounds = size.bit_length() - 1
    slots = knockout(count)
    if rounds == 1:
        champion = Feed("loser", "W1-1")  # two players: the first loser is the losers' best
    else:
        previous = [
            Slot(
                f"L1-{i}",
                Stage.LOSERS,
                1,
                (Feed("loser", f"W1-{2 * i - 1}"), Feed("loser", f"W1-{2 * i}")),
            )
            for i in range(1, size // 4 + 1)
        ]
        slots += previous
        for j in range(1, rounds):
            drops = _drop_order(len(previous), j)
            dropped = [
                Slot(
                    f"L{2 * j}-{i}",
                    Stage.LOSERS,
                    2 * j,
                    (Feed("winner", before.id), Feed("loser", f"W{j + 1}-{drop}")),
                )
                for i, (before, drop) in enumerate(zip(previous, drops, strict=True), start=1)
            ]
            slots += dropped
            previous = dropped
            if j < rounds - 1:
                previous = [
                    Slot(
                        f"L{2 * j + 1}-{i}",
                        Stage.LOSERS,
                        2 * j + 1,
                        (
                            Feed("winner", dropped[2 * i - 2].id),
                            Feed("winner", dropped[2 * i - 1].id),
                        ),
                    )
                    for i in range(1, len(dropped) // 2 + 1)
                ]
                slots += previous
        champion = Feed("winner", previous[0].id)
    final = Slot("GF", Stage.GRAND_FINAL, 1, (Feed("winner", f"W{rounds}-1"), champion))
    reset = Slot(
        "GF2", Stage.GRAND_FINAL_RESET, 1, (Feed("loser", "GF"), Feed("winner", "GF")), reset=True
    )
    return [*slots, final, reset]


def _drop_order(matches: int, j: int) -> list[int]:
    """Which match of winners' round j+1 drops its loser into each match of losers'
    round 2j, 1-based."""
    if j % 2 == 1:
        return list(range(matches, 0, -1))
    return [(i + matches // 2) % matches + 1 for i in range(matches)]


class Bracket:
    """A bracket's matches after the winners given (match id: name), each seat filled as
    far as the results go, a slot of two nobodies left out. A result changes only the
    matches that follow from it, so entering one costs what follows from it, not the
    whole bracket (a 128-player double elimination replays its 254 results at once)."""

    def __init__(self, slots: Sequence[Slot], entrants: Sequence[str | None]):
        self.slots = list(slots)
        self.given: dict[str, str] = {}
        self.entrants = list(entrants)
        self._children: dict[str, list[int]] = {}
        for index, slot in enumerate(self.slots):
            for feed in slot.feeds:
                if feed.kind in ("winner", "loser"):
                    self._children.setdefault(str(feed.source), []).append(index)
        self._index = {slot.id: index for index, slot in enumerate(self.slots)}
        self._winners: dict[str, str | None] = {}
        self._losers: dict[str, str | None] = {}
        self._played: dict[str, MatchState] = {}
        self._refresh(range(len(self.slots)))

    def seed(self, entrants: Sequence[str | None]) -> None:
        """Seat other entrants (a top cut once its Swiss is over)."""
        if list(entrants) != self.entrants:
            self.entrants = list(entrants)
            self._refresh(range(len(self.slots)))

    def match(self, match_id: str) -> MatchState | None:
        return self._played.get(match_id)

    def matches(self) -> list[MatchState]:
        return [self._played[s.id] for s in self.slots if s.id in self._played]

    def record(self, match_id: str, winner: str | None) -> None:
        """Give a match's winner (None: take its result back) and follow it through:
        each match after it is seated anew only while the one it follows from
        changed (a bracket's slots come in the order they are played, each after
        those it follows from)."""
        if winner is None:
            self.given.pop(match_id, None)
        else:
            self.given[match_id] = winner
        due = [self._index[match_id]]
        done: set[int] = set()
        while due:
            index = heapq.heappop(due)
            if index in done:
                continue
            done.add(index)
            slot_id = self.slots[index].id
            before = self._outcome(slot_id)
            self._refresh((index,))
            if self._outcome(slot_id) != before:
                for child in self._children.get(slot_id, ()):
                    heapq.heappush(due, child)

    def _outcome(self, slot_id: str) -> tuple:
        """What the matches after a slot read of it."""
        return (self._played.get(slot_id), self._winners.get(slot_id), self._losers.get(slot_id))

    def downstream(self, match_id: str) -> list[str]:
        """Every match whose seats follow from ``match_id``'s result, directly or through
        others, latest first."""
        return [self.slots[i].id for i in sorted(self._following(match_id), reverse=True)]

    def _following(self, match_id: str) -> set[int]:
        found: set[int] = set()
        stack = [match_id]
        while stack:
            for child in self._children.get(stack.pop(), []):
                if child not in found:
                    found.add(child)
                    stack.append(self.slots[child].id)
        return found

    def _seat(self, feed: Feed) -> str | None:
        if feed.kind == "none":
            return NOBODY
        if feed.kind == "seed":
            return self.entrants[int(feed.source)]
        return (self._winners if feed.kind == "winner" else self._losers)[str(feed.source)]

    def _refresh(self, indexes: Iterable[int]) -> None:
        for index in indexes:
            slot = self.slots[index]
            self._played.pop(slot.id, None)
            if slot.reset:
                final = self._played.get("GF")
                if final is None or final.winner is None or final.winner != final.players[1]:
                    continue
            seats = (self._seat(slot.feeds[0]), self._seat(slot.feeds[1]))
            real = tuple(s for s in seats if s != NOBODY)
            if not real:
                self._winners[slot.id] = self._losers[slot.id] = NOBODY
                continue
            if len(real) == 1:
                match = MatchState(slot.id, slot.stage, slot.round, real, real[0], bye=True)
                self._winners[slot.id], self._losers[slot.id] = real[0], NOBODY
            else:
                winner = self.given.get(slot.id) if None not in seats else None
                winner = winner if winner in seats else None
                match = MatchState(slot.id, slot.stage, slot.round, seats, winner)
                self._winners[slot.id], self._losers[slot.id] = winner, match.loser
            self._played[slot.id] = match
