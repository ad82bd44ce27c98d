"""A club with a league season: parties played through the services, as at the table."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, Partie, PartieStats, PlayerResult
from scorekeeper.table.services import confirmations
from scorekeeper.table.services.results import games_renew
from tests.clubs.conftest import join

K, G = engine.Hand.knock, engine.Hand.gin


@pytest.fixture
def member(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("member", password="x")


@pytest.fixture
def club(owner: User, member: User) -> Club:
    club = club_services.club_create(name="Gin Club", owner=owner)
    join(club, member, Role.MEMBER)
    return club


@pytest.fixture
def season(club: Club) -> Season:
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    return league_services.season_create(
        league=league,
        name="Autumn",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
    )


@pytest.fixture
def accounts(club: Club, owner: User, django_user_model: type[User]) -> dict[str, User]:
    """Anna and Ben are members linked to their players, asked to confirm their games;
    Carl and Dora have no account."""
    users = {}
    for name in ("Anna", "Ben"):
        user = django_user_model.objects.create_user(name.lower())
        join(club, user, Role.MEMBER)
        player = services.player_add(club=club, name=name, owner=owner)
        services.player_link(player=player, user=user)
        users[name] = user
    return users


def confirm(partie: Partie, *users: User, number: int = 1) -> None:
    """The partie's game ``number`` confirmed by each of ``users``."""
    for user in users:
        game = ClosedGame.objects.get(partie=partie, number=number)
        confirmations.result_confirm(game=game, user=user)
    work()


@pytest.fixture
def play(club: Club, owner: User):
    """Start a partie in the club and record its hands through the services."""

    def play(names, hands, kind="two_player", stake="0.05", preset=None, stakes=None) -> Partie:
        cls = engine.session_class(kind)
        partie = services.partie_start(
            owner=owner,
            club=club,
            names=list(names),
            rules=engine.preset(preset or cls.preset),
            kind=kind,
            stake=Decimal(stake),
            first_dealer=None if cls.dealt_by_roles else names[0],
            stakes={name: Decimal(own) for name, own in (stakes or {}).items()},
        )
        for hand in hands:
            services.hand_record(partie=partie, hand=hand, user=owner)
        partie.refresh_from_db()
        work()
        return partie

    return play


def work() -> None:
    """What the worker beside the web server does after a change: rate the games the
    change made due (``league.outbox``), and stop when nothing more is."""
    call_command("worker", until_idle=True)


def moved(partie: Partie, day: date) -> Partie:
    """The partie as if it had started on ``day``: its results' rows are written anew, as
    the services write them after a change (nothing in the app moves a partie's start)."""
    started = timezone.make_aware(timezone.datetime.combine(day, timezone.datetime.min.time()))
    Partie.objects.filter(pk=partie.pk).update(started_at=started)
    ClosedGame.objects.filter(partie=partie).update(started_at=started)
    PlayerResult.objects.filter(partie=partie).update(started_at=started)
    PartieStats.objects.filter(partie=partie).update(started_at=started)
    games_renew(parties=[partie.pk])
    partie.refresh_from_db()
    work()
    return partie


@pytest.fixture
def evening(play, season):
    """Parties of three kinds, started a day apart, all closed (some modules have an
    evening of their own)."""
    parties = [
        play(["Anna", "Ben"], [K(5, 27, knocker="Anna"), G(90, knocker="Anna")]),
        play(["Ben", "Carl", "Dora"], [K(1, 61, knocker="Ben"), K(1, 51, knocker="Ben")],
             kind="chouette"),
        play(["Carl", "Anna"], [G(90, knocker="Carl"), G(90, knocker="Anna")], kind="match"),
        play(["Dora", "Anna"], [G(90, knocker="Dora")]),
    ]  # fmt: skip
    for days, partie in enumerate(parties):
        moved(partie, season.starts_on + timedelta(days=days + 1))
    return parties
