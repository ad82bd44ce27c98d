"""Three-player rotation (RULES.md §6, §10.11): box, captain and out, individual columns."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.game import GameClosedError, Payment, PlayerError
from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.roles import NotAtTableError, Roles
from scorekeeper.engine.rules import DealerRule, Shutout, preset
from scorekeeper.engine.settlement import points_of
from scorekeeper.engine.three_player import ThreePlayer, ThreePlayerLine, rotation_tally
from tests.engine.helpers import win

PQR = ("P", "Q", "R")


def play(hands, players=PQR, **overrides):
    return ThreePlayer.replay(players, preset("classic", **overrides), None, hands)


def roles(box, captain, out):
    return Roles(box, captain, box, (captain, out), (out,))


# The example of RULES.md §6 [C]: P box, Q captain, R out.

EXAMPLE = [win("P", 20), win("R", 15), win("R", 12)]


def test_the_example_roles_after_every_hand():
    game = play([])
    seen = [game.roles]
    for hand in EXAMPLE:
        game.record(hand)
        seen.append(game.roles)
    assert seen == [
        roles("P", "Q", "R"),
        roles("P", "R", "Q"),  # P wins: he stays, captain and out swap
        roles("R", "Q", "P"),  # R beats the box: P sits out, R boxes, Q captains
        roles("R", "P", "Q"),  # R wins as box: captain and out swap
    ]
    assert [line.roles for line in game.lines] == seen[:-1]


def test_the_example_totals_p_20_q_0_r_27():
    game = play(EXAMPLE)
    assert game.points == {"P": 20, "Q": 0, "R": 27}
    assert game.boxes == {"P": 1, "Q": 0, "R": 2}
    assert [line.points for line in game.lines] == [
        {"P": 20, "Q": 0, "R": 0},
        {"P": 20, "Q": 0, "R": 15},
        {"P": 20, "Q": 0, "R": 27},
    ]


def test_the_example_is_a_running_game_without_bonuses():
    (result,) = play(EXAMPLE).games()
    assert (result.closed, result.winner, result.net) == (False, None, 0)
    assert [f.total for f in result.players.values()] == [20, 0, 27]
    assert play(EXAMPLE).settle(Decimal(1)) == []


def test_the_lines_record_roles_winner_and_whether_the_box_won():
    lines = play(EXAMPLE).lines
    assert lines[1] == ThreePlayerLine(
        2,
        roles("P", "R", "Q"),
        EXAMPLE[1],
        lines[1].score,
        "R",
        "R",
        False,
        {"P": 20, "Q": 0, "R": 15},
        {"P": 1, "Q": 0, "R": 1},
    )
    assert [line.box_won for line in lines] == [True, False, True]


# The box deals every hand; no games and undercuts.


@pytest.mark.parametrize("rule", list(DealerRule))
def test_the_box_deals_every_hand_whatever_the_dealer_rule(rule):
    game = play([*EXAMPLE, Hand.no_game(), win("P", 5)], dealer_rule=rule)
    assert [line.dealer for line in game.lines] == ["P", "P", "R", "R", "R"]
    assert game.dealer == game.roles.box == "P"  # P took the box on the last hand


def test_a_no_game_keeps_the_roles():
    game = play([win("P", 20), Hand.no_game()])
    assert game.lines[1].roles == game.roles == roles("P", "R", "Q")
    assert (game.lines[1].winner, game.lines[1].box_won) == (None, None)


def test_a_captain_undercutting_the_box_takes_the_box():
    game = play([Hand.knock(6, 4, knocker="P")])
    assert (game.lines[0].winner, game.points["Q"]) == ("Q", 12)
    assert game.roles == roles("Q", "R", "P")


def test_the_box_undercutting_the_captain_stays():
    game = play([Hand.knock(9, 9, knocker="Q")])
    assert (game.lines[0].winner, game.points["P"]) == ("P", 10)
    assert game.roles == roles("P", "R", "Q")


# A whole game: end bonuses for everyone, shutout against a player at 0, pairwise money.

GAME = [*EXAMPLE, Hand.gin(60, knocker="P")]  # P 20 + 80 = 100 as captain


def test_the_first_to_the_target_wins_and_everyone_gets_box_bonuses():
    game = play(GAME)
    (result,) = game.games()
    p, q, r = (result.players[name] for name in PQR)
    assert (result.closed, result.winner, game.is_over()) == (True, "P", True)
    assert (p.points, p.boxes, p.box_bonus, p.game_bonus, p.shutout_bonus) == (100, 2, 40, 100, 100)
    assert p.total == 340
    assert (q.points, q.boxes, q.total) == (0, 0, 0)
    assert (r.points, r.boxes, r.box_bonus, r.game_bonus, r.total) == (27, 2, 40, 0, 67)
    assert (result.shutout, game.shut_out()) == (True, ("Q",))


def test_each_player_pays_every_higher_final_the_difference():
    # P–Q: 340 − 0 (Q shut out); P–R: 240 − 67 (the shutout counts only against Q);
    # Q–R: 67 − 0.
    payments = play(GAME).settle(Decimal("0.05"))
    assert payments == [
        Payment("Q", "P", 340, Decimal("17.00")),
        Payment("R", "P", 173, Decimal("8.65")),
        Payment("Q", "R", 67, Decimal("3.35")),
    ]
    assert points_of(payments) == {"P": 513, "Q": -407, "R": -106}
    assert play(GAME).tally().net == 513  # what the winner collects in all


def test_without_a_shutout_each_pair_settles_the_difference_of_finals():
    # P beats Q as box; R takes the box from P; Q takes it from R; P gins as captain.
    hands = [win("P", 20), win("R", 10), win("Q", 30), Hand.gin(60, knocker="P")]
    game = play(hands)
    assert game.lines[-1].roles == roles("Q", "P", "R")
    (result,) = game.games()
    assert [result.players[n].total for n in PQR] == [100 + 40 + 100, 30 + 20, 10 + 20]
    assert (result.shutout, game.shut_out(), result.net) == (False, (), 190 + 210)
    assert game.settle(Decimal(1)) == [
        Payment("Q", "P", 190, Decimal(190)),
        Payment("R", "P", 210, Decimal(210)),
        Payment("R", "Q", 20, Decimal(20)),
    ]


def test_two_players_shut_out_pay_the_shutout_and_nothing_between_them():
    game = play([Hand.gin(98, knocker="P")])
    assert game.shut_out() == ("Q", "R")
    # 118 + 20 + 100 + 100 from each; Q and R tie at 0 and settle nothing.
    assert game.settle(Decimal(1)) == [
        Payment("Q", "P", 338, Decimal(338)),
        Payment("R", "P", 338, Decimal(338)),
    ]


@pytest.mark.parametrize(
    ("shutout", "extra"),
    [
        (Shutout.BONUS, 100),
        (Shutout.DOUBLE_TOTAL, 240),  # the winner's final before doubling
        (Shutout.DOUBLE_HANDS, 100),  # the winner's hand points
        (Shutout.NONE, 0),
    ],
)
def test_every_shutout_rule_adds_its_extra_against_the_player_shut_out(shutout, extra):
    game = play(GAME, shutout=shutout)
    assert game.tally().players["P"].shutout_bonus == extra
    lines = {(p.payer, p.payee): p.points for p in game.settle(Decimal(1))}
    assert lines == {("Q", "P"): 240 + extra, ("R", "P"): 173, ("Q", "R"): 67}


def test_the_winner_can_pay_a_player_with_more_boxes():
    # Boxes worth 50, no game bonus: Q wins six hands of 1 (the first as captain,
    # then as box), P gins to 100 as captain: P 100 + 50, Q 6 + 300, R 0.
    hands = [Hand.knock(1, 2, knocker="Q")] * 6 + [Hand.gin(80, knocker="P")]
    game = play(hands, box_bonus=50, game_bonus=0, shutout="none")
    assert (game.winner, game.boxes) == ("P", {"P": 1, "Q": 6, "R": 0})
    (result,) = game.games()
    assert [result.players[n].total for n in PQR] == [150, 306, 0]
    assert result.net == -156 + 150
    assert game.settle(Decimal(1)) == [
        Payment("P", "Q", 156, Decimal(156)),
        Payment("R", "P", 150, Decimal(150)),
        Payment("R", "Q", 306, Decimal(306)),
    ]


def test_rotation_tally_while_running_has_no_bonuses():
    result = rotation_tally({"P": 5, "Q": 0, "R": 9}, {"P": 1, "Q": 0, "R": 1}, None, preset())
    assert (result.closed, result.shutout, [f.total for f in result.players.values()]) == (
        False,
        False,
        [5, 0, 9],
    )


# Refusals.


def snapshot(game):
    return (list(game.lines), dict(game.points), dict(game.boxes), game.roles, game.winner)


def test_the_player_out_cannot_knock():
    game = play(EXAMPLE)
    before = snapshot(game)
    with pytest.raises(NotAtTableError) as error:
        game.record(win("Q", 10))
    assert str(error.value) == "'Q' is not at the table: R (box) plays P (captain)"
    assert (error.value.code, error.value.params["name"]) == ("not_at_table", "Q")
    assert isinstance(error.value, PlayerError)
    assert snapshot(game) == before


def test_a_stranger_cannot_knock():
    with pytest.raises(NotAtTableError, match="'W' is not at the table: P"):
        play([win("W", 10)])


def test_a_hand_after_the_game_is_refused():
    game = play(GAME)
    before = snapshot(game)
    with pytest.raises(GameClosedError, match="the game is over: P reached 100 of 100"):
        game.record(Hand.no_game())
    assert snapshot(game) == before


def test_a_bad_hand_changes_nothing():
    game = play(EXAMPLE)
    before = snapshot(game)
    with pytest.raises(HandError):
        game.record(Hand.knock(11, 30, knocker="R"))
    with pytest.raises(HandError):
        game.record(None)
    assert snapshot(game) == before


@pytest.mark.parametrize("players", [("P", "Q"), ("P", "Q", "R", "S"), ("P", "Q", "P")])
def test_a_rotation_needs_three_different_players(players):
    with pytest.raises(ValueError, match="a three-player rotation needs three different player"):
        ThreePlayer(players, preset("classic"))


def test_only_the_box_deals_the_first_hand():
    assert ThreePlayer(PQR, preset("classic"), first_dealer="P").dealer == "P"
    with pytest.raises(ValueError, match="the box deals every hand: the first dealer is P"):
        ThreePlayer(PQR, preset("classic"), first_dealer="Q")


def test_the_session_interface():
    game = play(GAME)
    assert (game.kind, game.players, game.is_over()) == ("three_player", PQR, True)
    assert game.games() == [game.tally()]
    assert list(game.games()[0].players) == list(PQR)


# Invariants over random games (hypothesis).


@st.composite
def games(draw):
    """Rules and the hands of a rotation as far as it went, each knocker at the table."""
    rules = preset(
        draw(st.sampled_from(["classic", "modern"])),
        target=draw(st.integers(1, 150)),
        shutout=draw(st.sampled_from(Shutout)),
        box_bonus=draw(st.integers(0, 60)),
    )
    game = ThreePlayer(PQR, rules)
    for _ in range(draw(st.integers(0, 30))):
        if game.is_over():
            break
        kind = draw(st.sampled_from(["knock", "knock", "gin", "no_game"]))
        if kind == "no_game":
            game.record(Hand.no_game())
            continue
        knocker = draw(st.sampled_from(game.roles.table))
        dd = draw(st.integers(0, 98))
        if kind == "gin":
            game.record(Hand.gin(dd, knocker=knocker))
        else:
            game.record(Hand.knock(draw(st.integers(1, 10)), dd, knocker=knocker))
    return rules, tuple(line.hand for line in game.lines)


@given(games())
def test_the_player_out_never_scores(game):
    rules, hands = game
    previous = dict.fromkeys(PQR, 0)
    for line in ThreePlayer.replay(PQR, rules, None, hands).lines:
        (out,) = line.roles.out
        assert line.points[out] == previous[out]
        assert line.knocker in (None, line.roles.box, line.roles.captain)
        assert line.dealer == line.roles.box
        previous = line.points


@given(games())
def test_the_roles_turn_as_the_box_wins_or_loses(game):
    rules, hands = game
    session = ThreePlayer.replay(PQR, rules, None, hands)
    following = [line.roles for line in session.lines[1:]] + [session.roles] * bool(hands)
    for line, after in zip(session.lines, following, strict=True):
        box, captain, (out,) = line.roles.box, line.roles.captain, line.roles.out
        if line.box_won is None:
            assert after == line.roles
        elif line.box_won:
            assert after == roles(box, out, captain)
        else:
            assert after == roles(captain, out, box)


@given(games())
def test_a_closed_game_settles_each_pair_once_the_lower_paying(game):
    rules, hands = game
    session = ThreePlayer.replay(PQR, rules, None, hands)
    while not session.is_over():
        session.record(Hand.gin(98, knocker=session.roles.box))
    payments = session.settle(Decimal(1))
    pairs = [frozenset((p.payer, p.payee)) for p in payments]
    assert len(pairs) == len(set(pairs)) <= 3
    assert all(p.points > 0 for p in payments)
    assert sum(points_of(payments).values()) == 0
    assert points_of(payments).get(session.winner, 0) == session.tally().net
