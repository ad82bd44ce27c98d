"""Reads of the league app: a season's parties, its standings and head-to-head, and a
club's all-time lines, counted by the database from the stored results (no partie is
replayed): one ``GROUP BY`` gives every player's line, the head-to-head is read only
for players level on the first three keys of RULES.md §11, and the ratings are those
carried forward game by game (``league.ratings``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, time, timedelta
from functools import cached_property
from typing import NamedTuple

from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    FilteredRelation,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.engine import season as documents
from scorekeeper.formats import plain_amount
from scorekeeper.table.models import (
    MONEY_SCALE,
    ClosedGame,
    Hand,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    ResultConfirmation,
    ResultsChange,
    Seat,
    SettlementLine,
    scoring,
)
from scorekeeper.table.selectors import HANDS_IN_ORDER, partie_record, partie_with_players
from scorekeeper.vocabulary import pending_text

from . import ratings
from .models import (
    Assignment,
    League,
    NightBye,
    NightTable,
    Season,
    SeasonChange,
    SeasonClose,
)

HeadToHead = engine.HeadToHead
TREND = 5  # results shown as a player's trend


def season_parties(season: Season) -> QuerySet[Partie]:
    """The club's parties that count for the season: assigned to it, or unassigned and
    started between its first and last day; of the kinds it counts."""
    return Partie.objects.filter(_counted(season, _assignments(season), "pk"))


Assigned = tuple[list[int], list[int]]


def _assignments(season: Season, rows: list[tuple[int, int]] | None = None) -> Assigned:
    """The club's parties assigned to the season, and those assigned to another one: a
    few, read first, so that the rows are found by an index. ``rows``: the club's
    assignments already read (``_club_assignments``)."""
    here, elsewhere = [], []
    if rows is None:
        rows = _club_assignments(season.league.club_id)
    for partie_id, season_id in rows:
        (here if season_id == season.pk else elsewhere).append(partie_id)
    return here, elsewhere


def _club_assignments(club_id: int) -> list[tuple[int, int]]:
    """Each of the club's parties assigned to a season, with the season."""
    assigned = Assignment.objects.filter(partie__club_id=club_id)
    return list(assigned.values_list("partie_id", "season_id"))


def day_start(day: date) -> datetime:
    """The first moment of ``day`` where the club plays (the site's time zone): a
    season counts the parties started from its first day's on."""
    return datetime.combine(day, time.min, tzinfo=timezone.get_current_timezone())


# Parties no book counts (an unrated tournament's): each source gives a query of their
# keys. An app above the league registers its own in its ``ready`` (the league imports
# no app above it); the books read them as a subquery, not as a query of their own.
_UNRATED: list[Callable[[], QuerySet]] = []


def parties_unrated(source: Callable[[], QuerySet]) -> None:
    """Leave the parties ``source()`` names (a query of partie keys) out of every book."""
    if source not in _UNRATED:
        _UNRATED.append(source)


def _rated(partie: str = "partie_id") -> Q:
    """The condition on a row (``partie``: its partie's key) that no source leaves its
    partie out."""
    rated = Q()
    for source in _UNRATED:
        rated &= ~Q(**{f"{partie}__in": source()})
    return rated


def _counted(season: Season, assigned: Assigned, partie: str = "partie_id", prefix: str = "") -> Q:
    """The condition on a partie's rows (``prefix`` to the fields ``club_id``,
    ``started_at`` and ``kind``; ``partie`` its key) that the season counts them. A
    closed season counts no partie started after its close."""
    here, elsewhere = assigned
    first = day_start(season.starts_on)
    after = first + timedelta(days=(season.ends_on - season.starts_on).days + 1)
    if season.closed_at is not None:
        after = min(after, season.closed_at)
    dated = Q(**{f"{prefix}started_at__gte": first, f"{prefix}started_at__lt": after})
    if elsewhere:
        dated &= ~Q(**{f"{partie}__in": elsewhere})
    if here:
        dated |= Q(**{f"{partie}__in": here})
    counted = Q(**{f"{prefix}club_id": season.league.club_id}) & dated
    if season.kinds:
        counted &= Q(**{f"{prefix}kind__in": season.kinds})
    return counted & _rated(partie)


@dataclass(frozen=True)
class Book:
    """What a league table counts: a season's games, or every closed game of a club
    (its all-time records, by the default points).

    ``played`` is every result of the book's closed games, ``results`` those it counts:
    the same, or (a season that counts only confirmed games) those of the games that no
    asked player has left unconfirmed. The hand statistics (``stats``) count the hands
    of every partie of the book (``parties``); where only confirmed games count, of the
    parties none of whose closed games is pending (a partie's hands are kept
    whole, not game by game: a hand of Hollywood scores in three games)."""

    owner: Season | Club
    points: engine.LeaguePoints
    min_games: int
    results: QuerySet[PlayerResult]
    settlements: QuerySet[SettlementLine]  # who paid whom in its games (not standings lines)
    parties: QuerySet[Partie]
    stats: QuerySet[PartieStats]
    games: QuerySet[ClosedGame]
    played: QuerySet[PlayerResult]
    confirmed_only: bool = False

    @property
    def rating_scope(self) -> ratings.Scope:
        return ratings.Scope(self.owner, self.games, self.results)


def _pending(game: str = "game_id") -> Q:
    """The condition on a row (``game``: its game's key) that its game is pending: some
    player asked to confirm it has not (his confirmation pending, or disputed)."""
    return Q(**{f"{game}__in": ResultConfirmation.pending_games()})


def _confirmed(game: str = "game_id") -> Q:
    """A row whose game is confirmed: no player asked has left it unconfirmed (a game
    that asked nobody is confirmed)."""
    return ~_pending(game)


