"""Season documents (FORMAT.md, "Season"): game records that count for a league season,
read, replayed and turned into standings JSON, and written back (``dumps``).

>>> season = parse_season({"format": "scorekeeper-season/1", "name": "Autumn", "parties": [
...     {"kind": "two_player", "players": ["Anna", "Ben"], "stake": "0.05", "hands": [
...         {"knocker": "Anna", "gin": True, "defender_deadwood": 90}]}]})
>>> data = standings_json(season_standings(season))
>>> [(line["rank"], line["player"], line["league_points"], line["money"])
...  for line in data["standings"]]
[(1, 'Anna', 3, '16.50'), (2, 'Ben', 0, '-16.50')]
>>> data["head_to_head"]["Ben"]["Anna"]
{'won': 0, 'lost': 1, 'net_points': -330}
>>> loads(dumps(season)) == season
True
>>> standings_json(standings_from_json(data)) == data
True

A season that counts only confirmed games says so, and each party names its closed
pending games (``pending_games``): those are left out.

>>> pending = parse_season({"confirmed_games_only": True, "parties": [
...     {"kind": "two_player", "players": ["Anna", "Ben"], "pending_games": [1], "hands": [
...         {"knocker": "Anna", "gin": True, "defender_deadwood": 90}]}]})
>>> [(line.player, line.games) for line in season_standings(pending).lines]
[('Anna', 0), ('Ben', 0)]
>>> loads(dumps(pending)) == pending
True
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .bounds import (
    LEAGUE_POINTS,
    MAX_HANDS,
    MAX_MIN_GAMES,
    MAX_SEASON_BYTES,
    BoundsError,
    check_integer,
    shorten,
)
from .jsontext import JSONTextError, load_json
from .league import (
    RATING_COLUMNS,
    RESULT_COLUMNS,
    HeadToHead,
    LeaguePoints,
    Line,
    Standings,
    line_of,
    standings,
)
from .record import Record, RecordError, parse_record, record_json, replay
from .session import GameResult

FORMAT = "scorekeeper-season/1"


@dataclass(frozen=True)
class SeasonDocument:
    """A ``scorekeeper-season/1`` document: the season's name, points and rules, and
    the game records that count for it (not the club's season, ``league.models``)."""

    name: str
    points: LeaguePoints
    min_games: int
    parties: tuple[Record, ...]
    confirmed_games_only: bool = False  # a pending game does not count
    # The closed games some player asked has not confirmed (pending, or disputed):
    # (the party's position, from 1; the game's number).
    pending: frozenset[tuple[int, int]] = frozenset()


def loads(text: str | bytes, limit: int | None = MAX_SEASON_BYTES) -> SeasonDocument:
    """A season document from JSON text (at most ``limit`` bytes: what anyone may send;
    None: a document of one's own, whatever its size), read safely; RecordError (one line
    per problem) otherwise."""
    try:
        data = load_json(text, limit=sys.maxsize if limit is None else limit, what="season")
    except JSONTextError as error:
        refusal = RecordError.of_text(error)
        refusal.errors = [f"the season is not valid JSON: {error}"]
        raise refusal from None
    return parse_season(data)


def parse_season(data: Any) -> SeasonDocument:
    """Check a season document and every record in it; errors name the party."""
    if not isinstance(data, dict):
        raise RecordError(["a season is a JSON object with its parties"])
    errors: list[str] = []
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        errors.append(f"unknown format {shorten(fmt)}: expected {FORMAT!r}")
    name = data.get("name", "")
    if not isinstance(name, str):
        errors.append("name: give the season's name as text")
        name = ""
    points = _points(data.get("points", {}), errors)
    min_games = data.get("min_games", 0)
    try:
        check_integer("min_games", min_games, 0, MAX_MIN_GAMES)
    except BoundsError as error:
        errors.append(f"min_games: a whole number from 0, not {shorten(min_games)}: {error.reason}")
        min_games = 0
    confirmed_only = data.get("confirmed_games_only", False)
    if not isinstance(confirmed_only, bool):
        errors.append(f"confirmed_games_only: true or false, not {shorten(confirmed_only)}")
        confirmed_only = False
    raw_parties = data.get("parties", [])
    if not isinstance(raw_parties, list):
        errors.append("parties: a list of game records is expected")
        raw_parties = []
    parties = []
    pending: set[tuple[int, int]] = set()
    for number, raw in enumerate(raw_parties, start=1):
        try:
            parties.append(parse_record(raw))
        except RecordError as error:
            errors += [f"party {number}, {line}" for line in error.errors]
        if isinstance(raw, dict):
            pending |= {(number, game) for game in _pending_games(raw, number, errors)}
    if errors:
        raise RecordError(errors)
    return SeasonDocument(
        name, points, min_games, tuple(parties), confirmed_only, frozenset(pending)
    )


def _pending_games(party: dict[str, Any], number: int, errors: list[str]) -> list[int]:
    """The numbers of the party's pending closed games (none if absent)."""
    value = party.get("pending_games", [])
    if not isinstance(value, list):
        errors.append(
            f"party {number}, pending_games: give a list of game numbers like [2],"
            f" not {shorten(value)}"
        )
        return []
    games = []
    for game in value:
        try:
            # A game needs a hand: a party has at most as many games as hands.
            games.append(check_integer("pending_games", game, 1, MAX_HANDS))
        except BoundsError as error:
            errors.append(f"party {number}, {error}")
    return games


def _points(value: Any, errors: list[str]) -> LeaguePoints:
    if not isinstance(value, dict):
        errors.append('points: give them like {"win": 2, "shutout_win": 3, "loss": 0}')
        return LeaguePoints()
    known = {"win", "shutout_win", "loss"}
    for key in value.keys() - known:
        errors.append(f"points: unknown {shorten(key)}: choose win, shutout_win or loss")
    chosen = {}
    low, high = LEAGUE_POINTS
    for key in sorted(known & value.keys()):
        try:
            chosen[key] = check_integer(key, value[key], low, high)
        except BoundsError:
            errors.append(
                f"points: {key} must be a whole number from {low} to {high},"
                f" not {shorten(value[key])}"
            )
    return LeaguePoints(**chosen)


def season_json(season: SeasonDocument) -> dict[str, Any]:
    """The season as FORMAT.md writes it: its name, points, min_games and whether only
    confirmed games count, and each party a game record as the record export writes it,
    with the numbers of its pending games (``pending_games``), if any."""
    pending = _pending_by_party(season)
    return {
        "format": FORMAT,
        "name": season.name,
        "points": {
            "win": season.points.win,
            "shutout_win": season.points.shutout_win,
            "loss": season.points.loss,
        },
        "min_games": season.min_games,
        "confirmed_games_only": season.confirmed_games_only,
        "parties": [
            record_json(record) | ({"pending_games": games} if (games := pending[n]) else {})
            for n, record in enumerate(season.parties, start=1)
        ],
    }


def _pending_by_party(season: SeasonDocument) -> dict[int, list[int]]:
    """The numbers of each party's pending games, by its position."""
    pending: dict[int, list[int]] = {n: [] for n in range(1, len(season.parties) + 1)}
    for number, game in sorted(season.pending):
        pending.setdefault(number, []).append(game)
    return pending


def dumps(season: SeasonDocument) -> str:
    """The season document as JSON text, one party a line (a season of thousands of
    parties stays far smaller than indented, and a change shows as a changed line)."""
    data = season_json(season)
    parties = data.pop("parties")
    fields = [f"  {json.dumps(key)}: {_compact(value)}" for key, value in data.items()]
    if parties:
        lines = ",\n".join(f"    {_compact(record)}" for record in parties)
        fields.append(f'  "parties": [\n{lines}\n  ]')
    else:
        fields.append('  "parties": []')
    return "{\n" + ",\n".join(fields) + "\n}\n"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def season_results(season: SeasonDocument) -> tuple[list[GameResult], list[str]]:
    """Every closed game the season counts in playing order (a season of confirmed games
    leaves out the pending ones), and every player named."""
    games: list[GameResult] = []
    players: dict[str, None] = {}
    errors: list[str] = []
    pending = _pending_by_party(season)
    for number, record in enumerate(season.parties, start=1):
        players.update(dict.fromkeys(record.players))
        try:
            session = replay(record)
        except RecordError as error:
            errors += [f"party {number}, {line}" for line in error.errors]
            continue
        results = session.results(record.stake, record.stakes)
        closed = {result.number for result in results}
        errors += [
            f"party {number}, pending_games: the party has no closed game {game}"
            for game in pending[number]
            if game not in closed
        ]
        if season.confirmed_games_only:
            results = [result for result in results if result.number not in pending[number]]
        games += results
    if errors:
        raise RecordError(errors)
    return games, list(players)


def season_standings(season: SeasonDocument) -> Standings:
    games, players = season_results(season)
    return standings(games, players, season.points, season.min_games)


def standings_json(table: Standings) -> dict[str, Any]:
    """The standings as FORMAT.md writes them."""
    return {
        "standings": [line_json(line) for line in table.lines],
        "head_to_head": {
            player: {
                other: {"won": h.won, "lost": h.lost, "net_points": h.net_points}
                for other, h in sorted(against.items())
            }
            for player, against in sorted(table.head_to_head.items())
        },
    }


def line_json(line: Line) -> dict[str, Any]:
    """A line of the standings as FORMAT.md writes it, column by column: its results
    (money as a decimal string), then its rating in full."""
    results = {column.key: column.dump(column.read(line, None)) for column in RESULT_COLUMNS}
    rating = {column.key: column.dump(column.read(line, None)) for column in RATING_COLUMNS}
    return results | {"rating": rating}


def line_from_json(data: Mapping[str, Any]) -> Line:
    """A line as ``line_json`` wrote it, read back by the same columns."""
    figures = {column.key: column.load(data[column.key]) for column in RESULT_COLUMNS}
    rating = data["rating"]
    figures |= {column.key: column.load(rating[column.key]) for column in RATING_COLUMNS}
    return line_of(figures)


def standings_from_json(data: Mapping[str, Any]) -> Standings:
    """Standings as ``standings_json`` wrote them, read back: a closed season's final
    table, kept as that JSON, is shown and printed from these (no rating history)."""
    lines = tuple(line_from_json(line) for line in data["standings"])
    head_to_head = {
        player: {
            other: HeadToHead(met["won"], met["lost"], met["net_points"])
            for other, met in against.items()
        }
        for player, against in data["head_to_head"].items()
    }
    return Standings(lines, head_to_head, {})
