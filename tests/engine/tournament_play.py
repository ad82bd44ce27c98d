"""Tournaments played out for the tests: every playable match given a winner, a round
at a time, until every match is played."""

from __future__ import annotations

import random
from collections.abc import Callable

from scorekeeper.engine.tournaments import (
    MatchResult,
    State,
    Tournament,
    TournamentMatch,
    tournament_state,
)

Pick = Callable[[TournamentMatch], str]


def seeds_hold(tournament: Tournament) -> Pick:
    """The better seed wins every match."""
    seed = {name: i for i, name in enumerate(tournament.players)}
    return lambda match: min(match.players, key=seed.__getitem__)


def by_lot(rng: random.Random) -> Pick:
    return lambda match: rng.choice(match.players)


def play_out(tournament: Tournament, pick: Pick) -> tuple[State, list[MatchResult]]:
    """The finished state and the results, entered round by round as they became
    playable; each step's state is checked to have a playable match."""
    results: list[MatchResult] = []
    state = tournament_state(tournament, results)
    while not state.is_over():
        playable = state.playable()
        assert playable, "a tournament not over has a playable match"
        results += [MatchResult(match.id, pick(match)) for match in playable]
        state = tournament_state(tournament, results)
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
