"""Round-the-corner (RULES.md §7, §10.4): bonuses 20, target 125, a gin laid off to 0 is void."""

import pytest

from scorekeeper.engine.game import Game
from scorekeeper.engine.hand import Hand, HandError, Outcome, score_hand
from scorekeeper.engine.hollywood import Hollywood
from scorekeeper.engine.partnership import Partnership, Round
from scorekeeper.engine.rules import preset

RTC = preset("round_the_corner")


def test_the_preset_has_bonuses_20_and_target_125():
    assert (RTC.undercut_bonus, RTC.gin_bonus, RTC.box_bonus, RTC.target) == (20, 20, 20, 125)
    assert (RTC.round_the_corner, RTC.knock_limit, RTC.game_bonus) == (True, 10, 100)


def test_a_game_plays_to_125_not_100():
    game = Game(("A", "B"), RTC)
    game.record(Hand.gin(80, knocker="A"))  # 80 + 20
    assert (game.points["A"], game.is_over()) == (100, False)
    game.record(Hand.knock(5, 30, knocker="A"))
    tally = game.tally()
    assert (tally.winner, tally.players["A"].total) == ("A", 125 + 2 * 20 + 100 + 100)


def test_an_undercut_earns_20():
    assert score_hand(Hand.knock(6, 4), RTC).points == 22


def test_a_gin_laid_off_to_0_is_void_and_the_dealer_deals_again():
    game = Game(("A", "B"), RTC, first_dealer="B")
    line = game.record(Hand.gin(0, knocker="A"))
    assert (line.score.outcome, line.winner, line.points) == (Outcome.VOID, None, {"A": 0, "B": 0})
    assert game.dealer == "B"


def test_a_big_gin_laid_off_to_0_is_void_too():
    rules = RTC.replace(big_gin_bonus=31)
    assert score_hand(Hand.gin(0, big=True), rules).outcome == Outcome.VOID
    assert score_hand(Hand.gin(5, big=True), rules).points == 36


def test_without_round_the_corner_a_gin_against_0_scores_the_bonus():
    assert score_hand(Hand.gin(0), preset("classic")).points == 20


def test_aces_at_15_allow_deadwood_up_to_110():
    assert score_hand(Hand.knock(10, 110), RTC).points == 100
    with pytest.raises(HandError):
        score_hand(Hand.knock(10, 111), RTC)


def test_a_void_gin_enters_nothing_in_hollywood():
    session = Hollywood(("A", "B"), RTC)
    line = session.record(Hand.gin(0, knocker="A"))
    assert (line.entered, line.winner) == ((), None)


def test_a_void_gin_counts_0_at_its_partnership_table():
    game = Partnership(("A", "B", "C", "D"), RTC)
    line = game.record(Round((Hand.gin(0, knocker="A"), Hand.knock(2, 9, knocker="D"))))
    assert (line.tables[0].winner, line.winner, line.gained["B & D"]) == (None, "B & D", 7)
