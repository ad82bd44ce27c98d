"""Records whose hands give the cards (FORMAT.md, optional cards): the evaluator derives
the deadwoods under the record's rules, and a refused hand names its number."""

import json

import pytest

from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.record import RecordError, parse_hand, parse_record, tally
from scorekeeper.engine.rules import preset

KNOCKER = ["TH", "JH", "QH", "4S", "4D", "4C", "AC", "2C", "3C", "5H"]  # 5 deadwood
DEFENDER = ["9H", "8H", "KS", "KD", "7C", "7D", "2H", "6S", "9S", "JC"]  # 78, 61 after lay-offs
GIN = ["TH", "JH", "QH", "4S", "4D", "4C", "AC", "2C", "3C", "4H"]


def record(*hands, rules=None, kind="two_player", players=("Anna", "Ben")):
    return {
        "kind": kind,
        "rules": rules or {"preset": "classic"},
        "players": list(players),
        "hands": list(hands),
    }


def errors(data) -> list[str]:
    with pytest.raises(RecordError) as refusal:
        parse_record(data)
    return refusal.value.errors


def test_a_hand_given_as_cards_becomes_the_deadwoods_after_lay_offs():
    hand = {"knocker": "Anna", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    assert parse_hand(hand) == Hand.knock(5, 61, knocker="Anna")
    assert parse_record(record(hand)).hands == (Hand.knock(5, 61, knocker="Anna"),)


def test_a_record_with_cards_tallies_as_the_same_record_with_deadwoods():
    with_cards = record(
        {"knocker": "Anna", "knocker_cards": KNOCKER, "defender_cards": DEFENDER},
        {"knocker": "Ben", "gin": True, "knocker_cards": GIN, "defender_cards": DEFENDER},
    )
    with_numbers = record(
        {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 61},
        {"knocker": "Ben", "gin": True, "defender_deadwood": 78},
    )
    assert tally(parse_record(with_cards)) == tally(parse_record(with_numbers))


def test_cards_may_be_one_string_and_deadwoods_given_beside_them_must_agree():
    hand = {
        "knocker": "Anna",
        "knocker_cards": " ".join(KNOCKER),
        "defender_cards": DEFENDER,
        "knocker_deadwood": 5,
        "defender_deadwood": 61,
    }
    assert parse_hand(hand) == Hand.knock(5, 61, knocker="Anna")
    assert errors(record({**hand, "defender_deadwood": 78})) == [
        "hand 1: defender_deadwood is 78, but the cards give 61"
    ]


def test_the_records_rules_decide_the_melds_and_the_limit():
    knocker = ["KH", "AH", "2H", "5S", "6S", "7S", "9D", "TD", "JD", "3C"]
    defender = ["9H", "8H", "KS", "KD", "7C", "7D", "2C", "QC", "9S", "JC"]
    hand = {"knocker": "Anna", "knocker_cards": knocker, "defender_cards": defender}
    corner = parse_record(record(hand, rules={"preset": "round_the_corner"}))
    assert corner.hands[0].knocker_deadwood == 3
    assert errors(record(hand)) == [
        "hand 1: a knock with 16 deadwood is over the knock limit of 10"
    ]
    assert parse_hand(hand, preset("round_the_corner")).knocker_deadwood == 3


def test_oklahoma_hands_with_cards_take_the_upcard():
    hand = {"knocker": "Anna", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    data = record({**hand, "upcard": "5S"}, rules={"preset": "oklahoma"})
    assert parse_record(data).hands[0].upcard.code == "5S"
    assert tally(parse_record(data))["games"][0]["players"]["Anna"]["points"] == (61 - 5) * 2
    assert errors(record({**hand, "upcard": "4S"}, rules={"preset": "oklahoma"})) == [
        "hand 1: a knock with 5 deadwood is over the knock limit of 4"
    ]
    assert errors(record(hand, rules={"preset": "oklahoma"})) == [
        "hand 1: Oklahoma rules need the upcard of every scored hand"
    ]


def test_bad_cards_name_the_hand_and_the_field():
    good = {"knocker": "Anna", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    bad = {**good, "defender_cards": [*DEFENDER[:9], "7X"]}
    assert errors(record(good, bad)) == [
        "hand 2: defender_cards: '7X' is not a card: give a rank of A23456789TJQK and a suit "
        "of SHDC, like 7S"
    ]
    short = {**good, "knocker_cards": KNOCKER[:9]}
    assert errors(record(short)) == [
        "hand 1: knocker_cards: 9 cards given: a hand here has 10 or 11 cards"
    ]
    both = {**good, "defender_cards": ["5H", *DEFENDER[1:]]}
    assert errors(record(both)) == [
        "hand 1: 5H is in both hands: each card of the deck appears once"
    ]
    missing = {"knocker": "Anna", "knocker_cards": KNOCKER}
    assert errors(record(missing))[0].startswith("hand 1: give both players' cards")


def test_a_gin_or_big_gin_claimed_must_be_in_the_cards():
    hand = {"knocker": "Anna", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    assert errors(record({**hand, "gin": True})) == [
        "hand 1: the hand says gin, but the knocker's cards leave 5 deadwood"
    ]
    eleven = {**hand, "knocker_cards": [*KNOCKER, "KC"], "big_gin": True}
    assert errors(record(eleven, rules={"preset": "modern"})) == [
        "hand 1: the hand says big gin, but the knocker's cards do not all meld"
    ]
    assert errors(record(eleven)) == ["hand 1: big gin is not played under these rules"]


def test_eleven_cards_all_melded_are_a_big_gin_in_the_record():
    big = ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "7S", "9C", "TC", "JC"]
    defender = ["5S", "8S", "KH", "KD", "QH", "QD", "2D", "3D", "6H", "5C"]
    hand = {"knocker": "Anna", "knocker_cards": big, "defender_cards": defender}
    assert parse_hand(hand, preset("modern")) == Hand.gin(69, knocker="Anna", big=True)
    assert parse_hand(hand) == Hand.gin(69, knocker="Anna")  # classic: a gin after discarding


def test_melds_the_knocker_laid_down_may_be_given():
    hand = {
        "knocker": "Anna",
        "knocker_cards": KNOCKER,
        "defender_cards": DEFENDER,
        "knocker_melds": [["TH", "JH", "QH"], ["AC", "2C", "3C"]],
    }
    assert errors(record(hand)) == [
        "hand 1: a knock with 17 deadwood is over the knock limit of 10"
    ]
    assert errors(record({**hand, "knocker_melds": "TH"})) == [
        "hand 1: knocker_melds: give each meld as a list of codes"
    ]


def test_partnership_tables_with_cards_name_the_table():
    good = {"knocker": "A", "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    bad = {**good, "knocker_cards": [*KNOCKER[:9], "ZZ"]}
    data = record(
        {"tables": [good, bad]},
        kind="partnership",
        rules={"preset": "partnership"},
        players=("A", "B", "C", "D"),
    )
    assert errors(data) == [
        "hand 1, table 2: knocker_cards: 'ZZ' is not a card: give a rank of A23456789TJQK "
        "and a suit of SHDC, like 7S"
    ]
    ok = record(
        {"tables": [good, {**good, "knocker": "C"}]},
        kind="partnership",
        rules={"preset": "partnership"},
        players=("A", "B", "C", "D"),
    )
    assert parse_record(ok).hands[0].tables[1] == Hand.knock(5, 61, knocker="C")


def test_a_hand_with_cards_still_names_its_knocker():
    hand = {"knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    with pytest.raises(HandError) as refusal:
        parse_hand(hand)
    assert refusal.value.code == "knocker_missing"
    assert json.dumps(hand)  # plain JSON data in, nothing kept of the cards out
