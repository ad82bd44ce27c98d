"""Writes of the league app: leagues, seasons and which parties they count, a season's
close and reopening. Keyword-only, as the table services are. (What a partie's games
give a league is written by the table app with the partie; the ratings by the league's
worker, ``league.outbox``, from the ``ResultsChange`` rows that every change writes: a
change here that makes a season count other games writes one too.)"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.engine import season as documents
from scorekeeper.engine.names import cleaned
from scorekeeper.notices.models import Kind
from scorekeeper.notices.services import Tell, notices_record
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Evening, Partie, Player, PlayerMerge, ResultsChange
from scorekeeper.table.selectors import per_point
from scorekeeper.tokens import new_share_token

from . import outbox, selectors
from .models import (
    NIGHT_KINDS,
    Assignment,
    League,
    LeagueNight,
    NightSettings,
    Season,
    SeasonChange,
    SeasonClose,
    night_started,
)


class SeasonClosedError(ValueError):
    """A closed season's parties cannot change: reopen it first."""


class SeasonPlayersError(ValueError):
    """A list of players the season cannot take: empty, or of another club."""


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
    ResultsChange.record(partie.club_id, partie.started_at)  # the seasons count it otherwise


def _season_changed(season: Season, starts_on: date | None = None) -> None:
    """The season counts other games now: its ratings are due again from its first
    game, on its first day (or ``starts_on``, the first day it had, if earlier) or in a
    partie given to it before that day."""
    first = selectors.day_start(min(season.starts_on, starts_on or season.starts_on))
    assigned = Assignment.objects.filter(season=season, partie__started_at__lt=first)
    earliest = assigned.order_by("partie__started_at").values_list("partie__started_at", flat=True)
    ResultsChange.record(season.league.club_id, min([first, *earliest[:1]]))


def league_create(*, club, name: str) -> League:
    return League.objects.create(club=club, name=cleaned(name))


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
    players_from: str = Season.Players.PLAYED,
    night: NightSettings | None = None,
) -> Season:
    points = points or engine.LeaguePoints()
    _check_dates(starts_on, ends_on)
    season = Season(
        league=league,
        name=cleaned(name),
        starts_on=starts_on,
        ends_on=ends_on,
        kinds=list(kinds or []),
        points_win=points.win,
        points_shutout_win=points.shutout_win,
        points_loss=points.loss,
        min_games=min_games,
        confirmed_games_only=confirmed_games_only,
        players_from=players_from,
    )
    if night is not None:
        _check_night(night)
        season.set_night_settings(night)
    season.save()
    _season_changed(season)  # its games, if any were played already, are rated
    return season


class SeasonSettingsError(ValueError):
    """Settings a season cannot take: no name, dates out of bounds (a last day before
    its first, a day outside the years 2000 to 2100, more than five years), games to be
    ranked out of bounds (league points out of bounds: ``engine.LeaguePoints`` refuses
    them)."""


def _check_dates(starts_on: date, ends_on: date) -> None:
    trouble = bounds.season_dates_trouble(starts_on, ends_on)
    if trouble:
        raise SeasonSettingsError(f"{starts_on} to {ends_on}: {bounds.SEASON_TROUBLES[trouble]}")


