"""Round robin and Swiss with a top cut (engine/tournaments): the invariants of the issue
over random tournaments (hypothesis), the Swiss pairing checked against a brute force
over every seating of small fields, and examples."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournaments import (
    MatchResult,
    Stage,
    System,
    Tournament,
    TournamentError,
    most_swiss_rounds,
    seed_positions,
    tournament_state,
)
from scorekeeper.engine.tournaments.rounds import swiss_bye, swiss_cost, swiss_table
from tests.engine.seatings import all_seatings
from tests.engine.tournament_play import by_lot, names, play_out, seeds_hold

lots = st.integers(0, 2**32)


def round_robin(count: int) -> Tournament:
    return Tournament(System.ROUND_ROBIN, names(count))


# ---- round robin ------------------------------------------------------------------------


@settings(max_examples=40)
@given(count=st.one_of(st.integers(2, 20), st.integers(2, 128)))
def test_a_round_robin_pairs_every_two_players_once_and_nobody_twice_a_round(count):
    state = tournament_state(round_robin(count), [])
    played = [m for m in state.matches if not m.bye]
    pairs = Counter(frozenset(m.players) for m in played)
    assert len(pairs) == count * (count - 1) // 2 and set(pairs.values()) == {1}
    rounds = {m.round for m in state.matches}
    assert rounds == set(range(1, count + count % 2))
    for number in rounds:
        seated = [p for m in state.matches if m.round == number for p in m.players]
        assert sorted(seated) == sorted(state.tournament.players)
        byes = [m for m in state.matches if m.round == number and m.bye]
        assert len(byes) == count % 2
    if count % 2:
        assert sorted(m.winner for m in state.matches if m.bye) == sorted(names(count))


@settings(max_examples=40)
@given(count=st.integers(2, 24), lot=lots)
def test_a_round_robin_ranks_by_wins_then_among_those_level(count, lot):
    state, _ = play_out(round_robin(count), by_lot(random.Random(lot)))
    wins = Counter(m.winner for m in state.matches if not m.bye)
    order = [p for place in state.standings for p in place.players]
    assert [wins[p] for p in order] == sorted((wins[p] for p in order), reverse=True)
    assert sorted(order) == sorted(state.tournament.players)
    if len(state.standings[0].players) == 1:
        assert state.champion == order[0]
    else:
        assert state.champion is None


def test_a_round_robin_of_four_is_the_berger_table():
    state = tournament_state(round_robin(4), [])
    assert [(m.id, m.players) for m in state.matches] == [
        ("R1-1", ("S001", "S004")),
        ("R1-2", ("S002", "S003")),
        ("R2-1", ("S001", "S002")),
        ("R2-2", ("S003", "S004")),
        ("R3-1", ("S001", "S003")),
        ("R3-2", ("S002", "S004")),
    ]


def test_a_round_robin_result_can_always_be_corrected():
    tournament = round_robin(3)
    results = [MatchResult("R1-1", "S002"), MatchResult("R2-1", "S001")]
    state = tournament_state(tournament, [*results, MatchResult("R1-1", "S003")])
    assert state.match("R1-1").winner == "S003"


# ---- Swiss ------------------------------------------------------------------------------


@st.composite
def swiss_tournaments(draw, most_players: int = 24, cut: bool = True):
    count = draw(st.integers(2, most_players))
    rounds = draw(st.integers(1, min(most_swiss_rounds(count), 7)))
    cuts = [0] + ([k for k in (2, 4, 8, 16) if k <= count] if cut else [])
    return Tournament(
        System.SWISS,
        names(count),
        rounds=rounds,
        top_cut=draw(st.sampled_from(cuts)),
        seed=draw(st.integers(0, 1000)),
    )


def swiss_rounds(state):
    swiss = [m for m in state.matches if m.stage is Stage.SWISS]
    return [[m for m in swiss if m.round == n] for n in sorted({m.round for m in swiss})]


@settings(max_examples=60)
@given(tournament=swiss_tournaments(), lot=lots)
def test_swiss_plays_its_rounds_with_one_bye_a_round_never_twice_to_a_player(tournament, lot):
    state, _ = play_out(tournament, by_lot(random.Random(lot)))
    rounds = swiss_rounds(state)
    assert len(rounds) == tournament.rounds
    count = len(tournament.players)
    byes = Counter()
    for matches in rounds:
        seated = [p for m in matches for p in m.players]
        assert sorted(seated) == sorted(tournament.players)
        assert sum(m.bye for m in matches) == count % 2
        byes.update(m.winner for m in matches if m.bye)
    assert set(byes.values()) <= {1}


@settings(max_examples=60)
@given(tournament=swiss_tournaments(cut=False), lot=lots)
def test_swiss_has_no_rematch_while_the_rounds_are_at_most_half_the_field(tournament, lot):
    """Dirac: with at most n/2 rounds, those not yet met always hold a seating, and the
    matching finds it."""
    if tournament.rounds > len(tournament.players) // 2:
        return
    state, _ = play_out(tournament, by_lot(random.Random(lot)))
    pairs = Counter(frozenset(m.players) for m in state.matches if not m.bye)
    assert set(pairs.values()) <= {1}


@settings(max_examples=60)
@given(tournament=swiss_tournaments(most_players=9, cut=False), lot=lots)
def test_each_swiss_round_is_the_cheapest_seating_and_the_bye_the_lowest_without_one(
    tournament, lot
):
    """Checked against a brute force over every seating: the fewest rematches, then the
    smallest squared score gaps, then the engine's whole cost."""
    state, _ = play_out(tournament, by_lot(random.Random(lot)))
    before = []
    for matches in swiss_rounds(state):
        table = swiss_table(tournament.players, before)
        bye = [m.winner for m in matches if m.bye]
        assert bye == ([swiss_bye(table)] if len(table) % 2 else [])
        if bye:  # none below him is without a bye
            position = [line.player for line in table].index(bye[0])
            assert table[position].byes == 0
            assert all(line.byes > 0 for line in table[position + 1 :])
        met = {frozenset(m.players) for m in before if not m.bye}
        lines = [line for line in table if line.player not in bye]
        cost = swiss_cost(lines, met)
        score = {line.player: line.score for line in table}

        def key(groups, met=met, score=score, cost=cost):
            return (
                sum(frozenset(g) in met for g in groups),
                sum((score[a] - score[b]) ** 2 for a, b in groups),
                sum(cost(a, b) for a, b in groups),
            )

        chosen = [m.players for m in matches if not m.bye]
        best = min(key(groups) for groups in all_seatings([line.player for line in lines]))
        assert key(chosen) == best
        before += matches


