"""Backup and restore (README.md, "Backup and restore"): every row of every table back.

A database holding parties of every kind, hands entered, changed and deleted (the audit
trail), a club with a member, a league season, evenings settled up with a payment marked
paid, sessions and login failures is backed up, wiped and restored; then every row of every
table is compared with what was there before, timestamps to the microsecond.

The portable way (both databases): `manage.py dumpdata --all --format xml` and
`manage.py loaddata` into the emptied database. On PostgreSQL with pg_dump installed, the
same data also goes through `pg_dump -Fc` and `pg_restore` into a scratch database;
without pg_dump that test skips on a laptop, and fails under CI=true, where a backup
left untested is a broken build (`make pgtools` installs it).
"""

import os
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.accounts.models import SignupAttempt
from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import Membership, Role
from scorekeeper.engine.record import loads
from scorekeeper.league import services as league
from scorekeeper.table import services
from scorekeeper.table.models import EveningPayment, Hand, HandChange, Partie

pytestmark = pytest.mark.django_db(transaction=True)  # pg_dump must see committed rows

RECORDS = Path(__file__).parent / "records"
KIND_RECORDS = [
    "format_example",
    "hollywood",
    "match",
    "partnership",
    "chouette",
    "three_player",
]
K = engine.Hand.knock


def fill(owner: User, member: User) -> Partie:
    """What a club's database holds after a few evenings, through the app's own services;
    the partie still running comes back."""
    club = clubs.club_create(name="Thursday club", owner=owner)
    invitation = clubs.invitation_create(club=club, role=Role.SCORER, created_by=owner)
    clubs.invitation_accept(invitation=invitation, user=member)
    imported = {
        name: services.partie_import(
            owner=owner, record=loads((RECORDS / f"{name}.json").read_bytes()), club=club
        )
        for name in KIND_RECORDS
    }
    running = services.partie_start(
        owner=owner,
        club=club,
        names=["Anna", "Ben"],
        rules=engine.preset("classic"),
        stake=Decimal("0.05"),
        first_dealer="Ben",
    )
    for deadwood in (27, 20, 15):
        services.hand_record(partie=running, hand=K(5, deadwood, knocker="Anna"), user=owner)
    services.hand_edit(partie=running, number=2, hand=K(3, 20, knocker="Ben"), user=member)
    services.hand_delete(partie=running, number=3, user=owner)

    evening = services.evening_start(
        owner=owner, name="Thursday", played_on=date(2026, 11, 19), club=club
    )
    for name in ("format_example", "hollywood"):
        services.partie_evening_set(partie=imported[name], evening=evening)
    payments = services.evening_settle(evening=evening)
    services.evening_payment_paid(payment=payments[0])
    services.evening_start(owner=owner, name="Next week", played_on=date(2026, 11, 26), club=club)

    season = league.season_create(
        league=league.league_create(club=club, name="Club league"),
        name="Winter",
        starts_on=date(2026, 11, 1),
        ends_on=date(2027, 2, 28),
    )
    league.partie_season_assign(partie=imported["format_example"], season=season)
    league.season_settings_change(season=season, min_games=1, user=owner)  # audited

    Client().force_login(owner)  # a session row
    Client(REMOTE_ADDR="198.51.100.7").post(
        reverse("login"), {"username": "owner", "password": "a wrong guess"}
    )
    SignupAttempt.objects.create(address="198.51.100.7")
    return running


def tables() -> list[str]:
    with connection.cursor() as cursor:
        return sorted(connection.introspection.table_names(cursor))


def snapshot(cursor, names: list[str]) -> dict[str, list[tuple]]:
    """Every row of every table, every column as the database gives it back."""
    rows = {}
    for name in names:
        cursor.execute(f'SELECT * FROM "{name}"')
        rows[name] = sorted(cursor.fetchall(), key=repr)
    return rows


