"""Writes of a league night: a round started, every table's partie at once, in the
night's evening (its money settled together); and the season's nights planned ahead,
moved to another day and cancelled, each noted for the calendar feeds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import combinations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs.models import CalendarMove
from scorekeeper.engine import bounds
from scorekeeper.engine.pairings import Pairing
from scorekeeper.notices.models import Kind
from scorekeeper.notices.services import Tell, notices_record
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Evening, Partie, Player
from scorekeeper.table.services import evenings as evening_services

from . import services
from .models import (
    CancelledNight,
    LeagueNight,
    NightBye,
    NightSettings,
    NightTable,
    Season,
    night_started,
)
from .nights import running_tables


class RoundError(ValueError):
    """A seating that cannot be started: a name not of the club, a table of one."""


class OutsideSeason(RoundError):
    """A round on a day before the season's first day or after its last."""


class StillPlaying(RoundError):
    """A table of players who sit together at a table of the night still playing:
    starting it would make them a second running partie."""

    def __init__(self, players: tuple[str, ...], table: NightTable):
        self.players = players  # the new table's players who play together already
        self.table = table  # where they play
        super().__init__(f"{' and '.join(players)} still play round {table.round}")


class NightTaken(RoundError):
    """A night planned or moved on a day on which the season has a night already."""


class NightStarted(RoundError):
    """A night whose first round has started: it stays on its day and is not cancelled."""


class PastDay(RoundError):
    """A night planned or moved to a day that is gone."""

    def __init__(self, day: date, today: date):
        self.day = day
        self.today = today
        super().__init__(f"{day} is before today ({today})")


def _still_together(night: LeagueNight, seating: Pairing) -> None:
    """Refuse (StillPlaying) a table of the seating two of whose players sit together at
    a running table of the night."""
    together: dict[tuple[str, ...], NightTable] = {}
    for table in running_tables(night):
        for pair in combinations(sorted(table.partie.player_names), 2):
            together[pair] = table
    for table in seating.tables:
        for pair in combinations(sorted(table.players), 2):
            if pair in together:
                raise StillPlaying(pair, together[pair])


def night_evening_name(season: Season) -> str:
    """A night's evening is named after its league and season (its date is its own)."""
    return f"{season.league.name}: {season.name}"[: Evening._meta.get_field("name").max_length]


def _night_of(season: Season, played_on: date, owner: AbstractBaseUser) -> LeagueNight:
    """The season's night on that day, locked, with its evening: a new night plays the
    season's settings, and its parties are settled together in an evening of its own."""
    nights = LeagueNight.objects.select_for_update()
    # A night planned for the day is taken, locked first: cancelled meanwhile (its lock
    # waited for), it is gone, and a night of the day is made anew.
    night = nights.filter(season=season, played_on=played_on).first()
    if night is None:
        night, _ = LeagueNight.objects.get_or_create(
            season=season, played_on=played_on, defaults=season.night_fields()
        )
        night = nights.get(pk=night.pk)
    if night.evening_id is None:
        night.evening = evening_services.evening_start(
            owner=owner,
            club=season.league.club,
            name=night_evening_name(season),
            played_on=played_on,
            confirmed_games_only=season.confirmed_games_only,
        )
        night.save(update_fields=["evening"])
    return night


def _evening_for_round(night: LeagueNight, tables: int) -> Evening | None:
    """The night's evening if it can take the round's parties: not settled, and room for
    all of them (a round is settled whole). Otherwise the round plays outside it and the
    night page says so."""
    evening = Evening.objects.select_for_update().get(pk=night.evening_id)
    held = Partie.objects.filter(evening=evening).count()
    if evening.is_settled or held + tables > bounds.MAX_PARTIES_PER_EVENING:
        return None
    return evening


