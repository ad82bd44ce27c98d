"""Club tournaments: single and double elimination, round robin and Swiss with a top
cut, as pure functions from a ``TournamentPlan`` and its results to a frozen ``State``.

Match ids (docs/format.md, "Tournament"): ``W{round}-{n}`` the winners' bracket (a
single elimination's only bracket), ``L{round}-{n}`` the losers' bracket, ``GF`` the
grand final and ``GF2`` its reset, ``3P`` the third-place match, ``C{round}-{n}`` the
consolation bracket, ``R{round}-{table}`` a round robin's, ``S{round}-{table}`` a
Swiss round's and ``T{round}-{n}`` its top cut. n counts from the top of the bracket
of the next power of two, so a match that two byes would make is left out and its
number skipped; a round's bye is its last table.

Eight players, seeds holding: 1 and 2 meet in the final, the semi-finals are 1-4 and 2-3.

>>> players = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8")
>>> knockout = TournamentPlan(System.SINGLE_ELIMINATION, players, third_place=True)
>>> state = tournament_state(knockout, [])
>>> [m.players for m in state.matches if m.round == 1]
[('S1', 'S8'), ('S4', 'S5'), ('S2', 'S7'), ('S3', 'S6')]
>>> results = []
>>> while not state.is_over():
...     for match in state.playable():
...         results.append(MatchWinner(match.id, min(match.players)))
...     state = tournament_state(knockout, results)
>>> [(m.id, m.players) for m in state.matches if m.round == 2]
[('W2-1', ('S1', 'S4')), ('W2-2', ('S2', 'S3'))]
>>> state.champion, [(p.place, p.players) for p in state.standings][:4]
('S1', [(1, ('S1',)), (2, ('S2',)), (3, ('S3',)), (4, ('S4',))])

A result can change while no later match with a result follows from it:

>>> try:
...     tournament_state(knockout, [*results, MatchWinner("W1-1", "S8")])
... except TournamentError as error:
...     print(error)
result 9: W1-1's result cannot change while 3P, W3-1, W2-1 depend on it: void 3P, W3-1, W2-1 first
"""

from .brackets import bracket_size, seed_positions
from .document import FORMAT, loads, parse_tournament, state_json, state_text
from .play import TournamentPlay, most_swiss_rounds, tournament_problems, tournament_state
from .values import (
    MatchState,
    MatchWinner,
    Place,
    RoundName,
    Stage,
    State,
    SwissLine,
    System,
    TournamentError,
    TournamentPlan,
    Withdrawal,
)

__all__ = [
    "FORMAT",
    "MatchWinner",
    "Place",
    "RoundName",
    "Stage",
    "State",
    "SwissLine",
    "System",
    "TournamentPlan",
    "TournamentError",
    "MatchState",
    "TournamentPlay",
    "Withdrawal",
    "bracket_size",
    "loads",
    "most_swiss_rounds",
    "parse_tournament",
    "seed_positions",
    "state_json",
    "state_text",
    "tournament_problems",
    "tournament_state",
]
