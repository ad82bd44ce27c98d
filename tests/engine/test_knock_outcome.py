"""A knock played out from the cards (RULES.md §1, §2, §7): the knocker's melds, the
defender's melds and lay-offs, and the score; checked against a brute-force oracle."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import Card, CardError
from scorekeeper.engine.evaluator import Meld, evaluate
from scorekeeper.engine.hand import Hand, HandError, Outcome, score_hand
from scorekeeper.engine.knock import KnockOutcome, Layoff, knock_outcome
from scorekeeper.engine.rules import preset
from tests.engine.helpers import CLASSIC, CORNER, rules_for
from tests.engine.oracle import (
    DECK,
    best_defence,
    cards,
    deadwood,
    is_meld,
    least_deadwood,
    least_meldings,
    melded,
    meldings,
    melds_of,
    value,
)

MODERN = preset("modern")


def codes(melds) -> list[str]:
    return [" ".join(meld.codes) for meld in melds]


def laid(outcome: KnockOutcome) -> list[tuple[str, int]]:
    return [(layoff.card.code, layoff.meld) for layoff in outcome.layoffs]


def assert_plays_out(outcome: KnockOutcome, knocker, defender, corner: bool, rules=None) -> None:
    """Every meld legal, every lay-off legal in the order given, the deadwoods add up."""
    kept = [c for c in knocker if c != outcome.discard]
    table = [set(meld.cards) for meld in outcome.knocker_melds]
    for meld in outcome.knocker_melds:
        assert is_meld(meld.cards, corner)
    assert sum(len(m) for m in table) + len(outcome.knocker_deadwood_cards) == len(kept)
    assert set().union(*table) | set(outcome.knocker_deadwood_cards) == set(kept)
    assert outcome.knocker_deadwood == sum(value(c, corner) for c in outcome.knocker_deadwood_cards)
    own: set[Card] = set()
    for meld in outcome.defender_melds:
        assert is_meld(meld.cards, corner)
        assert not own & set(meld.cards)
        own |= set(meld.cards)
    for card, index in outcome.layoffs:
        assert card in defender and card not in own
        assert is_meld(table[index] | {card}, corner), (card, table[index])
        table[index].add(card)
    gone = own | {layoff.card for layoff in outcome.layoffs}
    assert set(outcome.defender_deadwood_cards) == set(defender) - gone
    assert len(gone) + len(outcome.defender_deadwood_cards) == 10
    assert outcome.defender_deadwood == sum(
        value(c, corner) for c in outcome.defender_deadwood_cards
    )
    assert outcome.score == score_hand(outcome.hand, rules or rules_for(corner))
    assert (outcome.result, outcome.points) == (outcome.score.outcome, outcome.score.points)


# --- Random knock situations -----------------------------------------------------------


def random_meld(rng: random.Random, corner: bool) -> set[Card]:
    suits = list({card.suit for card in DECK})
    if rng.random() < 0.4:
        rank = rng.randint(1, 13)
        return {Card(rank, suit) for suit in rng.sample(suits, rng.choice((3, 3, 4)))}
    suit, size = rng.choice(suits), rng.choice((3, 3, 4, 5, 6))
    start = rng.randint(1, 13) if corner else rng.randint(1, 14 - size)
    return {Card((start - 1 + k) % 13 + 1, suit) for k in range(size)}


@st.composite
def knock_deals(draw: st.DrawFn, size: int = 10) -> tuple[list[Card], list[Card], bool]:
    """A knocker built from melds and low cards, and a defender crowded around his melds
    (cards that extend his runs, the 4th card of his sets) with cards of his own."""
    corner = draw(st.booleans())
    # A seeded Random spreads the deals better than hypothesis's own (which favours the
    # smallest choices); a failing deal is printed in full, so it still reproduces.
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    knocker: set[Card] = set()
    melded = rng.choice((6, 7, 7, 8, 8, 9, 10)) if size == 10 else rng.choice((8, 9, 10, 11))
    for _ in range(30):
        meld = random_meld(rng, corner)
        if not meld & knocker and len(knocker | meld) <= melded:
            knocker |= meld
    # Deadwood of a few low cards (no aces: round-the-corner counts them 15).
    low = [c for c in DECK if c not in knocker and 2 <= c.rank <= 3]
    rest = [c for c in DECK if c not in knocker and c not in low]
    rng.shuffle(low)
    rng.shuffle(rest)
    for card in (low + rest) if rng.random() < 0.85 else rest:  # or over the limit
        if len(knocker) == size:
            break
        knocker.add(card)
    near = [
        c
        for c in DECK
        if c not in knocker
        and any(
            (c.suit == k.suit and min((c.rank - k.rank) % 13, (k.rank - c.rank) % 13) <= 3)
            or c.rank == k.rank
            for k in knocker
        )
    ]
    rng.shuffle(near)
    defender: list[Card] = []
    if rng.random() < 0.4:  # melds of his own, for undercuts and melds to break
        for _ in range(10):
            meld = random_meld(rng, corner)
            if not meld & knocker and not meld & set(defender) and len(defender) + len(meld) <= 7:
                defender += sorted(meld, key=DECK.index)
    defender += [c for c in near if c not in defender][: rng.randint(2, 9)]
    defender = defender[:10]
    rest = [c for c in DECK if c not in knocker and c not in defender]
    rng.shuffle(rest)
    defender += rest[: 10 - len(defender)]
    return sorted(knocker, key=DECK.index), defender, corner


def knocker_options(knocker, corner: bool, big_gin: bool):
    """The oracle's ways down for the knocker: (melding, discard) with the least deadwood."""
    if len(knocker) == 10:
        return [(m, None) for m in least_meldings(knocker, corner)], least_deadwood(knocker, corner)
    every = meldings(melds_of(knocker, corner))
    if big_gin:
        full = [(m, None) for m in every if len(melded(m)) == 11]
        if full:
            return full, 0
    ways = [
        (m, card, deadwood(knocker, m, corner) - value(card, corner))
        for m in every
        for card in knocker
        if card not in melded(m)
    ]
    least = min(way[2] for way in ways)
    return [(m, card) for m, card, d in ways if d == least], least


