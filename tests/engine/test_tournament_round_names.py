"""What people call a tournament's rounds (engine/tournaments: TournamentPlan.round_name),
one value the pages, the screen, the PDFs and the command all take their titles from."""

import pytest

from scorekeeper.engine.tournaments import (
    RoundName,
    Stage,
    System,
    TournamentPlan,
    tournament_state,
)
from scorekeeper.engine.tournaments.brackets import double_knockout, knockout
from tests.engine.tournament_play import names


def titles(tournament: TournamentPlan) -> list[str]:
    """Each round's title, in the order played (a bracket's every round, its seats not
    known yet)."""
    count = len(tournament.players)
    if tournament.system is System.DOUBLE_ELIMINATION:
        rounds = double_knockout(count)
    elif tournament.system is System.SINGLE_ELIMINATION:
        rounds = knockout(
            count, third_place=tournament.third_place, consolation=tournament.consolation
        )
    else:
        rounds = tournament_state(tournament, []).matches
    seen = list(dict.fromkeys((r.stage, r.round) for r in rounds))
    return [str(tournament.round_name(stage, number)) for stage, number in seen]


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (2, ["Final"]),
        (3, ["Semi-finals", "Final", "Third place"]),
        (8, ["Quarter-finals", "Semi-finals", "Final", "Third place"]),
        (12, ["Round of 16", "Quarter-finals", "Semi-finals", "Final", "Third place"]),
        (128, [*(f"Round of {n}" for n in (128, 64, 32, 16)), "Quarter-finals", "Semi-finals",
               "Final", "Third place"]),
    ],
)  # fmt: skip
def test_a_knockouts_rounds_are_named_by_the_players_left_in_its_bracket(count, expected):
    tournament = TournamentPlan(System.SINGLE_ELIMINATION, names(count), third_place=count > 2)
    assert titles(tournament) == expected


def test_a_consolation_brackets_rounds_are_numbered():
    tournament = TournamentPlan(System.SINGLE_ELIMINATION, names(16), consolation=True)
    assert titles(tournament)[-3:] == [
        "Consolation round 1",
        "Consolation round 2",
        "Consolation round 3",
    ]


def test_a_double_elimination_names_its_winners_and_losers_rounds_and_its_two_finals():
    assert titles(TournamentPlan(System.DOUBLE_ELIMINATION, names(8))) == [
        "Winners' quarter-finals",
        "Winners' semi-finals",
        "Winners' final",
        "Losers' round 1",
        "Losers' round 2",
        "Losers' round 3",
        "Losers' final",
        "Grand final",
        "Grand final (reset)",
    ]
    sixteen = TournamentPlan(System.DOUBLE_ELIMINATION, names(16))
    assert sixteen.round_name(Stage.WINNERS, 1) == RoundName("round_of", 16, winners=True)
    assert str(sixteen.round_name(Stage.WINNERS, 1)) == "Winners' round of 16"
    assert str(sixteen.round_name(Stage.LOSERS, 6)) == "Losers' final"


def test_round_robin_and_swiss_rounds_are_numbered_and_a_top_cut_named_as_a_knockout():
    assert titles(TournamentPlan(System.ROUND_ROBIN, names(4))) == ["Round 1", "Round 2", "Round 3"]
    swiss = TournamentPlan(System.SWISS, names(16), rounds=5, top_cut=8)
    assert [str(swiss.round_name(Stage.SWISS, n)) for n in (1, 5)] == ["Round 1", "Round 5"]
    assert [str(swiss.round_name(Stage.TOP_CUT, n)) for n in (1, 2, 3)] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