@transaction.atomic
def season_settings_change(
    *,
    season: Season,
    name: str | None = None,
    starts_on: date | None = None,
    ends_on: date | None = None,
    kinds: list[str] | None = None,
    points: engine.LeaguePoints | None = None,
    min_games: int | None = None,
    confirmed_games_only: bool | None = None,
    night: NightSettings | None = None,
    user: AbstractBaseUser | None = None,
) -> Season:
    """Change the settings of an open season (None: unchanged). Its standings follow at
    once: they are counted from its parties by these settings (and the club's board sees
    the change, its ETag being made of the season's fields). A closed season's settings
    do not change (SeasonClosedError): its final standings were counted by them, so reopen
    it first. The settings that changed are kept, by ``user``, in the season's audit
    trail (``SeasonChange``); a change that changes nothing keeps nothing."""
    locked = Season.objects.select_for_update().get(pk=season.pk)
    if locked.closed_at is not None:
        raise SeasonClosedError(f"the season {locked} is closed")
    changes = {
        "name": None if name is None else cleaned(name),
        "starts_on": starts_on,
        "ends_on": ends_on,
        "kinds": None if kinds is None else list(kinds),
        "min_games": min_games,
        "confirmed_games_only": confirmed_games_only,
    }
    if points is not None:
        changes |= {
            "points_win": points.win,
            "points_shutout_win": points.shutout_win,
            "points_loss": points.loss,
        }
    if night is not None:
        _check_night(night)
        changes |= {
            "night_kind": night.kind,
            "night_rules": night.rules.to_dict(),
            "night_stake": night.stake,
        }
    changes = {field: value for field, value in changes.items() if value is not None}
    before = {field: _as_json(getattr(locked, field)) for field in changes}
    first_day = locked.starts_on
    for field, value in changes.items():
        setattr(locked, field, value)
    if not locked.name:
        raise SeasonSettingsError("a season needs a name")
    _check_dates(locked.starts_on, locked.ends_on)
    if not 0 <= locked.min_games <= bounds.MAX_MIN_GAMES:
        raise SeasonSettingsError(f"games to be ranked: 0 to {bounds.MAX_MIN_GAMES}")
    locked.save(update_fields=list(changes))
    changed = [field for field in changes if _as_json(changes[field]) != before[field]]
    if changed:
        SeasonChange.objects.create(
            season=locked,
            user=user,
            before={field: before[field] for field in changed},
            after={field: _as_json(changes[field]) for field in changed},
        )
    for field, value in changes.items():  # the caller's season reads the new settings too
        setattr(season, field, value)
    if {"night_kind", "night_rules", "night_stake"} & set(changed):
        # The nights planned ahead play the season's settings until their first round.
        planned = LeagueNight.objects.filter(season=locked).exclude(night_started())
        planned.update(**locked.night_fields())
    if "confirmed_games_only" in changed:  # its nights' money waits for them, or not
        Evening.objects.filter(league_night__season=locked, settled_at=None).update(
            confirmed_games_only=locked.confirmed_games_only
        )
    if changed:  # it may count other games: from the earlier of its first days on
        _season_changed(locked, first_day)
    return locked


def _check_night(night: NightSettings) -> None:
    """A night's tables are of two (or three, who play the three-player kind), at a
    stake within the bounds."""
    if night.kind not in NIGHT_KINDS:
        raise SeasonSettingsError(f"a night's table of two cannot play {night.kind!r}")
    if not 0 <= night.stake <= bounds.MAX_STAKE:
        raise SeasonSettingsError(f"a stake per point of 0 to {bounds.MAX_STAKE}")


def _as_json(value: object) -> object:
    """A setting as the audit trail keeps it: a date as its ISO text, the rest as it is."""
    if isinstance(value, Decimal):  # a stake: as a record writes it (0.05, not 0.0500)
        return str(per_point(value))
    return value.isoformat() if isinstance(value, date) else value


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
        outbox.rate_due(season.league.club_id)  # its final ratings are those of now
        season.closed_at = timezone.now()
        record = selectors.closing_record(selectors.counted_table(season))
        close = SeasonClose.objects.create(
            season=season, closed_at=season.closed_at, closed_by=user, **record
        )
        season.save(update_fields=["closed_at"])
        _close_tell(season, close)
    given.closed_at = season.closed_at
    return selectors.season_close_of(season)


def _close_tell(season: Season, close: SeasonClose) -> None:
    """Tell each ranked player linked to an account his final place, with the link to
    the standings and their PDF."""
    lines = documents.standings_from_json(close.final_standings).lines
    ids = {name: kept["id"] for name, kept in close.players.items()}
    accounts = dict(Player.objects.filter(pk__in=ids.values()).values_list("pk", "user_id"))
    link = reverse("season_detail", args=[season.pk])
    pdf = reverse("season_pdf", args=[season.pk])
    tell = []
    for line in lines:
        user_id = accounts.get(ids.get(line.player))
        params = {"season": season.name, "place": line.rank, "of": len(lines), "pdf": pdf}
        tell.append(Tell(user_id, link, params))
    notices_record(
        club_id=season.league.club_id, kind=Kind.SEASON_CLOSED, event=str(close.pk), tell=tell
    )


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
    _season_changed(season)  # rated again: the parties started since count now too
    return close


