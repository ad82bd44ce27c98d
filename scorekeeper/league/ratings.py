"""OpenSkill ratings carried forward, game by game, for a season or a club's all time.

Ratings are sequential (RULES.md §11): each game's update starts from its players'
ratings after their previous games. So each rated game keeps its place in the order
(``RatedGame.seq``) and its players' ratings after it (``PlayerRating``), and each
player's latest rating is kept too (``CurrentRating``).

The results are rows of the table app, rewritten under new keys when a game changes
and deleted with their partie; a game's ratings go with its rows. So the ratings hold
while the rated games are exactly the counted ones, numbered 1, 2, 3... in playing
order. A rated game stays counted while the season counts the same way (its dates,
kinds, close and assignments: ``RatedCounting``): then as many games counted as rated,
numbered 1 to n, says that they are in place, which one query over two indexes
tells. When they are not, the games are rated again from the first one out of place,
once, under a lock on the season's (or club's) row: a game closing last rates that
game alone, a change at the start rates the whole season again. A rename changes no
row. ``append`` is called when a game closes, in its transaction, so that a game closing
last is rated before anyone reads the ratings; ``ensure`` right after a change that puts
games out of place is committed (``league.services``), so that the request that made it
waits for the rating again, not the next viewer, and before the ratings are read, in
case that rating did not happen (it failed, or the process ended).
"""

from __future__ import annotations

import itertools
import operator
import struct
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import (
    Count,
    F,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Window,
)
from django.db.models.expressions import Star
from django.db.models.functions import RowNumber

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.table.models import ClosedGame, PlayerResult

from .models import CurrentRating, PlayerRating, RatedCounting, RatedGame, Season

ORDER = ("started_at", "partie_id", "number")  # the playing order of closed games
FEW = 500  # games rated again: up to so many, their result rows are read by key


@dataclass(frozen=True)
class Scope:
    """Whose ratings: a season's (its counted games) or a club's (every closed game)."""

    owner: Season | Club
    games: QuerySet[ClosedGame]  # the games it counts
    results: QuerySet[PlayerResult] | None = None  # their players' results
    # Which games a season counts (RatedCounting); a club: every one. None: it changes
    # with more than the season (its players' answers): the games are checked one by one.
    counting: str | None = ""

    @property
    def key(self) -> dict:
        return {"season": self.owner} if isinstance(self.owner, Season) else {"club": self.owner}

    def lock(self) -> None:
        """One rater at a time. NO KEY UPDATE: a row that refers to the club or season
        (a partie started, a hand recorded) is still written meanwhile, not held back
        for as long as a season is rated again."""
        owner = type(self.owner).objects.select_for_update(no_key=True)
        owner.filter(pk=self.owner.pk).first()

    @property
    def counted_results(self) -> QuerySet[PlayerResult]:
        if self.results is not None:
            return self.results
        return PlayerResult.objects.filter(game__in=self.games)


def ensure(scope: Scope) -> None:
    """Rate whatever of the scope's games is not rated in its place, so that its stored
    ratings are those of its games now."""
    state = _state(scope)
    if state.in_place or (scope.counting is None and _in_place(scope)):
        return
    with transaction.atomic():
        scope.lock()  # one request rates; the next finds them rated
        state = _state(scope)
        if state.in_place:
            return
        if not _rate_appended(scope, state) and (state.counting_kept or not _in_place(scope)):
            _rate_again(scope)
        if (
            isinstance(scope.owner, Season)
            and scope.counting is not None
            and not state.counting_kept
        ):
            RatedCounting.objects.update_or_create(
                season=scope.owner, defaults={"counting": scope.counting}
            )


def append(scope: Scope) -> bool:
    """Rate the scope's games that came last in the order since its games were rated,
    where those are all it has not rated: what a closing game asks, in its transaction.
    Whether the ratings are in place after it; if not (a game before the last rated
    one, the season counting otherwise, nothing rated yet), ``ensure`` rates them, in a
    transaction of its own (``league.services`` calls it once the change is committed)."""
    if scope.counting is None:
        return False  # which games count waits for the players' answers: game by game
    if not _rated(scope).exists():
        return False  # nothing rated yet, nothing to carry forward: all are rated
    with transaction.atomic():
        scope.lock()
        state = _state(scope)
        return state.in_place or _rate_appended(scope, state)


