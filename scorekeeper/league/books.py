"""League books counted again after a change from a checkpoint, not from the first game.

A season's standings and a club's all-time records are the engine's ``LeagueBook`` over
closed games in playing order (RULES.md §11). Counting tens of thousands of games,
with their OpenSkill updates, takes seconds, so each keeps a ``BookCheckpoint``: the
book's state about TAIL games back. After a change only the games since are counted,
while the parties up to the checkpoint are as they were: the same rows (their count and
the sum of their keys, never reused) and no write to any (the sum of their versions,
which every write counts up). A renamed or merged player or a partie assigned to a
season changes the club's ``full_version`` (``results_changed(full=True)``), which no
checkpoint survives.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from scorekeeper import engine
from scorekeeper.formats import plain_amount
from scorekeeper.table.models import Partie, Seat

from .models import BookCheckpoint, Game, GamePayment, GamePlayer, ResultsVersion

# A checkpoint stays this many games behind the last; the games after it are counted
# again after every change, and it moves on once they are twice as many.
TAIL = 500
RESULTS_KEPT = 5  # each player's last results, for the trend of the standings


class GameKey(NamedTuple):
    """Where a stored game was played: its partie and its number there, and when the
    partie started (what orders the games)."""

    partie_id: int
    number: int
    started_at: datetime | None = None
    pk: int | None = None


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
    for pk, partie, number, started_at, shutout, ranking, ranks in ordered.values_list(
        "pk", "partie_id", "number", "partie__started_at", "shutout", "ranking", "ranks"
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
        results.append((GameKey(partie, number, started_at, pk), result))
    return results


Keyed = list[tuple[GameKey, engine.GameResult]]


@dataclass
class Counted:
    """A book counted up to the last game, and what it was counted from."""

    book: engine.LeagueBook
    names: dict[int, str]  # the players by id
    games: Keyed  # the games counted now: every one, or those after ``resumed``
    resumed: BookCheckpoint | None  # the checkpoint it was resumed from


def count(
    owner: dict[str, object],
    parties: QuerySet[Partie],
    points: engine.LeaguePoints,
    key: str,
    names: dict[int, str] | None = None,
    resumable: Callable[[BookCheckpoint], bool] = lambda point: True,
) -> Counted:
    """The book of the closed games of ``parties`` (``owner``: ``season=`` or ``club=``),
    resumed from its checkpoint where the checkpoint's ``key`` is ``key``, the parties up
    to it are as they were and ``resumable`` agrees, else counted from the first game.
    ``names`` are the players by id; None: those seated in the parties. Players with no
    counted game are not entered in the book."""
    point = BookCheckpoint.objects.filter(**owner, key=key).first()
    if point is not None and (
        fingerprint(parties.exclude(_partie_after(point.upto))) != point.parties
        or not resumable(point)
    ):
        point = None
    since = parties if point is None else parties.filter(_partie_after(point.upto))
    marks = list(since.values_list("pk", "started_at", "version"))
    seated = names is None
    if seated:
        names = {int(pk): name for pk, name in point.names.items()} if point else {}
        seats = Seat.objects.filter(partie__in=since).values_list("player_id", "player__name")
        names.update(seats)
    if point is None:
        book, games = engine.LeagueBook(points), Game.objects.filter(partie__in=parties)
    else:  # the games of the parties since the checkpoint's, and the rest of its own
        book = engine.LeagueBook.resume(point.state, points)
        ids = [pk for pk, _, _ in marks] + [point.upto[1]]
        games = Game.objects.filter(partie_id__in=ids).filter(_after(point.upto))
    keyed = stored_results(games, names)
    moved = len(keyed) - TAIL if len(keyed) > (TAIL if point is None else 2 * TAIL) else None
    for number, (game, result) in enumerate(keyed, start=1):
        book.add(result)
        if number == moved:
            _save(owner, key, point, book, game, marks, since if seated else None)
    return Counted(book, names, keyed, point)


def full_version(club_id: int) -> int:
    full = ResultsVersion.objects.filter(club_id=club_id).values_list("full_version", flat=True)
    return full.first() or 0


def fingerprint(parties: QuerySet[Partie]) -> list[int]:
    """The parties' count, the sum of their keys and the sum of their versions."""
    figures = parties.aggregate(
        n=Count("pk"), keys=Coalesce(Sum("pk"), 0), versions=Coalesce(Sum("version"), 0)
    )
    return [int(value) for value in figures.values()]


def _after(upto: list) -> Q:
    """The games played after the game ``upto`` names, in playing order."""
    started, partie, number = datetime.fromisoformat(upto[0]), upto[1], upto[2]
    return (
        Q(partie__started_at__gt=started)
        | Q(partie__started_at=started, partie_id__gt=partie)
        | Q(partie__started_at=started, partie_id=partie, number__gt=number)
    )


def _partie_after(upto: list) -> Q:
    """The parties started after the partie of the game ``upto`` names."""
    started, partie = datetime.fromisoformat(upto[0]), upto[1]
    return Q(started_at__gt=started) | Q(started_at=started, pk__gt=partie)


def _save(
    owner: dict[str, object],
    key: str,
    point: BookCheckpoint | None,
    book: engine.LeagueBook,
    game: GameKey,
    marks: list[tuple[int, datetime, int]],
    since: QuerySet[Partie] | None,
) -> None:
    """Keep the book as counted up to ``game``, with the fingerprint of the parties up
    to its partie (``marks``: those since ``point``) and, where the players are those
    seated in ``since`` (the parties since ``point``), the names of those seated up to
    it (a later partie may yet go)."""
    mark = (game.started_at, game.partie_id)
    upto = [game.started_at.isoformat(), game.partie_id, game.number]
    counted = {pk: version for pk, started, version in marks if (started, pk) <= mark}
    n, keys, versions = point.parties if point else (0, 0, 0)
    names = dict(point.names) if point else {}
    if since is not None:
        seated = Seat.objects.filter(partie__in=since.exclude(_partie_after(upto)))
        names.update(
            (str(pk), name) for pk, name in seated.values_list("player_id", "player__name")
        )
    BookCheckpoint.objects.update_or_create(
        **owner,
        defaults={
            "key": key,
            "upto": upto,
            "parties": [n + len(counted), keys + sum(counted), versions + sum(counted.values())],
            "names": names,
            "state": book.state(results_kept=RESULTS_KEPT),
        },
    )