def _confirmed_parties() -> Q:
    """A row whose partie has no pending closed game."""
    return ~Q(partie_id__in=ClosedGame.objects.filter(_pending("pk")).values("partie_id"))


def season_book(season: Season, assignments: list[tuple[int, int]] | None = None) -> Book:
    """The season's book; ``assignments``: the club's, read already (``_club_assignments``)."""
    assigned = _assignments(season, assignments)
    only = season.confirmed_games_only
    confirmed = _confirmed() if only else Q()
    played = PlayerResult.objects.filter(_counted(season, assigned))
    return Book(
        season,
        season.points,
        season.min_games,
        played.filter(confirmed),
        SettlementLine.objects.filter(
            _counted(season, assigned, "game__partie_id", "game__"), confirmed
        ),
        Partie.objects.filter(_counted(season, assigned, "pk")),
        PartieStats.objects.filter(
            _counted(season, assigned), _confirmed_parties() if only else Q()
        ),
        ClosedGame.objects.filter(_counted(season, assigned), _confirmed("pk") if only else Q()),
        played,
        only,
    )


def club_book(club: Club) -> Book:
    results = PlayerResult.objects.filter(_rated(), club_id=club.pk)
    return Book(
        club,
        engine.LeaguePoints(),
        0,
        results,
        SettlementLine.objects.filter(_rated("game__partie_id"), game__club_id=club.pk),
        Partie.objects.filter(_rated("pk"), club_id=club.pk),
        PartieStats.objects.filter(_rated(), club_id=club.pk),
        ClosedGame.objects.filter(_rated(), club_id=club.pk),
        results,
    )


def book_lines(
    book: Book, players: Iterable[int] | None = None, rating: bool = True
) -> dict[int, engine.league.Line]:
    """Each player's line in the book's order (all players with a counted game, or only
    ``players``), unranked, by player id; ``rating`` False: with the default rating."""
    return {pk: line for pk, (line, _pending) in _book_lines(book, players, rating).items()}


def _book_lines(
    book: Book, players: Iterable[int] | None = None, rating: bool = True
) -> dict[int, tuple[engine.league.Line, int]]:
    """``book_lines``, each with the number of the player's games that some asked player
    has not confirmed yet (pending), counted in the same ``GROUP BY``: over every game
    the book plays, the figures of the counted ones (all of them, or the confirmed).
    ``rating`` False: each line with the default rating, not his."""
    counted = _line_rows(book, players)
    rated = ratings.current_rows(book.owner) if rating else None
    return {
        pk: (_line(name, figures, mu, sigma), figures[-1])
        for pk, *figures, name, mu, sigma in _named(counted, rated)
    }


def _line_rows(book: Book, players: Iterable[int] | None = None) -> QuerySet:
    """Each player's figures (``player_id`` first), counted in one ``GROUP BY``: games,
    wins, shutout wins, league points, net points, money and games pending."""
    played = book.played if players is None else book.played.filter(player_id__in=players)
    figures = _figures(book, played).annotate(
        n_shutouts=Count(NEVER_NULL, filter=_of(book, Q(shutout=True))),
        n_money=Sum("money_e4", filter=_of(book), default=0),
        n_pending=Count(NEVER_NULL, filter=_pending()),
    )
    return figures.values_list(
        "player_id", "n_games", "n_won", "n_shutouts", "n_points", "n_net", "n_money",
        "n_pending",
    )  # fmt: skip


def _line(name: str, figures, mu: float | None = None, sigma: float | None = None):
    """A line of the figures of ``_line_rows`` (without the player's key)."""
    games, won, shutouts, points, net, money, _pending = figures
    rating = engine.Rating() if mu is None else engine.Rating(mu, sigma)
    money = plain_amount(money * MONEY_SCALE)
    return engine.league.Line(None, name, games, won, games - won, shutouts, points, net, money,
                              rating)  # fmt: skip


