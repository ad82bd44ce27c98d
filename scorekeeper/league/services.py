"""Writes of the league app: storing what a partie's closed games give a league, and
creating leagues and seasons. Every function runs inside the caller's transaction or
its own, keyword-only, as the table services do."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db import transaction
from django.db.models import F

from scorekeeper import engine
from scorekeeper.table.models import Partie, Player

from .models import (
    Assignment,
    Game,
    GamePayment,
    GamePlayer,
    League,
    PartieStats,
    ResultsVersion,
    Season,
    new_share_token,
)


@dataclass
class ResultRows:
    """What a partie gives a league, as rows not yet saved: each player's hands, and
    each closed game with its players' results and its settlement lines."""

    stats: list[PartieStats] = field(default_factory=list)
    games: list[tuple[Game, list[GamePlayer], list[GamePayment]]] = field(default_factory=list)


def result_rows(
    *,
    partie: Partie,
    session: engine.Session,
    players: dict[str, Player],
    stake: Decimal,
    own: dict[str, Decimal] | None = None,
) -> ResultRows:
    """The partie's league rows from the engine's replay; ``players`` by seated name,
    ``own`` a chouette member's own stake."""
    rows = ResultRows()
    for name, s in session.hand_stats().items():
        rows.stats.append(
            PartieStats(partie=partie, player=players[name], hands=s.hands, won=s.won,
                        gins=s.gins, undercuts=s.undercuts, points=s.points)
        )  # fmt: skip
    for result in session.results(stake, own):
        game = Game(
            partie=partie,
            number=result.number,
            shutout=result.shutout,
            ranking=[[players[name].pk for name in side] for side in result.ranking],
            ranks=list(result.ranks),
        )
        results = [
            GamePlayer(game=game, player=players[name], won=name in result.winners)
            for name in (*result.winners, *result.losers)
        ]
        payments = [
            GamePayment(game=game, payer=players[p.payer], payee=players[p.payee],
                        points=p.points, amount=p.amount)
            for p in result.payments
        ]  # fmt: skip
        rows.games.append((game, results, payments))
    return rows


def rows_save(rows: list[ResultRows]) -> None:
    """Save the league rows of any number of parties in a few bulk inserts."""
    PartieStats.objects.bulk_create([stat for row in rows for stat in row.stats])
    games = [entry for row in rows for entry in row.games]
    Game.objects.bulk_create([game for game, _, _ in games])
    # The games have their keys now: the rows that point at them can follow.
    for game, results, payments in games:
        for item in (*results, *payments):
            item.game = game
    GamePlayer.objects.bulk_create([item for _, results, _ in games for item in results])
    GamePayment.objects.bulk_create([item for _, _, payments in games for item in payments])


def partie_results_store(
    *, partie: Partie, session: engine.Session, players: dict[str, Player], games: bool = True
) -> None:
    """Store what the partie gives a league: each closed game's result and each player's
    hands, replacing what was stored. Called in the transaction that changed the partie,
    so the standings never lag behind a closed game; ``games`` False says nothing closed
    or changed (a hand added to a running game), and then nothing is written: the hand
    statistics count a partie's hands as of its last closed game."""
    if not games:
        return
    results_changed(club_id=partie.club_id)
    PartieStats.objects.filter(partie=partie).delete()
    Game.objects.filter(partie=partie).delete()
    own = session.stakes_played(partie.own_stakes)
    stake = Decimal(partie.stake)
    rows_save([result_rows(partie=partie, session=session, players=players, stake=stake, own=own)])


def partie_results_drop(*, partie: Partie) -> None:
    """Take a deleted partie out of the league: its games and hands count no more (its
    restore stores them again, through ``partie_results_store``)."""
    results_changed(club_id=partie.club_id)
    PartieStats.objects.filter(partie=partie).delete()
    Game.objects.filter(partie=partie).delete()


def results_changed(*, club_id: int, full: bool = False) -> None:
    """Count a change to the club's stored results: its seasons' cached standings are
    computed again when next read, from their checkpoints; ``full`` says that no
    checkpoint survives the change (a player's name, which parties count)."""
    changed = {"version": F("version") + 1}
    if full:
        changed["full_version"] = F("version") + 1
    if not ResultsVersion.objects.filter(club_id=club_id).update(**changed):
        ResultsVersion.objects.get_or_create(
            club_id=club_id, defaults={"version": 1, "full_version": 1 if full else 0}
        )


def partie_season_assign(*, partie: Partie, season: Season | None) -> None:
    """Count the partie for ``season`` whatever its date, or (None) by its date again."""
    if season is not None and season.league.club_id != partie.club_id:
        raise ValueError(f"the season {season} belongs to another club than {partie}")
    Assignment.objects.filter(partie=partie).delete()
    if season is not None:
        Assignment.objects.create(partie=partie, season=season)
    results_changed(club_id=partie.club_id, full=True)


def league_create(*, club, name: str) -> League:
    return League.objects.create(club=club, name=name.strip())


@transaction.atomic
def season_create(
    *,
    league: League,
    name: str,
    starts_on: date,
    ends_on: date,
    kinds: list[str] | None = None,
    points: engine.LeaguePoints | None = None,
    min_games: int = 0,
) -> Season:
    points = points or engine.LeaguePoints()
    return Season.objects.create(
        league=league,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        kinds=list(kinds or []),
        points_win=points.win,
        points_shutout_win=points.shutout_win,
        points_loss=points.loss,
        min_games=min_games,
    )


def season_share(*, season: Season, shared: bool) -> Season:
    """Open the season's standings to anyone with a new link, or close the link."""
    season.share_token = new_share_token() if shared else None
    season.save(update_fields=["share_token"])
    return season
