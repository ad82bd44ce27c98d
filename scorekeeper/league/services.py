"""Writes of the league app: leagues, seasons and which parties they count. Keyword-only,
as the table services are. (What a partie's games give a league is written by the
table app with the partie; the ratings by ``league.ratings`` when they are read.)"""

from __future__ import annotations

from datetime import date

from django.db import transaction

from scorekeeper import engine
from scorekeeper.table.models import Partie
from scorekeeper.tokens import new_share_token

from .models import (
    Assignment,
    League,
    Season,
)


def partie_season_assign(*, partie: Partie, season: Season | None) -> None:
    """Count the partie for ``season`` whatever its date, or (None) by its date again."""
    if season is not None and season.league.club_id != partie.club_id:
        raise ValueError(f"the season {season} belongs to another club than {partie}")
    Assignment.objects.filter(partie=partie).delete()
    if season is not None:
        Assignment.objects.create(partie=partie, season=season)


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
