"""Melds and deadwood: the exact evaluation of a hand of cards (RULES.md §1, §7).

Every melding is considered, never a rule of thumb: runs of any length, a card
that fits a set and a run, a set of four split to lend its card to a run.

How: a card is a bit of an int, a hand or a meld a mask. A melding is a choice,
for each rank held three or four times, of no set or one of its sets, then each
suit's best runs among the cards left; those are looked up in a table filled once
per suit pattern. Eleven cards, and the defender's choices against lay-offs, use
Packer: a search over disjoint candidate melds, memoized on the cards still free.

>>> best = evaluate("AS 2S 3S 4S 7H 7D 7C KD QH 5C")
>>> [meld.codes for meld in best.melds], best.deadwood, [c.code for c in best.deadwood_cards]
([('AS', '2S', '3S', '4S'), ('7H', '7D', '7C')], 25, ['QH', 'KD', '5C'])

Eleven cards (after the draw): the discard that leaves the least deadwood.

>>> choice = best_discard("AS 2S 3S 4S 7H 7D 7C KD QH 5C 6C")
>>> choice.discard.code, choice.evaluation.deadwood, choice.big_gin
('KD', 21, False)

Round-the-corner: K-A-2 is a run, and an ace left over counts 15.

>>> from scorekeeper.engine.rules import preset
>>> evaluate("KH AH 2H AS 5D 6D 7D 8C 8D 8S", preset("round_the_corner")).deadwood
15
>>> evaluate("KH AH 2H AS 5D 6D 7D 8C 8D 8S").deadwood
14

Ties between meldings of the same deadwood go to the one that melds the most
cards, then to the first in a fixed order (without a set, before sets of four,
before sets of three): the result depends on the cards only, never on the order
they were given in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from typing import Literal

from .cards import DECK, Card, CardError, Suit, parse_cards
from .rules import Ruleset

# A card is bit `13 * suit + rank - 1` of an int: spades A-K are bits 0-12, then
# hearts, diamonds and clubs. A hand, a meld or any set of cards is such a mask.
SUITS = tuple(Suit)
# For cards other than the deck's own: bit = base + rank, the base looked up by the
# suit's letter (hashing a str is done in C; an Enum member calls Enum.__hash__).
_SUIT_BASE = {suit.value: 13 * n - 1 for n, suit in enumerate(SUITS)}
SUIT_BITS = 0x1FFF
ACES = sum(1 << 13 * n for n in range(4))
KINGS = ACES << 12
MAX_CARDS = 11  # the exact search is meant for a hand, after the draw at most

# Deadwood values by bit: ace 1, or 15 under round-the-corner (§7).
VALUES = tuple(card.value for card in DECK)
VALUES_ROUND_THE_CORNER = tuple(15 if card.rank == 1 else card.value for card in DECK)

# A melding's score is its melded value times 16 plus its melded cards (at most 11):
# the largest score leaves the least deadwood and, among those, melds the most cards.
_COUNT_BITS = 4
_COUNT_MASK = 0xF

MeldKind = Literal["set", "run"]


@dataclass(frozen=True, slots=True)
class Meld:
    """A set (3 or 4 cards of one rank) or a run (3 or more in sequence, one suit).

    Cards are in order: a set by suit (spades, hearts, diamonds, clubs), a run from
    its low end (Q-K-A-2 under round-the-corner starts at the queen).
    """

    kind: MeldKind
    cards: tuple[Card, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)

    @property
    def value(self) -> int:
        """The cards' face values (aces 1): what melding them saves."""
        return sum(card.value for card in self.cards)

    def __str__(self) -> str:
        return " ".join(card.code for card in self.cards)

    @classmethod
    def of(cls, cards: str | Iterable[str | Card], rules: Ruleset | None = None) -> Meld:
        """The meld formed by these cards, or CardError (code ``not_a_meld``) if none is.

        >>> Meld.of("9H 7H 8H")
        Meld(kind='run', cards=(Card(rank=7, suit=<Suit.HEARTS: 'H'>), \
Card(rank=8, suit=<Suit.HEARTS: 'H'>), Card(rank=9, suit=<Suit.HEARTS: 'H'>)))
        >>> Meld.of("KS AS 2S")
        Traceback (most recent call last):
        ...
        scorekeeper.engine.cards.CardError: KS AS 2S is not a meld: a meld is a set of 3 or \
4 cards of one rank, or a run of 3 or more cards in sequence in one suit (ace low)
        """
        given = parse_cards(cards)
        mask = hand_mask(given)
        wrap = bool(rules and rules.round_the_corner)
        if len(given) >= 3:
            for meld in (*_runs_in(mask, wrap), *_sets_in(mask)):
                if meld[0] == mask:
                    return meld[2]
        corner = " (K-A-2 and Q-K-A runs allowed)" if wrap else " (ace low)"
        raise CardError(
            f"{' '.join(card.code for card in given)} is not a meld: a meld is a set of 3 or 4 "
            f"cards of one rank, or a run of 3 or more cards in sequence in one suit{corner}",
            code="not_a_meld",
            token=" ".join(card.code for card in given),
        )


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A hand's melding with the least deadwood, and the cards left over."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    @property
    def is_gin(self) -> bool:
        return not self.deadwood_cards


