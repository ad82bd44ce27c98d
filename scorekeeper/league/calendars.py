"""The calendar feeds (iCalendar, RFC 5545): a club's league nights and its seasons' last
days, and a member's own nights in all his clubs, with his tables once a round is out.

The entries are read first (``club_calendar``, ``member_calendar``: plain values, tested
exactly), then written by the ``icalendar`` library (``calendar_ical``). Every event is
all-day: a night has a day and no hour. Its UID is its row's key and the site's host
("night-12@example.org"), never its day, so a night moved to another day
(``night_services.night_move``) moves in the calendar app instead of doubling; its
SEQUENCE counts its moves (``CalendarMove``), its LAST-MODIFIED and DTSTAMP are its
newest change (made, moved, a round started), so the same database gives the same bytes
and the feed's ETag can be the hash of its body. A planned night cancelled
(``night_services.night_cancel``, a ``CancelledNight``) stays in the feed under its UID
with STATUS:CANCELLED and a SEQUENCE one above its moves (RFC 5545), for as long as the
feed shows its season: a calendar app that only saw it disappear might keep it.

Another kind of event (a tournament's match, later) is another reader that returns
``CalendarEntry`` values under a name of its own ("match-7"), and moves noted the same way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Max, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from scorekeeper.clubs.models import CalendarMove, Club
from scorekeeper.table.models import Player

from .models import (
    Assignment,
    CancelledNight,
    LeagueNight,
    NightBye,
    NightTable,
    Season,
    SeasonChange,
)
from .night_services import night_event

PRODUCT = "-//Scorekeeper//League calendar//EN"
REFRESH = timedelta(hours=1)  # how often a calendar app is asked to fetch the feed again


@dataclass(frozen=True)
class CalendarEntry:
    """One all-day event of a feed."""

    event: str  # its name in the club, the UID's first part: "night-12", "season-end-3"
    summary: str
    day: date
    modified: datetime  # its newest change: LAST-MODIFIED and DTSTAMP
    sequence: int = 0  # how often it moved to another day
    description: str = ""
    path: str = ""  # the page of the site it opens
    cancelled: bool = False  # published with STATUS:CANCELLED, for the apps to remove it


@dataclass(frozen=True)
class Revision:
    """What is known of an event's changes: how many moves, and the newest change."""

    moves: int = 0
    at: datetime | None = None


def club_calendar(club: Club) -> list[CalendarEntry]:
    """The club's league nights and the last days of its seasons."""
    seasons = Season.objects.filter(league__club=club)
    nights = LeagueNight.objects.filter(season__in=seasons)
    revisions = _moves([club.pk])
    return (
        _nights(nights, revisions)
        + _cancelled(CancelledNight.objects.filter(season__in=seasons), revisions)
        + _season_ends(seasons)
    )


def member_calendar(user: AbstractBaseUser) -> list[CalendarEntry]:
    """The user's nights, in every club he is a member of now: the nights of each season
    that lists his player or where his player sat at a night's table, had a bye or played
    a partie given to it, with his tables and byes once a round is out, and its nights
    cancelled; and those seasons' last days."""
    clubs = Club.objects.filter(memberships__user=user)  # the live clubs alone
    players = Player.objects.filter(user=user, club__in=clubs)
    seasons = Season.objects.filter(_seasons_of(players), league__club__in=clubs)
    nights = LeagueNight.objects.filter(season__in=seasons)
    places = _places(nights, players)
    revisions = _moves(list(clubs.values_list("pk", flat=True)))
    return (
        _nights(nights, revisions, places)
        + _cancelled(CancelledNight.objects.filter(season__in=seasons), revisions)
        + _season_ends(seasons)
    )


def _seasons_of(players: QuerySet[Player]) -> Q:
    """The seasons where one of the players is listed or plays: each a subquery, so no
    join multiplies the seasons."""
    listed = Season.players.through.objects.filter(player__in=players)
    seated = NightTable.objects.filter(partie__seats__player__in=players)
    byes = NightBye.objects.filter(player__in=players)
    assigned = Assignment.objects.filter(partie__seats__player__in=players)
    return (
        Q(pk__in=listed.values("season_id"))
        | Q(pk__in=seated.values("night__season_id"))
        | Q(pk__in=byes.values("night__season_id"))
        | Q(pk__in=assigned.values("season_id"))
    )


def _places(nights: QuerySet[LeagueNight], players: QuerySet[Player]) -> dict[int, list[str]]:
    """By night, where the players sit in each round, in words: "Round 1, table 3: you
    against Ben", "Round 2: you sit out"."""
    places: dict[int, list[tuple[int, str]]] = defaultdict(list)
    mine = set(players.values_list("pk", flat=True))
    tables = (
        NightTable.objects.filter(night__in=nights, partie__seats__player__in=mine)
        .select_related("partie")
        .prefetch_related("partie__seats__player")
        .distinct()
    )
    for table in tables:
        others = [s.player.name for s in table.partie.seats.all() if s.player_id not in mine]
        text = _("Round %(round)s, table %(table)s: you against %(others)s") % {
            "round": table.round,
            "table": table.number,
            "others": names_text(others),
        }
        places[table.night_id].append((table.round, text))
    for bye in NightBye.objects.filter(night__in=nights, player__in=mine):
        text = _("Round %(round)s: you sit out") % {"round": bye.round}
        places[bye.night_id].append((bye.round, text))
    return {night: [text for _round, text in sorted(lines)] for night, lines in places.items()}