def _named(counted: QuerySet, rated: QuerySet | None) -> list[tuple]:
    """The rows counted per player (``player_id`` first), each followed by his name and
    his rating's ``mu`` and ``sigma`` (None: not rated, or ``rated`` None), in one query:
    counted first, then joined by key (a join or a subquery inside the ``GROUP BY`` makes
    PostgreSQL walk every result row in the player's order)."""
    sql, params = counted.query.sql_with_params()
    columns, joined = "NULL, NULL", ""
    if rated is not None:
        rated_sql, rated_params = rated.query.sql_with_params()
        columns = "rated.mu, rated.sigma"
        joined = f" LEFT JOIN ({rated_sql}) rated ON rated.player_id = counted.player_id"
        params = (*params, *rated_params)
    statement = (
        f"SELECT counted.*, player.name, {columns} FROM ({sql}) counted "  # noqa: S608 (Django's SQL)
        f"JOIN {Player._meta.db_table} player ON player.id = counted.player_id{joined}"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall()


def _of(book: Book, condition: Q | None = None) -> Q | None:
    """The rows a figure adds up: the counted ones (that meet ``condition``)."""
    if not book.confirmed_only:
        return condition
    return _confirmed() if condition is None else _confirmed() & condition


# What a count of result rows counts: a column of the covering index that is never NULL,
# so that the count reads the index alone (``COUNT(*)`` takes no FILTER in Django).
NEVER_NULL = "player_id"


def _figures(book: Book, played: QuerySet[PlayerResult]) -> QuerySet[PlayerResult]:
    """Each player's counted games, wins, league points (the book's) and net points,
    grouped by player over the games he played: what ranks him (RULES.md §11)."""
    points = book.points
    return (
        played.order_by()
        .values("player_id")
        .annotate(
            n_games=Count(NEVER_NULL, filter=_of(book)),
            n_won=Count(NEVER_NULL, filter=_of(book, Q(won=True))),
            n_points=Sum(
                Case(
                    When(shutout=True, then=Value(points.shutout_win)),
                    When(won=True, then=Value(points.win)),
                    default=Value(points.loss),
                    output_field=IntegerField(),
                ),
                filter=_of(book),
                default=0,
            ),
            n_net=Sum("net_points", filter=_of(book), default=0),
        )
    )


def _plain(rows: QuerySet) -> list[tuple]:
    """The rows of a ``values_list`` of whole numbers as the database driver gives them:
    Django's converters would be called on every value of a season's thousands."""
    with connection.cursor() as cursor:
        cursor.execute(*rows.query.sql_with_params())
        return cursor.fetchall()


class Counted(NamedTuple):
    """A book's standings: the lines in the order of RULES.md §11, every listed player's
    id by name, and each player's games not confirmed yet by id (none: left out)."""

    lines: tuple[engine.league.Line, ...]
    ids: dict[str, int]
    pending: dict[int, int]


def book_standings(book: Book) -> Counted:
    """The book's lines in the order of RULES.md §11, with those listed without a
    counted game (a season that counts only confirmed games lists a player whose games
    are all pending so too); every listed player's id by name; and each one's pending
    games."""
    figures = _book_lines(book)
    lines = {pk: line for pk, (line, _pending) in figures.items()}
    pending = {pk: n for pk, (_line, n) in figures.items() if n}
    ids = {line.player: pk for pk, line in lines.items()}
    for pk, name in _listed_without_games(book).items():
        if pk not in lines:
            ids[name] = pk
            lines[pk] = engine.league.Line(None, name)
    among = _among(book, engine.league.ties(lines.values(), book.min_games), ids)
    return Counted(engine.league.ranked(lines.values(), among, book.min_games), ids, pending)


def _listed_without_games(book: Book) -> dict[int, str]:
    """The players seated in a partie of the book with no closed game: listed too (a
    partie with a closed game gives each of its players a result)."""
    seats = Seat.objects.filter(partie__in=_yet_to_close(book))
    return dict(seats.values_list("player_id", "player__name"))


def _yet_to_close(book: Book) -> QuerySet[Partie]:
    """The book's parties running without a closed game yet."""
    running = book.parties.filter(state=Partie.State.RUNNING)
    return running.filter(~Exists(ClosedGame.objects.filter(partie=OuterRef("pk"))))


def _among(book: Book, groups: list[frozenset[str]], ids: dict[str, int]) -> dict[str, int]:
    """Each tied player's settlement points against the others of his group."""
    if not groups:
        return {}
    group_of = {ids[name]: n for n, group in enumerate(groups) for name in group}
    among = {name: 0 for group in groups for name in group}
    tied = list(group_of)
    pairs = (
        book.settlements.filter(payer_id__in=tied, payee_id__in=tied)
        .values("payer_id", "payee_id")
        .annotate(points=Sum("points"))
        .order_by()
    )
    names = {pk: name for name, pk in ids.items()}
    for pair in pairs:
        payer, payee = pair["payer_id"], pair["payee_id"]
        if group_of[payer] == group_of[payee]:
            among[names[payee]] += pair["points"]
            among[names[payer]] -= pair["points"]
    return among


def meetings(
    book: Book, players: Iterable[int] | None = None, of: int | None = None
) -> dict[int, dict[int, list[int]]]:
    """Each pair's meetings, by player id: ``[won, lost, net points]`` of the first
    against the second, for the pairs that met: among ``players`` where given, or
    those of the player ``of``."""
    pairs: dict[int, dict[int, list[int]]] = {}

    def between(one: int, other: int) -> list[int]:
        return pairs.setdefault(one, {}).setdefault(other, [0, 0, 0])

    winners = book.results.filter(won=True).annotate(
        lost=FilteredRelation("game__results", condition=Q(game__results__won=False))
    )
    settlements = book.settlements
    if players is not None:
        players = list(players)
        winners = winners.filter(player_id__in=players, lost__player_id__in=players)
        settlements = settlements.filter(payer_id__in=players, payee_id__in=players)
    if of is not None:  # from his games: a few of the club's thousands
        his = book.results.filter(player_id=of).values("game_id")
        winners = winners.filter(game_id__in=his).filter(Q(player_id=of) | Q(lost__player_id=of))
        settlements = settlements.filter(game_id__in=his).filter(Q(payer_id=of) | Q(payee_id=of))
    wins = winners.values("player_id", "lost__player_id").annotate(n=Count("pk")).order_by()
    for row in wins:
        between(row["player_id"], row["lost__player_id"])[0] += row["n"]
        between(row["lost__player_id"], row["player_id"])[1] += row["n"]
    net = settlements.values("payer_id", "payee_id").annotate(points=Sum("points")).order_by()
    for row in net:
        between(row["payee_id"], row["payer_id"])[2] += row["points"]
        between(row["payer_id"], row["payee_id"])[2] -= row["points"]
    return pairs


def hand_stats(book: Book, players: Iterable[int] | None = None) -> dict[int, engine.HandStats]:
    """Each player's hands over the book's parties, by player id."""
    stats = book.stats
    if players is not None:
        stats = stats.filter(player_id__in=list(players))
    totals = (
        stats.values("player_id")
        .annotate(hands=Sum("hands"), won=Sum("won"), gins=Sum("gins"),
                  undercuts=Sum("undercuts"), points=Sum("points"))
        .order_by()
    )  # fmt: skip
    fields = ("player_id", "hands", "won", "gins", "undercuts", "points")
    return {pk: engine.HandStats(*figures) for pk, *figures in _plain(totals.values_list(*fields))}


def trends(book: Book, players: Iterable[int]) -> dict[int, tuple[bool, ...]]:
    """Each player's last TREND results, oldest first: True a win. Read player by player,
    newest first, so that each stops after his last few games (an index on the player and
    the start): a page of players, not their whole seasons."""
    newest = book.results.filter(player_id=OuterRef("pk")).order_by(
        "-started_at", "-partie_id", "-number"
    )
    back = {f"back{n}": Subquery(newest.values("won")[n : n + 1]) for n in range(TREND)}
    rows = Player.objects.filter(pk__in=list(players)).annotate(**back)
    return {
        player: tuple(won for won in reversed(last) if won is not None)
        for player, *last in rows.values_list("pk", *back)
        if last[0] is not None
    }


@dataclass
class StandingsRow:
    """One line of the standings page: the engine's line and what the page adds."""

    line: engine.league.Line
    player_id: int  # for the link to his page
    stats: engine.HandStats | None  # his hands over the season (None: not read yet)
    trend: tuple[bool, ...] = ()  # the last results, oldest first: True a win (with_details)
    linked: bool = True  # False: a closed season's player who is gone (merged, deleted)
    pending: int = 0  # his games of the season that some asked player has not confirmed


def _sorted_by(column: engine.league.StandingsColumn) -> Callable[[StandingsRow], object]:
    return lambda row: column.read(row.line, row.stats)


# The columns the standings can be sorted by: how to read each from a row (a column of
# the standings as it reads a line, or a rate). None sorts last. Those of the hands need
# every row's hands read first (SeasonTable.sorted_rows).
SORTS = {
    **{
        column.key: _sorted_by(column)
        for column in (*engine.league.LINE_COLUMNS, *engine.league.STATS_COLUMNS)
    },
    "gin_rate": lambda row: row.stats.gin_rate,
    "undercut_rate": lambda row: row.stats.undercut_rate,
}
HAND_SORTS = {column.key for column in engine.league.STATS_COLUMNS} | {"gin_rate", "undercut_rate"}


MATRIX = 20  # players in the page's head-to-head matrix: the top of the standings
PAGE = 100  # the most rows a page of the standings shows


class SeasonTable:
    """A season's standings: each player's row, and the head-to-head, read when asked
    for (a large season's meetings are many). A page of the table reads the hands and
    trends of its own rows alone (``with_details``); ``rows`` and ``played_rows`` give
    every row with its hands."""

    def __init__(
        self,
        season: Season,
        rows: list[StandingsRow],
        head_to_head: Callable[[], dict[str, dict[str, engine.HeadToHead]]],
        matrix: list[tuple[str, list[engine.HeadToHead | None]]],
        trends: Callable[[list[int]], dict[int, tuple[bool, ...]]],
        hands: Callable[[list[int] | None], dict[int, engine.HandStats]] | None = None,
    ):
        self.season = season
        self._rows = rows
        self._hands = hands  # each player's hands by id, for the rows without them
        self._head_to_head = head_to_head
        self.matrix = matrix  # the top MATRIX players' meetings
        self._trends = trends
        self.close: SeasonClose | None = None  # a closed season's: what the table shows
        # The season's chosen players by name; None: it lists everyone who played.
        self.listed: frozenset[str] | None = None
        # A change's ratings not rated yet by the worker: the ratings shown are older.
        self.ratings_due = False

    def with_details(self, rows: list[StandingsRow]) -> list[StandingsRow]:
        """The rows (a page of them) with each player's hands and last results."""
        runs = self._trends([row.player_id for row in rows])
        for row in self._with_hands(rows):
            row.trend = runs.get(row.player_id, ())
        return rows

    def _with_hands(self, rows: list[StandingsRow]) -> list[StandingsRow]:
        """The rows, each with his hands (read for those without them)."""
        missing = [row for row in rows if row.stats is None]
        if missing:
            # A page's players by key; more of them: everyone's at once, as cheap.
            hands = self._hands(
                [row.player_id for row in missing] if len(missing) <= PAGE else None
            )
            for row in missing:
                row.stats = hands.get(row.player_id, engine.HandStats())
        return rows

    @cached_property
    def rows(self) -> list[StandingsRow]:
        """Every listed player's row, with his hands."""
        return self._with_hands(self._rows)

    @cached_property
    def head_to_head(self) -> dict[str, dict[str, engine.HeadToHead]]:
        return self._head_to_head()

    @cached_property
    def standings(self) -> engine.Standings:
        """The engine's standings, every listed player's line: FORMAT.md's JSON."""
        return engine.Standings(tuple(row.line for row in self._rows), self.head_to_head, {})

    @cached_property
    def played_rows(self) -> list[StandingsRow]:
        """The rows of the players with a counted game, ranked among themselves: what
        the page, its CSV and its PDF show as the table."""
        return self._with_hands(self._ranked)

    @cached_property
    def _ranked(self) -> list[StandingsRow]:
        """``played_rows``, their hands maybe not read yet."""
        rows = {row.line.player: row for row in self._rows}
        lines = engine.league.played(row.line for row in self._rows)
        return [
            row if (row := rows[line.player]).line is line else replace(row, line=line)
            for line in lines
        ]

    @cached_property
    def played_standings(self) -> engine.Standings:
        """The standings of ``played_rows``, as the page's downloads write them."""
        lines = tuple(row.line for row in self.played_rows)
        return engine.Standings(lines, self.head_to_head, {})

    @cached_property
    def _played(self) -> set[str]:
        return {row.line.player for row in self._rows if row.line.games}

    @property
    def pending(self) -> bool:
        """Whether a listed player has a pending game."""
        return any(row.pending for row in self._rows)

    @property
    def pending_counts(self) -> dict[str, int | None]:
        """Each played player's pending games, by name, for the CSV; a closed season's
        final standings do not follow the confirmations: none known (None)."""
        if self.close is not None:
            return {row.line.player: None for row in self._ranked}
        return {row.line.player: row.pending for row in self._ranked}

    @property
    def without_games(self) -> list[str]:
        """The season's players with no counted game yet (a partie of theirs runs, or
        they are on its list, or their games are pending), by name: one line under
        the table, not rows of zeros; a player with games pending says how many ("Ben (1
        pending)")."""
        pending = {row.line.player: row.pending for row in self._rows if not row.line.games}
        for name in (self.listed or set()) - self._played:
            pending.setdefault(name, 0)
        return [
            name if games == 0 else pending_text(name, games)
            for name, games in sorted(pending.items())
        ]

    @property
    def unlisted(self) -> list[str]:
        """The players with a counted game who are not on the season's list, by name:
        counted all the same (RULES.md §11 counts every game of the season's parties)."""
        if self.listed is None:
            return []
        return sorted(self._played - self.listed)

    @property
    def players(self) -> list[str]:
        return [row.line.player for row in self._rows]

    def sorted_rows(self, key: str, descending: bool = False) -> list[StandingsRow]:
        """The played rows by one column (the standings' order for an unknown one); the rows
        without a figure there (no rank, no hands) come last either way. Sorted by a
        column of the hands, every row's hands are read; else none is."""
        value = SORTS.get(key, SORTS["rank"])
        rows = self.played_rows if key in HAND_SORTS else self._ranked
        present = [row for row in rows if value(row) is not None]
        missing = [row for row in rows if value(row) is None]
        return sorted(present, key=value, reverse=descending) + missing

    def meeting(self, player: str, other: str) -> engine.HeadToHead | None:
        return self.head_to_head.get(player, {}).get(other)

    @property
    def matrix_names(self) -> list[str]:
        return [name for name, _ in self.matrix]


def season_table(season: Season) -> SeasonTable:
    """The standings a season shows: its final standings once it is closed (as they
    stood at the close), else as its parties give them now."""
    if season.closed_at is not None:
        return closed_table(season_close_of(season))
    return counted_table(season)


def ratings_due(club_id: int) -> bool:
    """Whether a change of the club's games waits for the worker (``league.outbox``): its
    ratings are those of before it until then."""
    return ResultsChange.due().filter(club_id=club_id).exists()


def counted_table(season: Season) -> SeasonTable:
    """The standings of a season as its parties give them now, with each player's hands;
    the head-to-head and the trends are read when asked for."""
    book = season_book(season)
    lines, ids, pending = book_standings(book)
    rows = [
        StandingsRow(line, pk := ids[line.player], None, pending=pending.get(pk, 0))
        for line in lines
    ]
    names = {pk: name for name, pk in ids.items()}
    top = [row.player_id for row in rows if row.line.games][:MATRIX]

    def head_to_head(
        players: Iterable[int] | None = None,
    ) -> dict[str, dict[str, engine.HeadToHead]]:
        return {
            names[one]: {names[two]: engine.HeadToHead(*f) for two, f in against.items()}
            for one, against in meetings(book, players).items()
        }

    top_meetings = head_to_head(top) if len(top) > 1 else {}
    matrix = [
        (names[one], [top_meetings.get(names[one], {}).get(names[two]) for two in top])
        for one in top
    ]
    table = SeasonTable(
        season,
        rows,
        head_to_head,
        matrix,
        lambda players: trends(book, players),
        lambda players: hand_stats(book, players),
    )
    if season.has_list:
        table.listed = frozenset(season.players.values_list("name", flat=True))
    table.ratings_due = ratings_due(season.league.club_id)
    return table


def season_player_ids(season: Season) -> list[int]:
    """The ids of the season's players: those chosen from the roster, or everyone who
    played (a seat in a partie the season counts, running or over)."""
    if season.has_list:
        return list(season.players.values_list("pk", flat=True))
    seats = Seat.objects.filter(partie__in=season_parties(season))
    return list(seats.order_by().values_list("player_id", flat=True).distinct())


def season_line(season: Season, player: Player, rating: bool = True) -> engine.league.Line | None:
    """The player's line in the season's standings as the season's page, its PDF and CSV
    show it (``season_lines``); ``rating`` True: with his rating in the season."""
    line = season_lines(player, [season])[season.pk]
    if line is None or not rating or season.closed_at is not None:
        return line
    rated = ratings.current_rows(season).filter(player_id=player.pk)
    found = rated.values_list("mu", "sigma").first()
    return line if found is None else replace(line, rating=engine.Rating(*found))


def season_lines(player: Player, seasons: Iterable[Season]) -> dict[int, engine.league.Line | None]:
    """The player's line in each of the seasons of his club, by season key (None: not
    listed), with the default rating, as each season's page shows it: the page ranks the
    players with a counted game among themselves (``engine.league.played``), so a player
    without one is listed without a rank and ranks no one below him; a closed season's
    final line. As many queries for one season as for twenty (two more where he is level
    with others on the first three keys in any of them)."""
    seasons = list(seasons)
    lines: dict[int, engine.league.Line | None] = {}
    closed = [season for season in seasons if season.closed_at is not None]
    if closed:
        closes = SeasonClose.objects.filter(season__in=closed, reopened_at__isnull=True)
        kept = {close.season_id: close for close in closes}
        for season in closed:
            lines[season.pk] = _final_line(kept[season.pk], player)
    running = [season for season in seasons if season.closed_at is None]
    if not running:
        return lines
    rows = _club_assignments(running[0].league.club_id)
    books = {season.pk: season_book(season, rows) for season in running}
    counted = _union({pk: _line_rows(book, [player.pk]) for pk, book in books.items()})
    listed = _union({pk: _listed_query(book, player.pk) for pk, book in books.items()
                     if pk not in counted})  # fmt: skip
    ranked = {}
    for pk, book in books.items():
        if pk in counted:
            line = _line(player.name, counted[pk][2:])  # after the key and his id
            lines[pk] = line
            if line.games >= max(book.min_games, 1):
                ranked[pk] = line
        else:  # seated at a table with no closed game yet: listed, no line
            lines[pk] = engine.league.Line(None, player.name) if pk in listed else None
    ahead = _union({pk: _rank_counts(books[pk], line) for pk, line in ranked.items()})
    level = {pk: line for pk, line in ranked.items() if ahead[pk][2] > 1}
    behind = _tie_breaks(books, level, player.pk)
    for pk, line in ranked.items():
        _key, above, _level = ahead[pk]
        lines[pk] = line.ranked_as(1 + above + behind.get(pk, 0))
    return lines


def _final_line(close: SeasonClose, player: Player) -> engine.league.Line | None:
    """His line in a closed season's final standings, as its page shows them (ranked
    among the players with a counted game), read from the close alone."""
    standings = documents.standings_from_json(close.final_standings)
    kept = close.players
    mine = next((line for line in standings.lines
                 if kept.get(line.player, {}).get("id") == player.pk), None)  # fmt: skip
    if mine is None:
        return None
    shown = engine.league.played(standings.lines)
    return next((line for line in shown if line.player == mine.player), mine.ranked_as(None))


def _union(parts: dict[int, QuerySet | tuple[str, list]]) -> dict[int, tuple]:
    """The one row of each part's query by its key, all read in one query (``UNION
    ALL``): a player's page asks the same of every season."""
    return {key: rows[0] for key, rows in _union_rows(parts).items()}


def _union_rows(parts: dict[int, QuerySet | tuple[str, list]]) -> dict[int, list[tuple]]:
    """Every row of each part's query (its key first) by its key, all read in one query
    (``UNION ALL``); a part without a row has no key."""
    if not parts:
        return {}
    statements, params = [], []
    for key, part in parts.items():
        sql, part_params = part if isinstance(part, tuple) else part.query.sql_with_params()
        statements.append(f"SELECT %s, part.* FROM ({sql}) part")  # noqa: S608 (Django's SQL)
        params += [key, *part_params]
    rows: dict[int, list[tuple]] = {}
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(statements), params)
        for row in cursor.fetchall():
            rows.setdefault(row[0], []).append(row)
    return rows