@dataclass(frozen=True, slots=True)
class Discard:
    """Eleven cards after the draw: the discard leaving the least deadwood and the
    melding of the ten kept, or no discard and all eleven melded (a big gin)."""

    evaluation: Evaluation
    discard: Card | None
    big_gin: bool


# --- Cards as bits ---------------------------------------------------------------


def hand_mask(cards: Iterable[Card]) -> int:
    """The mask of any cards, the deck's own or made with Card(rank, suit)."""
    mask = 0
    for card in cards:
        if not 1 <= card.rank <= 13:
            raise CardError(f"{card.rank!r} is not a rank: 1 (ace) to 13 (king)")
        mask |= 1 << _SUIT_BASE[card.suit._value_] + card.rank
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in deck order: spades A-K, hearts, diamonds, clubs."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(cards)


def _pattern_values(values: tuple[int, ...]) -> list[int]:
    """The deadwood of each of the 8192 patterns of one suit's cards."""
    table = [0] * (SUIT_BITS + 1)
    for pattern in range(1, SUIT_BITS + 1):
        low = pattern & -pattern
        table[pattern] = table[pattern ^ low] + values[low.bit_length() - 1]
    return table


# The deadwood of every pattern of one suit, classic and round-the-corner (by ``wrap``).
PATTERN_VALUES = (_pattern_values(VALUES), _pattern_values(VALUES_ROUND_THE_CORNER))


def mask_value(mask: int, wrap: bool = False) -> int:
    """The deadwood of the cards of a mask (aces 15 when ``wrap``, round-the-corner)."""
    table = PATTERN_VALUES[wrap]
    return (
        table[mask & SUIT_BITS]
        + table[mask >> 13 & SUIT_BITS]
        + table[mask >> 26 & SUIT_BITS]
        + table[mask >> 39]
    )


def checked_mask(cards: str | Iterable[str | Card], allowed: range | tuple[int, ...]) -> int:
    """The mask of the cards, refusing duplicates, unknown codes and a wrong count."""
    if isinstance(cards, str):
        return hand_mask(parse_cards(cards, allowed))
    if not isinstance(cards, (list, tuple)):  # noqa: UP038 (the tuple is faster)
        cards = list(cards)
    mask = 0
    try:
        for card in cards:
            mask |= card.bit  # the deck's cards (cards.DECK, Card.parse) carry their bit
    except AttributeError:  # codes, or cards made with Card(rank, suit)
        return hand_mask(parse_cards(cards, allowed))
    count = len(cards)
    if mask.bit_count() != count or count not in allowed:
        parse_cards(cards, allowed)  # raises the precise error
    return mask


# --- Candidate melds ---------------------------------------------------------------
# A candidate is (mask, score, Meld). Tables are filled lazily and shared by all hands.

_MELDS: dict[int, Meld] = {}  # mask -> its Meld, one instance per meld
_RUN_TABLE: dict[int, tuple[tuple[int, int, Meld], ...]] = {}
_SET_TABLE: dict[int, tuple[tuple[int, int, Meld], ...]] = {}


