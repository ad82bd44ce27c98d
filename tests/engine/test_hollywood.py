"""Hollywood (RULES.md §4, §10.8): three games recorded at once, the per-player entry rule."""

from decimal import Decimal

import pytest

from scorekeeper.engine.game import GameClosedError, Payment, PlayerError, money
from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.hollywood import Hollywood
from scorekeeper.engine.rules import preset
from tests.engine.helpers import win


def play(hands, players=("You", "Opp"), first_dealer=None, **overrides):
    return Hollywood.replay(players, preset("hollywood", **overrides), first_dealer, hands)


def columns(session, player):
    return [game[player] for game in session.points]


# The examples of RULES.md §4 [V].

GRC = [
    win("You", 18),
    win("Opp", 12),
    win("You", 25),
    win("Opp", 30),
    win("You", 15),
    win("You", 22),
    win("Opp", 20),
]


def test_grc_example_gives_you_80_62_37_and_opp_62_50_20():
    session = play(GRC)
    assert columns(session, "You") == [80, 62, 37]
    assert columns(session, "Opp") == [62, 50, 20]
    assert session.closed == (False, False, False)


def test_grc_example_enters_each_win_by_the_winners_own_count():
    entered = [line.entered for line in play(GRC).lines]
    # You: 1st win G1, 2nd G1+G2, then all three; Opp likewise, counted on his own wins.
    assert entered == [(0,), (0,), (0, 1), (0, 1), (0, 1, 2), (0, 1, 2), (0, 1, 2)]


def test_scarne_example_at_target_150_gives_79_54_36():
    session = play([win("A", 25), win("A", 18), win("A", 36)], ("A", "B"), target=150)
    assert columns(session, "A") == [79, 54, 36]
    assert session.closed == (False, False, False)


def test_ocg_example_at_target_100_closes_game_1_at_105():
    session = play([win("A", 32), win("A", 28), win("A", 45)], ("A", "B"))
    assert columns(session, "A") == [105, 73, 45]
    assert session.closed == (True, False, False)
    assert session.winners == ("A", None, None)
    assert session.lines[-1].closed == (True, False, False)


def test_the_line_holds_each_games_running_totals_after_the_hand():
    lines = play(GRC).lines
    assert [line.points[0]["You"] for line in lines] == [18, 18, 43, 43, 58, 80, 80]
    assert [line.points[2]["Opp"] for line in lines] == [0, 0, 0, 0, 0, 0, 20]
    assert [line.winner for line in lines] == ["You", "Opp"] * 2 + ["You", "You", "Opp"]


# §4.2: closing.


def test_several_games_can_close_on_one_hand():
    session = play([win("A", 40), win("A", 40), Hand.gin(70, knocker="A")], ("A", "B"))
    assert columns(session, "A") == [170, 130, 90]
    assert session.closed == (True, True, False)
    assert not session.is_over()


def test_all_three_games_can_close_on_one_hand_and_end_the_session():
    session = play([win("A", 30), win("A", 30), Hand.gin(98, knocker="A")], ("A", "B"))
    assert columns(session, "A") == [178, 148, 118]
    assert session.closed == (True, True, True)
    assert session.is_over()


def test_a_closed_game_takes_no_more_entries():
    session = play([Hand.gin(98, knocker="A"), win("A", 10)], ("A", "B"))
    assert columns(session, "A") == [118, 10, 0]
    assert session.lines[-1].entered == (1,)


def test_a_player_shut_out_of_a_closed_game_enters_the_next_open_game():
    session = play([Hand.gin(98, knocker="A"), win("B", 10), win("B", 10), win("A", 5)], ("A", "B"))
    assert [line.entered for line in session.lines] == [(0,), (1,), (1, 2), (1,)]
    assert columns(session, "B") == [0, 20, 10]
    assert columns(session, "A") == [118, 5, 0]


def test_a_win_of_0_points_is_an_entry_in_its_game():
    # tie_is_undercut=false: a tie wins the knocker 0 points and a box.
    session = play([Hand.knock(5, 5, knocker="A"), win("A", 10)], ("A", "B"), tie_is_undercut=False)
    assert [line.entered for line in session.lines] == [(0,), (0, 1)]
    assert [game["A"] for game in session.boxes] == [2, 1, 0]


def test_no_game_enters_nothing():
    line = play([Hand.no_game()]).lines[0]
    assert (line.winner, line.entered) == (None, ())


# §4.3 and §10.8: each game settled on its own.


def test_a_columns_boxes_are_the_boxes_of_the_hands_entered_in_it():
    session = play(GRC)
    assert [game["You"] for game in session.boxes] == [4, 3, 2]
    assert [game["Opp"] for game in session.boxes] == [3, 2, 1]


def test_each_game_gets_its_own_end_bonuses():
    session = play([win("A", 32), win("A", 28), win("A", 45), win("B", 20)], ("A", "B"))
    g1, g2, g3 = session.games()
    a, b = g1.players["A"], g1.players["B"]
    # A shut B out of game 1: B's win came after it closed and went to game 2.
    assert (g1.closed, g1.winner, g1.shutout) == (True, "A", True)
    assert (a.points, a.box_bonus, a.game_bonus, a.shutout_bonus, a.total) == (
        105,
        60,
        100,
        100,
        365,
    )
    assert (b.total, g1.net) == (0, 365)
    assert (g2.closed, g2.players["B"].points, g3.players["B"].points) == (False, 20, 0)


