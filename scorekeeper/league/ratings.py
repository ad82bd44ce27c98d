"""OpenSkill ratings carried forward, game by game, for a season or a club's all time.

Ratings are sequential (RULES.md §11): each game's update starts from its players'
ratings after their previous games. So each rated game keeps its place in the order
(``RatedGame.seq``) and its players' ratings after it (``PlayerRating``), and each
player's latest rating is kept too (``CurrentRating``).

The results are rows of the table app, rewritten under new keys when a game changes
and deleted with their partie; a game's ratings go with its rows. So the ratings hold
while the rated games are exactly the counted ones, numbered 1, 2, 3... in playing
order. When they are not, the games are rated again from the first one out of place,
once, under a lock on the season's (or club's) row: a game closing last rates that
game alone, a change at the start rates the whole season again. A rename changes no
row. ``ensure`` is called before the ratings are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, Max, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.table.models import ClosedGame, PlayerResult

from .models import CurrentRating, PlayerRating, RatedGame, Season

ORDER = ("started_at", "partie_id", "number")  # the playing order of closed games


@dataclass(frozen=True)
class Scope:
    """Whose ratings: a season's (its counted games) or a club's (every closed game)."""

    owner: Season | Club
    games: QuerySet[ClosedGame]  # the games it counts

    @property
    def key(self) -> dict:
        return {"season": self.owner} if isinstance(self.owner, Season) else {"club": self.owner}

    def lock(self) -> None:
        type(self.owner).objects.select_for_update().filter(pk=self.owner.pk).first()


def ensure(scope: Scope) -> None:
    """Rate whatever of the scope's games is not rated in its place, so that its stored
    ratings are those of its games now."""
    if _in_place(scope):
        return
    with transaction.atomic():
        scope.lock()  # one request rates; the next finds them rated
        if _in_place(scope):
            return
        appended = _appended(scope)
        if appended is not None:
            _rate(scope, *appended, appended=True)
        else:
            place = _first_out_of_place(scope)
            _rated(scope).filter(seq__gte=place).delete()
            PlayerRating.objects.filter(**scope.key, seq__gte=place).delete()
            games = scope.games.order_by(*ORDER).values_list("pk", flat=True)[place - 1 :]
            _rate(scope, place, list(games), _before(scope, place), appended=False)


def current(scope: Scope) -> dict[int, engine.Rating]:
    """Each rated player's latest rating, by player id."""
    rows = CurrentRating.objects.filter(**scope.key).values_list("player_id", "mu", "sigma")
    return {player: engine.Rating(mu, sigma) for player, mu, sigma in rows}


def current_of(scope: Scope, player) -> QuerySet[CurrentRating]:
    """The player's latest rating (``player`` may be an ``OuterRef``)."""
    return CurrentRating.objects.filter(**scope.key, player_id=player)


def history(scope: Scope, player_id: int) -> dict[int, engine.Rating]:
    """A player's rating after each of his rated games, by the game's key."""
    rows = PlayerRating.objects.filter(**scope.key, player_id=player_id)
    return {
        game: engine.Rating(mu, sigma)
        for game, mu, sigma in rows.values_list("result__game_id", "mu", "sigma")
    }


def _rated(scope: Scope) -> QuerySet[RatedGame]:
    return RatedGame.objects.filter(**scope.key)


def _in_place(scope: Scope) -> bool:
    """Whether the rated games are the counted ones, numbered 1 to n: as many games
    counted as rated, every rated one counted, no place missing (a deleted game's)."""
    rated = _counts(scope)
    return scope.games.count() == rated["n"] == rated["counted"] == rated["last"]


def _counts(scope: Scope) -> dict[str, int]:
    counts = _rated(scope).aggregate(
        n=Count("pk"), last=Max("seq"), counted=Count("pk", filter=Q(game__in=scope.games))
    )
    return {**counts, "last": counts["last"] or 0}


def _appended(scope: Scope) -> tuple | None:
    """Where every rated game is counted and in place and the games not yet rated all
    come after them (games closed last): their place, the games, and the ratings of
    their players before them. None: a change earlier on."""
    rated = _counts(scope)
    if not rated["n"] or not rated["n"] == rated["counted"] == rated["last"]:
        return None
    last = ClosedGame.objects.filter(
        pk__in=_rated(scope).filter(seq=rated["last"]).values("game_id")
    ).values(*ORDER)[0]
    started, partie, number = (last[field] for field in ORDER)
    upto = (
        Q(started_at__lt=started)
        | Q(started_at=started, partie_id__lt=partie)
        | Q(started_at=started, partie_id=partie, number__lte=number)
    )
    if scope.games.filter(upto).count() != rated["last"]:
        return None
    if CurrentRating.objects.filter(**scope.key, seq__gt=rated["last"]).exists():
        return None  # the latest ratings are of games since taken away
    games = list(scope.games.exclude(upto).order_by(*ORDER).values_list("pk", flat=True))
    players = PlayerResult.objects.filter(game_id__in=games).values("player_id")
    start = _current_of(scope, CurrentRating.objects.filter(player_id__in=players))
    return rated["last"] + 1, games, start