def _meld(kind: MeldKind, bits: tuple[int, ...]) -> Meld:
    mask = sum(1 << bit for bit in bits)
    meld = _MELDS.get(mask)
    if meld is None:
        meld = _MELDS[mask] = Meld(kind, tuple(DECK[bit] for bit in bits))
    return meld


def _score(bits: tuple[int, ...], values: tuple[int, ...]) -> int:
    return sum(values[bit] for bit in bits) << _COUNT_BITS | len(bits)


def _suit_runs(suit: int, pattern: int, wrap: bool) -> tuple[tuple[int, int, Meld], ...]:
    """Every run among one suit's cards (a 13-bit pattern), longest first by low end."""
    key = pattern | suit << 13 | wrap << 15
    runs = _RUN_TABLE.get(key)
    if runs is not None:
        return runs
    values = VALUES_ROUND_THE_CORNER if wrap else VALUES
    found = {}
    for start in range(13):
        if not pattern >> start & 1:
            continue
        before = (start - 1) % 13 if wrap else start - 1
        if before >= 0 and pattern >> before & 1 and pattern != SUIT_BITS:
            continue  # a sequence is read from its first card only
        ranks = [start]
        while len(ranks) < 13:
            nxt = ranks[-1] + 1
            if nxt == 13:
                if not wrap:
                    break
                nxt = 0
            if not pattern >> nxt & 1 or nxt == start:
                break
            ranks.append(nxt)
        # Every stretch of 3 or more consecutive cards of the sequence is a run.
        for i in range(len(ranks) - 2):
            for j in range(len(ranks), i + 2, -1):
                bits = tuple(13 * suit + rank for rank in ranks[i:j])
                found.setdefault(sum(1 << b for b in bits), bits)
    # By low card, longest first. (Only a full suit, never in a hand, repeats runs.)
    order = sorted(found.items(), key=lambda run: ((run[0] & -run[0]).bit_length(), -len(run[1])))
    runs = _RUN_TABLE[key] = tuple(
        (mask, _score(bits, values), _meld("run", bits)) for mask, bits in order
    )
    return runs


def _rank_sets(rank: int, suits: int, wrap: bool) -> tuple[tuple[int, int, Meld], ...]:
    """The sets among one rank's cards held in the suits of a 4-bit pattern."""
    key = rank | suits << 4 | wrap << 8
    sets = _SET_TABLE.get(key)
    if sets is not None:
        return sets
    values = VALUES_ROUND_THE_CORNER if wrap else VALUES
    held = tuple(13 * suit + rank for suit in range(4) if suits >> suit & 1)
    groups = [held] if len(held) >= 3 else []
    if len(held) == 4:
        groups += [tuple(b for b in held if b != left_out) for left_out in reversed(held)]
    sets = _SET_TABLE[key] = tuple(
        (sum(1 << b for b in bits), _score(bits, values), _meld("set", bits)) for bits in groups
    )
    return sets


def _runs_in(mask: int, wrap: bool) -> list[tuple[int, int, Meld]]:
    runs: list[tuple[int, int, Meld]] = []
    for suit in range(4):
        pattern = mask >> 13 * suit & SUIT_BITS
        # Three cards in sequence, or (round-the-corner) a pair wrapping past the king.
        if pattern & pattern >> 1 & pattern >> 2 or (
            wrap and pattern & 0x1001 == 0x1001 and pattern & 0x802
        ):
            runs += _suit_runs(suit, pattern, wrap)
    return runs


def _sets_in(mask: int, wrap: bool = False) -> list[tuple[int, int, Meld]]:
    s, h, d, c = (mask >> 13 * n & SUIT_BITS for n in range(4))
    three_or_more = (s & h & (d | c)) | (d & c & (s | h))
    sets: list[tuple[int, int, Meld]] = []
    while three_or_more:
        low = three_or_more & -three_or_more
        three_or_more ^= low
        rank = low.bit_length() - 1
        suits = (s >> rank & 1) | (h >> rank & 1) << 1 | (d >> rank & 1) << 2 | (c >> rank & 1) << 3
        sets += _rank_sets(rank, suits, wrap)
    return sets


