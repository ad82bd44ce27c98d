"""Writes of a league night: a round started, every table's partie at once."""

from __future__ import annotations

from datetime import date
from itertools import combinations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.engine.pairings import Pairing
from scorekeeper.notices.models import Kind
from scorekeeper.notices.services import Tell, notices_record
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Player

from . import services
from .models import LeagueNight, NightBye, NightTable, Season
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


@transaction.atomic
def night_round_start(
    *, season: Season, owner: AbstractBaseUser, seating: Pairing, played_on: date, round: int
) -> LeagueNight:
    """Start round ``round`` of the season's night on ``played_on``: one partie per table
    in the season's club, counted for the season, numbered as the tables; the byes
    recorded. The round given is the one the organiser saw as next: a second tap on the
    same round (a retry, a double tap) starts nothing more. Refused, with nothing
    written: a day outside the season's dates (OutsideSeason), a table of players who
    play together at a table of the night still running (StillPlaying; checked under
    the night's lock, so two taps or two organisers cannot both start it). Each seated
    player linked to an account is told his table (``notices``)."""
    if not season.starts_on <= played_on <= season.ends_on:
        raise OutsideSeason(f"{played_on} is not a day of the season {season}")
    night, _ = LeagueNight.objects.get_or_create(season=season, played_on=played_on)
    night = LeagueNight.objects.select_for_update().get(pk=night.pk)
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
    parties = {}
    for table in seating.tables:
        kind = "two_player" if len(table.players) == 2 else "three_player"
        session = engine.session_class(kind)
        partie = table_services.partie_start(
            owner=owner,
            club=club,
            names=list(table.players),
            rules=engine.preset(session.preset),
            kind=kind,
            first_dealer=None if session.dealt_by_roles else table.players[0],
        )
        services.partie_season_assign(partie=partie, season=season)
        NightTable.objects.create(night=night, round=last + 1, number=table.number, partie=partie)
        parties[table.number] = partie
    NightBye.objects.bulk_create(
        NightBye(night=night, round=last + 1, player=byes[name]) for name in seating.byes
    )
    _tables_tell(season, night, last + 1, seating, parties)
    return night


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