@transaction.atomic
def night_round_start(
    *,
    season: Season,
    owner: AbstractBaseUser,
    seating: Pairing,
    played_on: date,
    round: int,
    settings: NightSettings | None = None,
) -> LeagueNight:
    """Start round ``round`` of the season's night on ``played_on``: one partie per table
    in the season's club, counted for the season, numbered as the tables, in the night's
    evening; the byes recorded. The tables play ``settings`` (which the night keeps for
    its next rounds), or the night's as they are (at first the season's); the app cuts
    for each table's deal. The round given is the one the organiser saw as next: a
    second tap on the same round (a retry, a double tap) starts nothing more. Refused,
    with nothing written: a day outside the season's dates (OutsideSeason), a table of
    players who play together at a table of the night still running (StillPlaying;
    checked under the night's lock, so two taps or two organisers cannot both start
    it). Each seated player linked to an account is told his table (``notices``)."""
    if not season.starts_on <= played_on <= season.ends_on:
        raise OutsideSeason(f"{played_on} is not a day of the season {season}")
    night = _night_of(season, played_on, owner)
    last = night.tables.aggregate(last=Max("round"))["last"] or 0
    last = max(last, night.byes.aggregate(last=Max("round"))["last"] or 0)
    if round <= last:
        return night
    if not seating.tables:
        raise RoundError("a round needs at least one table")
    _still_together(night, seating)
    club = season.league.club
    byes = {p.name: p for p in Player.objects.filter(club=club, name__in=seating.byes)}
    if len(byes) != len(seating.byes):
        raise RoundError("a player on the bye is not of the club")
    if settings is not None:
        night.set_night_settings(settings)
        night.save(update_fields=["night_kind", "night_rules", "night_stake"])
    settings = night.night_settings
    evening = _evening_for_round(night, len(seating.tables))
    parties = {}
    for table in seating.tables:
        kind, rules = settings.for_table(len(table.players))
        partie = table_services.partie_start(
            owner=owner,
            club=club,
            names=list(table.players),
            rules=rules,
            kind=kind,
            stake=settings.stake,
            evening=evening,
            cut=True,
        )
        services.partie_season_assign(partie=partie, season=season)
        NightTable.objects.create(night=night, round=last + 1, number=table.number, partie=partie)
        parties[table.number] = partie
    NightBye.objects.bulk_create(
        NightBye(night=night, round=last + 1, player=byes[name]) for name in seating.byes
    )
    _tables_tell(season, night, last + 1, seating, parties)
    return night


def night_event(night: LeagueNight | int) -> str:
    """The night's name among its club's calendar events, in its UID and its moves (a
    cancelled night's by the key it had)."""
    return f"night-{night if isinstance(night, int) else night.pk}"


def weekly(first: date, last: date, weekday: int) -> list[date]:
    """Every ``weekday`` (0 Monday … 6 Sunday) from ``first`` to ``last``, both ends
    included.

    >>> weekly(date(2026, 12, 1), date(2026, 12, 17), 3)  # the Thursdays
    [datetime.date(2026, 12, 3), datetime.date(2026, 12, 10), datetime.date(2026, 12, 17)]
    >>> weekly(date(2026, 12, 4), date(2026, 12, 9), 3)
    []
    """
    day = first + timedelta(days=(weekday - first.weekday()) % 7)
    days = []
    while day <= last:
        days.append(day)
        day += timedelta(days=7)
    return days


@dataclass(frozen=True)
class Planned:
    """What planning nights did: the nights made (in the order of their days) and the
    days left alone, since the season had a night on them already."""

    nights: list[LeagueNight]
    skipped: list[date]


def _plannable(season: Season, day: date, today: date) -> None:
    """Refuse a day that no night can be planned or moved to: outside the season
    (OutsideSeason), gone (PastDay)."""
    if not season.starts_on <= day <= season.ends_on:
        raise OutsideSeason(f"{day} is not a day of the season {season}")
    if day < today:
        raise PastDay(day, today)


def _open(season: Season) -> None:
    if season.closed_at is not None:
        raise services.SeasonClosedError(f"the season {season} is closed")


@transaction.atomic
def nights_plan(*, season: Season, days: Iterable[date]) -> Planned:
    """Plan the season's nights on ``days``, ahead of their rounds: each a night without
    a round, whose tables play the season's settings (they follow the season's until
    its first round), in the calendar feeds at once. A day with a night of the season
    already is skipped. Refused, with nothing written: a closed season
    (``SeasonClosedError``), a day outside the season (OutsideSeason) or gone (PastDay).
    The season's row is locked, so two organisers planning at once plan each day once."""
    locked = Season.objects.select_for_update().get(pk=season.pk)
    _open(locked)
    days = sorted(set(days))
    today = timezone.localdate()
    for day in days:
        _plannable(locked, day, today)
    taken = set(locked.nights.filter(played_on__in=days).values_list("played_on", flat=True))
    settings = locked.night_fields()
    nights = [
        LeagueNight(season=locked, played_on=day, **settings) for day in days if day not in taken
    ]
    LeagueNight.objects.bulk_create(nights)
    return Planned(nights, sorted(taken))


