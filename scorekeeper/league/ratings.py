"""OpenSkill ratings carried forward, game by game, for a season or a club's all time.

Ratings are sequential (RULES.md §11): each game's update starts from its players'
ratings after their previous games. So each rated game keeps its place in the order
(``RatedGame.seq``) and its players' ratings after it (``PlayerRating``), and each
player's latest rating is kept too (``CurrentRating``).

Nothing here guesses whether they are current. Every change of a club's games writes a
``ResultsChange`` from its place in the order on (``table.services.results``), and the
league's worker (``league.outbox``) calls ``rate_from`` with the earliest of them: the
games before that place are rated as they were, the rest again. Pages only read.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import QuerySet, Subquery, Window
from django.db.models.functions import RowNumber

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.table.models import ClosedGame, PlayerResult

from .models import CurrentRating, PlayerRating, RatedGame, Season

ORDER = ("started_at", "partie_id", "number")  # the playing order of closed games
FEW = 500  # games rated again: up to so many, their result rows are read by key


@dataclass(frozen=True)
class Scope:
    """Whose ratings: a season's (its counted games) or a club's (every closed game)."""

    owner: Season | Club
    games: QuerySet[ClosedGame]  # the games it counts
    results: QuerySet[PlayerResult] | None = None  # their players' results

    @property
    def key(self) -> dict:
        return _key(self.owner)

    @property
    def counted_results(self) -> QuerySet[PlayerResult]:
        if self.results is not None:
            return self.results
        return PlayerResult.objects.filter(game__in=self.games)


def rate_from(scope: Scope, since: datetime | None) -> None:
    """Rate the scope's games again from the first that started at ``since`` or later
    (None: all of them). The games before it are rated as they are: a change to any of
    them would have asked for an earlier ``since``. The caller holds the club's lock."""
    games = scope.games.order_by(*ORDER)
    if since is not None:
        place = games.filter(started_at__lt=since).count() + 1
        games = games.filter(started_at__gte=since)
    else:
        place = 1
    RatedGame.objects.filter(**scope.key, seq__gte=place).delete()
    PlayerRating.objects.filter(**scope.key, seq__gte=place).delete()
    _rate(scope, place, list(games.values_list("pk", flat=True)), _before(scope, place))


def current_rows(owner: Season | Club) -> QuerySet[CurrentRating]:
    """Each rated player's latest rating in a season or a club's all time:
    ``player_id``, ``mu`` and ``sigma``."""
    return CurrentRating.objects.filter(**_key(owner)).values_list("player_id", "mu", "sigma")


def _key(owner: Season | Club) -> dict:
    return {"season": owner} if isinstance(owner, Season) else {"club": owner}


def history(scope: Scope, player_id: int) -> dict[int, engine.Rating]:
    """A player's rating after each of his rated games, by the game's key."""
    rows = PlayerRating.objects.filter(**scope.key, player_id=player_id)
    return {
        game: engine.Rating(mu, sigma)
        for game, mu, sigma in rows.values_list("result__game_id", "mu", "sigma")
    }


def _rate(
    scope: Scope,
    place: int,
    games: list[int],
    start: tuple[dict[int, engine.Rating], dict[int, int]],
) -> None:
    """Rate ``games`` in order from ``place`` on, the players starting from ``start``
    (everyone's ratings before ``place``), and keep every player's latest rating. The
    ratings go to the database as they are made: the server files each batch while the
    next games are rated."""
    results = _results(scope, games)
    ratings_before, places = start  # each player's rating, and the place of his last game
    rater = engine.Rater(ratings_before)
    season, club = (scope.owner.pk, None) if "season" in scope.key else (None, scope.owner.pk)
    rated, last = [], dict(places)

    def ratings() -> Iterator[tuple]:
        seq = place
        for game in games:
            rows = results.get(game)
            if not rows:
                continue
            rated.append((game, season, club, seq))
            ranking, ranks = _ranking(rows)
            for row, (player, rating) in zip(rows, rater.rate(ranking, ranks), strict=True):
                yield (row[4], season, club, player, seq, rating.mu, rating.sigma)
                last[player] = seq
            seq += 1

    _insert(
        PlayerRating,
        ("result_id", "season_id", "club_id", "player_id", "seq", "mu", "sigma"),
        ratings(),
    )
    _insert(RatedGame, ("game_id", "season_id", "club_id", "seq"), rated)
    CurrentRating.objects.filter(**scope.key).delete()
    _insert(
        CurrentRating,
        ("player_id", "season_id", "club_id", "mu", "sigma", "seq"),
        [(pk, season, club, r.mu, r.sigma, last[pk]) for pk, r in rater.ratings.items()],
    )


