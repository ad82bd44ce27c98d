"""One hand scored as RULES.md §2: the single-hand examples of §2, §5 and §9, and the errors."""

import pytest

from scorekeeper.engine.cards import Card
from scorekeeper.engine.hand import (
    Hand,
    HandError,
    HandKind,
    Outcome,
    knock_limit,
    score_hand,
)
from scorekeeper.engine.rules import preset

CLASSIC = preset("classic")
MODERN = preset("modern")
OKLAHOMA = preset("oklahoma")


def knock(dk, dd, upcard=None):
    return Hand.knock(dk, dd, upcard=None if upcard is None else Card.parse(upcard))


def gin(dd, upcard=None, big=False):
    return Hand.gin(dd, upcard=None if upcard is None else Card.parse(upcard), big=big)


def refusal(hand, rules):
    with pytest.raises(HandError) as error:
        score_hand(hand, rules)
    return error.value


# RULES.md §9, single hands [V].


def test_knock_scores_the_difference_of_the_deadwoods():
    score = score_hand(knock(3, 11), CLASSIC)
    assert (score.outcome, score.knocker_wins, score.points, score.boxes) == (
        Outcome.KNOCK,
        True,
        8,
        1,
    )


def test_knock_4_against_22_scores_18():
    assert score_hand(knock(4, 22), CLASSIC).points == 18


def test_undercut_scores_difference_plus_bonus():
    score = score_hand(knock(3, 1), MODERN)
    assert (score.outcome, score.knocker_wins, score.points) == (Outcome.UNDERCUT, False, 27)


def test_undercut_8_against_6_under_modern_gives_the_defender_27():
    score = score_hand(knock(8, 6), MODERN)
    assert (score.knocker_wins, score.points) == (False, 27)


def test_gin_scores_defender_deadwood_plus_gin_bonus():
    assert score_hand(gin(28), MODERN).points == 53
    assert score_hand(gin(31), MODERN).points == 56


# RULES.md §2 and §9 [C], classic values.


def test_classic_gin_bonus_is_20():
    score = score_hand(gin(16), CLASSIC)
    assert (score.outcome, score.knocker_wins, score.points, score.boxes) == (
        Outcome.GIN,
        True,
        36,
        1,
    )


def test_a_tie_is_an_undercut_by_default():
    score = score_hand(knock(7, 7), CLASSIC)
    assert (score.outcome, score.knocker_wins, score.points) == (Outcome.UNDERCUT, False, 10)


def test_a_knock_with_0_deadwood_is_a_gin():
    score = score_hand(knock(0, 12), CLASSIC)
    assert (score.outcome, score.points) == (Outcome.GIN, 32)


def test_a_gin_cannot_be_undercut_even_when_the_defender_has_0():
    score = score_hand(gin(0), CLASSIC)
    assert (score.outcome, score.knocker_wins, score.points) == (Outcome.GIN, True, 20)


def test_a_knock_at_the_limit_is_allowed():
    assert score_hand(knock(10, 30), CLASSIC).points == 20


def test_no_game_scores_nothing_and_nobody_wins():
    score = score_hand(Hand.no_game(), CLASSIC)
    assert (score.outcome, score.knocker_wins, score.points, score.boxes) == (
        Outcome.NO_GAME,
        None,
        0,
        0,
    )
    assert not score.outcome.is_scored


def test_no_game_under_oklahoma_needs_no_upcard():
    assert score_hand(Hand.no_game(), OKLAHOMA).outcome == Outcome.NO_GAME


# RULES.md §5, Oklahoma [C].


def test_oklahoma_king_of_spades_sets_limit_10_and_doubles_the_knock():
    score = score_hand(knock(4, 19, "KS"), OKLAHOMA)
    assert (score.outcome, score.points, score.multiplier, score.boxes) == (
        Outcome.KNOCK,
        30,
        2,
        1,
    )


def test_oklahoma_five_of_spades_undercut_doubles_the_bonus_too():
    score = score_hand(knock(5, 3, "5S"), OKLAHOMA)
    assert (score.outcome, score.knocker_wins, score.points) == (Outcome.UNDERCUT, False, 54)