def oracle_outcome(knocker, defender, corner: bool, big_gin: bool) -> tuple[int, int]:
    """(knocker's deadwood, defender's deadwood after lay-offs) by brute force."""
    options, dk = knocker_options(knocker, corner, big_gin)
    if dk == 0 and not corner:
        return dk, least_deadwood(defender, corner)
    return dk, max(best_defence(defender, melding, corner) for melding, _ in options)


def check_against_oracle(knocker, defender, corner: bool, rules) -> None:
    dk, dd = oracle_outcome(knocker, defender, corner, rules.big_gin_bonus is not None)
    if dk > 10:
        with pytest.raises(HandError) as refusal:
            knock_outcome(knocker, defender, rules)
        assert refusal.value.code == "over_limit"
        return
    outcome = knock_outcome(knocker, defender, rules)
    assert outcome.knocker_deadwood == dk
    assert outcome.defender_deadwood == dd
    assert outcome.defender_deadwood_before == least_deadwood(defender, corner)
    assert_plays_out(outcome, knocker, defender, corner)
    if outcome.gin and not corner:
        assert outcome.layoffs == ()


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(knock_deals())
def test_random_knocks_match_the_brute_force_oracle(deal):
    knocker, defender, corner = deal
    check_against_oracle(knocker, defender, corner, rules_for(corner))


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(knock_deals(size=11), st.booleans())
def test_random_knocks_from_eleven_cards_match_the_oracle(deal, big_gin):
    knocker, defender, corner = deal
    rules = rules_for(corner).replace(big_gin_bonus=31 if big_gin else None)
    dk, dd = oracle_outcome(knocker, defender, corner, big_gin)
    if dk > 10:
        return
    outcome = knock_outcome(knocker, defender, rules)
    assert (outcome.knocker_deadwood, outcome.defender_deadwood) == (dk, dd)
    assert outcome.big_gin == (outcome.discard is None)
    assert_plays_out(outcome, knocker, defender, corner, rules)


@settings(max_examples=100)
@given(knock_deals(), st.randoms(use_true_random=False))
def test_the_outcome_depends_on_the_cards_not_their_order(deal, rng):
    knocker, defender, corner = deal
    rules = rules_for(corner)
    try:
        outcome = knock_outcome(knocker, defender, rules)
    except HandError:
        return
    knocker, defender = knocker[:], defender[:]
    rng.shuffle(knocker)
    rng.shuffle(defender)
    assert knock_outcome(knocker, defender, rules) == outcome