def candidate_melds(mask: int, wrap: bool = False) -> list[tuple[int, int, Meld]]:
    """Every meld among the cards of ``mask``: runs by suit, then sets by rank."""
    return _runs_in(mask, wrap) + _sets_in(mask, wrap)


# --- The search ----------------------------------------------------------------------


class Packer:
    """The best packings of disjoint melds among a hand's candidate melds.

    The search takes the lowest card not yet decided: it goes into one of the melds
    starting at it that still fit (in table order), or it stays unmelded. ``best``
    memoizes on the mask of cards still free, so one Packer serves every subset of
    the hand (the eleven discards of best_discard share it).
    """

    __slots__ = ("by_low", "memo")

    def __init__(self, melds: list[tuple[int, int, Meld]]):
        by_low: dict[int, list[tuple[int, int, Meld]]] = {}
        for meld in melds:
            by_low.setdefault(meld[0] & -meld[0], []).append(meld)
        self.by_low = by_low
        self.memo: dict[int, tuple[int, tuple[int, int, Meld] | None, int]] = {}

    def _lowest_meldable(self, free: int) -> tuple[int, int, list]:
        """The free cards from the lowest one that starts a meld, that card and its melds;
        (0, 0, []) when no free card starts one (lower cards can only be deadwood)."""
        rest = free
        while rest:
            low = rest & -rest
            options = self.by_low.get(low)
            if options:
                return rest, low, options
            rest ^= low
        return 0, 0, []

    def best(self, free: int) -> int:
        """The largest score of a packing within ``free``; the first in search order wins ties."""
        got = self.memo.get(free)
        if got is not None:
            return got[0]
        rest, low, options = self._lowest_meldable(free)
        if not rest:
            self.memo[free] = (0, None, 0)
            return 0
        best, choice, after = -1, None, 0
        for meld in options:
            mask = meld[0]
            if mask & rest == mask:
                score = meld[1] + self.best(rest ^ mask)
                if score > best:
                    best, choice, after = score, meld, rest ^ mask
        score = self.best(rest ^ low)
        if score > best:
            best, choice, after = score, None, rest ^ low
        self.memo[free] = (best, choice, after)
        return best

    def chosen(self, free: int) -> list[tuple[int, int, Meld]]:
        """The packing that ``best(free)`` found, melds in order of their lowest card."""
        self.best(free)
        melds = []
        while free:
            _, choice, free = self.memo[free]
            if choice is not None:
                melds.append(choice)
        return melds

    def all(self, free: int) -> list[tuple[int, list[tuple[int, int, Meld]]]]:
        """Every packing within ``free`` as (score, melds), in search order (the empty last)."""
        rest, low, options = self._lowest_meldable(free)
        if not rest:
            return [(0, [])]
        result = []
        for meld in options:
            mask = meld[0]
            if mask & rest == mask:
                for score, melds in self.all(rest ^ mask):
                    result.append((meld[1] + score, [meld, *melds]))
        result += self.all(rest ^ low)
        return result


def ordered(melds: Iterable[tuple[int, int, Meld]]) -> list[tuple[int, int, Meld]]:
    """Melds in the order results show them: runs in deck order (spades first, each
    from its low card), then sets from the lowest rank."""
    return sorted(
        melds,
        key=lambda meld: (
            (1, meld[2].cards[0].rank)
            if meld[2].kind == "set"
            else (0, (meld[0] & -meld[0]).bit_length())
        ),
    )


# Each suit's cards are melded on their own once sets are set aside: the best runs
# of each 13-bit pattern (per suit and rule) are found once and kept. At most
# 4 * 2**13 entries per rule, a few megabytes; hands of ten fill a fraction of that.
SuitPart = tuple[tuple[Meld, ...], tuple[Card, ...], int, int, int]
_SUIT_EVALUATIONS: dict[int, SuitPart] = {}


