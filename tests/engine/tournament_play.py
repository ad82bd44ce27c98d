"""Tournaments played out for the tests: every playable match given a winner, a round
at a time, until every match is played; and random ones, with withdrawals and
corrections, as a club would play them in the app.

``play_randomly`` enters each result and withdrawal through the engine's
``TournamentPlay`` (a result costs what follows from it), then replays them all with
``tournament_state``, as the app does on every page: both must come to the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import strategies as st

from scorekeeper.engine.tournaments import (
    MatchState,
    MatchWinner,
    State,
    System,
    TournamentError,
    TournamentPlan,
    TournamentPlay,
    Withdrawal,
    tournament_state,
)

Pick = Callable[[MatchState], str]


def seeds_hold(tournament: TournamentPlan) -> Pick:
    """The better seed wins every match."""
    seed = {name: i for i, name in enumerate(tournament.players)}
    return lambda match: min(match.players, key=seed.__getitem__)


def by_lot(rng: random.Random) -> Pick:
    return lambda match: rng.choice(match.players)


def play_out(tournament: TournamentPlan, pick: Pick) -> tuple[State, list[MatchWinner]]:
    """The finished state and the results, entered round by round as they became
    playable; each step's state is checked to have a playable match."""
    results: list[MatchWinner] = []
    play = TournamentPlay(tournament)
    state = play.state()
    while not state.is_over():
        playable = state.playable()
        assert playable, "a tournament not over has a playable match"
        for match in playable:
            result = MatchWinner(match.id, pick(match))
            play.enter(result)
            results.append(result)
        state = play.state()
    return state, results


def names(count: int) -> tuple[str, ...]:
    """Seeds 1..count as names that sort like the seeds: S001, S002, ..."""
    return tuple(f"S{i:03d}" for i in range(1, count + 1))


def losses(state: State) -> dict[str, int]:
    lost = dict.fromkeys(state.tournament.players, 0)
    for match in state.matches:
        if match.loser is not None:
            lost[match.loser] += 1
    return lost


def fields(tops: tuple[int, ...] = (2, 4, 8, 16, 32, 64, 128)) -> st.SearchStrategy[int]:
    """A field of 2 to 128 players: a top drawn from ``tops`` (a top given twice comes
    twice as often), then a size up to it. Every size can come, the small ones (cheap)
    most often."""
    return st.sampled_from(tops).flatmap(lambda top: st.integers(2, top))


@dataclass
class Played:
    """A tournament played at random: the state it came to, everything entered in
    order, and what the driver did on the way."""

    state: State
    results: list[MatchWinner]
    withdrawals: list[Withdrawal]
    corrections: int = 0  # results changed, the matches depending on them voided first
    # Each correction refused: the state then, the match, the matches it said to void.
    refusals: list[tuple[State, str, list[str]]] = field(default_factory=list)


def play_randomly(
    tournament: TournamentPlan,
    rng: random.Random,
    withdraw: int = 0,
    correct: float = 0.0,
    most_corrections: int = 2,
) -> Played:
    """Play every match at random; before a result, now and then a player still in
    withdraws (about ``withdraw`` of them over the tournament, at random moments), and
    his matches are forfeited at once, as the app forfeits them; after a round, now and
    then (``correct``) the organiser changes a result at random: refused, he voids the
    matches the refusal names, latest first, and changes it again. The results and the
    withdrawals are then replayed from nothing (``tournament_state``) and must come to
    the same state."""
    chance = withdraw / _results_expected(tournament)
    play = TournamentPlay(tournament)
    results: list[MatchWinner] = []
    withdrawals: list[Withdrawal] = []
    played = Played(play.state(), results, withdrawals)

    def enter(result: MatchWinner) -> None:
        play.enter(result)
        results.append(result)

    def forfeit() -> State:
        """Give every forfeit due, and those that follow from them."""
        while True:
            state = play.state()
            due = state.forfeits()
            if not due:
                return state
            out = set(state.withdrawn)
            for result in due:
                match = state.match(result.match)
                assert match is not None and out.intersection(match.players)
                assert result.winner not in out or set(match.players) <= out
                enter(result)

    state = forfeit()
    while not state.is_over():
        playable = state.playable()
        assert playable, "a tournament not over has a playable match"
        rng.shuffle(playable)
        for match in playable:
            if chance and rng.random() < chance:
                out = set(play.state().withdrawn)
                still = [p for p in tournament.players if p not in out]
                if still:
                    player = rng.choice(still)
                    play.withdraw(player)
                    withdrawals.append(Withdrawal(player, len(results)))
                    state = forfeit()
            current = state.match(match.id)
            if current is not None and current.playable and current.players == match.players:
                enter(MatchWinner(match.id, rng.choice(match.players)))
        state = forfeit()
        if correct and played.corrections < most_corrections and rng.random() < correct:
            _correct(state, rng, enter, played)
            state = forfeit()
    played.state = state
    replayed = tournament_state(tournament, results, withdrawals)
    assert replayed == state, "the replay comes to the state played"
    return played


def check_forfeits(played: Played) -> None:
    """A withdrawn player won no match whose result came after he withdrew, save
    against another withdrawn player (a played run without corrections)."""
    out_after = {w.player: w.after for w in played.withdrawals}
    for number, result in enumerate(played.results, start=1):
        match = played.state.match(result.match)
        gone = {p for p in match.players if p in out_after and out_after[p] < number}
        if gone and set(match.players) - gone:
            assert result.winner not in gone, (result, gone)


def _results_expected(tournament: TournamentPlan) -> int:
    """About how many results the tournament takes."""
    count = len(tournament.players)
    per_system = {
        System.SINGLE_ELIMINATION: count,
        System.DOUBLE_ELIMINATION: 2 * count,
        System.ROUND_ROBIN: count * (count - 1) // 2,
        System.SWISS: tournament.rounds * count // 2 + tournament.top_cut,
    }
    return max(1, per_system[tournament.system])


def _correct(state: State, rng: random.Random, enter, played: Played) -> None:
    decided = [m for m in state.matches if m.winner is not None and not m.bye]
    if not decided:
        return
    match = rng.choice(decided)
    other = next(p for p in match.players if p != match.winner)
    try:
        enter(MatchWinner(match.id, other))
    except TournamentError as error:
        ((code, params),) = error.problems
        assert code == "depended_on", error
        later = params["matches"]
        played.refusals.append((state, match.id, later))
        for voided in later:  # latest first: each has no later result depending on it
            enter(MatchWinner(voided, None))
        enter(MatchWinner(match.id, other))
    played.corrections += 1
