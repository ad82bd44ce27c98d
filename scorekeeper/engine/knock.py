"""A knock played out from the cards: melds, lay-offs and the hand's score (RULES.md §1, §2).

The knocker shows his melds; the defender melds his own cards and lays off what
he can on the knocker's melds: the 4th card of a set, cards extending a run at
either end, one after another (a 9 and then an 8 onto 10-J-Q). Both sides are
played exactly: the knocker's melds are, among his least-deadwood meldings, the
one that leaves the defender the most deadwood; the defender's are the best of
every choice of his own melds, breaking one where laying off saves more.

>>> outcome = knock_outcome("TH JH QH 4S 4D 4C 2C 3C AC 5H", "9H 8H KS KD 7C 7D 2S 6S 9S JC")
>>> outcome.knocker_deadwood, outcome.defender_deadwood_before, outcome.defender_deadwood
(5, 78, 61)
>>> [str(meld) for meld in outcome.knocker_melds]
['TH JH QH', 'AC 2C 3C', '4S 4D 4C']
>>> [(layoff.card.code, layoff.meld) for layoff in outcome.layoffs]
[('9H', 0), ('8H', 0)]
>>> outcome.result, outcome.points, outcome.winner
(<Outcome.KNOCK: 'knock'>, 56, 'knocker')

No lay-offs against a gin: 78 and the gin bonus of 20.

>>> knock_outcome("TH JH QH 4S 4D 4C AC 2C 3C 4H", "9H 8H KS KD 7C 7D 2S 6S 9S JC").points
98
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from .cards import Card, CardError
from .evaluator import (
    ACES,
    DECK,
    KINGS,
    PATTERN_VALUES,
    VALUES,
    VALUES_ROUND_THE_CORNER,
    Evaluation,
    Meld,
    Packer,
    candidate_melds,
    cards_of,
    checked_mask,
    evaluate_mask,
    evaluation_of,
    hand_mask,
    mask_value,
    meldings,
    ordered,
)
from .hand import Hand, HandError, HandScore, Outcome, knock_limit, score_hand
from .rules import Ruleset

_COUNT_MASK = 0xF
_ALL = (1 << 52) - 1
_NOT_ACES = _ALL & ~ACES
_NOT_KINGS = _ALL & ~KINGS

Melds = list[tuple[int, int, Meld]]  # (mask, score, meld), as the evaluator packs them


class Layoff(NamedTuple):
    """A defender's card laid off on the knocker's meld of index ``meld``."""

    card: Card
    meld: int


@dataclass(frozen=True, slots=True)
class KnockOutcome:
    """A knock (or gin) played out: both sides' melds, the lay-offs and the score."""

    knocker_deadwood: int
    knocker_melds: tuple[Meld, ...]
    knocker_deadwood_cards: tuple[Card, ...]
    discard: Card | None  # eleven cards given: the card the knocker discards
    gin: bool
    big_gin: bool
    defender_deadwood_before: int  # his own best melding, before lay-offs
    defender_deadwood: int  # after lay-offs
    defender_melds: tuple[Meld, ...]
    defender_deadwood_cards: tuple[Card, ...]  # after lay-offs
    layoffs: tuple[Layoff, ...]  # in the order they can be played
    result: Outcome
    points: int
    winner: Literal["knocker", "defender"] | None
    hand: Hand  # what a record keeps of it
    score: HandScore


@dataclass(frozen=True, slots=True)
class _Option:
    """One way the knocker can go down: his melds, and the card he discards (or -1)."""

    melds: tuple[Meld, ...]  # as shown: runs in deck order, then sets by rank
    discard: int
    melded: int  # the cards of his melds
    runs: int  # the cards of his runs
    fourths: int  # the missing card of each of his sets of three


