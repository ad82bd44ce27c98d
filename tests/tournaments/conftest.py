"""A club with eight players and a tournament for them, played through the services as
at the tables: each match's partie closed by two gins of the winner."""

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.league.models import NightSettings
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Partie, Player
from scorekeeper.tournaments import services
from scorekeeper.tournaments.models import Tournament, TournamentMatch
from tests.clubs.conftest import client_of, member, scorer  # noqa: F401  (fixtures)

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gus", "Hanna"]
G = engine.Hand.gin


@pytest.fixture
def club(owner: User) -> Club:
    return club_services.club_create(name="Gin Club", owner=owner)


@pytest.fixture
def players(club: Club, owner: User) -> dict[str, Player]:
    return {name: table_services.player_add(club=club, name=name, owner=owner) for name in NAMES}


def settings(kind: str = "two_player") -> NightSettings:
    return NightSettings(kind, engine.preset(engine.session_class(kind).preset), Decimal("0.05"))


def create(club: Club, owner: User, system: str = "single_elimination", **options) -> Tournament:
    return services.tournament_create(
        club=club,
        owner=owner,
        name="Club championship",
        played_on=date(2026, 11, 28),
        system=system,
        settings=settings(options.pop("kind", "two_player")),
        **options,
    )


def entered(tournament: Tournament, players: dict[str, Player], names=NAMES) -> Tournament:
    """Every named player checked in and seeded by hand in the order given."""
    services.entries_check_in(tournament=tournament, players=[players[n] for n in names])
    order = [tournament.entries.get(player__name=n).pk for n in names]
    services.entries_seed(tournament=tournament, method="hand", order=order)
    return tournament


def table_of(tournament: Tournament, match: str) -> TournamentMatch:
    return TournamentMatch.objects.select_related("partie").get(tournament=tournament, match=match)


def win(tournament: Tournament, match: str, winner: str, owner: User) -> Partie:
    """The match's partie played to its end, ``winner`` ginning twice (2 × 55 ≥ 100)."""
    partie = table_of(tournament, match).partie
    for _ in range(2):
        table_services.hand_record(partie=partie, hand=G(30, knocker=winner), user=owner)
    partie.refresh_from_db()
    return partie


def work() -> None:
    call_command("worker", until_idle=True)
