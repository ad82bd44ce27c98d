"""A game to the target (RULES.md §3): the worked example, shutouts, money and the dealer."""

from decimal import Decimal

import pytest

from scorekeeper.engine.game import Game, GameClosedError, Payment, PlayerError, money
from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.rules import preset

# RULES.md §9: A knocks 5 v 27; B gins, A 16; A knocks 7, B 7; A gins, B 31; no game;
# A knocks 2 v 30.
WORKED_EXAMPLE = (
    Hand.knock(5, 27, knocker="A"),
    Hand.gin(16, knocker="B"),
    Hand.knock(7, 7, knocker="A"),
    Hand.gin(31, knocker="A"),
    Hand.no_game(),
    Hand.knock(2, 30, knocker="A"),
)
# A gins v 70 (90), then knocks 3 v 20 (17): 107 in two boxes, B never scores.
SHUTOUT = (Hand.gin(70, knocker="A"), Hand.knock(3, 20, knocker="A"))


def play(hands, rules=None, first_dealer="B", **overrides):
    rules = rules or preset("classic", **overrides)
    return Game.replay(("A", "B"), rules, first_dealer, hands)


def test_worked_example_with_classic_values():
    tally = play(WORKED_EXAMPLE).tally()
    a, b = tally.players["A"], tally.players["B"]
    assert (tally.closed, tally.winner, tally.shutout) == (True, "A", False)
    assert (a.points, a.boxes, a.box_bonus, a.game_bonus, a.shutout_bonus, a.total) == (
        101,
        3,
        60,
        100,
        0,
        261,
    )
    assert (b.points, b.boxes, b.box_bonus, b.game_bonus, b.shutout_bonus, b.total) == (
        46,
        2,
        40,
        0,
        0,
        86,
    )
    assert tally.net == 175


def test_worked_example_loser_pays_8_75_at_5_cents_a_point():
    tally = play(WORKED_EXAMPLE).tally()
    assert tally.settle(Decimal("0.05")) == [Payment("B", "A", 175, Decimal("8.75"))]


def test_worked_example_with_modern_values():
    tally = play(WORKED_EXAMPLE, preset("modern")).tally()
    assert (tally.players["A"].points, tally.players["B"].points) == (106, 66)
    assert (tally.players["A"].total, tally.players["B"].total, tally.net) == (281, 116, 165)


def test_running_totals_of_the_worked_example_line_by_line():
    game = play(WORKED_EXAMPLE)
    assert [line.points["A"] for line in game.lines] == [22, 22, 22, 73, 73, 101]
    assert [line.points["B"] for line in game.lines] == [0, 36, 46, 46, 46, 46]
    assert [line.winner for line in game.lines] == ["A", "B", "B", "A", None, "A"]
    assert [line.number for line in game.lines] == [1, 2, 3, 4, 5, 6]


def test_a_running_game_has_no_winner_no_bonuses_and_settles_nothing():
    tally = play(WORKED_EXAMPLE[:4]).tally()
    assert (tally.closed, tally.winner, tally.shutout, tally.net) == (False, None, False, 0)
    assert tally.players["A"].total == 73
    assert tally.players["A"].box_bonus == 0
    assert tally.settle(Decimal("1")) == []


def test_the_game_closes_when_a_total_reaches_the_target_exactly():
    game = play([Hand.gin(80, knocker="A")])
    assert game.is_over()
    assert game.winner == "A"


def test_a_lower_target_closes_the_game_sooner():
    game = play(WORKED_EXAMPLE[:1], target=20)
    assert game.winner == "A"


# §3.3 and §10.6: the four shutout methods, classic values.


def test_shutout_bonus_adds_the_shutout_bonus():
    tally = play(SHUTOUT, shutout="bonus").tally()
    a = tally.players["A"]
    assert tally.shutout is True
    assert (a.points, a.box_bonus, a.game_bonus, a.shutout_bonus, a.total) == (
        107,
        40,
        100,
        100,
        347,
    )
    assert tally.players["B"].total == 0
    assert tally.net == 347


def test_shutout_bonus_amount_follows_the_rules():
    tally = play(SHUTOUT, shutout="bonus", shutout_bonus=50).tally()
    assert (tally.players["A"].shutout_bonus, tally.players["A"].total) == (50, 297)