def knock_outcome(
    knocker_cards: str | Iterable[str | Card],
    defender_cards: str | Iterable[str | Card],
    rules: Ruleset | None = None,
    upcard: Card | str | None = None,
    knocker_melds: Sequence[Meld | str | Iterable[str | Card]] | None = None,
    *,
    knocker: str | None = None,
) -> KnockOutcome:
    """Play out a knock from both hands and score it with ``score_hand``.

    The knocker has 10 cards, or 11 (after the draw): then he discards the card that
    serves him best, or goes big gin when all eleven meld and the rules play big gin.
    ``knocker_melds`` are the melds he laid down, if known: they are checked, and his
    deadwood is what they leave. A knock the rules refuse raises HandError (codes
    ``over_limit``, ``gin_only``, ``upcard_missing``); cards that cannot be raise
    CardError. ``knocker`` names him in the returned ``hand``.
    """
    rules = rules if rules is not None else Ruleset()
    wrap = rules.round_the_corner
    held = checked_mask(knocker_cards, (10, 11))
    defending = checked_mask(defender_cards, (10,))
    if held & defending:
        card = cards_of(held & defending)[0]
        raise CardError(
            f"{card.code} is in both hands: each card of the deck appears once",
            code="duplicate_card",
            token=card.code,
            card=card.code,
        )
    if isinstance(upcard, str):
        upcard = Card.parse(upcard)
    limit = knock_limit(rules, upcard)

    if knocker_melds is not None:
        options, deadwood, big = _laid_down(held, knocker_melds, rules)
    else:
        options, deadwood, big = _knocker_options(held, rules)
    gin = deadwood == 0
    if not gin and deadwood > limit:
        score_hand(Hand.knock(deadwood, 0, upcard=upcard), rules)  # raises the refusal

    # The defender: his own melds, and lay-offs on a knock (under round-the-corner on
    # a gin too, RULES.md §7).
    own = evaluate_mask(defending, wrap)
    before = own.deadwood
    if gin and not wrap:
        choice, d_melds, laid = options[0], own.melds, 0
    else:
        choice, d_melds, laid = _defence(options, defending, own, wrap)
    left = defending & ~laid
    for meld in d_melds:
        left &= ~_mask_of(meld.cards)
    dd = mask_value(left, wrap)

    kept = held if choice.discard < 0 else held & ~(1 << choice.discard)
    hand = (
        Hand.gin(dd, knocker=knocker, upcard=upcard, big=big)
        if gin
        else Hand.knock(deadwood, dd, knocker=knocker, upcard=upcard)
    )
    score = score_hand(hand, rules)
    winner = None if score.knocker_wins is None else "knocker" if score.knocker_wins else "defender"
    return KnockOutcome(
        knocker_deadwood=deadwood,
        knocker_melds=choice.melds,
        knocker_deadwood_cards=cards_of(kept & ~choice.melded),
        discard=None if choice.discard < 0 else DECK[choice.discard],
        gin=gin,
        big_gin=big,
        defender_deadwood_before=before,
        defender_deadwood=dd,
        defender_melds=d_melds,
        defender_deadwood_cards=cards_of(left),
        layoffs=_layoff_order(choice, laid, wrap),
        result=score.outcome,
        points=score.points,
        winner=winner,
        hand=hand,
        score=score,
    )


def _option(melds: Melds, discard: int = -1) -> _Option:
    melded = runs = fourths = 0
    for mask, _, meld in melds:
        melded |= mask
        if meld.kind == "run":
            runs |= mask
        elif len(meld.cards) == 3:
            fourths |= ACES << meld.cards[0].rank - 1 & ~mask
    return _Option(tuple(meld[2] for meld in ordered(melds)), discard, melded, runs, fourths)


def _option_of(sets: tuple[tuple[int, int, Meld | None], ...], parts: list) -> _Option:
    """The option of a melding found by the evaluator: sets chosen, each suit's runs."""
    runs = parts[0][4] | parts[1][4] | parts[2][4] | parts[3][4]
    melded, fourths = runs, 0
    for mask, _, meld in sets:
        if meld is not None:
            melded |= mask
            if len(meld.cards) == 3:
                fourths |= ACES << meld.cards[0].rank - 1 & ~mask
    melds = evaluation_of(sets, parts).melds
    return _Option(melds, -1, melded, runs, fourths)


def _first(packings: list[tuple[int, Melds]], melds: tuple[Meld, ...]) -> list[tuple[int, Melds]]:
    """The packings with the one of these melds moved to the front (a Meld object is
    unique to its cards, so identity tells them apart)."""
    wanted = {id(meld) for meld in melds}
    for index, (_, packed) in enumerate(packings):
        if len(packed) == len(wanted) and all(id(meld[2]) in wanted for meld in packed):
            return [packings[index], *packings[:index], *packings[index + 1 :]]
    raise AssertionError("evaluate's melding is one of the packings")


def _mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:  # the deck's own cards, as melds and evaluations hold
        mask |= card.bit  # type: ignore[attr-defined]
    return mask