def _listed_query(book: Book, pk: int) -> QuerySet:
    """The player's seat at a table of the book with no closed game (``_listed_without_games``)."""
    seats = Seat.objects.filter(partie__in=_yet_to_close(book), player_id=pk)
    return seats.values("player_id")[:1]


def _rank_counts(book: Book, line: engine.league.Line) -> tuple[str, list]:
    """How many lines with a counted game (and the season's minimum) are ahead of the
    line on league points, games won and net points, and how many level with it."""
    ranked = _figures(book, book.played).filter(n_games__gte=max(book.min_games, 1))
    sql, params = ranked.values_list("n_points", "n_won", "n_net").query.sql_with_params()
    points, won, net = line.league_points, line.won, line.net_points
    statement = (
        "SELECT SUM(CASE WHEN f.n_points > %s OR (f.n_points = %s AND f.n_won > %s)"
        " OR (f.n_points = %s AND f.n_won = %s AND f.n_net > %s) THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN f.n_points = %s AND f.n_won = %s AND f.n_net = %s THEN 1 ELSE 0 END)"
        f" FROM ({sql}) f"  # noqa: S608 (Django's SQL)
    )
    ahead = [points, points, won, points, won, net, points, won, net]
    return statement, [*ahead, *params]


def _tie_breaks(books: dict[int, Book], lines: dict[int, engine.league.Line], pk: int):
    """In each book of ``lines`` (his line there, level with others on the first three
    keys), how many of the players level with him are ahead of him on their head-to-head
    (RULES.md §11, as ``_among`` counts it for the season's page): two queries for every
    book at once, by book key."""
    level = {}
    for key, line in lines.items():
        book = books[key]
        ranked = _figures(book, book.played).filter(n_games__gte=max(book.min_games, 1))
        same = Q(n_points=line.league_points, n_won=line.won, n_net=line.net_points)
        level[key] = ranked.filter(same).values_list("player_id")
    tied = {key: {row[1] for row in rows} for key, rows in _union_rows(level).items()}
    pairs = {
        key: books[key]
        .settlements.filter(payer_id__in=ids, payee_id__in=ids)
        .values("payer_id", "payee_id")
        .annotate(points=Sum("points"))
        .values_list("payer_id", "payee_id", "points")
        .order_by()
        for key, ids in tied.items()
    }
    among = {key: dict.fromkeys(ids, 0) for key, ids in tied.items()}
    for key, rows in _union_rows(pairs).items():
        for _key, payer, payee, points in rows:
            among[key][payee] += points
            among[key][payer] -= points
    return {
        key: sum(1 for other in points.values() if other > points[pk])
        for key, points in among.items()
    }


