"""Single and double elimination (engine/tournaments): the invariants of the issue over
thousands of random tournaments of 2 to 128 players (hypothesis: 1,200 single and 1,200
double eliminations a run), each played at random with withdrawals and corrections,
and examples."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournaments import (
    MatchWinner,
    Stage,
    System,
    TournamentError,
    TournamentPlan,
    Withdrawal,
    bracket_size,
    seed_positions,
    tournament_state,
)
from tests.engine.tournament_play import (
    Played,
    check_forfeits,
    fields,
    losses,
    names,
    play_out,
    play_randomly,
    seeds_hold,
)

lots = st.integers(0, 2**32)
withdrawals = st.sampled_from([0, 0, 1, 3])  # about how many withdraw, at random moments
corrections = st.sampled_from([0.0, 0.0, 0.3])  # the chance of a correction after a round


def single(count: int, **options) -> TournamentPlan:
    return TournamentPlan(System.SINGLE_ELIMINATION, names(count), **options)


def double(count: int) -> TournamentPlan:
    return TournamentPlan(System.DOUBLE_ELIMINATION, names(count))


def seed_of(name: str) -> int:
    return int(name[1:])


# ---- the bracket ------------------------------------------------------------------------


def test_seed_positions_are_the_standard_ones():
    assert seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert bracket_size(2) == 2 and bracket_size(5) == 8 and bracket_size(128) == 128


def check_standings(state):
    """Every player once; a place is one more than the players above it."""
    listed = [p for place in state.standings for p in place.players]
    assert sorted(listed) == sorted(state.tournament.players)
    above = 0
    for place in state.standings:
        assert place.place == above + 1
        above += len(place.players)


def check_refusals(played: Played) -> None:
    """Each correction refused named exactly the later matches with a result whose
    seats follow from it."""
    for state, match_id, voided in played.refusals:
        following = _following(state, match_id)
        later = [m.id for m in state.matches if m.id in following and m.winner and not m.bye]
        assert voided and sorted(voided) == sorted(later)


def check_first_round(state) -> None:
    """Seed s meets seed size + 1 - s; the byes are the top seeds'."""
    count = len(state.tournament.players)
    size = bracket_size(count)
    first = [m for m in state.matches if m.stage is Stage.WINNERS and m.round == 1]
    assert len(first) == size // 2
    byes = sorted(seed_of(m.players[0]) for m in first if m.bye)
    assert byes == list(range(1, size - count + 1))
    positions = seed_positions(size)
    for match in first:
        number = int(match.id.rsplit("-", 1)[1])
        seeds = (positions[2 * number - 2], positions[2 * number - 1])
        assert [seed_of(p) for p in match.players] == [s for s in seeds if s <= count]
        if not match.bye:
            assert sum(seeds) == size + 1


# ---- single elimination -----------------------------------------------------------------


@settings(max_examples=1200)
@given(
    count=fields(),
    lot=lots,
    third_place=st.booleans(),
    consolation=st.booleans(),
    withdraw=withdrawals,
    correct=corrections,
)
def test_random_single_eliminations_keep_the_bracket_and_put_everyone_out_after_one_loss(
    count, lot, third_place, consolation, withdraw, correct
):
    tournament = single(count, third_place=third_place, consolation=consolation)
    played = play_randomly(tournament, random.Random(lot), withdraw, correct)
    state = played.state
    check_first_round(state)
    check_standings(state)
    check_refusals(played)
    assert state.withdrawn == tuple(w.player for w in played.withdrawals)
    if not played.corrections:
        check_forfeits(played)
    main = [m for m in state.matches if m.stage is Stage.WINNERS]
    assert sum(1 for m in main if not m.bye) == count - 1
    lost = Counter(m.loser for m in main if m.loser)
    assert sorted(lost.values()) == [1] * (count - 1)
    assert state.champion not in lost and state.champion in tournament.players
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
    # A bracket of 4 with a third-place match has no consolation bracket: it is that match.
    consoled = consolation and count >= 3 and not (third_place and count <= 4)
    assert consolation_players == (first_round_losers if consoled else set())


@settings(max_examples=60)
@given(count=fields(), third_place=st.booleans())
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


# ---- double elimination -------------------------------------------------------------------


@settings(max_examples=1200)
@given(count=fields(), lot=lots, withdraw=withdrawals, correct=corrections)
def test_random_double_eliminations_put_everyone_out_after_exactly_two_losses(
    count, lot, withdraw, correct
):
    tournament = double(count)
    played = play_randomly(tournament, random.Random(lot), withdraw, correct)
    state = played.state
    check_first_round(state)
    check_standings(state)
    check_refusals(played)
    lost = losses(state)
    assert lost[state.champion] <= 1
    assert sorted(n for p, n in lost.items() if p != state.champion) == [2] * (count - 1)
    # The reset is played only when the losers' bracket's winner won the first final.
    final, reset = state.match("GF"), state.match("GF2")
    if final.winner == final.players[1]:
        assert reset is not None and reset.players == (final.loser, final.winner)
        assert state.champion == reset.winner
    else:
        assert reset is None and state.champion == final.winner
    # The losers of winners' round 2 drop in reversed: a bracket of 8 or more keeps them
    # from meeting in losers' round 2 a player they beat in round 1.
    if count >= 8:
        before = {frozenset(m.players) for m in state.matches if m.stage is Stage.WINNERS}
        second = [m for m in state.matches if m.stage is Stage.LOSERS and m.round == 2]
        assert all(frozenset(m.players) not in before for m in second if not m.bye)
    if not played.corrections:
        check_forfeits(played)
        # Nobody plays on after his second loss, in the order the results came.
        out: set[str] = set()
        seen = dict.fromkeys(tournament.players, 0)
        for result in played.results:
            match = state.match(result.match)
            assert not (set(match.players) & out)
            seen[match.loser] += 1
            if seen[match.loser] == 2:
                out.add(match.loser)


