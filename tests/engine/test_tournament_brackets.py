"""Single and double elimination (engine/tournaments): the invariants of the issue over
random tournaments of 2 to 128 players (hypothesis), and examples."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournaments import (
    MatchResult,
    Stage,
    System,
    Tournament,
    TournamentError,
    bracket_size,
    seed_positions,
    tournament_state,
)
from tests.engine.tournament_play import by_lot, losses, names, play_out, seeds_hold

# Mostly small fields (fast), now and then up to 128.
fields = st.one_of(st.integers(2, 20), st.integers(2, 128))
lots = st.integers(0, 2**32)


def single(count: int, **options) -> Tournament:
    return Tournament(System.SINGLE_ELIMINATION, names(count), **options)


def double(count: int) -> Tournament:
    return Tournament(System.DOUBLE_ELIMINATION, names(count))


def seed_of(name: str) -> int:
    return int(name[1:])


# ---- the bracket ------------------------------------------------------------------------


def test_seed_positions_are_the_standard_ones():
    assert seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert bracket_size(2) == 2 and bracket_size(5) == 8 and bracket_size(128) == 128


@settings(max_examples=60)
@given(count=fields)
def test_the_first_round_pairs_seed_s_with_size_plus_one_minus_s_and_byes_go_to_the_top(count):
    state = tournament_state(single(count), [])
    size = bracket_size(count)
    first = [m for m in state.matches if m.round == 1]
    assert len(first) == size // 2
    byes = sorted(seed_of(m.players[0]) for m in first if m.bye)
    assert byes == list(range(1, size - count + 1))
    for match in first:
        if not match.bye:
            assert seed_of(match.players[0]) + seed_of(match.players[1]) == size + 1


@settings(max_examples=60)
@given(count=fields, third_place=st.booleans())
def test_when_seeds_hold_1_and_2_meet_in_the_final_only_and_the_semis_are_1_4_and_2_3(
    count, third_place
):
    tournament = single(count, third_place=third_place)
    state, _ = play_out(tournament, seeds_hold(tournament))
    met = [
        {seed_of(p) for p in m.players}
        for m in state.matches
        if not m.bye and m.stage is Stage.WINNERS
    ]
    final = max(m.round for m in state.matches if m.stage is Stage.WINNERS)
    finals = [m for m in state.matches if m.stage is Stage.WINNERS and m.round == final]
    assert [{seed_of(p) for p in m.players} for m in finals] == [{1, 2}]
    assert met.count({1, 2}) == 1
    if count >= 4:
        semis = [m for m in state.matches if m.stage is Stage.WINNERS and m.round == final - 1]
        assert [{seed_of(p) for p in m.players} for m in semis] == [{1, 4}, {2, 3}]
    assert state.champion == "S001"
    assert [p.players for p in state.standings[:2]] == [("S001",), ("S002",)]


@settings(max_examples=80)
@given(count=fields, lot=lots, third_place=st.booleans(), consolation=st.booleans())
def test_a_single_elimination_has_every_player_out_after_one_loss_and_ranks_everyone_once(
    count, lot, third_place, consolation
):
    tournament = single(count, third_place=third_place, consolation=consolation)
    state, _ = play_out(tournament, by_lot(random.Random(lot)))
    main = [m for m in state.matches if m.stage is Stage.WINNERS]
    assert sum(1 for m in main if not m.bye) == count - 1
    lost = {p: 0 for p in tournament.players}
    for match in main:
        if match.loser:
            lost[match.loser] += 1
    assert sorted(lost.values()) == [0] + [1] * (count - 1)
    assert state.champion == next(p for p, n in lost.items() if n == 0)
    _check_standings(state)
    semis_lost = {m.loser for m in main if m.round == max(m.round for m in main) - 1} - {None}
    third = [m for m in state.matches if m.stage is Stage.THIRD_PLACE]
    if third_place and count >= 3:
        (match,) = third
        assert set(match.players) == semis_lost
        assert state.standings[2].players == (match.winner,)
    else:
        assert third == []
    consolation_players = {
        p for m in state.matches if m.stage is Stage.CONSOLATION for p in m.players
    }
    first_round_losers = {m.loser for m in main if m.round == 1 and m.loser}
    assert consolation_players == (first_round_losers if consolation and count >= 3 else set())


def _check_standings(state):
    """Every player once; a place is one more than the players above it."""
    listed = [p for place in state.standings for p in place.players]
    assert sorted(listed) == sorted(state.tournament.players)
    above = 0
    for place in state.standings:
        assert place.place == above + 1
        above += len(place.players)


# ---- double elimination -------------------------------------------------------------------


@settings(max_examples=50)
@given(count=fields, lot=lots)
def test_a_double_elimination_puts_out_every_player_after_exactly_two_losses(count, lot):
    tournament = double(count)
    state, results = play_out(tournament, by_lot(random.Random(lot)))
    lost = losses(state)
    assert lost[state.champion] <= 1
    assert sorted(n for p, n in lost.items() if p != state.champion) == [2] * (count - 1)
    # Nobody plays on after his second loss: matches come in the order they are played.
    played = {m.id: m for m in state.matches}
    out: set[str] = set()
    seen = dict.fromkeys(tournament.players, 0)
    for result in results:
        match = played[result.match]
        assert not (set(match.players) & out)
        seen[match.loser] += 1
        if seen[match.loser] == 2:
            out.add(match.loser)
    _check_standings(state)


@settings(max_examples=40)
@given(count=fields, lot=lots)
def test_the_grand_final_is_reset_only_when_the_losers_bracket_winner_wins_it(count, lot):
    state, _ = play_out(double(count), by_lot(random.Random(lot)))
    final = state.match("GF")
    reset = state.match("GF2")
    assert final is not None
    if final.winner == final.players[1]:  # the losers' bracket's winner
        assert reset is not None and set(reset.players) == set(final.players)
        assert state.champion == reset.winner
    else:
        assert reset is None and state.champion == final.winner


@settings(max_examples=25)
@given(count=st.integers(8, 128), lot=lots)
def test_the_first_players_dropped_into_the_losers_bracket_meet_nobody_they_met(count, lot):
    """The losers of winners' round 2 drop in reversed: a bracket of 8 or more keeps
    them from meeting in losers' round 2 a player they beat in round 1."""
    state, _ = play_out(double(count), by_lot(random.Random(lot)))
    before = {frozenset(m.players) for m in state.matches if m.stage is Stage.WINNERS and not m.bye}
    second = [m for m in state.matches if m.stage is Stage.LOSERS and m.round == 2 and not m.bye]
    assert all(frozenset(m.players) not in before for m in second)