# --- Hand-picked cases -----------------------------------------------------------------

DEFENDER = "9H 8H KS KD 7C 7D 2H 6S 9S JC"  # 78; 9H and 8H lean on a run 10-J-Q of hearts


def test_lay_offs_chain_a_9_then_an_8_onto_10_j_q():
    outcome = knock_outcome("TH JH QH 4S 4D 4C AC 2C 3C 5H", DEFENDER)
    assert codes(outcome.knocker_melds) == ["TH JH QH", "AC 2C 3C", "4S 4D 4C"]
    assert laid(outcome) == [("9H", 0), ("8H", 0)]
    assert (outcome.defender_deadwood_before, outcome.defender_deadwood) == (78, 61)
    assert (outcome.result, outcome.points, outcome.winner) == (Outcome.KNOCK, 56, "knocker")
    assert outcome.hand == Hand.knock(5, 61)
    assert_plays_out(outcome, cards("TH JH QH 4S 4D 4C AC 2C 3C 5H"), cards(DEFENDER), False)


def test_a_card_that_fits_a_set_and_a_run_goes_on_the_run_when_a_card_leans_on_it():
    knocker = "7S 7D 7C 8H 9H TH AS 2S 3S 4C"
    outcome = knock_outcome(knocker, "7H 6H KS KD QC JC 9S 5D 5C TD")
    assert codes(outcome.knocker_melds) == ["AS 2S 3S", "8H 9H TH", "7S 7D 7C"]
    assert laid(outcome) == [("7H", 1), ("6H", 1)]
    alone = knock_outcome(knocker, "7H 2H KS KD QC JC 9S 5D 5C TD")
    assert laid(alone) == [("7H", 2)]  # nothing leans on it: the 4th card of the set


def test_lay_offs_extend_a_run_at_both_ends_and_a_set():
    outcome = knock_outcome("5D 6D 7D 8D KS KH KC AS 2S 3C", "4D 3D 9D TD KD QH QC 8S 8C 6H")
    assert codes(outcome.knocker_melds) == ["5D 6D 7D 8D", "KS KH KC"]
    assert sorted(laid(outcome)) == [("3D", 0), ("4D", 0), ("9D", 0), ("KD", 1), ("TD", 0)]
    order = [card for card, _ in laid(outcome)]
    assert order.index("4D") < order.index("3D") and order.index("9D") < order.index("TD")
    assert outcome.defender_deadwood == 10 + 10 + 8 + 8 + 6


def test_the_defender_breaks_a_set_of_four_to_lay_off_more():
    outcome = knock_outcome("TH JH QH AS 2S 3S 4S 2C 3C 4D", "9S 9D 9C 9H 8H KD QD 2D 5H 6S")
    assert codes(outcome.defender_melds) == ["9S 9D 9C"]
    assert laid(outcome) == [("9H", 1), ("8H", 1)]
    assert (outcome.defender_deadwood_before, outcome.defender_deadwood) == (41, 33)


def test_the_defender_breaks_a_set_of_three_when_two_runs_take_it():
    outcome = knock_outcome("TH JH QH TS JS QS AC 2C 3C 4D", "9S 9D 9H 8H 8S 7C KD QD 5D 6C")
    assert outcome.defender_melds == ()
    assert sorted(laid(outcome)) == [("8H", 1), ("8S", 0), ("9H", 1), ("9S", 0)]
    assert (outcome.defender_deadwood_before, outcome.defender_deadwood) == (54, 47)


def test_the_knocker_shows_the_melding_that_leaves_the_defender_most():
    # 3-4-5 of hearts or the fours leave 8 either way: the run lets the defender lay
    # off 6H and 7H (13), the set only the 4C (4). The knocker shows the set.
    outcome = knock_outcome("3H 4H 5H 4S 4D 9C TC JC QC KC", "6H 7H 4C 2S 6S 8D TD KH QS 8S")
    assert outcome.knocker_deadwood == 8
    assert codes(outcome.knocker_melds) == ["9C TC JC QC KC", "4S 4H 4D"]
    assert laid(outcome) == [("4C", 1)]
    assert (outcome.defender_deadwood, outcome.points) == (67, 59)


