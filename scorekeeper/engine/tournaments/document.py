"""The open tournament document, ``scorekeeper-tournament/1`` (docs/format.md,
"Tournament"), and the state as the command prints it: JSON or a readable listing.

>>> tournament, results, withdrawals = loads('{"format": "scorekeeper-tournament/1", '
...     '"system": "single_elimination", "players": ["Anna", "Ben", "Carl"], '
...     '"results": [{"match": "W1-2", "winner": "Carl"}]}')
>>> state = tournament_state(tournament, results)
>>> for match in state_json(state)["matches"]:
...     print(match["id"], match["players"], match["winner"], match["playable"])
W1-1 ['Anna'] Anna False
W1-2 ['Ben', 'Carl'] Carl False
W2-1 ['Anna', 'Carl'] None True
>>> try:
...     loads('{"system": "knockout", "players": ["Anna", "Anna"]}')
... except TournamentError as error:
...     print(*error.errors, sep="\\n")
unknown system 'knockout': choose single_elimination, double_elimination, round_robin or swiss
players: Anna is named twice
"""

from __future__ import annotations

from typing import Any

from ..bounds import (
    MAX_RECORD_BYTES,
    MAX_TITLE_LENGTH,
    MAX_TOURNAMENT_RESULTS,
    BoundsError,
    check_integer,
    name_problem,
    shorten,
)
from ..jsontext import JSONTextError, load_json
from ..record import Problems
from .play import player_problems, tournament_problems, tournament_state
from .values import MatchWinner, Stage, State, System, TournamentError, TournamentPlan, Withdrawal

Document = tuple[TournamentPlan, list[MatchWinner], list[Withdrawal]]

FORMAT = "scorekeeper-tournament/1"
KEYS = (
    "format",
    "name",
    "system",
    "players",
    "rounds",
    "top_cut",
    "third_place",
    "consolation",
    "seed",
    "results",
    "withdrawn",
)
SYSTEMS = [system.value for system in System]
MAX_SEED = 2**63 - 1


def loads(text: str | bytes) -> Document:
    """The tournament, its results and its withdrawals in a document's JSON text (at
    most MAX_RECORD_BYTES), or a TournamentError with one line per problem."""
    try:
        data = load_json(text, limit=MAX_RECORD_BYTES, what="tournament")
    except JSONTextError as error:
        raise TournamentError([str(error)], [(error.code, error.params)]) from None
    return parse_tournament(data)


def parse_tournament(data: Any) -> Document:
    """Check a document's keys and values, then the tournament they make."""
    if not isinstance(data, dict):
        raise TournamentError(
            ["a tournament is a JSON object with system, players and results"], [("not_object", {})]
        )
    problems = Problems()
    for key in data:
        if key not in KEYS:
            problems.add(
                f"unknown key {shorten(key)}: a tournament has {', '.join(KEYS)}",
                "unknown_key",
                key=shorten(key),
            )
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        problems.add(f"unknown format {shorten(fmt)}: expected {FORMAT!r}", "unknown_format")
    name = data.get("name", "")
    if name != "" and (trouble := name_problem(name, MAX_TITLE_LENGTH)) is not None:
        problems.add(f"name: {shorten(name)} {trouble}", "bad_title")
    system = _system(data.get("system"), problems)
    players = data.get("players")
    if not isinstance(players, list):
        problems.add("players: give a list of names, best seed first", "no_players")
        players = []
    options = {
        "rounds": _whole(data, "rounds", problems),
        "top_cut": _whole(data, "top_cut", problems),
        "seed": _whole(data, "seed", problems, MAX_SEED),
        "third_place": _flag(data, "third_place", problems),
        "consolation": _flag(data, "consolation", problems),
    }
    results = _results(data.get("results", []), problems)
    withdrawals = _withdrawals(data.get("withdrawn", []), problems)
    if problems:  # the options are not all known: the players' problems beside them
        player_problems(players, problems)
        raise TournamentError.of(problems)
    assert system is not None
    tournament = TournamentPlan(
        system, tuple(players), name=name if isinstance(name, str) else "", **options
    )
    problems = tournament_problems(tournament)
    if problems:
        raise TournamentError.of(problems)
    return tournament, results, withdrawals


def _system(value: Any, problems: Problems) -> System | None:
    if isinstance(value, str) and value in SYSTEMS:
        return System(value)
    choices = f"{', '.join(SYSTEMS[:-1])} or {SYSTEMS[-1]}"
    if value is None:
        problems.add(f"system: choose {choices}", "no_system")
    else:
        problems.add(f"unknown system {shorten(value)}: choose {choices}", "unknown_system")
    return None


def _whole(data: dict, key: str, problems: Problems, high: int = 1_000_000) -> int:
    value = data.get(key)
    if value is None:
        return 0
    try:
        return check_integer(key, value, 0, high)
    except BoundsError as error:
        problems.add(str(error), error.code, option=key)
        return 0


def _flag(data: dict, key: str, problems: Problems) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        problems.add(f"{key} must be true or false, not {shorten(value)}", "not_flag", option=key)
        return False
    return value