@settings(max_examples=40)
@given(count=fields())
def test_when_seeds_hold_a_double_elimination_ends_with_1_beating_2_without_a_reset(count):
    tournament = double(count)
    state, _ = play_out(tournament, seeds_hold(tournament))
    assert state.match("GF").players == ("S001", "S002")
    assert state.match("GF2") is None
    assert state.champion == "S001"
    assert [p.players for p in state.standings[:2]] == [("S001",), ("S002",)]


def test_two_players_play_a_double_elimination_of_the_first_match_and_the_final():
    tournament = double(2)
    state = tournament_state(tournament, [MatchWinner("W1-1", "S002")])
    assert [(m.id, m.players) for m in state.matches] == [
        ("W1-1", ("S001", "S002")),
        ("GF", ("S002", "S001")),
    ]
    state = tournament_state(tournament, [MatchWinner("W1-1", "S002"), MatchWinner("GF", "S001")])
    assert state.match("GF2").players == ("S002", "S001") and not state.is_over()


# ---- corrections ------------------------------------------------------------------------


def _following(state, first: str) -> set[str]:
    """The matches with a seat that ``first``'s result decides, directly or through
    others (byes too), rebuilt from the slots: what each seat comes from."""
    from scorekeeper.engine.tournaments.brackets import double_knockout, knockout

    tournament = state.tournament
    count = len(tournament.players)
    slots = (
        double_knockout(count)
        if tournament.system is System.DOUBLE_ELIMINATION
        else knockout(count, third_place=tournament.third_place, consolation=tournament.consolation)
    )
    children: dict[str, set[str]] = {}
    for slot in slots:
        for feed in slot.feeds:
            if feed.kind in ("winner", "loser"):
                children.setdefault(str(feed.source), set()).add(slot.id)
    found: set[str] = set()
    stack = [first]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def test_a_result_for_a_match_not_playable_yet_or_a_stranger_is_refused():
    tournament = single(4)
    with pytest.raises(TournamentError, match="result 1: W2-1 is not playable yet"):
        tournament_state(tournament, [MatchWinner("W2-1", "S001")])
    with pytest.raises(
        TournamentError, match=r"result 1: S003 is not a player of W1-1 \(S001 v S004\)"
    ):
        tournament_state(tournament, [MatchWinner("W1-1", "S003")])
    with pytest.raises(TournamentError, match="result 1: there is no match W9-1"):
        tournament_state(tournament, [MatchWinner("W9-1", "S001")])
    with pytest.raises(TournamentError, match="result 1: W1-1 has no result to void"):
        tournament_state(tournament, [MatchWinner("W1-1", None)])


def test_a_bye_takes_no_result_and_a_reset_that_is_not_due_is_named():
    with pytest.raises(TournamentError, match="W1-1 is a bye: S001 goes on without a result"):
        tournament_state(single(3), [MatchWinner("W1-1", "S001")])
    results = [MatchWinner("W1-1", "S001"), MatchWinner("GF", "S001"), MatchWinner("GF2", "S001")]
    with pytest.raises(TournamentError, match="there is no GF2: the winners' bracket's winner"):
        tournament_state(double(2), results)


# ---- withdrawals ----------------------------------------------------------------------


def forfeited(tournament, results, withdrawals):
    """The state once every forfeit due is given, as the app gives them."""
    while True:
        state = tournament_state(tournament, results, withdrawals)
        if not state.forfeits():
            return state, results
        results = [*results, *state.forfeits()]


def test_a_withdrawal_in_a_double_elimination_forfeits_each_match_he_comes_to():
    tournament = double(4)
    results = [MatchWinner("W1-1", "S001"), MatchWinner("W1-2", "S002")]
    # S001 withdraws unbeaten: he forfeits the winners' final, then the losers' final.
    state, results = forfeited(tournament, results, [Withdrawal("S001", 2)])
    assert [(r.match, r.winner) for r in results[2:]] == [("W2-1", "S002")]
    results.append(MatchWinner("L1-1", "S003"))
    state, results = forfeited(tournament, results, [Withdrawal("S001", 2)])
    assert (results[-1].match, results[-1].winner) == ("L2-1", "S003")
    assert losses(state)["S001"] == 2 and state.withdrawn == ("S001",)


def test_a_bracket_of_four_with_a_third_place_match_has_no_consolation_bracket_beside_it():
    tournament = single(4, third_place=True, consolation=True)
    stages = {m.stage for m in tournament_state(tournament, []).matches}
    assert stages == {Stage.WINNERS, Stage.THIRD_PLACE}
    eight = {
        m.stage for m in tournament_state(single(8, third_place=True, consolation=True), []).matches
    }
    assert Stage.CONSOLATION in eight