def database_snapshot() -> dict[str, list[tuple]]:
    with connection.cursor() as cursor:
        return snapshot(cursor, tables())


@pytest.fixture
def running(owner: User, outsider: User) -> Partie:
    return fill(owner, outsider)


@pytest.fixture
def filled(running: Partie) -> dict[str, list[tuple]]:
    # The backup is worth testing only if it holds all of this.
    assert set(Partie.objects.values_list("kind", flat=True)) == set(engine.KINDS)
    assert HandChange.objects.filter(action=HandChange.Action.EDITED).exists()
    assert HandChange.objects.filter(action=HandChange.Action.DELETED).exists()
    assert EveningPayment.objects.filter(paid_at__isnull=False).exists()
    assert EveningPayment.objects.filter(paid_at__isnull=True).exists()
    assert Membership.objects.filter(user__username="outsider").exists()
    assert AccessAttempt.objects.exists()
    before = database_snapshot()
    assert sum(map(len, before.values())) > 300
    return before


def test_dumpdata_wipe_loaddata_gives_back_every_row(
    filled: dict[str, list[tuple]], running: Partie, tmp_path: Path, owner: User
):
    backup = tmp_path / "scorekeeper.xml"
    call_command("dumpdata", all=True, format="xml", output=str(backup), verbosity=0)

    call_command("flush", interactive=False, inhibit_post_migrate=True, verbosity=0)
    wiped = database_snapshot()
    assert [name for name, rows in wiped.items() if rows] == ["django_migrations"]

    call_command("loaddata", str(backup), verbosity=0)
    assert database_snapshot() == filled

    # The restored database goes on: new rows get new ids (the sequences were reset).
    services.hand_record(partie=running, hand=K(2, 30, knocker="Anna"), user=owner)
    assert Hand.objects.filter(partie=running).count() == 3


def require_pg_dump() -> None:
    """Skips the test without pg_dump and pg_restore; under CI=true fails it instead."""
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        reason = "pg_dump or pg_restore is not installed (run `make pgtools`)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_a_missing_pg_dump_fails_under_ci_and_skips_elsewhere(monkeypatch, ci, outcome):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setenv("CI", ci)

    with pytest.raises(outcome, match="pg_dump or pg_restore is not installed"):
        require_pg_dump()


def test_pg_dump_and_pg_restore_give_back_every_row(filled: dict[str, list[tuple]], tmp_path: Path):
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump is for PostgreSQL; this run is on " + connection.vendor)
    require_pg_dump()
    db = connection.settings_dict
    env = os.environ | {"PGPASSWORD": db["PASSWORD"] or ""}
    where = ["-h", db["HOST"] or "localhost", "-p", str(db["PORT"] or 5432), "-U", db["USER"]]
    backup = tmp_path / "scorekeeper.dump"
    subprocess.run(["pg_dump", *where, "-Fc", "-f", str(backup), db["NAME"]], env=env, check=True)

    scratch = f"{db['NAME']}_restore_{os.getpid()}"
    admin = {"host": db["HOST"] or "localhost", "port": db["PORT"] or 5432, "user": db["USER"]}
    admin["password"] = db["PASSWORD"] or None
    with psycopg.connect(dbname="postgres", autocommit=True, **admin) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        server.execute(f'CREATE DATABASE "{scratch}"')
    try:
        subprocess.run(
            ["pg_restore", *where, "--no-owner", "-d", scratch, str(backup)], env=env, check=True
        )
        # Both read by the same plain psycopg connection, so that values compare as equals
        # (Django's own connection reads JSON columns and time zones its own way).
        with psycopg.connect(dbname=db["NAME"], **admin) as source:
            before = snapshot(source.cursor(), tables())
        with psycopg.connect(dbname=scratch, **admin) as restored:
            assert snapshot(restored.cursor(), tables()) == before
        assert {name: len(rows) for name, rows in before.items()} == {
            name: len(rows) for name, rows in filled.items()
        }
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **admin) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
