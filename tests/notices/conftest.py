"""A real SMTP server (aiosmtpd) on a free port of this machine, which the worker's mails
reach as they would reach a club's mail provider; the league's club, season and players
(Anna and Ben linked to accounts with verified addresses, Carl and Dora without)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from django.test import override_settings
from django.utils import timezone

from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league.models import NightTable
from scorekeeper.league.night_services import night_round_start
from scorekeeper.notices.services import address_check_request, address_verify
from scorekeeper.table import services

# The league's fixtures: its club, season, players and their accounts.
from tests.league.conftest import accounts, club, member, play, season  # noqa: F401

SITE = "https://gin.example"


class Inbox:
    """What the server received, each mail parsed as a mail reader parses it; while
    ``refusal`` is set, the server answers every mail with it instead."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.refusal: str | None = None

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.refusal:
            return self.refusal
        self.mails.append(message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [mail for mail in self.mails if mail["To"] == address]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """The SMTP server, and the settings that send the worker's mails to it."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=controller.port,
            EMAIL_USE_TLS=False,
            DEFAULT_FROM_EMAIL="Scorekeeper <scores@gin.example>",
            SITE_URL=SITE,
        ):
            yield inbox
    finally:
        controller.stop()


def address_verified(user, address: str) -> None:
    """The member gave ``address`` and followed the link that checks it (its mail and
    its page are read in tests/notices/test_addresses.py)."""
    user.email = address
    user.save(update_fields=["email"])
    address_verify(check=address_check_request(user=user), user=user)


@pytest.fixture
def addresses(accounts, owner) -> dict[str, str]:  # noqa: F811 (the league's accounts)
    """Anna, Ben and the club's owner give their mail addresses, and confirm them."""
    given = {"Anna": "anna@gin.example", "Ben": "ben@gin.example"}
    for name, address in given.items():
        address_verified(accounts[name], address)
    address_verified(owner, "owner@gin.example")
    return given | {"owner": owner.email}


@pytest.fixture
def roster(club, owner) -> None:  # noqa: F811 (the league's club)
    """Carl and Dora, players without accounts."""
    for name in ("Carl", "Dora"):
        services.player_add(club=club, name=name, owner=owner)


def release(season, owner, *tables, round=1) -> list:  # noqa: F811
    """The organiser starts a round of the night: the tables' parties, in table order."""
    night = night_round_start(
        season=season,
        owner=owner,
        seating=Pairing(tuple(Table(n, t) for n, t in enumerate(tables, start=1)), ()),
        played_on=timezone.localdate(),
        round=round,
    )
    tables = NightTable.objects.filter(night=night, round=round).order_by("number")
    return [table.partie for table in tables]