def _results(value: Any, problems: Problems) -> list[MatchWinner]:
    if not isinstance(value, list):
        problems.add('results: give a list of {"match": ..., "winner": ...}', "no_results")
        return []
    if len(value) > MAX_TOURNAMENT_RESULTS:
        problems.add(
            f"results: at most {MAX_TOURNAMENT_RESULTS:,} results, not {len(value):,}",
            "too_many_results",
        )
        return []
    results = []
    for number, item in enumerate(value, start=1):
        where = f"result {number}"
        if not isinstance(item, dict) or set(item) - {"match", "winner"}:
            problems.add(
                f'{where}: a result is {{"match": "W1-2", "winner": "Ben"}}, not {shorten(item)}',
                "bad_result",
                result=number,
            )
            continue
        match, winner = item.get("match"), item.get("winner")
        if not isinstance(match, str) or not match or len(match) > 20:
            problems.add(
                f'{where}: match must be a match id like "W1-2", not {shorten(match)}',
                "bad_match",
                result=number,
            )
            continue
        if winner is not None and not isinstance(winner, str):
            problems.add(
                f"{where}: winner must be a player's name or null, not {shorten(winner)}",
                "bad_winner",
                result=number,
            )
            continue
        results.append(MatchWinner(match, winner))
    return results


def _withdrawals(value: Any, problems: Problems) -> list[Withdrawal]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.add('withdrawn: give a list of {"player": ..., "after": ...}', "no_withdrawals")
        return []
    withdrawals = []
    for number, item in enumerate(value[:MAX_TOURNAMENT_RESULTS], start=1):
        where = f"withdrawn {number}"
        if not isinstance(item, dict) or set(item) != {"player", "after"}:
            problems.add(
                f'{where}: a withdrawal is {{"player": "Ben", "after": 4}} (the number of '
                f"results given before it), not {shorten(item)}",
                "bad_withdrawal",
                withdrawal=number,
            )
            continue
        player = item["player"]
        if not isinstance(player, str):
            problems.add(
                f"{where}: player must be a player's name, not {shorten(player)}",
                "bad_withdrawal",
                withdrawal=number,
            )
            continue
        try:
            after = check_integer(f"{where}: after", item["after"], 0, MAX_TOURNAMENT_RESULTS)
        except BoundsError as error:
            problems.add(str(error), error.code, withdrawal=number)
            continue
        withdrawals.append(Withdrawal(player, after))
    return withdrawals


def state_json(state: State) -> dict:
    """The command's JSON: every match, the champion and the standings (once over)."""
    return {
        "matches": [
            {
                "id": m.id,
                "stage": m.stage.value,
                "round": m.round,
                "players": list(m.players),
                "winner": m.winner,
                "playable": m.playable,
                "bye": m.bye,
            }
            for m in state.matches
        ],
        "champion": state.champion,
        "standings": [{"place": p.place, "players": list(p.players)} for p in state.standings],
        "withdrawn": list(state.withdrawn),
    }


def state_text(state: State) -> str:
    """A readable listing: the matches stage by stage and round by round, the Swiss
    table, the champion and the standings."""
    tournament = state.tournament
    title = tournament.name or "Tournament"
    system = tournament.system.value.replace("_", " ")
    lines = [f"{title}: {system}, {len(tournament.players)} players"]
    out = set(state.withdrawn)

    def named(player: str) -> str:
        return f"{player} (withdrawn)" if player in out else player

    for stage in state.stages():
        for number, matches in state.rounds(stage):
            heading = str(state.round_name(stage, number))
            if stage is Stage.TOP_CUT:
                heading = f"Top cut: {heading}"
            lines += ["", heading]
            width = max(len(m.id) for m in matches)
            for m in matches:
                lines.append(f"  {m.id:<{width}}  {_how(m)}")
    if state.swiss_table:
        lines += ["", "Swiss table (place, player, score, Buchholz)"]
        for line in state.swiss_table:
            lines.append(f"  {line.place:>3}. {named(line.player)}  {line.score}  {line.buchholz}")
    lines.append("")
    if state.withdrawn:
        lines.append(f"Withdrawn: {', '.join(state.withdrawn)}")
    if state.standings:
        if state.champion:
            lines.append(f"Champion: {state.champion}")
        lines.append("Standings")
        lines += [
            f"  {p.place:>3}. {', '.join(named(player) for player in p.players)}"
            for p in state.standings
        ]
    else:
        playable = len(state.playable())
        lines.append(f"Not over: {playable} {'match' if playable == 1 else 'matches'} playable")
    return "\n".join(lines)


def _how(match) -> str:
    if match.bye:
        return f"{match.players[0] or '?'}: bye"
    names = " v ".join(p or "?" for p in match.players)
    if match.winner:
        return f"{names}: {match.winner} won"
    return f"{names}: playable" if match.playable else names


__all__ = ["FORMAT", "loads", "parse_tournament", "state_json", "state_text", "tournament_state"]