def _rate_appended(scope: Scope, state: State) -> bool:
    """Rate the games not rated yet where they all come after the rated ones (and the
    season still counts as when those were rated): whether it did. Under the lock."""
    appended = _appended(scope, state) if state.counting_kept else None
    if appended is not None:
        _rate(scope, *appended, appended=True)
    return appended is not None


def _rate_again(scope: Scope) -> None:
    """Rate the games again from the first one out of place on. Under the lock."""
    place = _first_out_of_place(scope)
    _rated(scope).filter(seq__gte=place).delete()
    PlayerRating.objects.filter(**scope.key, seq__gte=place).delete()
    games = list(scope.games.order_by(*ORDER).values_list("pk", flat=True)[place - 1 :])
    _rate(scope, place, games, _before(scope, place), appended=False)


def current_rows(scope: Scope) -> QuerySet[CurrentRating]:
    """Each rated player's latest rating: ``player_id``, ``mu`` and ``sigma``."""
    return CurrentRating.objects.filter(**scope.key).values_list("player_id", "mu", "sigma")


def history(scope: Scope, player_id: int) -> dict[int, engine.Rating]:
    """A player's rating after each of his rated games, by the game's key."""
    rows = PlayerRating.objects.filter(**scope.key, player_id=player_id)
    return {
        game: engine.Rating(mu, sigma)
        for game, mu, sigma in rows.values_list("result__game_id", "mu", "sigma")
    }


def _rated(scope: Scope) -> QuerySet[RatedGame]:
    return RatedGame.objects.filter(**scope.key)


@dataclass(frozen=True)
class State:
    """What one query tells of a scope's ratings: its games counted, its games rated and
    the last place, and whether the season still counts as when they were rated."""

    counted: int
    rated: int
    last: int
    counting_kept: bool

    @property
    def in_place(self) -> bool:
        """Every rated game is counted while the counting is kept (a game changed is
        a game deleted, its rated row with it): as many counted as rated, in places 1
        to n, are the same games in the same order."""
        return self.counting_kept and self.counted == self.rated == self.last


def _count(rows: QuerySet, function: str = "COUNT", field: str | None = None) -> Subquery:
    """One figure of ``rows`` as a subquery (no GROUP BY): their number, or ``function``
    of ``field``. ``COUNT(*)`` reads an index alone where one holds the filter."""
    value = Func(
        Star() if field is None else F(field), function=function, output_field=IntegerField()
    )
    return Subquery(rows.order_by().annotate(value=value).values("value")[:1])


def _state(scope: Scope) -> State:
    owner = type(scope.owner).objects.filter(pk=scope.owner.pk)
    figures = {
        "counted": _count(scope.games),
        "rated": _count(_rated(scope)),
        "last": _count(_rated(scope), "MAX", "seq"),
    }
    if isinstance(scope.owner, Season) and scope.counting is not None:
        kept = RatedCounting.objects.filter(season=OuterRef("pk"), counting=scope.counting)
        figures["kept"] = _count(kept)
    row = owner.annotate(**figures).values(*figures).get()
    kept = row.pop("kept", scope.counting is not None) == 1
    return State(row["counted"], row["rated"], row["last"] or 0, counting_kept=kept)


def _in_place(scope: Scope) -> bool:
    """Whether the rated games are the counted ones, numbered 1 to n, read game by game
    (the season counts otherwise now: the same games, maybe)."""
    rated = _rated(scope).aggregate(
        n=Count("pk"), last=Max("seq"), counted=Count("pk", filter=Q(game__in=scope.games))
    )
    n = scope.games.count()
    return n == rated["n"] == rated["counted"] == (rated["last"] or 0)