def _knocker_options(held: int, rules: Ruleset) -> tuple[list[_Option], int, bool]:
    """Every least-deadwood way down for the knocker, evaluate's first; his deadwood;
    and whether it is a big gin."""
    wrap = rules.round_the_corner
    if held.bit_count() == 10:
        # One melding per choice of sets holds all the ways down that differ for the
        # defender (cutting a run in two changes neither cards nor lay-offs).
        found = meldings(held, wrap)
        best = max(score >> 4 for score, _, _ in found)
        # Evaluate's melding (the first of the greatest score) first, then the others
        # that meld the most cards.
        tied = sorted(
            (way for way in found if way[0] >> 4 == best), key=lambda way: -(way[0] & _COUNT_MASK)
        )
        deadwood = mask_value(held, wrap) - best
        return [_option_of(sets, parts) for _, sets, parts in tied], deadwood, False
    melds = candidate_melds(held, wrap)
    union = 0
    for meld in melds:
        union |= meld[0]
    packings = Packer(melds).all(union)
    total = mask_value(held, wrap)
    # Eleven cards: all melded is a big gin where the rules play it; otherwise the
    # knocker discards a card that none of his melds holds.
    if rules.big_gin_bonus is not None:
        full = [packing for packing in packings if packing[0] & _COUNT_MASK == 11]
        if full:
            full = _first(full, evaluate_mask(held, wrap).melds)
            return [_option(melds) for _, melds in full], 0, True
    values = VALUES_ROUND_THE_CORNER if wrap else VALUES
    ways: list[tuple[tuple[int, ...], int, Melds, int]] = []
    for order, (score, packed) in enumerate(packings):
        melded = 0
        for meld in packed:
            melded |= meld[0]
        rest = held & ~melded
        # All eleven melded with big gin not played: this packing has no discard, but
        # the same melds with a card of a meld of four or more left out are listed too.
        while rest:
            low = rest & -rest
            rest ^= low
            bit = low.bit_length() - 1
            deadwood = total - (score >> 4) - values[bit]
            # As best_discard: the higher card goes; then the melding that melds most.
            key = (-values[bit], -(bit % 13), bit // 13, -(score & _COUNT_MASK), order)
            ways.append((key, deadwood, packed, bit))
    # (The empty packing leaves every card free, so there is always a way.)
    least = min(deadwood for _, deadwood, _, _ in ways)
    ways = sorted((way for way in ways if way[1] == least), key=lambda way: way[0])
    # For each discard, evaluate's melding of the ten kept goes first.
    options: list[_Option] = []
    for bit in dict.fromkeys(way[3] for way in ways):
        tied = [(0, packed) for _, _, packed, discard in ways if discard == bit]
        kept = evaluate_mask(held & ~(1 << bit), wrap).melds
        options += [_option(packed, bit) for _, packed in _first(tied, kept)]
    return options, least, False


def _bits(mask: int) -> list[int]:
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits


def _laid_down(
    held: int, given: Sequence[Meld | str | Iterable[str | Card]], rules: Ruleset
) -> tuple[list[_Option], int, bool]:
    """The melds the knocker laid down, checked against his cards and the rules."""
    wrap = rules.round_the_corner
    melds: Melds = []
    melded = 0
    for entry in given:
        meld = Meld.of(entry.cards if isinstance(entry, Meld) else entry, rules)
        mask = hand_mask(meld.cards)
        if mask & ~held:
            card = cards_of(mask & ~held)[0]
            raise HandError(
                "meld_not_in_hand",
                f"the knocker's meld {meld} has {card.code}, which is not among his cards",
                field="knocker_melds",
                card=card.code,
            )
        if mask & melded:
            card = cards_of(mask & melded)[0]
            raise HandError(
                "meld_overlap",
                f"{card.code} is in two of the knocker's melds: a card belongs to one meld",
                field="knocker_melds",
                card=card.code,
            )
        melded |= mask
        melds.append((mask, 0, meld))
    rest = held & ~melded
    if held.bit_count() == 11 and not rest:
        return [_option(melds)], 0, True  # score_hand refuses it where big gin is off
    discard = -1
    if held.bit_count() == 11:  # he discards his highest unmelded card
        values = VALUES_ROUND_THE_CORNER if wrap else VALUES
        discard = min(_bits(rest), key=lambda b: (-values[b], -(b % 13), b // 13))
        rest &= ~(1 << discard)
    return [_option(melds, discard)], mask_value(rest, wrap), False


def _reach(runs: int, free: int, wrap: bool) -> int:
    """The cards of ``free`` that can be laid off on runs, one after another."""
    reached = 0
    ends = runs
    while True:
        near = (ends << 1 & _NOT_ACES) | (ends >> 1 & _NOT_KINGS)
        if wrap:  # round the corner: the king and the ace of a suit are neighbours
            near |= (ends & KINGS) >> 12 | (ends & ACES) << 12
        new = near & free & ~reached
        if not new:
            return reached
        reached |= new
        ends = new


def _defence(
    options: list[_Option], defending: int, own: Evaluation, wrap: bool
) -> tuple[_Option, tuple[Meld, ...], int]:
    """The knocker's option leaving the defender the most deadwood, with the defender's
    best answer to it: (option, his melds, the cards he lays off)."""
    reach = [
        (option.fourths & defending) | (_reach(option.runs, defending, wrap) if option.runs else 0)
        for option in options
    ]
    melded = 0
    for meld in own.melds:
        melded |= _mask_of(meld.cards)
    if not any(r & melded for r in reach):
        # His own best melding keeps free every card he could lay off: nothing beats it
        # (another melding melds less, and lays off no more). He lays off all he reaches.
        left = defending & ~melded
        best = max(range(len(options)), key=lambda i: mask_value(left & ~reach[i], wrap))
        return options[best], own.melds, reach[best]
    # Otherwise every melding of his own, evaluate's first (it wins ties).
    melds = candidate_melds(defending, wrap)
    union = 0
    for meld in melds:
        union |= meld[0]
    packings = _first(Packer(melds).all(union), own.melds)
    option, index, laid = _knocker_choice(options, packings, defending, wrap)
    return option, tuple(meld[2] for meld in ordered(packings[index][1])), laid


def _knocker_choice(
    options: list[_Option], packings: list[tuple[int, Melds]], defending: int, wrap: bool
) -> tuple[_Option, int, int]:
    """For each option the defender's best answer over all his packings; the option
    that leaves him most: (option, index of his packing, the cards he lays off)."""
    free_of = []
    for score, melds in packings:
        melded = 0
        for meld in melds:
            melded |= meld[0]
        free_of.append((defending & ~melded, score & _COUNT_MASK))
    table = PATTERN_VALUES[wrap]
    best: tuple[int, _Option, int, int] | None = None
    for option in options:
        runs, fourths = option.runs, option.fourths
        answer: tuple[tuple[int, int], int, int] | None = None
        for index, (free, count) in enumerate(free_of):
            laid = (fourths & free) | (_reach(runs, free, wrap) if runs else 0)
            left = free & ~laid
            deadwood = (
                table[left & 0x1FFF]
                + table[left >> 13 & 0x1FFF]
                + table[left >> 26 & 0x1FFF]
                + table[left >> 39]
            )
            # His least deadwood; then the most cards in his own melds (fewest lay-offs).
            key = (deadwood, -count)
            if answer is None or key < answer[0]:
                answer = (key, index, laid)
        assert answer is not None  # the empty packing is always there
        if best is None or answer[0][0] > best[0]:
            best = (answer[0][0], option, answer[1], answer[2])
    assert best is not None
    return best[1], best[2], best[3]


def _layoff_order(option: _Option, laid: int, wrap: bool) -> tuple[Layoff, ...]:
    """The laid-off cards meld by meld, in an order they can be played: each run card
    after the one it leans on. A 4th card of a set goes on the set unless a run needs
    it to reach further cards."""
    if not laid:
        return ()
    result: list[Layoff] = []
    runs, only_runs = option.runs, laid & ~option.fourths  # cards that no set takes
    melds = [(_mask_of(meld.cards), 0, meld) for meld in option.melds]
    for index, (mask, _, meld) in enumerate(melds):
        if meld.kind == "set" and len(meld.cards) == 3:
            fourth = ACES << meld.cards[0].rank - 1 & ~mask & laid
            if not fourth:
                continue
            rest = laid & ~fourth
            # On the set, unless the runs need it to reach other cards; and on the set
            # anyway when no run reaches it.
            if _reach(runs, rest, wrap) & only_runs == only_runs or not (
                _reach(runs, laid, wrap) & fourth
            ):
                result.append(Layoff(DECK[fourth.bit_length() - 1], index))
                laid = rest
    # Runs: rounds outward from every run's ends; a card touching two runs goes on the first.
    ends = [(index, mask) for index, (mask, _, meld) in enumerate(melds) if meld.kind == "run"]
    while laid:
        placed = False
        for position, (index, end) in enumerate(ends):
            near = (end << 1 & _NOT_ACES) | (end >> 1 & _NOT_KINGS)
            if wrap:
                near |= (end & KINGS) >> 12 | (end & ACES) << 12
            new = near & laid
            if new:
                result += [Layoff(card, index) for card in cards_of(new)]
                laid &= ~new
                ends[position] = (index, new)
                placed = True
        if not placed:  # cannot happen: every laid card was reached from a run
            raise AssertionError("a laid-off card fits no meld")
    return tuple(result)