def _first_out_of_place(scope: Scope) -> int:
    """The place of the first game not rated there, or of a rated game no longer
    counted: the games are rated again from it on."""
    places = dict(_rated(scope).values_list("game_id", "seq"))
    order = scope.games.order_by(*ORDER).values_list("pk", flat=True)
    for n, pk in enumerate(order.iterator(chunk_size=5000), 1):
        if places.pop(pk, None) != n:
            return min(n, *places.values()) if places else n
    return min(places.values(), default=1)  # every counted game in place: the rest go


def _rate(
    scope: Scope,
    place: int,
    games: list[int],
    start: tuple[dict[int, engine.Rating], dict[int, int]],
    appended: bool,
) -> None:
    """Rate ``games`` in order from ``place`` on, the players starting from ``start``,
    and keep their latest ratings: those of the games' players where the games are
    ``appended``, else every player's (``start`` holds everyone's before ``place``)."""
    sides = _sides(games)
    ratings_before, places = start  # each player's rating, and the place of his last game
    rater = engine.Rater(ratings_before)
    owner = (scope.key.get("season"), scope.key.get("club"))
    season, club = (None if o is None else o.pk for o in owner)
    rated, ratings, last = [], [], dict(places)
    for seq, game in enumerate(games, start=place):
        rated.append((game, season, club, seq))
        ranking, ranks, results = sides[game]
        for pk, rating in rater.rate(ranking, ranks):
            ratings.append((results[pk], season, club, pk, seq, rating.mu, rating.sigma))
            last[pk] = seq
    _insert(RatedGame, ("game_id", "season_id", "club_id", "seq"), rated)
    _insert(
        PlayerRating,
        ("result_id", "season_id", "club_id", "player_id", "seq", "mu", "sigma"),
        ratings,
    )
    kept = CurrentRating.objects.filter(**scope.key)
    (kept.filter(player_id__in=list(rater.ratings)) if appended else kept).delete()
    CurrentRating.objects.bulk_create(
        (CurrentRating(player_id=pk, mu=r.mu, sigma=r.sigma, seq=last[pk], **scope.key)
         for pk, r in rater.ratings.items()),
        batch_size=5000,
    )  # fmt: skip


def _sides(games: list[int]) -> dict[int, tuple[list[list[int]], list[int], dict[int, int]]]:
    """Each game's sides (player ids, the winners first), their ranks, and each player's
    result row."""
    sides: dict = {game: ([], [], {}) for game in games}
    rows = PlayerResult.objects.filter(game_id__in=games).order_by("game_id", "side", "pk")
    fields = ("game_id", "player_id", "side", "rank", "pk")
    for game, player, side, rank, result in rows.values_list(*fields).iterator(chunk_size=10000):
        ranking, ranks, results = sides[game]
        if side == len(ranking):
            ranking.append([])
            ranks.append(rank)
        ranking[side].append(player)
        results[player] = result
    return sides


def _insert(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert plain rows: by COPY on PostgreSQL (a season rated again is tens of
    thousands of rows), else in bulk."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        columns = ", ".join(model._meta.get_field(f.removesuffix("_id")).column for f in fields)
        with connection.cursor() as cursor:
            statement = f"COPY {model._meta.db_table} ({columns}) FROM STDIN"
            with cursor.cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)
        return
    model.objects.bulk_create(
        (model(**dict(zip(fields, row, strict=True))) for row in rows), batch_size=5000
    )


def _before(scope: Scope, place: int) -> tuple[dict[int, engine.Rating], dict[int, int]]:
    """Each player's rating after his last game before ``place``."""
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


def _current_of(scope: Scope, rows: QuerySet[CurrentRating]):
    return _with_places(rows.filter(**scope.key).values_list("player_id", "mu", "sigma", "seq"))


def _with_places(rows) -> tuple[dict[int, engine.Rating], dict[int, int]]:
    """Ratings by player, and the place of the game each was rated after."""
    ratings, places = {}, {}
    for player, mu, sigma, seq in rows:
        ratings[player], places[player] = engine.Rating(mu, sigma), seq
    return ratings, places
