"""Reads of the league's stored results for players as people: the club's address book
with each player's games, and a player's page (his results game by game, his seasons,
his record against each opponent, his hands and his rating over time).

Everything comes from the stored rows (``table.PlayerResult``, ``SettlementLine``,
``PartieStats``), counted by the database; no partie is replayed. All-time figures
count every closed game of the club by the default points, and the all-time rating
is carried forward over them in the order they were played (RULES.md §11).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.formats import number_text
from scorekeeper.table.models import Partie, Player, PlayerResult

from . import ratings
from .models import Season
from .selectors import book_lines, club_book, hand_stats, meetings, season_lines


def club_players(club_id: int, query: str = "") -> QuerySet[Player]:
    """The club's players whose name contains ``query`` (any case), by name, each with
    ``games``, the closed games he played, and his account loaded."""
    games = (
        PlayerResult.objects.filter(player=OuterRef("pk"))
        .order_by()
        .values("player")
        .annotate(count=Count("pk"))
        .values("count")
    )
    players = Player.objects.filter(club_id=club_id)
    if query.strip():
        players = players.filter(name__icontains=query.strip())
    return (
        players.select_related("user")
        .annotate(games=Coalesce(Subquery(games, output_field=IntegerField()), 0))
        .order_by("name", "pk")
    )


@dataclass(frozen=True)
class Result:
    """One closed game of the player, and his rating after it."""

    partie: Partie
    number: int  # the game's number in its partie
    won: bool
    net_points: int  # the settlement points he received less those he paid
    rating: engine.Rating | None  # None: not rated yet (the worker has it due)

    @property
    def played_on(self) -> date:
        return timezone.localdate(self.partie.started_at)

    @property
    def numbered(self) -> bool:
        """Whether the partie names its games ("Game 2"): a match, Hollywood."""
        return self.partie.session_class.numbered


@dataclass(frozen=True)
class SeasonLine:
    season: Season
    line: engine.league.Line


@dataclass(frozen=True)
class Opponent:
    player: Player
    meeting: engine.HeadToHead

    @property
    def games(self) -> int:
        return self.meeting.won + self.meeting.lost


# The chart's drawing area, in the units of its viewBox: a 360 px phone shows it about
# at this size, so its 11-unit labels are read at about 11 px.
WIDTH, HEIGHT = 320, 170
LEFT, RIGHT, TOP, BOTTOM = 38, 8, 10, 34


@dataclass(frozen=True)
class RatingChart:
    """The player's rating (OpenSkill ordinal) after each of his games, as an SVG line."""

    ratings: tuple[float, ...]

    width = WIDTH
    height = HEIGHT
    left = LEFT
    right_edge = WIDTH - RIGHT
    top = TOP
    bottom = HEIGHT - BOTTOM

    @property
    def last(self) -> float:
        return self.ratings[-1]

    @property
    def best(self) -> float:
        return max(self.ratings)

    @property
    def games(self) -> int:
        return len(self.ratings)

    @cached_property  # each point's height reads it
    def ticks(self) -> list[float]:
        """The rating axis: round values covering every rating."""
        return _ticks(min(self.ratings), max(self.ratings))

    def x(self, game: int) -> float:
        """Where game ``game`` (1-based) stands; a single game in the middle."""
        if self.games == 1:
            return (self.left + self.right_edge) / 2
        return self.left + (self.right_edge - self.left) * (game - 1) / (self.games - 1)

    def y(self, rating: float) -> float:
        low, high = self.ticks[0], self.ticks[-1]
        return self.bottom - (self.bottom - self.top) * (rating - low) / (high - low)

    # Coordinates go out as text with a point, whatever the reader's language: SVG
    # reads no decimal comma.

    @property
    def points(self) -> list[tuple[str, str]]:
        return [(_at(self.x(n)), _at(self.y(r))) for n, r in enumerate(self.ratings, 1)]

    @property
    def polyline(self) -> str:
        return " ".join(f"{x},{y}" for x, y in self.points)

    @property
    def y_labels(self) -> list[tuple[str, str]]:
        """Each tick of the rating axis: its height and its value."""
        return [(_at(self.y(tick)), number_text(tick)) for tick in self.ticks]

    @property
    def x_labels(self) -> list[tuple[str, int]]:
        """The first and the last game, and one in the middle when there is room."""
        games = sorted({1, (self.games + 1) // 2, self.games})
        return [(_at(self.x(n)), n) for n in games]

    @property
    def middle_x(self) -> str:
        return _at((self.left + self.right_edge) / 2)

    @property
    def middle_y(self) -> str:
        return _at((self.top + self.bottom) / 2)

    @property
    def marked(self) -> bool:
        """A dot on each game while they are few enough to tell apart."""
        return self.games <= 40


def _ticks(low: float, high: float) -> list[float]:
    """Round values (steps of 1, 2 or 5 times a power of ten, three to seven of them)
    from at most ``low`` to at least ``high``.

    >>> _ticks(-1.2, 7.9)
    [-2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
    >>> _ticks(3.0, 3.0)
    [2.0, 2.5, 3.0, 3.5, 4.0]
    """
    if high - low < 1:
        low, high = low - 1, high + 1
    raw = (high - low) / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(f * power for f in (1, 2, 5, 10) if f * power >= raw)
    first = math.floor(low / step) * step
    count = math.ceil((high - first) / step - 1e-9)
    return [float(round(first + i * step, 6)) for i in range(count + 1)]


def _at(value: float) -> str:
    """A coordinate to one decimal, without a trailing zero.

    >>> [_at(v) for v in (38, 12.345, -0.04)]
    ['38', '12.3', '0']
    """
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class PlayerRecord:
    """What a player's page shows beside his debts and parties."""

    player: Player
    line: engine.league.Line  # all-time, over the club's closed games
    results: list[Result]  # newest first
    seasons: list[SeasonLine]
    opponents: list[Opponent]  # most games first
    stats: engine.HandStats
    chart: RatingChart | None  # None before his first closed game


def player_record(player: Player) -> PlayerRecord:
    """The player's results, seasons, head-to-head, hands and rating in his club, counted
    from the stored results (no partie is replayed)."""
    book = club_book(player.club)
    line = book_lines(book, [player.pk]).get(player.pk, engine.league.Line(None, player.name))
    after = ratings.history(book.rating_scope, player.pk)
    played = (
        book.results.filter(player=player)
        .select_related("partie", "game")
        .order_by("-started_at", "-partie_id", "-game__number")
    )
    results = [
        Result(row.partie, row.game.number, row.won, row.net_points, after.get(row.game_id))
        for row in played
    ]
    against = meetings(book, None, player.pk).get(player.pk, {})
    others = Player.objects.in_bulk(list(against))
    opponents = sorted(
        (Opponent(others[pk], engine.HeadToHead(*figures)) for pk, figures in against.items()),
        key=lambda o: (-o.games, o.player.name),
    )
    history = [result.rating for result in reversed(results) if result.rating]
    return PlayerRecord(
        player=player,
        line=line,
        results=results,
        seasons=_seasons(player),
        opponents=opponents,
        stats=hand_stats(book, [player.pk]).get(player.pk, engine.HandStats()),
        chart=RatingChart(tuple(r.ordinal for r in history)) if history else None,
    )


def _seasons(player: Player) -> list[SeasonLine]:
    """His line in each season of the club that lists him, newest season first, read in
    as many queries whatever the number of seasons (``season_lines``)."""
    seasons = Season.objects.filter(league__club_id=player.club_id).select_related("league__club")
    seasons = list(seasons.order_by("-starts_on", "-pk"))
    lines = season_lines(player, seasons)  # the page shows no rating
    return [SeasonLine(season, lines[season.pk]) for season in seasons if lines[season.pk]]