def _appended(scope: Scope, state: State) -> tuple | None:
    """Where every rated game is counted and in place and the games not yet rated all
    come after them (games closed last): their place, the games, and the ratings of
    their players before them. None: a change earlier on."""
    if not state.rated or not state.rated == state.last < state.counted:
        return None
    last = ClosedGame.objects.filter(
        pk__in=_rated(scope).filter(seq=state.last).values("game_id")
    ).values(*ORDER)[0]
    started, partie, number = (last[field] for field in ORDER)
    after = (
        Q(started_at__gt=started)
        | Q(started_at=started, partie_id__gt=partie)
        | Q(started_at=started, partie_id=partie, number__gt=number)
    )
    games = list(scope.games.filter(after).order_by(*ORDER).values_list("pk", flat=True))
    if len(games) != state.counted - state.rated:
        return None  # a game not rated comes before the last rated one
    if CurrentRating.objects.filter(**scope.key, seq__gt=state.last).exists():
        return None  # the latest ratings are of games since taken away
    players = PlayerResult.objects.filter(game_id__in=games).values("player_id")
    start = _current_of(scope, CurrentRating.objects.filter(player_id__in=players))
    return state.last + 1, games, start


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
    ``appended``, else every player's (``start`` holds everyone's before ``place``). A
    game gone since it was listed (deleted meanwhile) takes no place."""
    results = _results(scope, games)
    ratings_before, places = start  # each player's rating, and the place of his last game
    rater = engine.Rater(ratings_before)
    season, club = (scope.owner.pk, None) if "season" in scope.key else (None, scope.owner.pk)
    rated, ratings, last = [], [], dict(places)
    seq = place
    for game in games:
        rows = results.get(game)
        if not rows:
            continue
        rated.append((game, season, club, seq))
        if len(rows) == 2 and rows[1][2] == 1:  # most games: one player against another
            (_, one, _, rank, _), (_, other, _, other_rank, _) = rows
            ranking, ranks = ((one,), (other,)), (rank, other_rank)
        else:
            ranking, ranks = [], []
            for _, player, side, rank, _ in rows:  # by side, the winners first
                if side == len(ranking):
                    ranking.append([])
                    ranks.append(rank)
                ranking[side].append(player)
        for row, (player, rating) in zip(rows, rater.rate(ranking, ranks), strict=True):
            ratings.append((row[4], season, club, player, seq, rating.mu, rating.sigma))
            last[player] = seq
        seq += 1
    _insert(RatedGame, ("game_id", "season_id", "club_id", "seq"), rated)
    _insert(
        PlayerRating,
        ("result_id", "season_id", "club_id", "player_id", "seq", "mu", "sigma"),
        ratings,
    )
    kept = CurrentRating.objects.filter(**scope.key)
    (kept.filter(player_id__in=list(rater.ratings)) if appended else kept).delete()
    _insert(
        CurrentRating,
        ("player_id", "season_id", "club_id", "mu", "sigma", "seq"),
        [(pk, season, club, r.mu, r.sigma, last[pk]) for pk, r in rater.ratings.items()],
    )


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


# PostgreSQL's binary COPY: a header, each row as its field count and each field's
# length and big-endian value, a trailer. Floats go as their 64 bits, read back the same.
COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
COPY_TRAILER = struct.pack(">h", -1)
COPY_CODES = {"bigint": "q", "integer": "i", "smallint": "h", "double precision": "d"}


def _insert(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert plain rows: by a binary COPY on PostgreSQL (a season rated again is tens
    of thousands of rows), else in bulk. A column empty in the first row (the season's
    or the club's) is left out: NULL in every row."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            (model(**dict(zip(fields, row, strict=True))) for row in rows), batch_size=5000
        )
        return
    kept = [n for n, value in enumerate(rows[0]) if value is not None]
    found = [model._meta.get_field(fields[n].removesuffix("_id")) for n in kept]
    codes = [COPY_CODES[field.db_type(connection)] for field in found]
    pack = struct.Struct(">h" + "".join("i" + code for code in codes)).pack
    columns = list(zip(*rows, strict=True))
    # Each row: the field count, then each field's length and value, packed at once.
    interleaved = [itertools.repeat(len(kept))]
    for n, code in zip(kept, codes, strict=True):
        interleaved += [itertools.repeat(struct.calcsize(">" + code)), columns[n]]
    data = b"".join(itertools.starmap(pack, zip(*interleaved, strict=False)))  # repeats: endless
    names = ", ".join(field.column for field in found)
    with connection.cursor() as cursor:
        statement = f"COPY {model._meta.db_table} ({names}) FROM STDIN (FORMAT BINARY)"
        with cursor.cursor.copy(statement) as copy:
            copy.write(COPY_HEADER + data + COPY_TRAILER)


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


def _current_of(scope: Scope, rows: QuerySet[CurrentRating]):
    return _with_places(rows.filter(**scope.key).values_list("player_id", "mu", "sigma", "seq"))


def _with_places(rows) -> tuple[dict[int, engine.Rating], dict[int, int]]:
    """Ratings by player, and the place of the game each was rated after."""
    ratings, places = {}, {}
    for player, mu, sigma, seq in rows:
        ratings[player], places[player] = engine.Rating(mu, sigma), seq
    return ratings, places
