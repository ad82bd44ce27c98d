"""Writes of the league app: storing what a partie's closed games give a league, and
creating leagues and seasons. Every function runs inside the caller's transaction or
its own, keyword-only, as the table services do."""

from __future__ import annotations

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
    PartieStats.objects.bulk_create(
        PartieStats(
            partie=partie,
            player=players[name],
            hands=s.hands,
            won=s.won,
            gins=s.gins,
            undercuts=s.undercuts,
            points=s.points,
        )
        for name, s in session.hand_stats().items()
    )
    Game.objects.filter(partie=partie).delete()
    own = partie.own_stakes if session.own_stakes else {}
    results = session.results(Decimal(partie.stake), own)
    if not results:
        return
    games = Game.objects.bulk_create(
        Game(
            partie=partie,
            number=result.number,
            shutout=result.shutout,
            ranking=[[players[name].pk for name in side] for side in result.ranking],
            ranks=list(result.ranks),
        )
        for result in results
    )
    GamePlayer.objects.bulk_create(
        GamePlayer(game=game, player=players[name], won=name in result.winners)
        for game, result in zip(games, results, strict=True)
        for name in (*result.winners, *result.losers)
    )
    GamePayment.objects.bulk_create(
        GamePayment(
            game=game,
            payer=players[p.payer],
            payee=players[p.payee],
            points=p.points,
            amount=p.amount,
        )
        for game, result in zip(games, results, strict=True)
        for p in result.payments
    )


def results_changed(*, club_id: int) -> None:
    """Count a change to the club's stored results: its seasons' cached standings are
    computed again when next read."""
    if not ResultsVersion.objects.filter(club_id=club_id).update(version=F("version") + 1):
        ResultsVersion.objects.get_or_create(club_id=club_id, defaults={"version": 1})


def partie_season_assign(*, partie: Partie, season: Season | None) -> None:
    """Count the partie for ``season`` whatever its date, or (None) by its date again."""
    if season is not None and season.league.club_id != partie.club_id:
        raise ValueError(f"the season {season} belongs to another club than {partie}")
    Assignment.objects.filter(partie=partie).delete()
    if season is not None:
        Assignment.objects.create(partie=partie, season=season)
    results_changed(club_id=partie.club_id)


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