def test_no_lay_offs_against_a_gin():
    outcome = knock_outcome("TH JH QH 4S 4D 4C AC 2C 3C 4H", DEFENDER)
    assert (outcome.gin, outcome.layoffs, outcome.defender_deadwood) == (True, (), 78)
    assert (outcome.result, outcome.points, outcome.hand) == (Outcome.GIN, 98, Hand.gin(78))


def test_an_undercut_after_lay_offs():
    outcome = knock_outcome("TH JH QH AS 2S 3S 5C 6C 7C 8D", "9H 8H 4S 5S 6S KC KD KS 2D 3D")
    assert codes(outcome.defender_melds) == ["4S 5S 6S", "KS KD KC"]
    assert laid(outcome) == [("9H", 1), ("8H", 1)]
    assert (outcome.knocker_deadwood, outcome.defender_deadwood) == (8, 5)
    assert (outcome.result, outcome.points, outcome.winner) == (Outcome.UNDERCUT, 13, "defender")


def test_round_the_corner_lays_off_on_k_a_2_and_against_a_gin():
    knocker = "KH AH 2H 5S 6S 7S 9D TD JD QD"
    outcome = knock_outcome(knocker, "QH 3H 4H 8S 9S KD 7C 7D 5C 6D", CORNER)
    assert codes(outcome.knocker_melds) == ["5S 6S 7S", "KH AH 2H", "9D TD JD QD"]
    assert outcome.gin
    assert sorted(laid(outcome)) == [
        ("3H", 1),
        ("4H", 1),
        ("8S", 0),
        ("9S", 0),
        ("KD", 2),
        ("QH", 1),
    ]
    assert outcome.defender_deadwood == 7 + 7 + 5 + 6
    assert (outcome.result, outcome.points) == (Outcome.GIN, 25 + 20)
    # Classic rules: no lay-offs against a gin, not even 4H, 4S, 8S and KD.
    classic = knock_outcome("3H AH 2H 5S 6S 7S 9D TD JD QD", "4S 8S KS KD 7C 7D 2C 4H 9S JC")
    assert (classic.gin, classic.layoffs, classic.defender_deadwood) == (True, (), 71)


def test_round_the_corner_gin_laid_off_to_0_is_void():
    outcome = knock_outcome(
        "KH AH 2H 5S 6S 7S 9D TD JD QD", "QH 3H 4H 8S 9S KD 3C 4C 5C 8D", CORNER
    )
    assert outcome.defender_deadwood == 0
    assert (outcome.result, outcome.points, outcome.winner) == (Outcome.VOID, 0, None)


def test_round_the_corner_an_ace_in_deadwood_counts_15():
    with pytest.raises(HandError) as refusal:
        knock_outcome("KH AH 2H 5S 6S 7S 9D TD JD AC", "QS 3S 4D 8C 9C KD 7C 7D 5C 6D", CORNER)
    assert str(refusal.value) == "a knock with 15 deadwood is over the knock limit of 10"


def test_a_knock_over_the_limit_is_refused_with_the_engines_codes():
    with pytest.raises(HandError) as refusal:
        knock_outcome("TH JH QH AS 2S 3S 9C 5C 6C 2D", DEFENDER)
    assert (refusal.value.code, str(refusal.value)) == (
        "over_limit",
        "a knock with 22 deadwood is over the knock limit of 10",
    )
    with pytest.raises(HandError) as refusal:
        knock_outcome("TH JH QH AS 2S 3S 4C 5C 6C 2D", DEFENDER, preset("straight"))
    assert refusal.value.code == "gin_only"


def test_oklahoma_takes_the_limit_and_the_doubling_from_the_upcard():
    knocker, defender = "TH JH QH AS 2S 3S 4C 5C 6C 5D", "9H 8H KS KD 7S 7D 2H 6S 9S JC"
    oklahoma = preset("oklahoma")
    outcome = knock_outcome(knocker, defender, oklahoma, upcard="5S")
    assert (outcome.knocker_deadwood, outcome.defender_deadwood) == (5, 61)
    assert (outcome.points, outcome.hand.upcard) == ((61 - 5) * 2, Card.parse("5S"))
    with pytest.raises(HandError) as refusal:
        knock_outcome(knocker, defender, oklahoma, upcard=Card.parse("4D"))
    assert refusal.value.code == "over_limit"
    with pytest.raises(HandError) as refusal:
        knock_outcome(knocker, defender, oklahoma)
    assert refusal.value.code == "upcard_missing"


