"""A match (RULES.md §7, §10.9): best of N games, each scored as §3, the deal runs on."""

import dataclasses
from decimal import Decimal

import pytest

from scorekeeper.engine.game import Game, GameClosedError, Payment, PlayerError, TwoPlayerLine
from scorekeeper.engine.hand import Hand, HandError
from scorekeeper.engine.match import Match, MatchOverError
from scorekeeper.engine.rules import preset

# RULES.md §9: A 261 v B 86, net 175, in six hands (one of them a no game).
WORKED_EXAMPLE = (
    Hand.knock(5, 27, knocker="A"),
    Hand.gin(16, knocker="B"),
    Hand.knock(7, 7, knocker="A"),
    Hand.gin(31, knocker="A"),
    Hand.no_game(),
    Hand.knock(2, 30, knocker="A"),
)


def shutout_by(player):
    """One gin of 118 points: a whole game to ``player``."""
    return Hand.gin(98, knocker=player)


def play(hands, first_dealer="B", **overrides):
    return Match.replay(("A", "B"), preset("classic", **overrides), first_dealer, hands)


def test_a_match_is_best_of_five_by_default():
    match = play([shutout_by("A")] * 2)
    assert (match.rules.best_of, match.needed, match.is_over()) == (5, 3, False)
    match.record(shutout_by("A"))
    assert (match.is_over(), match.winner, match.games_won()) == (True, "A", {"A": 3, "B": 0})


def test_the_match_is_won_by_games_won_not_by_points():
    # B wins two big games, A three small ones: A wins the match.
    hands = [shutout_by("B")] * 2 + [Hand.knock(1, 51, knocker="A")] * 6
    match = play(hands)
    assert match.games_won() == {"A": 3, "B": 2}
    assert match.winner == "A"
    assert len(match.games()) == 5


def test_each_game_is_scored_as_a_two_player_game():
    match = play(WORKED_EXAMPLE * 2)
    first, second = match.games()
    alone = Game.replay(("A", "B"), preset("classic"), "B", WORKED_EXAMPLE).tally()
    assert first == alone
    assert (second.players["A"].total, second.players["B"].total, second.net) == (261, 86, 175)


def test_the_next_hand_after_a_closed_game_starts_the_next_game():
    match = play(WORKED_EXAMPLE)
    assert len(match.games()) == 1  # game 2 starts with its first hand
    line = match.record(Hand.knock(3, 20, knocker="B"))
    assert (line.game, line.number, line.points) == (2, 7, {"A": 0, "B": 17})
    assert [g.closed for g in match.games()] == [True, False]
    assert match.games()[1].players["B"].points == 17


def test_lines_number_the_hands_of_the_whole_match_and_name_their_game():
    match = play(WORKED_EXAMPLE + (shutout_by("B"),))
    assert [line.number for line in match.lines] == list(range(1, 8))
    assert [line.game for line in match.lines] == [1] * 6 + [2]
    assert all(isinstance(line, TwoPlayerLine) for line in match.lines)


def test_a_two_player_games_lines_stay_game_1():
    game = Game.replay(("A", "B"), preset("classic"), "B", WORKED_EXAMPLE)
    assert {line.game for line in game.lines} == {1}
    assert dataclasses.fields(TwoPlayerLine)[-1].name == "game"


def test_a_match_with_no_hand_has_one_running_game():
    match = Match(("A", "B"), preset("classic"))
    (game,) = match.games()
    assert (game.closed, game.players["A"].points) == (False, 0)
    assert match.settle(Decimal(1)) == []
    assert (match.winner, match.is_over()) == (None, False)


def test_best_of_one_is_a_single_game():
    match = play([shutout_by("B")], best_of=1)
    assert (match.winner, match.is_over()) == ("B", True)


# §10.9: the dealer rule runs on across the games.


def test_the_first_dealer_of_the_next_game_is_named_by_the_dealer_rule():
    # Loser rule: A won game 1's last hand, so B deals the first hand of game 2.
    match = play(WORKED_EXAMPLE)
    assert match.dealer == "B"
    line = match.record(Hand.knock(3, 20, knocker="A"))
    assert (line.game, line.dealer) == (2, "B")


def test_the_winner_rule_carries_over_too():
    match = play(
        [shutout_by("A"), Hand.knock(3, 20, knocker="B")], first_dealer="B", dealer_rule="winner"
    )
    assert [line.dealer for line in match.lines] + [match.dealer] == ["B", "A", "B"]


def test_the_deal_alternates_across_the_games():
    match = play([shutout_by("A")] * 3, first_dealer="A", dealer_rule="alternate")
    assert [line.dealer for line in match.lines] == ["A", "B", "A"]


# Settlement: per game (FORMAT.md).


def test_each_closed_game_settles_on_its_own():
    match = play([shutout_by("A"), shutout_by("B"), Hand.knock(3, 20, knocker="A")])
    # 118 + 20 box + 100 game + 100 shutout = 338 each way; game 3 still runs.
    assert match.settle(Decimal("0.05")) == [
        Payment("B", "A", 338, Decimal("16.90")),
        Payment("A", "B", 338, Decimal("16.90")),
    ]


# Refusals.


def snapshot(match):
    return (list(match.lines), match.games(), match.dealer, match.games_won())


def test_a_hand_after_the_match_is_won_is_refused_and_changes_nothing():
    match = play([shutout_by("A")] * 3)
    before = snapshot(match)
    with pytest.raises(MatchOverError) as error:
        match.record(Hand.knock(3, 20, knocker="B"))
    assert str(error.value) == "the match is over: A won 3 of 5 games"
    assert error.value.code == "match_over"
    assert isinstance(error.value, GameClosedError)
    assert snapshot(match) == before


def test_a_refused_first_hand_of_a_game_does_not_start_it():
    match = play(WORKED_EXAMPLE)
    before = snapshot(match)
    with pytest.raises(HandError, match="over the knock limit"):
        match.record(Hand.knock(12, 20, knocker="A"))
    with pytest.raises(PlayerError):
        match.record(Hand.knock(2, 20, knocker="Carl"))
    assert snapshot(match) == before
    assert len(match.all_games) == 1


def test_a_refused_hand_within_a_game_changes_nothing():
    match = play(WORKED_EXAMPLE[:3])
    before = snapshot(match)
    with pytest.raises(HandError):
        match.record(Hand.gin(20, knocker=None))
    assert snapshot(match) == before


@pytest.mark.parametrize("players", [("A",), ("A", "A"), ("A", "B", "C")])
def test_a_match_needs_two_different_players(players):
    with pytest.raises(ValueError, match="a match needs two different player names"):
        Match(players, preset("classic"))


def test_an_unknown_first_dealer_is_refused():
    with pytest.raises(PlayerError):
        Match(("A", "B"), preset("classic"), first_dealer="C")


def test_the_session_interface():
    match = play(WORKED_EXAMPLE)
    assert (match.kind, match.players, match.current.is_over()) == ("match", ("A", "B"), True)
