"""Reads of the league app: a season's parties, its standings and head-to-head, from
stored results (no partie is replayed), in a fixed number of queries."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.table.models import Hand, Partie, Player, Seat

from . import books
from .books import stored_results
from .models import (
    Game,
    PartieStats,
    ResultsVersion,
    Season,
    SeasonCache,
)

TREND = 5  # results shown as a player's trend


def season_parties(season: Season) -> QuerySet[Partie]:
    """The club's parties that count for the season: assigned to it, or unassigned and
    started between its first and last day; of the kinds it counts."""
    club = season.league.club_id
    parties = Partie.objects.filter(club_id=club).filter(
        Q(season_assignment__season=season)
        | Q(
            season_assignment=None,
            started_at__date__gte=season.starts_on,
            started_at__date__lte=season.ends_on,
        )
    )
    return parties.filter(kind__in=season.kinds) if season.kinds else parties


@dataclass(frozen=True)
class Row:
    """One line of the standings page: the engine's line and what the page adds."""

    line: engine.league.Line
    player_id: int  # for the link to his page
    stats: engine.HandStats  # his hands over the season
    trend: tuple[bool, ...]  # the last results, oldest first: True a win


# The columns the standings can be sorted by: how to read each from a row. None sorts last.
SORTS = {
    "rank": lambda row: row.line.rank,
    "player": lambda row: row.line.player,
    "games": lambda row: row.line.games,
    "won": lambda row: row.line.won,
    "lost": lambda row: row.line.lost,
    "shutout_wins": lambda row: row.line.shutout_wins,
    "league_points": lambda row: row.line.league_points,
    "net_points": lambda row: row.line.net_points,
    "money": lambda row: row.line.money,
    "rating": lambda row: row.line.rating.ordinal,
    "hands": lambda row: row.stats.hands,
    "gins": lambda row: row.stats.gins,
    "gin_rate": lambda row: row.stats.gin_rate,
    "undercuts": lambda row: row.stats.undercuts,
    "undercut_rate": lambda row: row.stats.undercut_rate,
    "points_per_hand_won": lambda row: row.stats.points_per_hand_won,
}


MATRIX = 20  # players in the page's head-to-head matrix: the top of the standings


class SeasonTable:
    """A season's standings: each player's row, and the head-to-head, read when asked
    for (a large season's meetings are many)."""

    def __init__(
        self,
        season: Season,
        rows: list[Row],
        head_to_head: Callable[[], dict[str, dict[str, engine.HeadToHead]]],
        matrix: list[tuple[str, list[engine.HeadToHead | None]]],
    ):
        self.season = season
        self.rows = rows
        self._head_to_head = head_to_head
        self.matrix = matrix  # the top MATRIX players' meetings, kept with the standings

    @cached_property
    def head_to_head(self) -> dict[str, dict[str, engine.HeadToHead]]:
        return self._head_to_head()

    @cached_property
    def standings(self) -> engine.Standings:
        """The engine's standings, as the exports write them."""
        return engine.Standings(tuple(row.line for row in self.rows), self.head_to_head, {})

    @property
    def players(self) -> list[str]:
        return [row.line.player for row in self.rows]

    def sorted_rows(self, key: str, descending: bool = False) -> list[Row]:
        """The rows by one column (the standings' order for an unknown one); the rows
        without a figure there (no rank, no hands) come last either way."""
        value = SORTS.get(key, SORTS["rank"])
        present = [row for row in self.rows if value(row) is not None]
        missing = [row for row in self.rows if value(row) is None]
        return sorted(present, key=value, reverse=descending) + missing

    def meeting(self, player: str, other: str) -> engine.HeadToHead | None:
        return self.head_to_head.get(player, {}).get(other)

    @property
    def matrix_names(self) -> list[str]:
        return [name for name, _ in self.matrix]


def season_results(season: Season) -> tuple[list[engine.GameResult], dict[int, str]]:
    """The season's closed games in playing order, and the name of every player seated
    in its parties (listed even without a counted game)."""
    parties = season_parties(season)
    names = dict(Seat.objects.filter(partie__in=parties).values_list("player_id", "player__name"))
    games = stored_results(Game.objects.filter(partie__in=parties), names)
    return [result for _, result in games], names


def season_table(season: Season) -> SeasonTable:
    """The standings of a season, with each player's hands and trend: as cached while
    the club's results and the season's settings are those they were computed for,
    else computed from the stored results (no partie is replayed) and cached."""
    key = _cache_key(season)
    cached = SeasonCache.objects.filter(season=season, key=key).defer("head_to_head").first()
    if cached is None:
        cached = _cache(season, key)
    rows = [_row_of(data) for data in cached.lines]

    def head_to_head() -> dict[str, dict[str, engine.HeadToHead]]:
        data = SeasonCache.objects.filter(pk=season.pk).values_list("head_to_head", flat=True)
        return {
            one: {two: engine.HeadToHead(*figures) for two, figures in against.items()}
            for one, against in data[0].items()
        }

    matrix = [
        (one, [engine.HeadToHead(*cell) if cell else None for cell in cells])
        for one, cells in cached.matrix
    ]
    return SeasonTable(season, rows, head_to_head, matrix)