@settings(max_examples=40)
@given(count=fields)
def test_when_seeds_hold_a_double_elimination_ends_with_1_beating_2_without_a_reset(count):
    tournament = double(count)
    state, _ = play_out(tournament, seeds_hold(tournament))
    assert state.match("GF").players == ("S001", "S002")
    assert state.match("GF2") is None
    assert state.champion == "S001"
    assert [p.players for p in state.standings[:2]] == [("S001",), ("S002",)]


def test_two_players_play_a_double_elimination_of_the_first_match_and_the_final():
    tournament = double(2)
    state = tournament_state(tournament, [MatchResult("W1-1", "S002")])
    assert [(m.id, m.players) for m in state.matches] == [
        ("W1-1", ("S001", "S002")),
        ("GF", ("S002", "S001")),
    ]
    state = tournament_state(tournament, [MatchResult("W1-1", "S002"), MatchResult("GF", "S001")])
    assert state.match("GF2").players == ("S002", "S001") and not state.is_over()


# ---- corrections ------------------------------------------------------------------------


@settings(max_examples=60)
@given(count=fields, lot=lots, system=st.sampled_from(["single", "double"]))
def test_a_result_is_corrected_only_once_the_matches_that_follow_from_it_are_voided(
    count, lot, system
):
    tournament = single(count, third_place=True) if system == "single" else double(count)
    rng = random.Random(lot)
    state, results = play_out(tournament, by_lot(rng))
    match = rng.choice([m for m in state.matches if not m.bye])
    other = next(p for p in match.players if p != match.winner)
    later = [
        m.id
        for m in state.matches
        if m.id != match.id and not m.bye and _follows(state, match.id, m.id)
    ]
    try:
        tournament_state(tournament, [*results, MatchResult(match.id, other)])
    except TournamentError as error:
        assert later
        (line,) = error.errors
        voids = line.split("void ")[1].removesuffix(" first").split(", ")
        assert sorted(voids) == sorted(later)
        undone = [MatchResult(m, None) for m in voids]
        fixed = tournament_state(tournament, [*results, *undone, MatchResult(match.id, other)])
        assert fixed.match(match.id).winner == other
    else:
        assert later == []


def _follows(state, first: str, then: str) -> bool:
    """Whether match ``then`` has a seat that ``first``'s result decides, through byes."""
    # Rebuilt from the ids: what each seat of a later match came from is in the slots.
    from scorekeeper.engine.tournaments.brackets import double_knockout, knockout

    tournament = state.tournament
    count = len(tournament.players)
    slots = (
        double_knockout(count)
        if tournament.system is System.DOUBLE_ELIMINATION
        else knockout(count, third_place=tournament.third_place)
    )
    feeds = {s.id: {str(f.source) for f in s.feeds if f.kind != "seed"} for s in slots}
    stack, seen = [then], set()
    while stack:
        for source in feeds.get(stack.pop(), ()):
            if source == first:
                return True
            if source not in seen:
                seen.add(source)
                stack.append(source)
    return False


def test_a_result_for_a_match_not_playable_yet_or_a_stranger_is_refused():
    tournament = single(4)
    with pytest.raises(TournamentError, match="result 1: W2-1 is not playable yet"):
        tournament_state(tournament, [MatchResult("W2-1", "S001")])
    with pytest.raises(
        TournamentError, match=r"result 1: S003 is not a player of W1-1 \(S001 v S004\)"
    ):
        tournament_state(tournament, [MatchResult("W1-1", "S003")])
    with pytest.raises(TournamentError, match="result 1: there is no match W9-1"):
        tournament_state(tournament, [MatchResult("W9-1", "S001")])
    with pytest.raises(TournamentError, match="result 1: W1-1 has no result to void"):
        tournament_state(tournament, [MatchResult("W1-1", None)])


def test_a_bye_takes_no_result_and_a_reset_that_is_not_due_is_named():
    with pytest.raises(TournamentError, match="W1-1 is a bye: S001 goes on without a result"):
        tournament_state(single(3), [MatchResult("W1-1", "S001")])
    results = [MatchResult("W1-1", "S001"), MatchResult("GF", "S001"), MatchResult("GF2", "S001")]
    with pytest.raises(TournamentError, match="there is no GF2: the winners' bracket's winner"):
        tournament_state(double(2), results)