# Closed seasons


# An entry of a season's audit trail: when, and a close (with its reopening) or a change
# of its settings.
HistoryEntry = tuple[datetime, SeasonClose | None, SeasonChange | None]


def season_history(season: Season) -> list[HistoryEntry]:
    """The season's audit trail, newest first: each close (with its reopening) and each
    change of its settings, as ``(when, close, change)``, one of the two None. A season
    annotated ``ever_closed`` or ``ever_changed`` False (the views' ``_season``) spares
    the query of that part."""
    history: list[HistoryEntry] = []
    if getattr(season, "ever_closed", True):
        closes = season.closes.select_related("closed_by", "reopened_by")
        history += [(c.closed_at, c, None) for c in closes.defer("final_standings", "players")]
    if getattr(season, "ever_changed", True):
        history += [(c.at, None, c) for c in season.changes.select_related("user")]
    return sorted(history, key=lambda entry: entry[0], reverse=True)


def season_close_of(season: Season) -> SeasonClose:
    """The close a closed season shows (the one not reopened)."""
    close = SeasonClose.objects.get(season=season, reopened_at__isnull=True)
    close.season = season
    return close


def closing_record(table: SeasonTable) -> dict[str, object]:
    """What a close keeps of the standings counted at that moment: FORMAT.md's standings
    JSON, each player's id, hands and last results, the players ranked first and the
    season's list of players (None: everyone who played)."""
    rows = table.with_details(list(table.rows))
    standings = table.standings
    return {
        "final_standings": documents.standings_json(standings),
        "players": {
            row.line.player: {
                "id": row.player_id,
                "hands": asdict(row.stats),
                "trend": list(row.trend),
            }
            for row in rows
        },
        "winners": [line.player for line in standings.lines if line.rank == 1],
        "listed": None if table.listed is None else sorted(table.listed),
    }


