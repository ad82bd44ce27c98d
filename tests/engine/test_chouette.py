"""Chouette (RULES.md §6, §10.10): the box against a team column, captains in turn, game on game."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.chouette import TEAM, Chouette, ChouetteLine
from scorekeeper.engine.game import Payment, PlayerError
from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.roles import NotAtTableError, Roles
from scorekeeper.engine.rules import DealerRule, preset
from scorekeeper.engine.settlement import balances_of, points_of
from tests.engine.helpers import win


def play(players, hands, first_dealer=None, **overrides):
    return Chouette.replay(players, preset("classic", **overrides), first_dealer, hands)


def roles(box, captain, dealer, *team):
    return Roles(box, captain, dealer, tuple(team), tuple(team[1:]))


# The example of RULES.md §6 [C]: X box, Y captain, Z.

XYZ = ("X", "Y", "Z")
EXAMPLE = [win("Y", 20), win("Y", 15), win("X", 30), win("Z", 40), win("Z", 30)]


def test_the_example_team_wins_105_to_30():
    chouette = play(XYZ, EXAMPLE)
    assert [line.points for line in chouette.lines] == [
        {"X": 0, TEAM: 20},
        {"X": 0, TEAM: 35},
        {"X": 30, TEAM: 35},
        {"X": 30, TEAM: 75},
        {"X": 30, TEAM: 105},
    ]
    assert chouette.lines[-1].boxes == {"X": 1, TEAM: 4}


def test_the_example_team_285_box_50_net_235():
    (game,) = play(XYZ, EXAMPLE).games()
    team, box = game.players[TEAM], game.players["X"]
    assert (game.closed, game.winner, game.shutout) == (True, TEAM, False)
    assert (team.points, team.boxes, team.box_bonus, team.game_bonus, team.total) == (
        105,
        4,
        80,
        100,
        285,
    )
    assert (box.points, box.boxes, box.box_bonus, box.total) == (30, 1, 20, 50)
    assert game.net == 235


def test_the_example_x_pays_235_to_y_and_235_to_z():
    assert play(XYZ, EXAMPLE).settle(Decimal("0.05")) == [
        Payment("X", "Y", 235, Decimal("11.75")),
        Payment("X", "Z", 235, Decimal("11.75")),
    ]


def test_the_example_roles_before_every_hand_and_for_the_next_game():
    chouette = play(XYZ, [])
    seen = [chouette.roles]
    for hand in EXAMPLE:
        chouette.record(hand)
        seen.append(chouette.roles)
    # Loser deals: the box loses hands 1, 2, 4, 5; Y loses hand 3 and Z takes his seat.
    assert seen == [
        roles("X", "Y", "Y", "Y", "Z"),
        roles("X", "Y", "X", "Y", "Z"),
        roles("X", "Y", "X", "Y", "Z"),
        roles("X", "Z", "Z", "Z", "Y"),
        roles("X", "Z", "X", "Z", "Y"),
        # Next game: Z is box against Y, who deals; X joins the team.
        roles("Z", "Y", "Y", "Y", "X"),
    ]
    assert [line.roles for line in chouette.lines] == seen[:-1]
    assert [line.dealer for line in chouette.lines] == ["Y", "X", "X", "Z", "X"]


def test_each_line_records_who_won_and_whether_the_box_won():
    lines = play(XYZ, [*EXAMPLE[:3], Hand.no_game()]).lines
    assert [(line.winner, line.box_won) for line in lines] == [
        ("Y", False),
        ("Y", False),
        ("X", True),
        (None, None),
    ]
    assert lines[0] == ChouetteLine(
        1,
        1,
        roles("X", "Y", "Y", "Y", "Z"),
        EXAMPLE[0],
        lines[0].score,
        "Y",
        "Y",
        False,
        {"X": 0, TEAM: 20},
        {"X": 0, TEAM: 1},
    )


def test_the_next_game_starts_with_the_next_hand():
    chouette = play(XYZ, EXAMPLE)
    assert len(chouette.games()) == 1
    line = chouette.record(win("Y", 12))
    assert (line.game, line.number, line.points, line.roles.box) == (2, 6, {"Z": 0, TEAM: 12}, "Z")
    second = chouette.games()[1]
    assert (second.closed, list(second.players)) == (False, ["Z", TEAM])
    assert [r.box for r in chouette.game_roles()] == ["X", "Z"]


# Five players over two games: the captaincy wraps round, then both ways to start a game.

FIVE = ("B", "P", "Q", "R", "S")


def five_game_1():
    # The box beats P, Q, R and S, then P again captains (round the team), wins 10
    # and loses: the box reaches 105 and wins the game.
    return [win("B", 20)] * 4 + [win("P", 10), Hand.gin(5, knocker="B")]


def test_the_captaincy_goes_round_the_team_in_cut_order():
    chouette = play(FIVE, five_game_1())
    assert [line.roles.captain for line in chouette.lines] == ["P", "Q", "R", "S", "P", "P"]
    assert [line.roles.team for line in chouette.lines][:2] == [
        ("P", "Q", "R", "S"),
        ("Q", "R", "S", "P"),
    ]
    assert chouette.lines[3].roles.out == ("P", "Q", "R")


def test_the_captain_deals_after_losing_under_the_loser_rule():
    chouette = play(FIVE, five_game_1())
    # Each new captain takes the losing captain's seat, and the loser's seat deals.
    assert [line.dealer for line in chouette.lines] == ["P", "Q", "R", "S", "P", "B"]


def test_when_the_box_wins_he_stays_and_the_next_member_captains_and_deals():
    chouette = play(FIVE, five_game_1())
    (game,) = chouette.games()
    assert (game.winner, game.players["B"].total, game.players[TEAM].total, game.net) == (
        "B",
        305,  # 105 + 5 boxes × 20 + 100
        30,  # 10 + 1 box × 20
        275,
    )
    assert chouette.roles == roles("B", "Q", "Q", "Q", "R", "S", "P")


def five_game_2():
    # Q undercuts the box, wins a knock, loses to the box; R gins to 105.
    return [
        Hand.knock(8, 3, knocker="B"),
        Hand.knock(2, 17, knocker="Q"),
        Hand.knock(3, 13, knocker="B"),
        Hand.gin(55, knocker="R"),
    ]


def test_when_the_box_loses_the_captain_becomes_box_and_the_old_box_joins_at_the_end():
    chouette = play(FIVE, five_game_1() + five_game_2())
    second = chouette.lines[6:]
    assert [line.roles.captain for line in second] == ["Q", "Q", "Q", "R"]
    assert [line.dealer for line in second] == ["Q", "B", "B", "R"]
    assert [line.points[TEAM] for line in second] == [15, 30, 30, 105]
    # R becomes box; S, the member after him, captains and deals; B captains last.
    assert chouette.roles == roles("R", "S", "S", "S", "P", "Q", "B")


def test_five_player_games_settle_the_full_net_with_each_member():
    chouette = play(FIVE, five_game_1() + five_game_2())
    first, second = chouette.games()
    assert (second.winner, second.players[TEAM].total, second.players["B"].total) == (
        TEAM,
        265,  # 105 + 3 boxes × 20 + 100
        30,
    )
    assert second.net == 235
    payments = chouette.settle(Decimal(1))
    assert [(p.payer, p.payee, p.points) for p in payments] == [
        ("P", "B", 275),
        ("Q", "B", 275),
        ("R", "B", 275),
        ("S", "B", 275),
        ("B", "Q", 235),  # game 2's team in its order: Q captained first
        ("B", "R", 235),
        ("B", "S", 235),
        ("B", "P", 235),
    ]
    assert points_of(payments) == {"B": 160, "P": -40, "Q": -40, "R": -40, "S": -40}


def test_a_third_game_rotates_on_from_the_new_box():
    chouette = play(FIVE, five_game_1() + five_game_2() + [Hand.gin(80, knocker="S")])
    # S won as captain: he becomes box, P captains, R (the old box) joins at the end.
    assert chouette.roles == roles("S", "P", "P", "P", "Q", "B", "R")
    assert [r.box for r in chouette.game_roles()] == ["B", "B", "R"]


# Per-member stakes.


def test_each_member_plays_the_box_at_his_own_stake():
    payments = play(XYZ, EXAMPLE).settle(Decimal(0), {"Y": Decimal("0.10"), "Z": Decimal("0.05")})
    assert payments == [
        Payment("X", "Y", 235, Decimal("23.50")),
        Payment("X", "Z", 235, Decimal("11.75")),
    ]


def test_a_member_without_a_stake_plays_at_the_default():
    chouette = play(FIVE, five_game_1() + five_game_2())
    payments = chouette.settle(Decimal("0.05"), {"R": Decimal("0.10")})
    assert [p.amount for p in payments] == [
        Decimal("13.75"),
        Decimal("13.75"),
        Decimal("27.50"),
        Decimal("13.75"),
        Decimal("11.75"),
        Decimal("23.50"),
        Decimal("11.75"),
        Decimal("11.75"),
    ]
    assert balances_of(payments) == {
        "B": Decimal("10.00"),
        "P": Decimal("-2.00"),
        "Q": Decimal("-2.00"),
        "R": Decimal("-4.00"),
        "S": Decimal("-2.00"),
    }


def test_the_stake_of_a_player_counts_only_while_he_sits_in_the_team():
    # X boxes game 1 and joins the team in game 2, which Z (now box) wins by a
    # shutout: 118 + 20 + 100 + 100 = 338 against each of Y and X.
    chouette = play(XYZ, [*EXAMPLE, Hand.gin(98, knocker="Z")])
    payments = chouette.settle(Decimal(5), {"X": Decimal(1), "Y": Decimal(0), "Z": Decimal(2)})
    assert payments == [
        Payment("X", "Y", 235, Decimal(0)),
        Payment("X", "Z", 235, Decimal(470)),
        Payment("Y", "Z", 338, Decimal(0)),
        Payment("X", "Z", 338, Decimal(338)),
    ]


def test_a_member_without_a_stake_of_his_own_plays_at_the_stake():
    payments = play(XYZ, EXAMPLE).settle(Decimal("0.05"), {"Y": Decimal("0.10")})
    assert [p.amount for p in payments] == [Decimal("23.50"), Decimal("11.75")]


@pytest.mark.parametrize(
    ("stakes", "message"),
    [
        ({"W": Decimal(1)}, "'W' is not a player of this chouette"),
        ({"Y": Decimal(-1)}, "Y's stake must be a money amount"),
        ({"Y": Decimal("NaN")}, "Y's stake must be a money amount"),
        ({"Y": 0.5}, "Y's stake must be a money amount"),
    ],
)
def test_a_stake_that_cannot_be_is_refused(stakes, message):
    with pytest.raises(ValueError, match=message):
        play(XYZ, EXAMPLE).settle(Decimal(1), stakes)


# Settling: closed games only; the lower final pays, whoever reached the target.


def test_a_running_game_settles_nothing():
    assert play(XYZ, EXAMPLE[:4]).settle(Decimal(1)) == []
    assert play(XYZ, [*EXAMPLE, win("Y", 20)]).settle(Decimal(1)) == play(XYZ, EXAMPLE).settle(
        Decimal(1)
    )


def test_the_box_collects_from_each_member_when_he_wins():
    payments = play(XYZ, [Hand.gin(98, knocker="X")]).settle(Decimal("0.01"))
    # 118 + 20 + 100 + shutout 100 = 338 against a team at 0.
    assert payments == [
        Payment("Y", "X", 338, Decimal("3.38")),
        Payment("Z", "X", 338, Decimal("3.38")),
    ]


def test_the_box_can_reach_the_target_and_still_pay_each_member():
    # The team wins eight hands of 1 point (the captain never loses); boxes are
    # worth 50 and the game nothing: team 8 + 400, box 118 + 50.
    hands = [win("Y", 1)] * 8 + [Hand.gin(98, knocker="X")]
    chouette = play(XYZ, hands, box_bonus=50, game_bonus=0)
    (game,) = chouette.games()
    assert (game.winner, game.net) == ("X", 168 - 408)
    assert chouette.settle(Decimal(1)) == [
        Payment("X", "Y", 240, Decimal(240)),
        Payment("X", "Z", 240, Decimal(240)),
    ]


def test_a_game_netting_0_settles_nothing():
    # No game bonus: the team's six hands of 1 make 6 + 120; the box's gin 86 + 20 + 20.
    hands = [win("Y", 1)] * 6 + [Hand.gin(86, knocker="X")]
    chouette = play(XYZ, hands, game_bonus=0)
    (game,) = chouette.games()
    assert (game.winner, game.players[TEAM].total, game.players["X"].total) == ("X", 126, 126)
    assert game.net == 0
    assert chouette.settle(Decimal(1)) == []


# Within a game: no games, undercuts and the other dealer rules.


def test_a_no_game_changes_neither_captain_nor_dealer():
    chouette = play(XYZ, [win("X", 10), Hand.no_game()])
    assert chouette.lines[1].roles == chouette.roles == roles("X", "Z", "Z", "Z", "Y")


def test_an_undercut_of_the_box_wins_the_hand_for_the_captain():
    chouette = play(XYZ, [Hand.knock(7, 7, knocker="X")])
    line = chouette.lines[0]
    assert (line.winner, line.box_won, line.points) == ("Y", False, {"X": 0, TEAM: 10})
    assert chouette.roles.captain == "Y"


def test_the_captain_can_be_undercut_by_the_box():
    chouette = play(XYZ, [Hand.knock(9, 4, knocker="Y")])
    assert (chouette.lines[0].winner, chouette.lines[0].points["X"]) == ("X", 15)
    assert chouette.roles.captain == "Z"


@pytest.mark.parametrize(
    ("rule", "dealers"),
    [
        # Hands: box wins (captain Y → Z), Z wins, box wins (Z → Y), no game.
        (DealerRule.LOSER, ["Y", "Z", "X", "Y"]),
        (DealerRule.WINNER, ["Y", "X", "Z", "X"]),
        (DealerRule.ALTERNATE, ["Y", "X", "Z", "X"]),
    ],
)
def test_the_dealer_rule_picks_the_box_or_the_captains_seat(rule, dealers):
    hands = [win("X", 5), win("Z", 5), win("X", 5), Hand.no_game()]
    chouette = play(XYZ, hands, dealer_rule=rule)
    assert [line.dealer for line in chouette.lines] == dealers


def test_the_first_captain_deals_the_first_hand():
    assert Chouette(XYZ, preset("classic")).dealer == "Y"
    assert Chouette(XYZ, preset("classic"), first_dealer="Y").dealer == "Y"


@pytest.mark.parametrize("dealer", ["X", "Z", "W"])
def test_nobody_else_deals_the_first_hand(dealer):
    with pytest.raises(ValueError, match=f"the first dealer is Y, not {dealer!r}"):
        Chouette(XYZ, preset("classic"), first_dealer=dealer)


# Refusals: the knocker must be at the table; nothing changes.


def snapshot(chouette):
    return (list(chouette.lines), chouette.games(), chouette.roles)


@pytest.mark.parametrize("knocker", ["Z", "W"])
def test_a_knocker_not_at_the_table_is_refused_naming_who_is(knocker):
    chouette = play(XYZ, EXAMPLE[:2])
    before = snapshot(chouette)
    with pytest.raises(NotAtTableError) as error:
        chouette.record(win(knocker, 10))
    assert str(error.value) == f"{knocker!r} is not at the table: X (box) plays Y (captain)"
    assert (error.value.code, error.value.field) == ("not_at_table", "knocker")
    assert error.value.params == {"name": knocker, "box": "X", "captain": "Y"}
    assert isinstance(error.value, PlayerError)
    assert snapshot(chouette) == before


def test_a_bad_hand_is_refused_and_changes_nothing():
    chouette = play(XYZ, EXAMPLE)
    before = snapshot(chouette)
    with pytest.raises(HandError) as error:
        chouette.record(Hand.knock(12, 30, knocker="Y"))
    assert error.value.code == "over_limit"
    with pytest.raises(HandError) as error:
        chouette.record("gin")
    assert error.value.code == "hand_expected"
    assert snapshot(chouette) == before
    assert len(chouette.games()) == 1  # a refused hand does not start the next game


@pytest.mark.parametrize(
    "players", [("X", "Y"), ("A", "B", "C", "D", "E", "F", "G", "H", "I"), ("X", "Y", "X")]
)
def test_a_chouette_seats_three_to_eight_different_players(players):
    with pytest.raises(ValueError, match="a chouette needs three to eight different player names"):
        Chouette(players, preset("classic"))


def test_eight_players_make_a_chouette():
    players = tuple("ABCDEFGH")
    assert Chouette(players, preset("classic")).roles.out == tuple("CDEFGH")


def test_no_player_may_be_called_team():
    with pytest.raises(ValueError, match="cannot be called 'team'"):
        Chouette(("X", "team", "Z"), preset("classic"))


def test_the_session_interface():
    chouette = play(XYZ, [*EXAMPLE, Hand.gin(98, knocker="Z"), Hand.gin(98, knocker="Z")])
    assert (chouette.kind, chouette.players, chouette.is_over()) == ("chouette", XYZ, False)
    assert [line.number for line in chouette.lines] == [1, 2, 3, 4, 5, 6, 7]
    assert [line.game for line in chouette.lines] == [1, 1, 1, 1, 1, 2, 3]
    assert len(chouette.games()) == 3
    assert chouette.dealer == chouette.roles.dealer


# Invariants over random evenings (hypothesis).

NAMES = ("A", "B", "C", "D", "E", "F", "G", "H")


@st.composite
def evenings(draw):
    """Players, rules and hands a chouette accepts, drawing each knocker from the table."""
    players = NAMES[: draw(st.integers(3, 8))]
    rules = preset(
        "classic",
        target=draw(st.integers(1, 150)),
        dealer_rule=draw(st.sampled_from(DealerRule)),
        box_bonus=draw(st.integers(0, 50)),
    )
    chouette = Chouette(players, rules)
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["knock", "knock", "gin", "no_game"]))
        if kind == "no_game":
            chouette.record(Hand.no_game())
            continue
        knocker = draw(st.sampled_from(chouette.roles.table))
        dd = draw(st.integers(0, 98))
        if kind == "gin":
            chouette.record(Hand.gin(dd, knocker=knocker))
        else:
            chouette.record(Hand.knock(draw(st.integers(1, 10)), dd, knocker=knocker))
    return players, rules, tuple(line.hand for line in chouette.lines)


@given(evenings())
def test_each_closed_game_pays_every_member_the_full_net(evening):
    players, rules, hands = evening
    chouette = Chouette.replay(players, rules, None, hands)
    games = zip(chouette.game_roles(), chouette.games(), strict=True)
    expected = sum(len(roles.team) for roles, result in games if result.closed and result.net)
    payments = chouette.settle(Decimal(1))
    assert len(payments) == expected
    assert all(p.points > 0 and "team" not in (p.payer, p.payee) for p in payments)


@given(evenings())
def test_the_captain_changes_exactly_when_he_loses_a_hand(evening):
    players, rules, hands = evening
    chouette = Chouette.replay(players, rules, None, hands)
    lines = chouette.lines
    following = [line.roles for line in lines[1:]] + [chouette.roles] * bool(lines)
    for line, after in zip(lines, following, strict=True):
        assert line.knocker in (None, *line.roles.table)
        assert line.roles.dealer in line.roles.table
        assert sorted((line.roles.box, *line.roles.team)) == sorted(players)
        assert line.roles.out == line.roles.team[1:]
        if line.winner is not None and max(line.points.values()) >= rules.target:
            # The hand closed the game: the next game's captain deals.
            assert after.dealer == after.captain
            assert after.box == (line.roles.box if line.box_won else line.roles.captain)
        else:
            assert after.box == line.roles.box
            assert (after.captain != line.roles.captain) == bool(line.box_won)