def test_settlement_is_one_payment_per_closed_game():
    hands = [win("A", 32), win("A", 28), win("A", 45), win("B", 20)]
    assert play(hands, ("A", "B")).settle(Decimal("0.10")) == [
        Payment("B", "A", 365, Decimal("36.50"))
    ]


def finished():
    """A wins 60 twice (G1 120 closes, G2 60); B, shut out of G1, gins for 118 in G2 and
    closes it; A's next win goes to G3, his first entry there: 118 closes it."""
    return [Hand.gin(40, knocker="A")] * 2 + [
        Hand.gin(98, knocker="B"),
        Hand.gin(98, knocker="A"),
    ]


def test_a_finished_session_settles_every_game():
    session = play(finished(), ("A", "B"), first_dealer="B")
    assert session.closed == (True, True, True)
    assert session.winners == ("A", "B", "A")
    g1, g2, g3 = session.games()
    # G1: A 120 + 2 boxes + game + shutout = 360. G2: B 118 + 20 + 100 = 238 v A 60 + 20 = 80.
    # G3: A 118 + 20 + 100 + 100 (B never entered G3) = 338.
    assert (g1.net, g2.net, g3.net) == (360, 158, 338)
    assert session.settle(Decimal("0.05")) == [
        Payment("B", "A", 360, Decimal("18.00")),
        Payment("A", "B", 158, Decimal("7.90")),
        Payment("B", "A", 338, Decimal("16.90")),
    ]


def test_game_3_double_doubles_its_points_and_money_after_rounding():
    session = play(finished(), ("A", "B"), hollywood_game3_double=True)
    stake = Decimal("0.125")
    payments = session.settle(stake)
    assert payments[2] == Payment("B", "A", 676, 2 * money(338, stake))
    assert payments[2].amount == Decimal("84.50")  # 338 × 0.125 = 42.25, doubled
    assert payments[:2] == play(finished(), ("A", "B")).settle(stake)[:2]
    assert session.games()[2].net == 338  # the game itself stays undoubled


def test_game_3_double_applies_after_rounding_to_the_money_unit():
    session = play(finished(), ("A", "B"), hollywood_game3_double=True, money_unit="0.05")
    # 338 × 0.003 = 1.014 → 1.00 at 5 cents, then doubled to 2.00 (not 2.028 → 2.05).
    assert session.settle(Decimal("0.003"))[2].amount == Decimal("2.00")


def test_a_running_session_settles_nothing_but_its_closed_games():
    session = play([win("A", 32), win("A", 28)], ("A", "B"))
    assert len(session.games()) == 3
    assert session.settle(Decimal(1)) == []
    assert [g.closed for g in session.games()] == [False, False, False]


# Refusals change nothing.


def snapshot(session):
    return (session.points, session.boxes, session.closed, list(session.lines), session.dealer)


def test_a_hand_after_all_three_games_closed_is_refused():
    session = play(finished(), ("A", "B"))
    before = snapshot(session)
    for hand in (win("B", 10), Hand.no_game()):
        with pytest.raises(GameClosedError) as error:
            session.record(hand)
        assert str(error.value) == "the Hollywood session is over: all three games are closed"
        assert error.value.code == "game_closed"
    assert snapshot(session) == before


def test_an_unknown_knocker_is_refused_and_changes_nothing():
    session = play(GRC[:3])
    before = snapshot(session)
    with pytest.raises(PlayerError, match="'Carl' is not a player of this game"):
        session.record(win("Carl", 10))
    assert snapshot(session) == before


def test_a_knock_over_the_limit_is_refused_and_changes_nothing():
    session = play(GRC[:3])
    before = snapshot(session)
    with pytest.raises(HandError, match="over the knock limit of 10"):
        session.record(Hand.knock(11, 30, knocker="You"))
    assert snapshot(session) == before


def test_oklahoma_hollywood_needs_the_upcard():
    rules = preset("oklahoma")
    session = Hollywood(("A", "B"), rules)
    with pytest.raises(HandError) as error:
        session.record(Hand.knock(3, 20, knocker="A"))
    assert error.value.code == "upcard_missing"
    assert session.lines == []


@pytest.mark.parametrize("players", [("A",), ("A", "A"), ("A", "B", "C")])
def test_hollywood_needs_two_different_players(players):
    with pytest.raises(ValueError, match="a Hollywood session needs two different player names"):
        Hollywood(players, preset("hollywood"))


def test_an_unknown_first_dealer_is_refused():
    with pytest.raises(PlayerError):
        Hollywood(("A", "B"), preset("hollywood"), first_dealer="C")


# The dealer rule runs as in a two-player game.


def test_the_loser_deals_next_and_a_no_game_keeps_the_dealer():
    session = play([win("You", 10), Hand.no_game(), win("Opp", 10)], first_dealer="You")
    assert [line.dealer for line in session.lines] + [session.dealer] == [
        "You",
        "Opp",
        "Opp",
        "You",
    ]


def test_the_first_player_deals_when_no_first_dealer_is_named():
    assert Hollywood(("A", "B"), preset("hollywood")).dealer == "A"


def test_the_session_interface():
    session = play(GRC)
    assert session.kind == "hollywood"
    assert session.players == ("You", "Opp")
    assert [line.number for line in session.lines] == list(range(1, 8))