def closed_table(close: SeasonClose) -> SeasonTable:
    """A closed season's standings, read from its close alone: nothing a later change
    to its parties or players does reaches them. A player since merged or deleted is
    shown by his name, without a link."""
    season = close.season
    standings = documents.standings_from_json(close.final_standings)
    kept = close.players
    ids = {name: kept.get(name, {}).get("id") for name in (line.player for line in standings.lines)}
    present = set(
        Player.objects.filter(
            pk__in=[pk for pk in ids.values() if pk is not None], club_id=season.league.club_id
        ).values_list("pk", flat=True)
    )
    rows = [
        StandingsRow(
            line,
            ids[line.player],
            engine.HandStats(**kept.get(line.player, {}).get("hands", {})),
            linked=ids[line.player] in present,
        )
        for line in standings.lines
    ]
    runs = {ids[name]: tuple(data.get("trend", ())) for name, data in kept.items()}
    top = [row.line.player for row in rows[:MATRIX]]
    meetings_of = standings.head_to_head
    matrix = [(one, [meetings_of.get(one, {}).get(two) for two in top]) for one in top]
    table = SeasonTable(
        season,
        rows,
        lambda: meetings_of,
        matrix,
        lambda players: {pk: runs[pk] for pk in players if pk in runs},
    )
    table.close = close
    table.listed = None if close.listed is None else frozenset(close.listed)
    return table