def names_text(names: list[str]) -> str:
    """Names as a sentence says them: "Ben", "Ben and Carl", "Ben, Carl and Dora"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _nights(
    nights: QuerySet[LeagueNight],
    revisions: dict[str, Revision],
    places: dict[int, list[str]] | None = None,
) -> list[CalendarEntry]:
    nights = nights.select_related("season__league").annotate(
        last_round=Max("tables__partie__started_at")
    )
    entries = []
    for night in nights:
        event = night_event(night)
        revision = revisions.get(event, Revision())
        changes = [night.created_at, night.last_round, revision.at]
        entries.append(
            CalendarEntry(
                event=event,
                summary=_("League night: %(season)s") % {"season": night.season},
                day=night.played_on,
                modified=max(when for when in changes if when is not None),
                sequence=revision.moves,
                description="\n".join((places or {}).get(night.pk, [])),
                path=night.season.get_absolute_url(),
            )
        )
    return entries


def _cancelled(
    cancelled: QuerySet[CancelledNight], revisions: dict[str, Revision]
) -> list[CalendarEntry]:
    """Each cancelled night, on the day it had: its UID, a SEQUENCE one above its moves
    and its cancellation as its newest change, so that a calendar app that holds it
    takes it out (RFC 5545: STATUS:CANCELLED)."""
    entries = []
    for night in cancelled.select_related("season__league"):
        event = night_event(night.night)
        entries.append(
            CalendarEntry(
                event=event,
                summary=_("League night cancelled: %(season)s") % {"season": night.season},
                day=night.played_on,
                modified=night.cancelled_at,
                sequence=revisions.get(event, Revision()).moves + 1,
                path=night.season.get_absolute_url(),
                cancelled=True,
            )
        )
    return entries


def _moves(clubs: Iterable[int]) -> dict[str, Revision]:
    """Each moved event of the clubs: its moves counted, the newest."""
    moves = (
        CalendarMove.objects.filter(club__in=clubs)
        .values("event")
        .annotate(moves=Count("id"), at=Max("at"))
        .order_by()
    )
    return {row["event"]: Revision(row["moves"], row["at"]) for row in moves}


def _season_ends(seasons: QuerySet[Season]) -> list[CalendarEntry]:
    """Each season's last day; a change of that day (``SeasonChange``) moves it."""
    changes = (
        SeasonChange.objects.filter(season__in=seasons, after__has_key="ends_on")
        .values("season")
        .annotate(moves=Count("id"), at=Max("at"))
        .order_by()
    )
    revisions = {row["season"]: Revision(row["moves"], row["at"]) for row in changes}
    entries = []
    for season in seasons.select_related("league"):
        revision = revisions.get(season.pk, Revision())
        entries.append(
            CalendarEntry(
                event=f"season-end-{season.pk}",
                summary=_("Last day of the season: %(season)s") % {"season": season},
                day=season.ends_on,
                modified=revision.at or season.created_at,
                sequence=revision.moves,
                path=season.get_absolute_url(),
            )
        )
    return entries


def calendar_ical(entries: Iterable[CalendarEntry], *, name: str, site: str) -> bytes:
    """The feed's bytes: ``site`` is the site's address ("https://example.org"), whose
    host ends every UID. Ordered by day and event, so the same entries give the same
    bytes."""
    host = site.split("://", 1)[-1]
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT1H")  # the same, in the older property

    for entry in sorted(entries, key=lambda entry: (entry.day, entry.event)):
        calendar.add_component(_event(entry, host, site))
    return calendar.to_ical()


def _event(entry: CalendarEntry, host: str, site: str) -> Event:
    event = Event()
    changed = entry.modified.astimezone(UTC)
    event.add("uid", f"{entry.event}@{host}")
    event.add("summary", entry.summary)
    event.add("dtstart", entry.day)  # a date: an all-day event, the same day everywhere
    event.add("dtend", entry.day + timedelta(days=1))
    event.add("dtstamp", changed)
    event.add("last-modified", changed)
    event.add("sequence", entry.sequence)
    event.add("transp", "TRANSPARENT")  # a reminder of the day, not an hour taken
    if entry.cancelled:
        event.add("status", "CANCELLED")
    if entry.description:
        event.add("description", entry.description)
    if entry.path:
        event.add("url", site + entry.path)
    return event


def last_modified(entries: Iterable[CalendarEntry]) -> datetime | None:
    """The newest change among the entries (the feed's Last-Modified), None for none."""
    return max((entry.modified for entry in entries), default=None)


def feed_path(token: str) -> str:
    return reverse("calendar_feed", args=[token])