def season_line(season: Season, player: Player) -> engine.league.Line | None:
    """The player's line in the season's standings (None: not listed), read from the
    cached standings without building every row."""
    key = _cache_key(season)
    cached = SeasonCache.objects.filter(season=season, key=key).defer("head_to_head").first()
    if cached is None:
        cached = _cache(season, key)
    data = next((row for row in cached.lines if row["id"] == player.pk), None)
    return None if data is None else _row_of(data).line


def _cache_key(season: Season) -> str:
    """What the standings depend on beyond the hands: the club's results version (every
    stored result and assignment bumps it) and the season's own settings."""
    version = (
        ResultsVersion.objects.filter(club_id=season.league.club_id)
        .values_list("version", flat=True)
        .first()
    )
    return f"{version or 0}:{_settings_digest(season)}"


def _settings_digest(season: Season) -> str:
    settings = (
        season.starts_on, season.ends_on, sorted(season.kinds), season.points_win,
        season.points_shutout_win, season.points_loss, season.min_games,
    )  # fmt: skip
    return hashlib.sha256(repr(settings).encode()).hexdigest()[:16]


def _cache(season: Season, key: str) -> SeasonCache:
    """Count the season's standings from the stored results and keep them."""
    counted = books.count(
        {"season": season},
        season_parties(season),
        season.points,
        f"{books.full_version(season.league.club_id)}:{_settings_digest(season)}",
    )
    names = counted.names
    counted.book.enter(sorted(names.values()))  # those with no counted game too
    table = counted.book.standings(season.min_games)
    ids = {name: pk for pk, name in names.items()}
    totals = (
        PartieStats.objects.filter(partie__in=season_parties(season))
        .values("player_id")
        .annotate(
            hands=Sum("hands"),
            won=Sum("won"),
            gins=Sum("gins"),
            undercuts=Sum("undercuts"),
            points=Sum("points"),
        )
    )
    stats = {
        names[row.pop("player_id")]: engine.HandStats(**row)
        for row in totals
        if row["player_id"] in names
    }
    lines = [
        _row_data(line, ids[line.player], stats.get(line.player, engine.HandStats()), table)
        for line in table.lines
    ]
    meetings = {
        one: {two: list(h) for two, h in a.items()} for one, a in table.head_to_head.items()
    }
    top = [line.player for line in table.lines[:MATRIX]]
    matrix = [(one, [meetings.get(one, {}).get(two) for two in top]) for one in top]
    cached = SeasonCache(season=season, key=key, lines=lines, head_to_head=meetings, matrix=matrix)
    if not SeasonCache.objects.filter(season=season).update(
        key=key, lines=lines, head_to_head=meetings, matrix=matrix, computed_at=timezone.now()
    ):
        cached.save(force_insert=True)
    return cached


def _row_data(
    line: engine.league.Line, player: int, stats: engine.HandStats, table: engine.Standings
) -> dict:
    return {
        "id": player,
        "line": [
            line.rank,
            line.player,
            line.games,
            line.won,
            line.lost,
            line.shutout_wins,
            line.league_points,
            line.net_points,
            str(line.money),
        ],  # fmt: skip
        "rating": [line.rating.mu, line.rating.sigma],
        "stats": [stats.hands, stats.won, stats.gins, stats.undercuts, stats.points],
        "trend": table.results.get(line.player, ())[-TREND:],
    }


def _row_of(data: dict) -> Row:
    rank, name, games, won, lost, shutouts, points, net, money = data["line"]
    line = engine.league.Line(
        rank, name, games, won, lost, shutouts, points, net, Decimal(money),
        engine.Rating(*data["rating"]),
    )  # fmt: skip
    return Row(line, data["id"], engine.HandStats(*data["stats"]), tuple(data["trend"]))


HAND_COLUMNS = (
    "partie", "started", "kind", "players", "hand", "table", "result", "knocker",
    "knocker_deadwood", "defender_deadwood", "upcard",
)  # fmt: skip


def season_hands(season: Season):
    """Every hand of the season's parties as entered, in playing order: one CSV line each."""
    hands = (
        Hand.objects.filter(partie__in=season_parties(season))
        .select_related("partie", "knocker")
        .order_by("partie__started_at", "partie_id", "number", "table")
    )
    for hand in hands.iterator(chunk_size=2000):
        partie = hand.partie
        yield (
            partie.pk,
            partie.started_at.date().isoformat(),
            partie.kind,
            " – ".join(partie.summary.get("players", [])),
            hand.number,
            hand.table,
            hand.kind,
            hand.knocker.name if hand.knocker_id else "",
            "" if hand.knocker_deadwood is None else hand.knocker_deadwood,
            "" if hand.defender_deadwood is None else hand.defender_deadwood,
            hand.upcard,
        )
