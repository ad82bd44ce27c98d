"""Writes of the league app: leagues, seasons and which parties they count, a season's
close and reopening. Keyword-only, as the table services are. (What a partie's games
give a league is written by the table app with the partie; the ratings by
``league.ratings`` when they are read.)"""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.table.models import Partie
from scorekeeper.tokens import new_share_token

from . import selectors
from .models import (
    Assignment,
    League,
    Season,
    SeasonClose,
)


class SeasonClosedError(ValueError):
    """A closed season's parties cannot change: reopen it first."""


def partie_season_assign(*, partie: Partie, season: Season | None) -> None:
    """Count the partie for ``season`` whatever its date, or (None) by its date again.
    A closed season takes no partie (SeasonClosedError) but one already given to it."""
    if season is not None and season.league.club_id != partie.club_id:
        raise ValueError(f"the season {season} belongs to another club than {partie}")
    if season is not None and season.closed_at is not None:
        if Assignment.objects.filter(partie=partie, season=season).exists():
            return
        raise SeasonClosedError(f"the season {season} is closed")
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
    confirmed_games_only: bool = False,
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
        confirmed_games_only=confirmed_games_only,
    )


def season_share(*, season: Season, shared: bool) -> Season:
    """Open the season's standings to anyone with a new link, or close the link."""
    season.share_token = new_share_token() if shared else None
    season.save(update_fields=["share_token"])
    return season


@transaction.atomic
def season_close(*, season: Season, user: AbstractBaseUser | None) -> SeasonClose:
    """Close the season: its standings as they stand now, counting the parties started
    until this moment, become its final standings, which its pages show from now on.
    Closing a closed season again changes nothing (its close is returned)."""
    given = season
    season = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
    if season.closed_at is None:
        season.closed_at = timezone.now()
        record = selectors.closing_record(selectors.counted_table(season))
        SeasonClose.objects.create(
            season=season, closed_at=season.closed_at, closed_by=user, **record
        )
        season.save(update_fields=["closed_at"])
    given.closed_at = season.closed_at
    return selectors.season_close_of(season)


@transaction.atomic
def season_reopen(*, season: Season, user: AbstractBaseUser | None) -> SeasonClose | None:
    """Open a closed season again: its standings are counted from its parties once more
    (those started since the close too). The close stays, stamped with who reopened it
    and when; None when the season was not closed."""
    Season.objects.select_for_update().get(pk=season.pk)  # one close or reopen at a time
    close = SeasonClose.objects.filter(season=season, reopened_at__isnull=True).first()
    if close is None:
        return None
    close.reopened_at = timezone.now()
    close.reopened_by = user
    close.save(update_fields=["reopened_at", "reopened_by"])
    season.closed_at = None
    Season.objects.filter(pk=season.pk).update(closed_at=None)
    return close


def season_start_next(*, season: Season, name: str, starts_on: date, ends_on: date) -> Season:
    """A new season of the same league after ``season``: its dates and name are new, its
    points, games to be ranked, kinds counted and whether only confirmed games count are
    those of ``season``."""
    return season_create(
        league=season.league,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        kinds=season.kinds,
        points=season.points,
        min_games=season.min_games,
        confirmed_games_only=season.confirmed_games_only,
    )
