"""The one interface every kind answers: its turn, its tables, the lines under them, and
what each closed game gives a league (RULES.md §11)."""

from decimal import Decimal

import pytest

from scorekeeper import engine
from scorekeeper.engine import Foot, Hand, Side, preset, session_class
from scorekeeper.engine.partnership import Round
from tests.engine.helpers import win

K, G = Hand.knock, Hand.gin


def replay(kind: str, players, hands, rules=None, first_dealer=None):
    cls = session_class(kind)
    return cls.replay(players, rules or preset(cls.preset), first_dealer, hands)


# Every kind describes itself


@pytest.mark.parametrize("kind", engine.KINDS)
def test_every_kind_is_a_session_with_a_turn_tables_and_lines(kind):
    cls = session_class(kind)
    players = ("A", "B", "C", "D")[: cls.seats.start]
    session = cls(players, preset(cls.preset))

    assert isinstance(session, engine.Session)
    turn = session.turn()
    assert turn.number == 1
    assert len(turn.dealers) == cls.hands_per_entry
    (part,) = session.parts(Decimal(0))
    assert part.rows == ()
    assert all(final.total == 0 for game in part.games for final in game.tally.players.values())
    items = [line.item for line in engine.foot_lines(part.games, False, Decimal("0.01"))]
    assert items == [Foot.POINTS, Foot.BOXES, Foot.TOTAL]


def test_a_chouette_before_its_first_hand_shows_the_columns_of_its_first_box():
    (part,) = session_class("chouette")(("X", "Y", "Z"), preset("classic")).parts(Decimal(0))

    assert [(c.key, c.side, c.members) for c in part.columns] == [
        ("X", Side.BOX, ("X",)),
        ("team", Side.TEAM, ("Y", "Z")),
    ]


def test_hollywood_is_one_table_of_three_labelled_games():
    session = replay("hollywood", ("You", "Opp"), [win("You", 18), win("Opp", 12)])

    (part,) = session.parts(Decimal(0))

    assert (part.labelled, part.titled) == (True, False)
    assert [game.number for game in part.games] == [1, 2, 3]
    assert [(c.gain, c.total) for c in part.rows[1].cells] == [
        (None, 18),
        (12, 12),
        (None, 0),
        (None, 0),
        (None, 0),
        (None, 0),
    ]


def test_a_match_shows_each_game_whole_in_a_table_of_its_own():
    hands = [G(60, knocker="A"), G(60, knocker="A"), win("B", 17)]  # A wins game 1
    session = replay("match", ("A", "B"), hands, preset("classic", best_of=3))

    parts = session.parts(Decimal("0.10"))

    assert [(p.titled, [g.number for g in p.games], [r.number for r in p.rows]) for p in parts] == [
        (True, [1], [1, 2]),
        (True, [2], [3]),
    ]
    first = engine.foot_lines(parts[0].games, True, Decimal("0.01"))
    # A 160 + 2 boxes × 20 + 100 + shutout 100 = 400 against B's 0
    assert {line.item: line.values for line in first}[Foot.TOTAL] == (400, 0)
    assert {line.item: line.values for line in first}[Foot.NET] == (400, -400)
    assert {line.item: line.values for line in first}[Foot.MONEY] == (
        Decimal("40.00"),
        Decimal("-40.00"),
    )
    assert session.turn() == engine.Turn(4, 2, ("A",), seated=(("A", "B"),))  # A lost hand 3
    assert [p.payer for game in session.payments(Decimal(1)) for p in game] == ["B"]


def test_each_chouette_game_keeps_the_box_it_had():
    # RULES.md §6: the team wins game 1 against X; Z becomes box for game 2.
    game_1 = [win("Y", 20), win("Y", 15), win("X", 30), win("Z", 40), win("Z", 30)]
    session = replay("chouette", ("X", "Y", "Z"), [*game_1, win("Z", 25)])

    parts = session.parts(Decimal("0.10"))

    assert [[c.name for c in p.columns] for p in parts] == [["X", "team"], ["Z", "team"]]
    assert [p.columns[1].members for p in parts] == [("Y", "Z"), ("Y", "X")]
    assert [game.payments for game in parts[1].games] == [()]  # game 2 still runs
    assert session.turn().game == 2 and session.turn().roles.box == "Z"


# League results (RULES.md §11)


def test_a_two_player_game_gives_the_winner_a_win_and_the_loser_a_loss():
    hands = [K(5, 27, knocker="A"), G(16, knocker="B"), K(7, 7, knocker="A")]
    hands += [G(31, knocker="A"), Hand.no_game(), K(2, 30, knocker="A")]
    session = replay("two_player", ("A", "B"), hands, first_dealer="B")

    (result,) = session.results(Decimal("0.05"))

    assert (result.winners, result.losers, result.shutout) == (("A",), ("B",), False)
    assert (result.ranking, result.ranks) == ((("A",), ("B",)), (1, 2))
    assert result.payments == (engine.Payment("B", "A", 175, Decimal("8.75")),)