def test_oklahoma_upcard_of_another_suit_does_not_double():
    score = score_hand(knock(4, 19, "KH"), OKLAHOMA)
    assert (score.points, score.multiplier) == (15, 1)


def test_oklahoma_spade_gin_doubles_points_with_the_bonus():
    assert score_hand(gin(10, "9S"), OKLAHOMA).points == 70


def test_oklahoma_without_spade_doubling_scores_spades_once():
    rules = preset("oklahoma", spade_double="off")
    assert score_hand(knock(4, 19, "KS"), rules).points == 15


def test_oklahoma_upcard_value_is_the_knock_limit():
    assert knock_limit(OKLAHOMA, Card.parse("7D")) == 7
    assert knock_limit(OKLAHOMA, Card.parse("TC")) == 10
    assert knock_limit(OKLAHOMA, Card.parse("QH")) == 10
    assert score_hand(knock(7, 20, "7D"), OKLAHOMA).points == 13


def test_oklahoma_knock_over_the_upcard_value_is_refused():
    error = refusal(knock(8, 20, "7D"), OKLAHOMA)
    assert (error.code, error.field) == ("over_limit", "knocker_deadwood")
    assert error.params == {"deadwood": 8, "limit": 7}
    assert str(error) == "a knock with 8 deadwood is over the knock limit of 7"


def test_oklahoma_ace_upcard_allows_only_gin_by_default():
    assert knock_limit(OKLAHOMA, Card.parse("AS")) == 0
    error = refusal(knock(1, 20, "AS"), OKLAHOMA)
    assert (error.code, error.field) == ("gin_only", "knocker_deadwood")
    assert score_hand(gin(20, "AS"), OKLAHOMA).points == 90


def test_oklahoma_ace_upcard_counts_one_when_the_rules_say_so():
    rules = preset("oklahoma", oklahoma_ace="one")
    assert knock_limit(rules, Card.parse("AH")) == 1
    assert score_hand(knock(1, 20, "AH"), rules).points == 19
    assert refusal(knock(2, 20, "AH"), rules).code == "over_limit"


def test_oklahoma_points_and_boxes_doubles_the_boxes_of_a_spade_hand():
    rules = preset("oklahoma", spade_double="points_and_boxes")
    assert score_hand(knock(4, 19, "KS"), rules).boxes == 2
    assert score_hand(knock(4, 19, "KH"), rules).boxes == 1


def test_points_and_boxes_doubles_the_extra_boxes_too():
    rules = preset(
        "oklahoma", spade_double="points_and_boxes", extra_boxes_gin=2, extra_boxes_undercut=1
    )
    assert score_hand(gin(10, "9S"), rules).boxes == 6
    assert score_hand(knock(5, 3, "5S"), rules).boxes == 4


# §7 and §10: straight gin, big gin, ties, extra boxes, round-the-corner.


def test_straight_gin_refuses_every_knock():
    rules = preset("straight")
    error = refusal(knock(1, 30), rules)
    assert (error.code, error.field) == ("gin_only", "knocker_deadwood")
    assert str(error) == "these rules allow only gin: a knock needs 0 deadwood"
    assert score_hand(gin(30), rules).points == 50


def test_big_gin_scores_defender_deadwood_plus_big_gin_bonus():
    score = score_hand(gin(12, big=True), MODERN)
    assert (score.outcome, score.knocker_wins, score.points, score.boxes) == (
        Outcome.BIG_GIN,
        True,
        43,
        1,
    )


def test_big_gin_is_refused_when_the_rules_do_not_play_it():
    error = refusal(gin(12, big=True), CLASSIC)
    assert (error.code, error.field) == ("big_gin_off", "kind")


def test_big_gin_earns_the_gin_extra_boxes():
    rules = preset("modern", extra_boxes_gin=2)
    assert score_hand(gin(12, big=True), rules).boxes == 3


def test_tie_without_undercut_gives_the_knocker_0_points_and_one_box():
    rules = preset("classic", tie_is_undercut=False)
    score = score_hand(knock(7, 7), rules)
    assert (score.outcome, score.knocker_wins, score.points, score.boxes) == (
        Outcome.KNOCK,
        True,
        0,
        1,
    )