def _suit_evaluation(key: int) -> SuitPart:
    """(melds, deadwood cards, deadwood, score, melded mask) of one suit's cards."""
    pattern, suit, wrap = key & SUIT_BITS, key >> 13 & 3, bool(key >> 15)
    mask = pattern << 13 * suit
    runs = _runs_in(mask, wrap)
    packer = Packer(runs)
    melds = packer.chosen(mask) if runs else []
    melded = 0
    for meld in melds:
        melded |= meld[0]
    left = mask & ~melded
    found = _SUIT_EVALUATIONS[key] = (
        tuple(meld[2] for meld in melds),
        cards_of(left),
        mask_value(left, wrap),
        packer.best(mask) if runs else 0,
        melded,
    )
    return found


def _suit_parts(mask: int, rule: int) -> list[SuitPart]:
    get = _SUIT_EVALUATIONS.get
    keys = (
        mask & SUIT_BITS | rule,
        mask >> 13 & SUIT_BITS | 1 << 13 | rule,
        mask >> 26 & SUIT_BITS | 2 << 13 | rule,
        mask >> 39 | 3 << 13 | rule,
    )
    return [get(key) or _suit_evaluation(key) for key in keys]


def _set_choices(mask: int, wrap: bool) -> list[tuple[tuple[int, int, Meld | None], ...]]:
    """For each rank held three or four times: no set, or one of its sets (the set of
    four first). A melding is one choice per rank, then each suit's runs apart."""
    s, h, d, c = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    three = s & h & (d | c) | d & c & (s | h)
    choices: list[tuple[tuple[int, int, Meld | None], ...]] = []
    while three:
        low = three & -three
        three ^= low
        rank = low.bit_length() - 1
        suits = (s >> rank & 1) | (h >> rank & 1) << 1 | (d >> rank & 1) << 2 | (c >> rank & 1) << 3
        choices.append(((0, 0, None), *_rank_sets(rank, suits, wrap)))
    return choices


def meldings(
    mask: int, wrap: bool
) -> list[tuple[int, tuple[tuple[int, int, Meld | None], ...], list[SuitPart]]]:
    """(score, sets, suit parts) for every choice of sets, in order. With each suit's
    best runs, these hold every least-deadwood melding up to how a run of cards in
    sequence is cut (one run, shown, or several: the same cards and lay-offs)."""
    rule = wrap << 15
    result = []
    for combo in product(*_set_choices(mask, wrap)):
        taken = score = 0
        for set_mask, set_score, _ in combo:
            taken |= set_mask  # (sets of different ranks share no card)
            score += set_score
        parts = _suit_parts(mask & ~taken, rule)
        score += parts[0][3] + parts[1][3] + parts[2][3] + parts[3][3]
        result.append((score, combo, parts))
    return result


def evaluate_mask(mask: int, wrap: bool) -> Evaluation:
    """The best melding of the cards of ``mask`` (see evaluate for ties)."""
    s, h, d, c = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    get, rule = _SUIT_EVALUATIONS.get, wrap << 15
    if s & h & (d | c) or d & c & (s | h):  # a rank held three times: sets to choose
        # As meldings(), inline: the first of the greatest score.
        best, found = -1, None
        for combo in product(*_set_choices(mask, wrap)):
            taken = score = 0
            for set_mask, set_score, _ in combo:
                taken |= set_mask
                score += set_score
            rest = mask & ~taken
            key = rest & SUIT_BITS | rule
            s = get(key) or _suit_evaluation(key)
            key = rest >> 13 & SUIT_BITS | 1 << 13 | rule
            h = get(key) or _suit_evaluation(key)
            key = rest >> 26 & SUIT_BITS | 2 << 13 | rule
            d = get(key) or _suit_evaluation(key)
            key = rest >> 39 | 3 << 13 | rule
            c = get(key) or _suit_evaluation(key)
            score += s[3] + h[3] + d[3] + c[3]
            if score > best:
                best, found = score, (combo, [s, h, d, c])
        assert found is not None
        return evaluation_of(*found)
    # No set can form: the suits are melded apart.
    s, h, d, c = s | rule, h | 1 << 13 | rule, d | 2 << 13 | rule, c | 3 << 13 | rule
    s = get(s) or _suit_evaluation(s)
    h = get(h) or _suit_evaluation(h)
    d = get(d) or _suit_evaluation(d)
    c = get(c) or _suit_evaluation(c)
    return Evaluation(
        s[0] + h[0] + d[0] + c[0], s[1] + h[1] + d[1] + c[1], s[2] + h[2] + d[2] + c[2]
    )