def test_a_running_game_gives_no_result():
    assert replay("two_player", ("A", "B"), [win("A", 50)]).results(Decimal(1)) == []


def test_each_closed_hollywood_game_is_a_result_of_its_own():
    session = replay("hollywood", ("You", "Opp"), [G(80, knocker="You")] * 2)

    results = session.results(Decimal(0))

    # G1 (200) closes; G2 has one entry of 100 and closes too; G3 is still running
    assert [(r.number, r.winners, r.shutout) for r in results] == [
        (1, ("You",), True),
        (2, ("You",), True),
    ]


def test_a_partnership_win_counts_for_both_partners():
    session = replay(
        "partnership",
        ("A", "B", "C", "D"),
        [Round((G(90, knocker="A"), G(20, knocker="C")))],  # 110 + 40: A & C reach 125
    )

    (result,) = session.results(Decimal(0))

    assert (result.winners, result.losers) == (("A", "C"), ("B", "D"))
    assert result.ranking == (("A", "C"), ("B", "D"))


@pytest.mark.parametrize(
    ("hands", "winners", "losers"),
    [
        # the team wins: every member wins, captain or not
        (
            [win("Y", 20), win("Y", 15), win("X", 30), win("Z", 40), win("Z", 30)],
            ("Y", "Z"),
            ("X",),
        ),
        # the box wins
        ([win("X", 60), win("X", 50)], ("X",), ("Y", "Z")),
    ],
)
def test_a_chouette_game_is_the_box_against_every_member(hands, winners, losers):
    session = replay("chouette", ("X", "Y", "Z"), hands)

    (result,) = session.results(Decimal(0))

    assert (result.winners, result.losers) == (winners, losers)
    assert result.ranking == (winners, losers)  # the box alone against the whole team


def test_a_three_player_game_ranks_the_others_by_their_final_totals():
    # P wins 60 as box; R, captain after the swap, wins 50 and takes the box; R wins 55.
    hands = [win("P", 60), win("R", 50), win("R", 55)]
    session = replay("three_player", ("P", "Q", "R"), hands)

    (result,) = session.results(Decimal(0))

    assert result.winners == ("R",)
    assert set(result.losers) == {"P", "Q"}
    assert result.ranking == (("R",), ("P",), ("Q",))  # P 60 + a box, Q shut out
    assert result.ranks == (1, 2, 3)


def test_three_players_with_equal_finals_share_a_rank():
    session = replay("three_player", ("P", "Q", "R"), [G(90, knocker="P")])  # P 110

    (result,) = session.results(Decimal(0))

    assert result.ranking == (("P",), ("Q",), ("R",))
    assert result.ranks == (1, 2, 2)  # Q and R both at 0
    assert result.shutout


# Hands at the table, for player statistics


def test_hand_stats_count_the_hands_each_player_played_and_won():
    hands = [K(5, 27, knocker="A"), G(16, knocker="B"), K(7, 7, knocker="A")]
    hands += [G(31, knocker="A"), Hand.no_game(), K(2, 30, knocker="A")]
    stats = replay("two_player", ("A", "B"), hands, first_dealer="B").hand_stats()

    assert stats["A"] == engine.HandStats(hands=6, won=3, gins=1, undercuts=0, points=101)
    assert stats["B"] == engine.HandStats(hands=6, won=2, gins=1, undercuts=1, points=46)


def test_hand_stats_count_only_the_two_at_the_table():
    # RULES.md §6: X boxes every hand; Y captains three, Z two.
    hands = [win("Y", 20), win("Y", 15), win("X", 30), win("Z", 40), win("Z", 30)]
    stats = replay("chouette", ("X", "Y", "Z"), hands).hand_stats()

    assert {name: (s.hands, s.won, s.points) for name, s in stats.items()} == {
        "X": (5, 1, 30),
        "Y": (3, 2, 35),
        "Z": (2, 2, 70),
    }


def test_hand_stats_of_a_partnership_count_each_table():
    rounds = [Round((win("A", 10), win("D", 4))), Round((Hand.no_game(), win("C", 7)))]
    stats = replay("partnership", ("A", "B", "C", "D"), rounds).hand_stats()

    assert {name: (s.hands, s.won) for name, s in stats.items()} == {
        "A": (2, 1),
        "B": (2, 0),
        "C": (2, 1),
        "D": (2, 1),
    }
