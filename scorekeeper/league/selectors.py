"""Reads of the league app: a season's parties, its standings and head-to-head, from
stored results (no partie is replayed), in a fixed number of queries."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import NamedTuple

from django.db.models import Q, QuerySet, Sum

from scorekeeper import engine
from scorekeeper.table.models import Hand, Partie, Player, Seat
from scorekeeper.table.selectors import plain_amount

from .models import (
    Game,
    GamePayment,
    GamePlayer,
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


class GameKey(NamedTuple):
    """Where a stored game was played: its partie and its number there."""

    partie_id: int
    number: int


def stored_results(
    games: QuerySet[Game], names: dict[int, str]
) -> list[tuple[GameKey, engine.GameResult]]:
    """The engine's results of the stored ``games``, in playing order, rebuilt from their
    rows as plain values (a club has tens of thousands); ``names`` by player id."""
    outcome: dict[int, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    rows = GamePlayer.objects.filter(game__in=games.values("pk")).order_by("pk")
    for game, player, won in rows.values_list("game_id", "player_id", "won"):
        outcome[game][0 if won else 1].append(names[player])
    paid: dict[int, list[engine.Payment]] = defaultdict(list)
    lines = GamePayment.objects.filter(game__in=games.values("pk")).order_by("pk")
    for game, payer, payee, points, amount in lines.values_list(
        "game_id", "payer_id", "payee_id", "points", "amount"
    ):
        # The column pads to four places: the amount as it was settled (5.4000 is 5.40).
        paid[game].append(engine.Payment(names[payer], names[payee], points, plain_amount(amount)))
    ordered = games.order_by("partie__started_at", "partie_id", "number")
    results = []
    for pk, partie, number, shutout, ranking, ranks in ordered.values_list(
        "pk", "partie_id", "number", "shutout", "ranking", "ranks"
    ):
        winners, losers = outcome[pk]
        result = engine.GameResult(
            number,
            tuple(winners),
            tuple(losers),
            shutout,
            tuple(tuple(names[player] for player in side) for side in ranking),
            tuple(ranks),
            tuple(paid[pk]),
        )
        results.append((GameKey(partie, number), result))
    return results


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
    settings = (
        season.starts_on, season.ends_on, sorted(season.kinds), season.points_win,
        season.points_shutout_win, season.points_loss, season.min_games,
    )  # fmt: skip
    digest = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]
    return f"{version or 0}:{digest}"


def _cache(season: Season, key: str) -> SeasonCache:
    """Compute the season's standings from the stored results and keep them."""
    results, names = season_results(season)
    ids = {name: pk for pk, name in names.items()}
    table = engine.standings(results, sorted(ids), season.points, season.min_games)
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
        one: {two: [h.won, h.lost, h.net_points] for two, h in against.items()}
        for one, against in table.head_to_head.items()
    }
    top = [line.player for line in table.lines[:MATRIX]]
    matrix = [(one, [meetings.get(one, {}).get(two) for two in top]) for one in top]
    cached, _ = SeasonCache.objects.update_or_create(
        season=season,
        defaults={"key": key, "lines": lines, "head_to_head": meetings, "matrix": matrix},
    )
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