@dataclass(frozen=True)
class PastSeason:
    """A line of a league's archive: a closed season, its winners and its close."""

    season: Season
    winners: list[str]
    closed_at: datetime


def league_archive(league: League) -> list[PastSeason]:
    """The league's closed seasons, newest first, each with who won it."""
    closes = (
        SeasonClose.objects.filter(season__league=league, reopened_at__isnull=True)
        .select_related("season")
        .defer("final_standings", "players")
        .order_by("-season__starts_on", "-closed_at", "-pk")
    )
    return [PastSeason(close.season, close.winners, close.closed_at) for close in closes]


HAND_COLUMNS = (
    "partie", "started", "kind", "players", "night_round", "night_table", "hand", "table",
    "result", "knocker", "knocker_deadwood", "defender_deadwood", "upcard",
)  # fmt: skip


def season_hands(season: Season):
    """Every hand of the season's parties as entered, in playing order: one CSV line each.

    Each hand says where it was played: the league night's round and table of its partie
    (empty for a partie started on its own), and at a partnership, which of the round's
    two tables (empty for the kinds played at one table, where every hand's is 1)."""
    hands = (
        Hand.objects.filter(partie__in=season_parties(season))
        .select_related("partie__night_table", "knocker")
        .order_by("partie__started_at", "partie_id", "number", "table")
    )
    for hand in hands.iterator(chunk_size=2000):
        partie = hand.partie
        night = getattr(partie, "night_table", None)
        tables = engine.session_class(partie.kind).hands_per_entry > 1
        yield (
            partie.pk,
            partie.started_at.date().isoformat(),
            partie.kind,
            " – ".join(partie.summary.get("players", [])),
            "" if night is None else night.round,
            "" if night is None else night.number,
            hand.number,
            hand.table if tables else "",
            hand.kind,
            hand.knocker.name if hand.knocker_id else "",
            "" if hand.knocker_deadwood is None else hand.knocker_deadwood,
            "" if hand.defender_deadwood is None else hand.defender_deadwood,
            hand.upcard,
        )