def evaluation_of(
    sets: tuple[tuple[int, int, Meld | None], ...], parts: list[SuitPart]
) -> Evaluation:
    """The Evaluation of one melding: its sets and each suit's part (as meldings gives)."""
    s, h, d, c = parts
    return Evaluation(
        s[0] + h[0] + d[0] + c[0] + tuple(meld[2] for meld in sets if meld[2] is not None),
        s[1] + h[1] + d[1] + c[1],
        s[2] + h[2] + d[2] + c[2],
    )


def evaluate(cards: str | Iterable[str | Card], rules: Ruleset | None = None) -> Evaluation:
    """The melding of these cards with the least deadwood (any number up to 11).

    ``cards`` are Card values or codes (a string like ``"7H TD QS"`` or a list).
    ``rules`` matter only through round-the-corner; None means classic. Melds are
    shown runs first (in deck order), then sets (by rank); deadwood cards in deck
    order.
    """
    # The common case inline (a list of the deck's cards without sets to choose): this
    # function is the hot path, and each call saved is a few percent of it.
    if isinstance(cards, (list, tuple)):  # noqa: UP038 (the tuple is faster)
        mask = 0
        try:
            for card in cards:
                mask |= card.bit
        except AttributeError:  # codes, or cards made with Card(rank, suit)
            mask = checked_mask(cards, _ANY_HAND)
        else:
            if mask.bit_count() != len(cards) or len(cards) > MAX_CARDS:
                mask = checked_mask(cards, _ANY_HAND)  # raises the precise error
    else:
        mask = checked_mask(cards, _ANY_HAND)
    wrap = rules is not None and rules.round_the_corner
    s, h, d, c = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    if s & h & (d | c) or d & c & (s | h):
        return evaluate_mask(mask, wrap)
    get, rule = _SUIT_EVALUATIONS.get, wrap << 15
    s, h, d, c = s | rule, h | 1 << 13 | rule, d | 2 << 13 | rule, c | 3 << 13 | rule
    s = get(s) or _suit_evaluation(s)
    h = get(h) or _suit_evaluation(h)
    d = get(d) or _suit_evaluation(d)
    c = get(c) or _suit_evaluation(c)
    return Evaluation(
        s[0] + h[0] + d[0] + c[0], s[1] + h[1] + d[1] + c[1], s[2] + h[2] + d[2] + c[2]
    )


_ANY_HAND = range(MAX_CARDS + 1)


def best_discard(cards: str | Iterable[str | Card], rules: Ruleset | None = None) -> Discard:
    """Eleven cards after the draw: a big gin if all eleven meld, else the discard
    that leaves the least deadwood among the ten kept (melded as evaluate does).

    Discards that leave the same deadwood: the higher card goes (by value, then
    rank, then spades, hearts, diamonds, clubs).
    """
    mask = checked_mask(cards, (11,))
    wrap = rules is not None and rules.round_the_corner
    melds = candidate_melds(mask, wrap)
    packer = Packer(melds)
    union = 0
    for meld in melds:
        union |= meld[0]
    if packer.best(union) & _COUNT_MASK == 11:
        return Discard(evaluate_mask(mask, wrap), None, True)
    discard = _discard(mask, union, packer, wrap)
    return Discard(evaluate_mask(mask & ~(1 << discard), wrap), DECK[discard], False)


def _discard(mask: int, union: int, packer: Packer, wrap: bool) -> int:
    """The bit of the best discard (see best_discard) of a hand that is no big gin."""
    values = VALUES_ROUND_THE_CORNER if wrap else VALUES
    total = mask_value(mask, wrap)
    best_key: tuple[int, int, int, int] | None = None
    best_bit = -1
    rest = mask
    while rest:
        low = rest & -rest
        rest ^= low
        bit = low.bit_length() - 1
        deadwood = total - values[bit] - (packer.best(union & ~low) >> _COUNT_BITS)
        key = (deadwood, -values[bit], -(bit % 13), bit // 13)
        if best_key is None or key < best_key:
            best_key, best_bit = key, bit
    return best_bit