def _ranking(rows: list[tuple[int, ...]]) -> tuple[list, list[int]]:
    """A game's sides in their ranking, the winners first, and each side's rank, from
    its result rows ``(game, player, side, rank, result)`` in the order of their sides."""
    if len(rows) == 2 and rows[1][2] == 1:  # most games: one player against another
        (_, one, _, rank, _), (_, other, _, other_rank, _) = rows
        return [(one,), (other,)], [rank, other_rank]
    ranking, ranks = [], []
    for _, player, side, rank, _ in rows:
        if side == len(ranking):
            ranking.append([])
            ranks.append(rank)
        ranking[side].append(player)
    return ranking, ranks


def _results(scope: Scope, games: list[int]) -> dict[int, list[tuple[int, ...]]]:
    """Each game's result rows, by side and key: ``(game, player, side, rank, result)``. Many
    games are read by the scope's own filter, from the first one's start on (a list of
    tens of thousands of keys costs PostgreSQL twenty times more)."""
    if not games:
        return {}
    if len(games) <= FEW:
        rows = PlayerResult.objects.filter(game_id__in=games)
    else:
        first = ClosedGame.objects.filter(pk=games[0]).values_list("started_at", flat=True)
        rows = scope.counted_results.filter(started_at__gte=Subquery(first))
    fields = ("game_id", "player_id", "side", "rank", "pk")
    query = rows.order_by("game_id", "side", "pk").values_list(*fields).query
    with connection.cursor() as cursor:  # plain integers: no model, no converter
        cursor.execute(*query.sql_with_params())
        found = cursor.fetchall()
    return {game: list(group) for game, group in itertools.groupby(found, operator.itemgetter(0))}


def _insert(model, fields: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Insert plain rows: by a binary COPY on PostgreSQL (a season rated again is tens
    of thousands of rows), else in bulk. A column empty in the first row (the season's
    or the club's) is left out: NULL in every row."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return
    rows = itertools.chain((first,), rows)
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            (model(**dict(zip(fields, row, strict=True))) for row in rows), batch_size=5000
        )
        return
    kept = [n for n, value in enumerate(first) if value is not None]
    found = [model._meta.get_field(fields[n].removesuffix("_id")) for n in kept]
    names = ", ".join(field.column for field in found)
    pick = operator.itemgetter(*kept)
    with connection.cursor() as cursor:
        statement = f"COPY {model._meta.db_table} ({names}) FROM STDIN (FORMAT BINARY)"
        with cursor.cursor.copy(statement) as copy:
            copy.set_types([field.db_type(connection) for field in found])
            for row in rows:
                copy.write_row(pick(row))


def _before(scope: Scope, place: int) -> tuple[dict[int, engine.Rating], dict[int, int]]:
    """Each player's rating after his last game before ``place``."""
    if place == 1:
        return {}, {}
    latest = (
        PlayerRating.objects.filter(**scope.key, seq__lt=place)
        .order_by("player_id", "-seq")
        .values_list("player_id", "mu", "sigma", "seq")
    )
    if connection.vendor == "postgresql":
        return _with_places(latest.distinct("player_id"))
    newest = latest.annotate(
        newest=Window(RowNumber(), partition_by="player_id", order_by="-seq")
    ).filter(newest=1)
    return _with_places(newest.values_list("player_id", "mu", "sigma", "seq"))


def _with_places(rows) -> tuple[dict[int, engine.Rating], dict[int, int]]:
    """Ratings by player, and the place of the game each was rated after."""
    ratings, places = {}, {}
    for player, mu, sigma, seq in rows:
        ratings[player], places[player] = engine.Rating(mu, sigma), seq
    return ratings, places