def season_document(season: Season) -> documents.SeasonDocument:
    """The season as a season document (FORMAT.md): its points, whether only confirmed
    games count, and each partie it counts as a game record, in playing order, with its
    pending closed games, so that ``standings FILE`` on it gives these
    standings. A partie the engine cannot score any more raises ``Unscorable``."""
    counted = season_parties(season)
    parties = (
        partie_with_players(counted)
        .prefetch_related(Prefetch("hands", queryset=HANDS_IN_ORDER))
        .order_by("started_at", "pk")  # the playing order of the ratings (ratings.ORDER)
    )
    pending_games = ClosedGame.objects.filter(_pending("pk"), partie__in=counted.values("pk"))
    pending = pending_games.values_list("partie_id", "number")
    records, positions = [], {}
    for partie in parties.iterator(chunk_size=500):
        with scoring(partie):
            records.append(partie_record(partie))
        positions[partie.pk] = len(records)
    pending = frozenset(
        (positions[partie], number) for partie, number in pending if partie in positions
    )
    return documents.SeasonDocument(
        season.name,
        season.points,
        season.min_games,
        tuple(records),
        season.confirmed_games_only,
        pending,
    )


# The club's live board (table/live.py): the season under way and its top ten, the table
# numbers of a league night. Its "unchanged" reads the season and its version in one query.

BOARD_TOP = 10  # lines of the season's table on the board


def board_season(club: Club, today: date) -> Season | None:
    """The club's open season that contains ``today`` (of overlapping ones the last to
    start), with what its standings are counted from (``standings_version``). A season
    closed, early or on its last day, leaves the board: its table is final, and the
    room follows the season being played (or none)."""
    games = ClosedGame.objects.filter(club_id=club.pk)
    assigned = Assignment.objects.filter(partie__club_id=club.pk)
    changes = ResultsChange.objects.filter(club_id=club.pk)
    due = ResultsChange.due().filter(club_id=club.pk)
    players = Player.objects.filter(club_id=club.pk).order_by()
    return (
        Season.objects.filter(
            league__club=club, starts_on__lte=today, ends_on__gte=today, closed_at=None
        )
        .annotate(
            players_changed=Subquery(
                players.values("club_id").annotate(newest=Max("changed_at")).values("newest")
            ),
            changes_newest=_aggregate(changes, "MAX"),
            changes_due=_aggregate(due, "COUNT"),
            games_newest=_aggregate(games, "MAX"),
            games_count=_aggregate(games, "COUNT"),
            assigned_newest=_aggregate(assigned, "MAX"),
            assigned_count=_aggregate(assigned, "COUNT"),
        )
        .order_by("-starts_on", "-pk")
        .first()
    )


def _aggregate(rows: QuerySet, function: str) -> Subquery:
    """``SELECT MAX(id)`` (or ``COUNT``) of the rows, as a scalar subquery."""
    value = Func(F("pk"), function=function, output_field=IntegerField())
    return Subquery(rows.order_by().annotate(value=value).values("value")[:1])


def standings_version(season: Season | None) -> tuple:
    """What the season's standings are counted from, read with it (``board_season``): the
    season's own fields, and the newest key and number of the club's closed games and of
    its parties assigned to a season. Every change to a game gives it new keys or fewer
    rows (table/services/results.py), as every assignment does (services), so a change to
    the standings changes this; no counter is kept for it. The club's newest
    ``ResultsChange`` and how many are due change it too: every confirmation given, taken
    back, decided or unlocked writes one (table/services/confirmations.py), so the
    pending marks follow, and when the worker's ratings land the board shows them; and
    the last change of any of its players' rows (``Player.changed_at``): a new name
    shows."""
    if season is None:
        return ()
    fields = tuple(getattr(season, field.attname) for field in Season._meta.concrete_fields)
    counted = (season.games_newest, season.games_count)
    # The worker's work: a change written, and its ratings landed (league.outbox).
    rated = (season.changes_newest, season.changes_due)
    assigned = (season.assigned_newest, season.assigned_count)
    return (*fields, counted, assigned, rated, season.players_changed)


class SeasonTop(NamedTuple):
    """The top of a season's table on the club's board: its first lines, each with the
    player's pending games (0: none), and the season's pending games, which count not
    yet (a season that counts only confirmed games; else 0)."""

    lines: list[tuple[engine.league.Line, int]]
    pending: int = 0

    @property
    def marked(self) -> bool:
        """Whether a line shown has pending games."""
        return any(pending for _line, pending in self.lines)


def season_top(season: Season, size: int = BOARD_TOP) -> SeasonTop:
    """The first lines of the open season's table as its page shows it: the players
    with a counted game, ranked among themselves, then those short of the season's
    minimum, unranked."""
    book = season_book(season)
    lines, ids, pending = book_standings(book)
    top = [(line, pending.get(ids[line.player], 0)) for line in engine.league.played(lines)]
    pending = 0
    if book.confirmed_only:
        pending = book.played.filter(_pending()).values("game_id").distinct().count()
    return SeasonTop(top[:size], pending)


def night_seated(parties: QuerySet[Partie]) -> QuerySet[Partie]:
    """The board's parties, each with its league night's ``seat_night``, ``seat_round``
    and ``seat_number`` (None for a partie no night started): one outer join, read with
    the versions (table/live.py)."""
    return parties.annotate(
        seat_night=F("night_table__night_id"),
        seat_round=F("night_table__round"),
        seat_number=F("night_table__number"),
    )


def night_byes(nights: set[int]) -> dict[tuple[int, int], list[str]]:
    """Who sat out each round of these league nights, by (night, round)."""
    byes: dict[tuple[int, int], list[str]] = {}
    rows = NightBye.objects.filter(night_id__in=nights).order_by("round", "player__name")
    for night, round_, name in rows.values_list("night_id", "round", "player__name"):
        byes.setdefault((night, round_), []).append(name)
    return byes


def tonight_parties(club: Club, today: date) -> QuerySet[NightTable]:
    """The parties of the club's league nights on ``today``, as a subquery of ids: the
    board keeps every round of the night, the finished ones folded."""
    tonight = NightTable.objects.filter(night__season__league__club=club, night__played_on=today)
    return tonight.values("partie_id")
