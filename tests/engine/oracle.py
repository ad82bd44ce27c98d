"""Brute-force oracles for the hand evaluator's tests: slow, obvious, independent of it.

Nothing here uses bitmasks or the evaluator's tables. A meld is checked from its
definition (RULES.md §1, §7); a melding is any collection of disjoint melds; the
defender's best is every melding of his own cards followed by every order of laying
cards off one at a time, a lay-off being legal when the meld with the card added is
still a meld.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from hypothesis import strategies as st

from scorekeeper.engine.cards import Card, Suit

DECK = [Card(rank, suit) for suit in Suit for rank in range(1, 14)]
SUIT_ORDER = {suit: n for n, suit in enumerate(Suit)}

Melding = list[frozenset[Card]]


def value(card: Card, corner: bool) -> int:
    return 15 if corner and card.rank == 1 else min(card.rank, 10)


def is_meld(cards: Iterable[Card], corner: bool) -> bool:
    cards = list(cards)
    if len(cards) < 3:
        return False
    if len({card.rank for card in cards}) == 1:
        return len(cards) <= 4
    if len({card.suit for card in cards}) != 1:
        return False
    ranks = {card.rank for card in cards}
    size = len(cards)
    starts = range(1, 14) if corner else range(1, 15 - size)
    return any({(start - 1 + k) % 13 + 1 for k in range(size)} == ranks for start in starts)


def melds_of(cards: Sequence[Card], corner: bool) -> list[frozenset[Card]]:
    return [
        frozenset(group)
        for size in range(3, len(cards) + 1)
        for group in combinations(cards, size)
        if is_meld(group, corner)
    ]


def meldings(melds: Sequence[frozenset[Card]]) -> list[Melding]:
    """Every collection of pairwise disjoint melds, the empty one included."""
    found: list[Melding] = []

    def extend(start: int, chosen: Melding, used: frozenset[Card]) -> None:
        found.append(chosen)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                extend(i + 1, [*chosen, melds[i]], used | melds[i])

    extend(0, [], frozenset())
    return found


def melded(melding: Melding) -> frozenset[Card]:
    return frozenset().union(*melding)


def deadwood(cards: Iterable[Card], melding: Melding, corner: bool) -> int:
    inside = melded(melding)
    return sum(value(card, corner) for card in cards if card not in inside)


def least_deadwood(cards: Sequence[Card], corner: bool) -> int:
    return min(deadwood(cards, m, corner) for m in meldings(melds_of(cards, corner)))


def least_meldings(cards: Sequence[Card], corner: bool) -> list[Melding]:
    """The knocker's meldings with the least deadwood (10 cards)."""
    every = meldings(melds_of(cards, corner))
    least = min(deadwood(cards, m, corner) for m in every)
    return [m for m in every if deadwood(cards, m, corner) == least]


def best_defence(defender: Sequence[Card], table: Sequence[Iterable[Card]], corner: bool) -> int:
    """The least deadwood the defender can reach against the knocker's melds ``table``."""
    memo: dict = {}
    start = tuple(frozenset(meld) for meld in table)
    best = None
    for melding in meldings(melds_of(defender, corner)):
        free = frozenset(defender) - melded(melding)
        result = _lay_off(free, start, corner, memo)
        best = result if best is None else min(best, result)
    assert best is not None
    return best


def _lay_off(free: frozenset[Card], table: tuple, corner: bool, memo: dict) -> int:
    key = (free, table)
    if key not in memo:
        best = sum(value(card, corner) for card in free)
        for card in free:
            for i, meld in enumerate(table):
                if is_meld(meld | {card}, corner):
                    grown = (*table[:i], meld | {card}, *table[i + 1 :])
                    best = min(best, _lay_off(free - {card}, grown, corner, memo))
        memo[key] = best
    return memo[key]


@st.composite
def hands(draw: st.DrawFn, size: int) -> list[Card]:
    """Random hands; half of them crowded into a few neighbouring ranks and suits, where
    melds overlap (a card fits a set and a run, runs wrap past the king)."""
    if draw(st.booleans()):
        start = draw(st.integers(0, 12))
        width = draw(st.integers(4, 7))
        ranks = {(start + k) % 13 + 1 for k in range(width)}
        suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=2, max_size=4, unique=True))
        pool = [card for card in DECK if card.rank in ranks and card.suit in suits]
        if len(pool) >= size:
            return draw(st.permutations(pool))[:size]
    return draw(st.permutations(DECK))[:size]


def cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]