def test_shutout_double_total_doubles_the_winners_whole_final():
    tally = play(SHUTOUT, shutout="double_total").tally()
    a = tally.players["A"]
    assert tally.shutout is True
    assert (a.shutout_bonus, a.total, tally.net) == (247, 494, 494)


def test_shutout_double_hands_doubles_hand_points_then_adds_boxes_and_game_bonus():
    tally = play(SHUTOUT, shutout="double_hands").tally()
    a = tally.players["A"]
    assert tally.shutout is True
    assert (a.shutout_bonus, a.total, tally.net) == (107, 354, 354)
    assert a.total == 2 * 107 + 40 + 100


def test_shutout_none_adds_nothing_but_is_still_a_shutout():
    tally = play(SHUTOUT, shutout="none").tally()
    a = tally.players["A"]
    assert (a.shutout_bonus, a.total, tally.net, tally.shutout) == (0, 247, 247, True)


def test_modern_shutout_doubles_the_total():
    tally = play(SHUTOUT, preset("modern")).tally()
    # 95 + 17 = 112 points, 2 boxes of 25, game 100: 262, doubled.
    assert (tally.players["A"].shutout_bonus, tally.players["A"].total) == (262, 524)


def test_a_loser_with_points_is_not_shut_out():
    tally = play(WORKED_EXAMPLE, shutout="double_total").tally()
    assert tally.shutout is False
    assert tally.players["A"].shutout_bonus == 0


def test_a_loser_with_boxes_but_0_points_is_shut_out():
    # Under tie_is_undercut=false a tie wins B a box and 0 points.
    hands = [Hand.knock(5, 5, knocker="B"), *SHUTOUT]
    tally = play(hands, tie_is_undercut=False).tally()
    b = tally.players["B"]
    assert (b.points, b.boxes, b.total) == (0, 1, 20)
    assert tally.shutout is True
    assert tally.net == 347 - 20


# §3.4 and §10.7: the first to the target can lose the money.


def test_the_first_to_the_target_can_lose_the_money():
    # B wins twenty hands by 1 point (twenty boxes); A then gins v 98.
    hands = [Hand.knock(9, 10, knocker="B")] * 20 + [Hand.gin(98, knocker="A")]
    tally = play(hands).tally()
    a, b = tally.players["A"], tally.players["B"]
    assert tally.winner == "A"
    assert (a.total, b.total) == (118 + 20 + 100, 20 + 400)
    assert tally.net == 238 - 420
    assert tally.settle(Decimal("0.10")) == [Payment("A", "B", 182, Decimal("18.20"))]


def test_equal_finals_settle_nothing():
    # A: 100 + 20 + 100 = 220; B: 0 points, 11 ties won at 20 a box = 220.
    hands = [Hand.knock(3, 3, knocker="B")] * 11 + [Hand.gin(80, knocker="A")]
    tally = play(hands, tie_is_undercut=False, shutout="none").tally()
    assert (tally.players["A"].total, tally.players["B"].total, tally.net) == (220, 220, 0)
    assert tally.settle(Decimal("1")) == []


# §3.5 and §10.7: money.


def test_money_is_points_times_stake():
    assert money(175, Decimal("0.05")) == Decimal("8.75")
    assert money(0, Decimal("0.05")) == Decimal("0.00")


def test_money_rounds_half_up_to_the_cent():
    assert money(1, Decimal("0.125")) == Decimal("0.13")
    assert money(5, Decimal("0.005")) == Decimal("0.03")
    assert money(3, Decimal("0.001")) == Decimal("0.00")


def test_money_rounds_half_up_to_a_money_unit_of_5_cents():
    assert money(7, Decimal("0.053"), Decimal("0.05")) == Decimal("0.35")
    assert money(1, Decimal("0.025"), Decimal("0.05")) == Decimal("0.05")
    assert money(1, Decimal("0.024"), Decimal("0.05")) == Decimal("0.00")


def test_money_rounds_half_up_to_whole_units():
    assert money(175, Decimal("0.05"), Decimal("1")) == Decimal("9")
    assert money(3, Decimal("0.5"), Decimal("1")) == Decimal("2")


def test_settlement_rounds_to_the_rules_money_unit():
    tally = play(WORKED_EXAMPLE).tally()
    (payment,) = tally.settle(Decimal("0.003"), Decimal("0.05"))
    assert payment.amount == Decimal("0.55")  # 175 × 0.003 = 0.525