def test_eleven_cards_all_melded_are_a_big_gin_where_it_is_played():
    knocker = "AS 2S 3S 4S 7H 7D 7C 7S 9C TC JC"
    defender = "5S 8S KH KD QH QD 2D 3D 6H 5C"
    big = knock_outcome(knocker, defender, MODERN)
    assert (big.big_gin, big.discard, big.result) == (True, None, Outcome.BIG_GIN)
    assert (big.points, big.layoffs) == (69 + 31, ())
    plain = knock_outcome(knocker, defender, CLASSIC)  # no big gin: he discards and gins
    assert (plain.big_gin, plain.gin, plain.result) == (False, True, Outcome.GIN)
    assert (plain.discard, plain.knocker_deadwood, plain.points) == (Card.parse("7S"), 0, 89)


def test_eleven_cards_discard_the_card_that_serves_the_knocker():
    outcome = knock_outcome("TH JH QH AS 2S 3S 4C 5C 6C 2D KD", "9H 8H KS 7S 7C 7D 2H 6S 9S JC")
    assert (outcome.discard, outcome.knocker_deadwood) == (Card.parse("KD"), 2)


KNOCKER = "AH 2H 3H 4H 4S 4D 9C TC JC AD"  # best: A-2-3 and the fours, AD left (1)
AGAINST = "5H 4C KS KD 7C 7D 2D 6S 9S QH"


def test_the_melds_the_knocker_laid_down_count_as_laid():
    best = knock_outcome(KNOCKER, AGAINST)
    assert (best.knocker_deadwood, codes(best.knocker_melds)) == (
        1,
        ["AH 2H 3H", "9C TC JC", "4S 4H 4D"],
    )
    assert laid(best) == [("4C", 2)]
    shown = knock_outcome(KNOCKER, AGAINST, knocker_melds=["AH 2H 3H 4H", "9C TC JC"])
    assert (shown.knocker_deadwood, laid(shown)) == (4 + 4 + 1, [("5H", 0)])
    as_values = knock_outcome(
        KNOCKER, AGAINST, knocker_melds=[Meld.of("4S 4D 4H"), ["AH", "2H", "3H"], "9C TC JC"]
    )
    assert as_values == best
    with pytest.raises(HandError) as refusal:
        knock_outcome(KNOCKER, AGAINST, knocker_melds=["9C TC JC"])
    assert "19 deadwood" in str(refusal.value)


def test_melds_that_were_not_laid_down_are_refused():
    with pytest.raises(CardError) as error:
        knock_outcome(KNOCKER, AGAINST, knocker_melds=["4S 4D 9C"])
    assert error.value.code == "not_a_meld"
    with pytest.raises(HandError) as refusal:
        knock_outcome(KNOCKER, AGAINST, knocker_melds=["7H 8H 9H"])
    assert refusal.value.code == "meld_not_in_hand"
    with pytest.raises(HandError) as refusal:
        knock_outcome(KNOCKER, AGAINST, knocker_melds=["AH 2H 3H", "2H 3H 4H"])
    assert refusal.value.code == "meld_overlap"


def test_cards_in_both_hands_or_the_wrong_count_are_refused():
    with pytest.raises(CardError, match="4S is in both hands"):
        knock_outcome(KNOCKER, "4S 3H 8H KS KD 7C 7D 2D 6S 9S")
    with pytest.raises(CardError) as error:
        knock_outcome("4S 4D 4C 4H 5H 6H AS 2S 3S", AGAINST)
    assert error.value.code == "card_count"


def test_the_hand_names_the_knocker_for_a_record():
    outcome = knock_outcome("TH JH QH 4S 4D 4C AC 2C 3C 5H", DEFENDER, knocker="Anna")
    assert outcome.hand == Hand.knock(5, 61, knocker="Anna")
    assert isinstance(outcome.layoffs[0], Layoff)
    card, meld = outcome.layoffs[0]
    assert (card.code, meld) == ("9H", 0)


def test_the_knocker_melds_as_evaluate_does_when_lay_offs_cannot_differ():
    knocker = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"
    outcome = knock_outcome(knocker, "2H 3H 5D 6D KS QH 8C 8D 5S 6H")
    assert outcome.knocker_melds == evaluate(knocker).melds