@settings(max_examples=40)
@given(tournament=swiss_tournaments(), lot=lots)
def test_swiss_standings_follow_score_then_buchholz_and_the_top_cut_its_seeds(tournament, lot):
    state, _ = play_out(tournament, by_lot(random.Random(lot)))
    table = state.swiss_table
    keys = [(line.score, line.buchholz) for line in table]
    assert keys == sorted(keys, reverse=True)
    assert [line.place for line in table] == list(range(1, len(table) + 1))
    cut = tournament.top_cut
    placed = [p for place in state.standings for p in place.players]
    assert sorted(placed) == sorted(tournament.players)
    if not cut:
        assert placed == [line.player for line in table]
        assert state.champion == table[0].player
        return
    best = [line.player for line in table[:cut]]
    first = [m for m in state.matches if m.stage is Stage.TOP_CUT and m.round == 1]
    positions = seed_positions(cut)
    assert [m.players for m in first] == [
        (best[positions[2 * i] - 1], best[positions[2 * i + 1] - 1]) for i in range(cut // 2)
    ]
    assert set(placed[:cut]) == set(best)
    assert placed[cut:] == [line.player for line in table[cut:]]
    final = [m for m in state.matches if m.stage is Stage.TOP_CUT][-1]
    assert state.champion == final.winner


def test_swiss_round_one_pairs_the_upper_half_with_the_lower_half():
    tournament = Tournament(System.SWISS, names(8), rounds=3)
    state = tournament_state(tournament, [])
    assert [m.players for m in state.matches] == [
        ("S001", "S005"),
        ("S002", "S006"),
        ("S003", "S007"),
        ("S004", "S008"),
    ]


def test_swiss_with_seeds_holding_crowns_seed_1_and_the_cut_seeds_by_the_swiss_order():
    tournament = Tournament(System.SWISS, names(16), rounds=4, top_cut=8)
    state, _ = play_out(tournament, seeds_hold(tournament))
    assert state.champion == "S001"
    cut = [m for m in state.matches if m.stage is Stage.TOP_CUT and m.round == 1]
    top = [line.player for line in state.swiss_table[:8]]
    assert [m.players for m in cut] == [
        (top[0], top[7]),
        (top[3], top[4]),
        (top[1], top[6]),
        (top[2], top[5]),
    ]


def test_a_swiss_result_changes_only_while_the_next_round_has_no_result():
    tournament = Tournament(System.SWISS, names(4), rounds=2)
    first = [MatchResult("S1-1", "S001"), MatchResult("S1-2", "S002")]
    state = tournament_state(tournament, first)
    assert {m.players for m in state.matches if m.round == 2} == {
        ("S001", "S002"),
        ("S003", "S004"),
    }
    # Round 2 is paired again after the correction: it has no result yet.
    changed = tournament_state(tournament, [*first, MatchResult("S1-1", "S003")])
    assert ("S002", "S003") in {m.players for m in changed.matches if m.round == 2}
    played = [*first, MatchResult("S2-1", "S001")]
    with pytest.raises(TournamentError, match="void S2-1 first"):
        tournament_state(tournament, [*played, MatchResult("S1-1", "S003")])
    with pytest.raises(TournamentError, match="there is no match S3-1"):
        tournament_state(tournament, [*played, MatchResult("S3-1", "S001")])


def test_a_later_swiss_round_is_not_playable_yet():
    tournament = Tournament(System.SWISS, names(4), rounds=2, top_cut=2)
    with pytest.raises(TournamentError, match="result 1: S2-1 is not playable yet"):
        tournament_state(tournament, [MatchResult("S2-1", "S001")])
    with pytest.raises(TournamentError, match="result 1: T1-1 is not playable yet"):
        tournament_state(tournament, [MatchResult("T1-1", "S001")])


@pytest.mark.parametrize(
    ("options", "line"),
    [
        ({"rounds": 0}, "rounds: 6 players play from 1 to 5 Swiss rounds, not 0"),
        ({"rounds": 3, "top_cut": 3}, "top_cut: the best 2, 4, 8, ... go on"),
        ({"rounds": 3, "top_cut": 8}, "at most the 6 players, not 8"),
    ],
)
def test_swiss_options_out_of_bounds_are_refused(options, line):
    with pytest.raises(TournamentError, match=line.replace("(", r"\(").replace(".", r"\.")):
        tournament_state(Tournament(System.SWISS, names(6), **options), [])


def test_a_128_player_swiss_of_five_rounds_is_paired_without_a_rematch():
    tournament = Tournament(System.SWISS, names(128), rounds=5, top_cut=8, seed=3)
    state, _ = play_out(tournament, by_lot(random.Random(5)))
    pairs = Counter(frozenset(m.players) for m in state.matches if m.stage is Stage.SWISS)
    assert set(pairs.values()) == {1}
    # The cut's 8 take places 1, 2, 3 (two) and 5 (four); the other 120 one each.
    assert [len(place.players) for place in state.standings[:4]] == [1, 1, 2, 4]
    assert len(state.standings) == 4 + 120