# §2.10: the next dealer.


def dealers(rules, hands, first_dealer="B"):
    game = Game(("A", "B"), rules, first_dealer)
    for hand in hands:
        game.record(hand)
    return [line.dealer for line in game.lines] + [game.dealer]


def test_the_loser_deals_next_under_the_loser_rule():
    assert dealers(preset("classic"), WORKED_EXAMPLE) == ["B", "B", "A", "A", "B", "B", "B"]


def test_the_winner_deals_next_under_the_winner_rule():
    rules = preset("classic", dealer_rule="winner")
    assert dealers(rules, WORKED_EXAMPLE) == ["B", "A", "B", "B", "A", "A", "A"]


def test_the_deal_alternates_under_the_alternate_rule_except_after_a_no_game():
    rules = preset("classic", dealer_rule="alternate")
    assert dealers(rules, WORKED_EXAMPLE) == ["B", "A", "B", "A", "B", "B", "A"]


@pytest.mark.parametrize("rule", ["loser", "winner", "alternate"])
def test_after_a_no_game_the_same_dealer_deals_again(rule):
    rules = preset("classic", dealer_rule=rule)
    assert dealers(rules, [Hand.no_game(), Hand.no_game()], "A") == ["A", "A", "A"]


def test_after_a_void_round_the_corner_gin_the_same_dealer_deals_again():
    assert dealers(preset("round_the_corner"), [Hand.gin(0, knocker="A")], "B") == ["B", "B"]


def test_a_knocker_winning_a_tie_with_0_points_counts_as_winner_for_the_deal():
    rules = preset("classic", tie_is_undercut=False)
    assert dealers(rules, [Hand.knock(6, 6, knocker="A")], "A") == ["A", "B"]


def test_the_first_player_deals_when_no_first_dealer_is_named():
    assert Game(("A", "B"), preset("classic")).dealer == "A"


def test_an_undercut_wins_the_hand_for_the_defender():
    line = Game(("A", "B"), preset("classic")).record(Hand.knock(7, 7, knocker="A"))
    assert (line.knocker, line.winner, line.points) == ("A", "B", {"A": 0, "B": 10})


# §10.13: refusals change nothing.


def snapshot(game):
    return (dict(game.points), dict(game.boxes), list(game.lines), game.dealer, game.winner)


def test_a_hand_after_the_game_closed_raises_and_changes_nothing():
    game = play(WORKED_EXAMPLE)
    before = snapshot(game)
    with pytest.raises(GameClosedError) as error:
        game.record(Hand.knock(1, 5, knocker="B"))
    assert str(error.value) == "the game is over: A reached 101 of 100"
    assert error.value.code == "game_closed"
    assert snapshot(game) == before


def test_a_no_game_after_the_game_closed_is_refused_too():
    game = play(WORKED_EXAMPLE)
    with pytest.raises(GameClosedError):
        game.record(Hand.no_game())


def test_an_unknown_knocker_raises_player_error_and_changes_nothing():
    game = play(WORKED_EXAMPLE[:2])
    before = snapshot(game)
    with pytest.raises(PlayerError) as error:
        game.record(Hand.knock(3, 20, knocker="Carl"))
    assert (error.value.code, error.value.field) == ("unknown_player", "knocker")
    assert str(error.value) == "'Carl' is not a player of this game: choose A or B"
    assert snapshot(game) == before


def test_a_refused_hand_changes_nothing():
    game = play(WORKED_EXAMPLE[:2])
    before = snapshot(game)
    with pytest.raises(HandError, match="over the knock limit"):
        game.record(Hand.knock(12, 20, knocker="A"))
    assert snapshot(game) == before


def test_a_scored_hand_without_a_knocker_is_refused():
    game = Game(("A", "B"), preset("classic"))
    with pytest.raises(HandError) as error:
        game.record(Hand.knock(3, 20))
    assert (error.value.code, error.value.field) == ("knocker_missing", "knocker")
    assert game.lines == []


def test_an_unknown_first_dealer_raises_player_error():
    with pytest.raises(PlayerError):
        Game(("A", "B"), preset("classic"), first_dealer="Carl")


@pytest.mark.parametrize("players", [("A",), ("A", "A"), ("A", "B", "C")])
def test_a_two_player_game_needs_two_different_players(players):
    with pytest.raises(ValueError, match="two different player names"):
        Game(players, preset("classic"))