def test_without_tie_undercut_a_higher_knocker_is_still_undercut():
    rules = preset("classic", tie_is_undercut=False)
    score = score_hand(knock(8, 7), rules)
    assert (score.outcome, score.knocker_wins, score.points) == (Outcome.UNDERCUT, False, 11)


def test_extra_boxes_for_gin_and_undercut_as_scarne():
    rules = preset("classic", extra_boxes_gin=2, extra_boxes_undercut=1)
    assert score_hand(gin(10), rules).boxes == 3
    assert score_hand(knock(8, 6), rules).boxes == 2
    assert score_hand(knock(3, 11), rules).boxes == 1


def test_round_the_corner_gin_laid_off_to_0_is_void():
    rules = preset("round_the_corner")
    score = score_hand(gin(0), rules)
    assert (score.outcome, score.knocker_wins, score.points, score.boxes) == (
        Outcome.VOID,
        None,
        0,
        0,
    )
    assert not score.outcome.is_scored


def test_round_the_corner_gin_with_deadwood_left_scores_bonus_20():
    assert score_hand(gin(15), preset("round_the_corner")).points == 35


def test_round_the_corner_allows_deadwood_above_98_for_aces_at_15():
    assert score_hand(knock(5, 110), preset("round_the_corner")).points == 105
    assert refusal(knock(5, 111), preset("round_the_corner")).code == "deadwood_impossible"


# §10.13: hands that cannot have happened.


def test_knock_over_the_limit_is_refused_with_a_clear_message():
    error = refusal(knock(11, 30), CLASSIC)
    assert (error.code, error.field) == ("over_limit", "knocker_deadwood")
    assert str(error) == "a knock with 11 deadwood is over the knock limit of 10"


def test_knock_limit_override_is_respected():
    rules = preset("classic", knock_limit=5)
    assert refusal(knock(6, 30), rules).params == {"deadwood": 6, "limit": 5}


def test_gin_with_knocker_deadwood_is_refused():
    hand = Hand(HandKind.GIN, None, 4, 20)
    error = refusal(hand, CLASSIC)
    assert (error.code, error.field) == ("gin_with_deadwood", "knocker_deadwood")
    assert str(error) == "a gin has no deadwood, but the knocker's is 4"


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (Hand.knock(-1, 20), "knocker_deadwood"),
        (Hand.knock(3, -2), "defender_deadwood"),
        (Hand.gin(-5), "defender_deadwood"),
    ],
)
def test_negative_deadwood_is_refused(hand, field):
    error = refusal(hand, CLASSIC)
    assert (error.code, error.field) == ("deadwood_negative", field)


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (Hand.knock(3, 99), "defender_deadwood"),
        (Hand.gin(120), "defender_deadwood"),
    ],
)
def test_deadwood_above_98_is_impossible(hand, field):
    error = refusal(hand, CLASSIC)
    assert (error.code, error.field) == ("deadwood_impossible", field)
    assert "ten cards hold at most 98" in str(error)


def test_98_deadwood_is_possible():
    assert score_hand(knock(2, 98), CLASSIC).points == 96


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (Hand(HandKind.KNOCK, None, None, 20), "knocker_deadwood"),
        (Hand(HandKind.KNOCK, None, 3, None), "defender_deadwood"),
        (Hand(HandKind.GIN, None, None, None), "defender_deadwood"),
    ],
)
def test_missing_deadwood_is_refused(hand, field):
    error = refusal(hand, CLASSIC)
    assert (error.code, error.field) == ("deadwood_missing", field)


@pytest.mark.parametrize("value", [2.5, "7", True])
def test_deadwood_that_is_not_a_whole_number_is_refused(value):
    error = refusal(Hand(HandKind.KNOCK, None, 3, value), CLASSIC)
    assert (error.code, error.field) == ("deadwood_not_number", "defender_deadwood")


@pytest.mark.parametrize("hand", [knock(3, 20), gin(20), gin(20, big=True)])
def test_missing_upcard_under_oklahoma_is_refused(hand):
    error = refusal(hand, OKLAHOMA)
    assert (error.code, error.field) == ("upcard_missing", "upcard")


def test_an_upcard_outside_oklahoma_changes_nothing():
    assert score_hand(knock(4, 19, "KS"), CLASSIC).points == 15
