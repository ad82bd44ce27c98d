"""The hand evaluator (RULES.md §1, §7): least deadwood and best discard, checked
against a brute-force oracle on random hands and on hand-picked hard cases."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import Card, CardError
from scorekeeper.engine.evaluator import Discard, Evaluation, Meld, best_discard, evaluate
from tests.engine.helpers import CORNER, rules_for
from tests.engine.oracle import (
    SUIT_ORDER,
    cards,
    deadwood,
    hands,
    is_meld,
    least_deadwood,
    melded,
    meldings,
    melds_of,
    value,
)


def codes(found: Evaluation) -> tuple[list[str], list[str], int]:
    return (
        [" ".join(meld.codes) for meld in found.melds],
        [card.code for card in found.deadwood_cards],
        found.deadwood,
    )


def assert_consistent(found: Evaluation, hand: list[Card], corner: bool) -> None:
    """Legal, disjoint melds; the deadwood cards are the rest and add up to the deadwood."""
    seen: set[Card] = set()
    for meld in found.melds:
        assert is_meld(meld.cards, corner), meld
        assert meld.kind == ("set" if len({c.rank for c in meld.cards}) == 1 else "run")
        assert not seen & set(meld.cards)
        seen |= set(meld.cards)
    assert seen | set(found.deadwood_cards) == set(hand)
    assert not seen & set(found.deadwood_cards)
    assert found.deadwood == sum(value(card, corner) for card in found.deadwood_cards)


# --- Against the oracle ----------------------------------------------------------------


@settings(max_examples=600)
@given(hands(10), st.booleans())
def test_ten_cards_get_the_least_deadwood_of_every_melding(hand, corner):
    found = evaluate(hand, rules_for(corner))
    every = meldings(melds_of(hand, corner))
    least = min(deadwood(hand, m, corner) for m in every)
    assert found.deadwood == least
    assert_consistent(found, hand, corner)
    # Ties: of the least-deadwood meldings, one that melds the most cards.
    most = max(len(melded(m)) for m in every if deadwood(hand, m, corner) == least)
    assert sum(len(meld.cards) for meld in found.melds) == most


@settings(max_examples=300)
@given(hands(11), st.booleans())
def test_eleven_cards_get_the_best_discard_or_a_big_gin(hand, corner):
    choice = best_discard(hand, rules_for(corner))
    melds = melds_of(hand, corner)
    if any(len(melded(m)) == 11 for m in meldings(melds)):
        assert (choice.big_gin, choice.discard, choice.evaluation.deadwood) == (True, None, 0)
        assert_consistent(choice.evaluation, hand, corner)
        return
    left = {}
    for card in hand:
        rest = [c for c in hand if c != card]
        left[card] = min(
            deadwood(rest, m, corner) for m in meldings([m for m in melds if card not in m])
        )
    least = min(left.values())
    assert not choice.big_gin
    assert choice.evaluation.deadwood == least == left[choice.discard]
    tied = [card for card in hand if left[card] == least]
    # Discards that leave the same deadwood: the higher card goes.
    assert choice.discard == max(
        tied, key=lambda c: (value(c, corner), c.rank, -SUIT_ORDER[c.suit])
    )
    kept = [c for c in hand if c != choice.discard]
    assert_consistent(choice.evaluation, kept, corner)
    assert choice.evaluation == evaluate(kept, rules_for(corner))


@settings(max_examples=200)
@given(hands(10), st.booleans(), st.randoms(use_true_random=False))
def test_the_result_depends_on_the_cards_not_their_order(hand, corner, rng):
    shuffled = hand[:]
    rng.shuffle(shuffled)
    rules = rules_for(corner)
    assert evaluate(shuffled, rules) == evaluate(hand, rules)
    assert evaluate(" ".join(c.code for c in shuffled), rules) == evaluate(hand, rules)


@settings(max_examples=100)
@given(hands(11), st.booleans(), st.randoms(use_true_random=False))
def test_the_discard_depends_on_the_cards_not_their_order(hand, corner, rng):
    shuffled = hand[:]
    rng.shuffle(shuffled)
    rules = rules_for(corner)
    assert best_discard(shuffled, rules) == best_discard(hand, rules)


def test_thousands_of_uniform_random_hands_match_the_oracle():
    rng = random.Random(20240611)
    deck = [Card(rank, suit) for suit in SUIT_ORDER for rank in range(1, 14)]
    for _ in range(1500):
        hand = rng.sample(deck, 10)
        corner = rng.random() < 0.5
        assert evaluate(hand, rules_for(corner)).deadwood == least_deadwood(hand, corner)


# --- Hand-picked cases -----------------------------------------------------------------


def test_two_runs_of_five_are_gin():
    found = evaluate("AS 2S 3S 4S 5S 6H 7H 8H 9H TH")
    assert codes(found) == (["AS 2S 3S 4S 5S", "6H 7H 8H 9H TH"], [], 0)
    assert found.is_gin


def test_a_run_of_seven_is_one_meld():
    found = evaluate("3D 4D 5D 6D 7D 8D 9D KS KH 2C")
    assert codes(found) == (["3D 4D 5D 6D 7D 8D 9D"], ["KS", "KH", "2C"], 22)


def test_a_run_longer_than_five_is_split_when_that_melds_more():
    # 3-4-5-6-7-8 of spades beside 8H 8D: the 8S is better in the set.
    found = evaluate("3S 4S 5S 6S 7S 8S 8H 8D KC QC")
    assert codes(found) == (["3S 4S 5S 6S 7S", "8S 8H 8D"], ["QC", "KC"], 20)


def test_a_card_that_fits_a_set_and_a_run_goes_where_it_saves_most():
    # 7H fits 7S 7D 7C and 8H 9H: in the run it lets both melds stand.
    found = evaluate("7S 7D 7C 7H 8H 9H KS QS 2D 3C")
    assert codes(found) == (["7H 8H 9H", "7S 7D 7C"], ["QS", "KS", "2D", "3C"], 25)


def test_a_set_of_four_lends_a_card_to_a_run():
    found = evaluate("5S 5H 5D 5C 6C 7C JH QD KD 9S")
    assert codes(found)[2] == 9 + 30
    assert sorted(" ".join(m.codes) for m in found.melds) == ["5C 6C 7C", "5S 5H 5D"]


def test_three_sets_and_a_run():
    assert evaluate("KS KH KD QS QH QD JS JH JD TC").deadwood == 10
    assert evaluate("KS KH KD QS QH QD JS JH TD TC").deadwood == 40


def test_ace_is_low_classic():
    assert evaluate("QS KS AS 2D 3D 4D 6C 6H 9H 9D").deadwood == 10 + 10 + 1 + 6 + 6 + 9 + 9
    assert evaluate("AH 2H 3H 9C 9D TS JS 4C 5D 6S").deadwood == 9 + 9 + 10 + 10 + 4 + 5 + 6


def test_round_the_corner_runs_wrap_and_an_ace_left_over_counts_15():
    found = evaluate("KH AH 2H QS KS AS 5D 9C 9D 4C", CORNER)
    assert codes(found) == (["QS KS AS", "KH AH 2H"], ["5D", "9D", "4C", "9C"], 27)
    assert evaluate("KH AH 2H QS KS AS 5D 9C 9D 4C").deadwood == 27 + 10 + 10 + 1 + 10 + 1 + 2
    lone_ace = evaluate("AC 2H 3H 4H 5S 6S 7S 9D TD JD", CORNER)
    assert (lone_ace.deadwood, [c.code for c in lone_ace.deadwood_cards]) == (15, ["AC"])
    assert evaluate("AC 2H 3H 4H 5S 6S 7S 9D TD JD").deadwood == 1


def test_round_the_corner_runs_may_go_on_past_the_ace():
    found = evaluate("QC KC AC 2C 5H 6H 8S 9D 4S 4D", CORNER)
    assert [" ".join(m.codes) for m in found.melds] == ["QC KC AC 2C"]
    assert found.deadwood == 5 + 6 + 8 + 9 + 4 + 4
    assert evaluate("QC KC AC 2C 5H 6H 8S 9D 4S 4D").deadwood == found.deadwood + 23


def test_ties_go_to_a_fixed_melding_whatever_the_order():
    # J-Q-K of hearts or the jacks: 30 either way, three cards melded either way.
    hand = "JH QH KH JS JD QS 2C 3C 4C 9D"
    first = evaluate(hand)
    assert first.deadwood == 30 + 9
    for seed in range(20):
        shuffled = hand.split()
        random.Random(seed).shuffle(shuffled)
        assert evaluate(" ".join(shuffled)) == first


def test_eleven_cards_whose_meldings_tie_discard_the_higher_card():
    # Run J-Q-K of hearts leaves JS JD QS, the jacks leave QH KH QS (with 9D 9S): any of
    # JS, JD, QS, QH, KH discarded leaves 38. The highest card, the king, goes.
    choice = best_discard("JH QH KH JS JD QS 2C 3C 4C 9D 9S")
    assert isinstance(choice, Discard)
    assert choice.discard == Card.parse("KH")
    assert choice.evaluation.deadwood == 10 + 10 + 9 + 9
    assert [" ".join(m.codes) for m in choice.evaluation.melds] == ["2C 3C 4C", "JS JH JD"]


def test_eleven_cards_all_melded_are_a_big_gin():
    choice = best_discard("AS 2S 3S 4S 7H 7D 7C 7S 9C TC JC")
    assert (choice.big_gin, choice.discard, choice.evaluation.deadwood) == (True, None, 0)
    assert sum(len(m.cards) for m in choice.evaluation.melds) == 11


def test_eleven_cards_with_ten_melded_discard_the_odd_one():
    choice = best_discard("AS 2S 3S 4S 7H 7D 7C 9C TC JC KD")
    assert (choice.big_gin, choice.discard.code, choice.evaluation.deadwood) == (False, "KD", 0)


def test_a_hand_without_melds_is_all_deadwood():
    found = evaluate("AS 3S 5H 7H 9D JD KC 2C 4D 6S")
    assert found.melds == ()
    assert found.deadwood == 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 4 + 6


def test_the_deadwood_of_ten_unmelded_cards_reaches_98():
    assert evaluate("KS KH QD QC JS JH TD TC 9S 9H").deadwood == 98
    assert evaluate("AS AH KD KC QS QH JD JC TS TH", CORNER).deadwood == 110


def test_evaluate_reads_codes_and_refuses_bad_hands():
    assert evaluate("as,2s 3S 10d jd qd kh kc kd 5h").deadwood == 5
    with pytest.raises(CardError, match="'1S' is not a card"):
        evaluate("AS 2S 1S")
    with pytest.raises(CardError, match="AS is given twice"):
        evaluate([Card.parse("AS"), Card.parse("AS")])
    with pytest.raises(CardError) as error:
        evaluate(" ".join(c.code for c in cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS")))
    assert error.value.code == "card_count"
    with pytest.raises(CardError) as error:
        best_discard("AS 2S 3S 4S 5S 6S 7S 8S 9S TS")
    assert "10 cards given" in str(error.value)


def test_meld_of_checks_a_meld_and_puts_its_cards_in_order():
    assert Meld.of("9H 7H 8H").codes == ("7H", "8H", "9H")
    assert Meld.of("7C 7S 7H").codes == ("7S", "7H", "7C")
    assert Meld.of("AS KS QS", CORNER).codes == ("QS", "KS", "AS")
    assert Meld.of("2D AD KD", CORNER).codes == ("KD", "AD", "2D")
    for not_a_meld in ("9H 8H", "7H 8H 9S", "QS KS AS", "7S 7H 8S 8H"):
        with pytest.raises(CardError) as error:
            Meld.of(not_a_meld)
        assert error.value.code == "not_a_meld"


def test_cards_made_with_card_or_given_as_a_generator_are_read_alike():
    codes_ = "AS 2S 3S 4S 7H 7D 7C KD QH 5C"
    made = [Card(card.rank, card.suit) for card in cards(codes_)]
    assert evaluate(made) == evaluate(codes_) == evaluate(card for card in cards(codes_))
    assert evaluate(tuple(made), CORNER) == evaluate(codes_, CORNER)
    with pytest.raises(CardError, match="is not a rank"):
        evaluate([Card(14, made[0].suit), *made[1:]])
    with pytest.raises(CardError, match="7 is not a card"):
        evaluate([7, *made[1:]])
