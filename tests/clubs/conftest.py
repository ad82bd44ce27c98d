"""The club's cast: its owner, a scorer, a member, and a former member (removed after he
played as Anna); the outsider and the anonymous visitor come from tests/conftest.py. The
club has a partie with a hand, an open evening with that partie, and a settled evening
with a closed partie and its payment."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Invitation, Membership, Role
from scorekeeper.table import services
from scorekeeper.table.models import Evening, EveningPayment, Partie, Player
from tests.conftest import PASSWORD

K, G = engine.Hand.knock, engine.Hand.gin


def join(club: Club, user: User, role: Role) -> Membership:
    """Join ``user`` to the club as its owner would: an invitation link, accepted."""
    owner = club.memberships.filter(role=Role.OWNER).first().user
    invitation = club_services.invitation_create(club=club, role=role, created_by=owner)
    return club_services.invitation_accept(invitation=invitation, user=user)


@pytest.fixture
def scorer(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("scorer", password=PASSWORD)


@pytest.fixture
def member(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("member", password=PASSWORD)


def skat_club(owner: User, scorer: User, member: User) -> Club:
    """The Skat Club: ``owner`` owns it, ``scorer`` scores, ``member`` reads."""
    club = club_services.club_create(name="Skat Club", owner=owner)
    join(club, scorer, Role.SCORER)
    join(club, member, Role.MEMBER)
    return club


@pytest.fixture
def club(owner: User, scorer: User, member: User) -> Club:
    return skat_club(owner, scorer, member)


@pytest.fixture
def client_of(owner, scorer, member, outsider) -> Callable[[str], Client]:
    """A client logged in as one of the cast by name; "anonymous" is logged out."""
    users = {"owner": owner, "scorer": scorer, "member": member, "outsider": outsider}

    def client_of(name: str) -> Client:
        client = Client()
        if name != "anonymous":
            client.force_login(users[name])
        return client

    return client_of


@dataclass
class ClubThings:
    """What the club holds, for building its addresses."""

    club: Club
    partie: Partie  # running, one hand
    loose: Partie  # in no evening
    evening: Evening  # open, with the partie
    settled: Evening  # settled, with a closed partie
    payment: EveningPayment
    player: Player
    invitation: Invitation  # open, to join as a member
    membership: Membership  # the member's


def start(club: Club, user: User, names=("Anna", "Ben"), evening=None) -> Partie:
    return services.partie_start(
        owner=user,
        club=club,
        names=list(names),
        rules=engine.preset("classic"),
        stake=Decimal("0.05"),
        first_dealer=names[1],
        evening=evening,
    )


def club_things(club: Club, owner: User, scorer: User, member: User) -> ClubThings:
    """What the Skat Club holds (see ClubThings), made through the services."""
    evening = services.evening_start(
        owner=scorer, club=club, name="Club night", played_on=date(2026, 11, 20)
    )
    partie = start(club, scorer, evening=evening)
    services.hand_record(partie=partie, hand=K(5, 27, knocker="Anna"), user=scorer)
    settled = services.evening_start(
        owner=scorer, club=club, name="Last week", played_on=date(2026, 11, 13)
    )
    closed = start(club, scorer, names=("Carl", "Dora"), evening=settled)
    services.hand_record(partie=closed, hand=G(80, knocker="Carl"), user=scorer)
    (payment,) = services.evening_settle(evening=settled)
    invitation = club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    return ClubThings(
        club=club,
        partie=partie,
        loose=start(club, owner, names=("Anna", "Carl")),
        evening=evening,
        settled=settled,
        payment=payment,
        player=Player.objects.get(club=club, name="Anna"),
        invitation=invitation,
        membership=Membership.objects.get(club=club, user=member),
    )


@pytest.fixture
def things(club: Club, owner: User, scorer: User, member: User) -> ClubThings:
    return club_things(club, owner, scorer, member)


def remove_after_playing(things: ClubThings, user: User) -> User:
    """``user`` joins the club, plays as Anna (``things.player``, linked to his account)
    and is then removed from it: Anna sat in ``things.partie``, of ``things.evening``,
    and in ``things.loose``."""
    membership = join(things.club, user, Role.MEMBER)
    services.player_link(player=things.player, user=user)
    club_services.membership_remove(membership=membership)
    return user


@pytest.fixture
def former(django_user_model: type[User], things: ClubThings) -> User:
    """A former member of the club, removed after he played as Anna."""
    return remove_after_playing(
        things, django_user_model.objects.create_user("former", password=PASSWORD)
    )
