"""Partnership (RULES.md §6, §10.12): two teams, two tables, one team score per round."""

from decimal import Decimal

import pytest

from scorekeeper.engine.game import GameClosedError, Payment, PlayerError
from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.partnership import Partnership, Round, TableLine, team_name
from scorekeeper.engine.rules import preset
from tests.engine.helpers import win

PLAYERS = ("A", "B", "C", "D")  # A & C against B & D; table 1 A v B, table 2 C v D
AC, BD = "A & C", "B & D"


def rnd(table_1, table_2):
    return Round((table_1, table_2))


def play(rounds, first_dealer=None, **overrides):
    return Partnership.replay(PLAYERS, preset("partnership", **overrides), first_dealer, rounds)


# The examples of RULES.md §6 [V].


def test_one_partner_wins_by_12_the_other_loses_by_10_the_side_scores_2():
    line = play([rnd(win("A", 12), win("D", 10))]).lines[0]
    assert (line.winner, line.gained) == (AC, {AC: 2, BD: 0})
    assert (line.points, line.boxes) == ({AC: 2, BD: 0}, {AC: 1, BD: 0})


def test_both_partners_win_16_and_12_the_side_scores_28():
    line = play([rnd(win("A", 16), win("C", 12))]).lines[0]
    assert (line.winner, line.gained[AC], line.points[AC]) == (AC, 28, 28)


def test_the_other_team_scores_when_it_nets_more():
    line = play([rnd(win("A", 5), win("D", 30))]).lines[0]
    assert (line.winner, line.gained) == (BD, {AC: 0, BD: 25})


def test_a_no_game_table_counts_0():
    line = play([rnd(Hand.no_game(), win("D", 15))]).lines[0]
    assert (line.winner, line.gained[BD]) == (BD, 15)
    assert line.tables[0].winner is None


def test_a_round_netting_0_scores_nothing_and_earns_no_box():
    game = play([rnd(win("A", 10), win("D", 10)), rnd(Hand.no_game(), Hand.no_game())])
    for line in game.lines:
        assert (line.winner, line.gained) == (None, {AC: 0, BD: 0})
    assert (game.points, game.boxes) == ({AC: 0, BD: 0}, {AC: 0, BD: 0})


def test_a_round_earns_one_box_whatever_its_hands():
    # Scarne's extra boxes belong to two-player hands; a round earns one box (§6).
    game = play([rnd(Hand.gin(10, knocker="A"), Hand.gin(10, knocker="C"))], extra_boxes_gin=2)
    assert game.boxes == {AC: 1, BD: 0}


def test_an_undercut_wins_the_table_for_the_defender():
    line = play([rnd(Hand.knock(7, 7, knocker="A"), Hand.no_game())]).lines[0]
    assert (line.tables[0].winner, line.winner, line.gained[BD]) == ("B", BD, 10)


def test_the_table_lines_hold_each_tables_hand():
    line = play([rnd(win("A", 12), win("D", 10))], first_dealer="B").lines[0]
    assert line.tables[0] == TableLine("B", win("A", 12), line.tables[0].score, "A", "A")
    assert (line.tables[1].dealer, line.tables[1].winner, line.tables[1].score.points) == (
        "D",
        "D",
        10,
    )


# The game: target 125, §3's end bonuses on the team columns.


def closing_rounds():
    # A & C: 28, 30 (60 − 30), then 100: 158. B & D: 15.
    return [
        rnd(win("A", 16), win("C", 12)),
        rnd(Hand.gin(40, knocker="A"), win("D", 30)),
        rnd(Hand.no_game(), win("D", 15)),
        rnd(Hand.gin(40, knocker="A"), Hand.gin(20, knocker="C")),
    ]


def test_the_partnership_preset_plays_to_125():
    game = play(closing_rounds()[:3] + [rnd(win("A", 66), Hand.no_game())])
    assert (game.points[AC], game.is_over()) == (124, False)
    game.record(rnd(win("A", 1), Hand.no_game()))
    assert (game.points[AC], game.winner, game.is_over()) == (125, AC, True)


def test_the_team_columns_get_boxes_game_bonus_and_shutout():
    tally = play(closing_rounds()).tally()
    ac, bd = tally.players[AC], tally.players[BD]
    assert (tally.closed, tally.winner, tally.shutout) == (True, AC, False)
    assert (ac.points, ac.boxes, ac.box_bonus, ac.game_bonus, ac.total) == (158, 3, 60, 100, 318)
    assert (bd.points, bd.boxes, bd.total) == (15, 1, 35)
    assert tally.net == 283


def test_a_shutout_of_a_team_earns_the_shutout_bonus():
    tally = play([rnd(Hand.gin(98, knocker="A"), Hand.gin(98, knocker="C"))]).tally()
    assert (tally.shutout, tally.players[AC].shutout_bonus, tally.net) == (True, 100, 456)


def test_games_is_the_one_team_game():
    game = play(closing_rounds())
    assert game.games() == [game.tally()]
    assert list(game.games()[0].players) == [AC, BD]