@transaction.atomic
def season_start_next(*, season: Season, name: str, starts_on: date, ends_on: date) -> Season:
    """A new season of the same league after ``season``: its dates and name are new, its
    points, games to be ranked, kinds counted, whether only confirmed games count,
    players (everyone who played, or the list chosen from the roster) and what its
    nights' tables play are those of ``season``. The players carry over: the new
    season's list is ``season``'s players (those who played in it, where it lists
    everyone who played), so that a season of everyone who played, nobody having played
    yet, ticks them at its first night."""
    new = season_create(
        league=season.league,
        name=name,
        starts_on=starts_on,
        ends_on=ends_on,
        kinds=season.kinds,
        points=season.points,
        min_games=season.min_games,
        confirmed_games_only=season.confirmed_games_only,
        players_from=season.players_from,
        night=season.night_settings,
    )
    new.players.set(selectors.season_player_ids(season))
    return new


@transaction.atomic
def season_players_set(
    *, season: Season, players_from: str, players: Iterable[Player] = ()
) -> Season:
    """Who the season lists: everyone who played (``Season.Players.PLAYED``; a list chosen
    before is kept, unused), or (``ROSTER``) ``players``, of the season's club, at least
    one. A closed season's players do not change (SeasonClosedError): reopen it first."""
    players = list(players)
    if players_from not in Season.Players.values:
        raise SeasonPlayersError(f"no such choice of players: {players_from!r}")
    locked = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    if locked.closed_at is not None:
        raise SeasonClosedError(f"the season {locked} is closed")
    if any(player.club_id != locked.league.club_id for player in players):
        raise SeasonPlayersError(f"a player is not of the club of {locked}")
    if players_from == Season.Players.ROSTER:
        if not players:
            raise SeasonPlayersError("a list of the season's players needs a player")
        locked.players.set(players)
    locked.players_from = players_from
    locked.save(update_fields=["players_from"])
    season.players_from = players_from
    return locked


# A merge of two players of the roster (table.services.player_merge) deletes the one who
# goes: the seasons that list him list the one who stays instead, and an undo puts them
# back. What moved is kept in the merge's record, beside what the table app moved.
SeasonLists = Season.players.through


@transaction.atomic
def roster_merge(*, keep: Player, gone: Player, user: AbstractBaseUser) -> PlayerMerge:
    """Merge ``gone`` into ``keep`` (``table.services.player_merge``), and the seasons'
    lists with them: a season that listed ``gone`` lists ``keep``."""
    listed = list(SeasonLists.objects.filter(player=gone).values_list("season_id", flat=True))
    had = set(
        SeasonLists.objects.filter(player=keep, season_id__in=listed).values_list(
            "season_id", flat=True
        )
    )
    merge = table_services.player_merge(keep=keep, gone=gone, user=user)
    added = [season for season in listed if season not in had]
    SeasonLists.objects.bulk_create(SeasonLists(season_id=s, player=keep) for s in added)
    merge.moved["seasons"] = {"listed": listed, "added": added}
    merge.save(update_fields=["moved"])
    return merge


@transaction.atomic
def roster_merge_undo(*, merge: PlayerMerge, user: AbstractBaseUser) -> Player:
    """Undo a merge (``table.services.player_merge_undo``): the seasons that listed the
    player who went list him again, and those that listed the one who stayed only
    because of the merge no longer do."""
    gone = table_services.player_merge_undo(merge=merge, user=user)
    seasons = merge.moved.get("seasons", {"listed": [], "added": []})
    SeasonLists.objects.filter(player_id=merge.keep_id, season_id__in=seasons["added"]).delete()
    existing = Season.objects.filter(pk__in=seasons["listed"]).values_list("pk", flat=True)
    SeasonLists.objects.bulk_create(SeasonLists(season_id=s, player=gone) for s in existing)
    return gone