def night_plan(*, season: Season, played_on: date) -> LeagueNight:
    """Plan one night (``nights_plan``); refused too (NightTaken) where the season has a
    night on that day already."""
    planned = nights_plan(season=season, days=[played_on])
    if not planned.nights:
        raise NightTaken(f"the season has a night on {played_on} already")
    return planned.nights[0]


def _night_locked(night: LeagueNight) -> LeagueNight:
    """The night, locked, with its season; refused when the season is closed
    (``SeasonClosedError``) or the night has started (NightStarted)."""
    night = (
        LeagueNight.objects.select_related("season__league", "evening")
        .select_for_update(of=("self",))
        .get(pk=night.pk)
    )
    _open(night.season)
    # Asked once the lock is held, in a query of its own: one asked with the lock would
    # read the tables as they were before it waited (a round that started meanwhile,
    # holding the lock, would be missed on PostgreSQL, and a cancel would delete it).
    if LeagueNight.objects.filter(night_started(), pk=night.pk).exists():
        raise NightStarted(f"the night of {night.played_on} has started")
    return night


@transaction.atomic
def night_move(*, night: LeagueNight, played_on: date) -> LeagueNight:
    """Move a planned night to another day of its season, and note the move for the
    calendar feeds (``CalendarMove``: the event keeps its UID, its SEQUENCE counts the
    moves). Refused: a closed season (``SeasonClosedError``), a night that has started
    (NightStarted: its parties were played on its day), a day outside the season
    (OutsideSeason) or gone (PastDay), a day with a night of the season already
    (NightTaken). Moved to its own day, nothing changes."""
    night = _night_locked(night)
    season = night.season
    if played_on == night.played_on:
        return night
    _plannable(season, played_on, timezone.localdate())
    before, night.played_on = night.played_on, played_on
    try:
        # The day's night, there before or made by a first round meanwhile: one a day.
        with transaction.atomic():
            night.save(update_fields=["played_on"])
    except IntegrityError:
        raise NightTaken(f"the season has a night on {played_on} already") from None
    CalendarMove.objects.create(
        club_id=season.league.club_id, event=night_event(night), before=before, after=played_on
    )
    return night


@transaction.atomic
def night_cancel(*, night: LeagueNight, user: AbstractBaseUser | None = None) -> CancelledNight:
    """Cancel a planned night: it goes from its season, and a ``CancelledNight`` keeps
    its key and day, so that the calendar feeds publish it cancelled under its UID
    instead of dropping it (a calendar app keeps an event that only disappears). An
    evening the night had without a partie goes with it. Refused: a closed season
    (``SeasonClosedError``), a night that has started (NightStarted)."""
    night = _night_locked(night)
    cancelled = CancelledNight.objects.create(
        season=night.season, night=night.pk, played_on=night.played_on, cancelled_by=user
    )
    evening = night.evening
    night.delete()
    if evening is not None and not Partie.all_objects.filter(evening=evening).exists():
        evening.delete()
    return cancelled


def _tables_tell(
    season: Season, night: LeagueNight, round: int, seating: Pairing, parties: dict
) -> None:
    """Tell each seated player linked to an account his table and whom he plays."""
    seated = [name for table in seating.tables for name in table.players]
    accounts = dict(
        Player.objects.filter(
            club=season.league.club_id, name__in=seated, user__isnull=False
        ).values_list("name", "user_id")
    )
    notices_record(
        club_id=season.league.club_id,
        kind=Kind.TABLES_OUT,
        event=f"{night.pk}:{round}",
        tell=[
            Tell(
                accounts[name],
                reverse("partie_detail", args=[parties[table.number].pk]),
                {
                    "season": season.name,
                    "round": round,
                    "table": table.number,
                    "opponents": [other for other in table.players if other != name],
                },
            )
            for table in seating.tables
            for name in table.players
            if name in accounts
        ],
    )