def test_each_player_settles_the_full_team_net_with_his_opposite_number():
    payments = play(closing_rounds()).settle(Decimal("0.05"))
    assert payments == [
        Payment("B", "A", 283, Decimal("14.15")),
        Payment("D", "C", 283, Decimal("14.15")),
    ]


def test_when_team_a_pays_players_0_and_2_pay():
    rounds = [rnd(Hand.gin(98, knocker="B"), Hand.gin(20, knocker="D"))]
    payments = play(rounds).settle(Decimal(1))
    assert [(p.payer, p.payee) for p in payments] == [("A", "B"), ("C", "D")]


def test_a_running_game_settles_nothing():
    assert play(closing_rounds()[:2]).settle(Decimal(1)) == []


def test_team_names_join_the_partners():
    assert team_name("Anna", "Clara") == "Anna & Clara"
    assert Partnership(PLAYERS, preset("partnership")).team_names == (AC, BD)
    assert Partnership(PLAYERS, preset("partnership")).teams == (("A", "C"), ("B", "D"))


# Dealers: one per table, each table by its own hands.


def test_the_first_dealer_and_his_opposite_team_position_start():
    assert Partnership(PLAYERS, preset("partnership")).dealer == ("A", "C")
    for first, dealers in (("A", ("A", "C")), ("B", ("B", "D")), ("C", ("A", "C"))):
        assert Partnership(PLAYERS, preset("partnership"), first).dealer == dealers
    assert Partnership(PLAYERS, preset("partnership"), "D").dealer == ("B", "D")


def test_each_table_follows_the_dealer_rule_by_its_own_hand():
    # Loser deals: A wins table 1 (B deals next); table 2 is a no game (C deals again).
    game = play([rnd(win("A", 10), Hand.no_game()), rnd(win("A", 5), win("C", 5))], "A")
    assert game.lines[0].tables[0].dealer == "A"
    assert game.lines[1].tables[0].dealer == "B"
    assert game.lines[1].tables[1].dealer == "C"
    assert game.dealer == ("B", "D")


def test_the_winner_rule_at_each_table():
    game = play([rnd(win("B", 10), win("C", 10))], "A", dealer_rule="winner")
    assert game.dealer == ("B", "C")


# Refusals: the table at fault is named, and nothing changes.


def snapshot(game):
    return (dict(game.points), dict(game.boxes), list(game.lines), game.dealer, game.winner)


def test_a_knocker_from_the_other_table_is_refused_naming_the_table():
    game = play([rnd(win("A", 10), win("C", 5))])
    before = snapshot(game)
    with pytest.raises(PlayerError) as error:
        game.record(rnd(win("B", 10), win("A", 5)))
    assert str(error.value) == "'A' is not a player of this table: choose C or D"
    assert (error.value.table, error.value.code) == (2, "unknown_player")
    assert snapshot(game) == before


def test_a_bad_hand_at_table_1_is_refused_naming_table_1():
    game = play([])
    with pytest.raises(HandError) as error:
        game.record(rnd(Hand.knock(12, 30, knocker="A"), win("C", 5)))
    assert (error.value.table, error.value.code) == (1, "over_limit")
    assert game.lines == []


def test_a_round_after_the_game_is_refused():
    game = play(closing_rounds())
    before = snapshot(game)
    with pytest.raises(GameClosedError) as error:
        game.record(rnd(Hand.no_game(), Hand.no_game()))
    assert str(error.value) == "the game is over: A & C reached 158 of 125"
    assert error.value.table is None
    assert snapshot(game) == before


def test_a_partnership_records_rounds_not_hands():
    game = play([])
    with pytest.raises(HandError) as error:
        game.record(win("A", 10))
    assert error.value.code == "round_expected"


@pytest.mark.parametrize("tables", [(), (Hand.no_game(),), (Hand.no_game(),) * 3, ("gin", "gin")])
def test_a_round_has_two_hands(tables):
    with pytest.raises(HandError) as error:
        Round(tables)
    assert error.value.code == "round_tables"


@pytest.mark.parametrize("players", [("A", "B"), ("A", "B", "C"), ("A", "B", "C", "A")])
def test_a_partnership_needs_four_different_players(players):
    with pytest.raises(ValueError, match="a partnership needs four different player names"):
        Partnership(players, preset("partnership"))


def test_teams_that_would_share_a_name_are_refused():
    with pytest.raises(ValueError, match="both teams would be called"):
        Partnership(("X & Y", "X", "Z", "Y & Z"), preset("partnership"))


def test_an_unknown_first_dealer_is_refused():
    with pytest.raises(PlayerError):
        Partnership(PLAYERS, preset("partnership"), first_dealer="E")


def test_the_session_interface():
    game = play(closing_rounds())
    assert (game.kind, game.players, game.is_over()) == ("partnership", PLAYERS, True)
    assert [line.number for line in game.lines] == [1, 2, 3, 4]
