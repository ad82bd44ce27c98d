"""The clubs migrations keep every row: each user's players, evenings and parties of every
kind, with their seats, hands, trail and payments, land in his personal club, which he
owns alone. Backwards, the rows stay and the clubs go.

The data is written before the clubs with the historical models of the migration state,
as it was in the database then. Runs on SQLite and on PostgreSQL (``make test`` runs the
suite on both), in a database of its own (``walk``): the test database stays at the
latest schema, so no walk back before the test and forth after it is needed.
"""

from collections.abc import Iterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps.registry import Apps
from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings

from scorekeeper import engine
from scorekeeper.clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_CLUBS = [("table", "0003_evenings_chouette")]
WALK = "walk"

# kind: (players, hands as (kind, knocker index or None, knocker's deadwood, defender's))
PARTIES = {
    "two_player": (["Anna", "Ben"], [("knock", 0, 5, 27), ("gin", 1, None, 16)]),
    "hollywood": (["Anna", "Ben"], [("knock", 0, 2, 20), ("no_game", None, None, None)]),
    "match": (["Anna", "Carl"], [("big_gin", 0, None, 30)]),
    "partnership": (["Anna", "Ben", "Carl", "Dora"], [("knock", 0, 4, 16), ("knock", 2, 2, 14)]),
    "chouette": (["Anna", "Ben", "Carl"], [("knock", 0, 3, 25), ("gin", 1, None, 12)]),
    "three_player": (["Dora", "Ben", "Anna"], [("knock", 0, 1, 9)]),
}


class ToTheWalk:
    """Every query to the walk's database: the test's own and the data migrations'."""

    def db_for_read(self, model, **hints) -> str:
        return WALK

    db_for_write = db_for_read


@pytest.fixture
def walk(tmp_path: Path) -> Iterator[BaseDatabaseWrapper]:
    """An empty database beside the test database (a file on SQLite, test_…_walk on
    PostgreSQL), which every query of the test reaches; dropped at the end."""
    database = {**connection.settings_dict}
    if connection.vendor == "postgresql":
        database["NAME"] = f"{connection.settings_dict['NAME']}_walk"
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{database["NAME"]}"')
            cursor.execute(f'CREATE DATABASE "{database["NAME"]}"')
    else:
        database["NAME"] = str(tmp_path / "walk.sqlite3")
    connections.settings[WALK] = database
    try:
        # Connected here: the test case refuses to open a connection of its own to a
        # database it was not told of when it began.
        connections[WALK].connect()
        with override_settings(DATABASE_ROUTERS=[ToTheWalk()]):
            yield connections[WALK]
    finally:
        connections[WALK].close()
        del connections[WALK]
        del connections.settings[WALK]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE "{database["NAME"]}"')


def migrate(database: BaseDatabaseWrapper, targets: list[tuple[str, str]]) -> Apps:
    """Migrate ``database`` to ``targets``; the models of that state."""
    executor = MigrationExecutor(database)
    executor.migrate(targets)
    return MigrationExecutor(database).loader.project_state(targets).apps


def latest(database: BaseDatabaseWrapper) -> list[tuple[str, str]]:
    return MigrationExecutor(database).loader.graph.leaf_nodes()


def write_history(apps: Apps) -> dict[str, int]:
    """Two players' tables of every kind, an evening settled with payments, and a user with
    nothing; usernames that make the same short name. The pk of each user by name."""
    User = apps.get_model("auth", "User")
    Player, Partie, Seat, Hand, HandChange, Evening, EveningPayment = (
        apps.get_model("table", name)
        for name in ("Player", "Partie", "Seat", "Hand", "HandChange", "Evening", "EveningPayment")
    )
    users = {name: User.objects.create(username=name) for name in ("Anna", "anna", "idle")}
    for user in (users["Anna"], users["anna"]):
        players = {
            name: Player.objects.create(owner=user, name=name)
            for name in ("Anna", "Ben", "Carl", "Dora")
        }
        evening = Evening.objects.create(
            owner=user,
            name="Club night",
            played_on=date(2026, 11, 20),
            settled_at=datetime(2026, 11, 21, tzinfo=UTC),
        )
        for kind, (names, hands) in PARTIES.items():
            seated = [players[name] for name in names]
            rules = engine.preset(engine.session_class(kind).preset).to_dict()
            partie = Partie._default_manager.create(
                owner=user,
                evening=evening if kind in ("two_player", "chouette") else None,
                kind=kind,
                rules=rules,
                stake=Decimal("0.05"),
                first_dealer=seated[0],
                summary={"players": names, "hands": len(hands)},
            )
            for position, player in enumerate(seated):
                stake = Decimal("0.10") if kind == "chouette" and position == 2 else None
                Seat.objects.create(partie=partie, player=player, position=position, stake=stake)
            for number, (hand_kind, knocker, mine, theirs) in enumerate(hands, start=1):
                tables = (1, 2) if kind == "partnership" else (1,)
                for table in tables:
                    Hand.objects.create(
                        partie=partie,
                        number=number,
                        table=table,
                        kind=hand_kind,
                        knocker=None if knocker is None else seated[knocker + table - 1],
                        knocker_deadwood=mine,
                        defender_deadwood=theirs,
                    )
                HandChange.objects.create(
                    partie=partie, hand_number=number, action="recorded", user=user
                )
        EveningPayment.objects.create(
            evening=evening, payer=players["Ben"], payee=players["Anna"], amount=Decimal("8.75")
        )
        EveningPayment.objects.create(
            evening=evening,
            payer=players["Carl"],
            payee=players["Anna"],
            amount=Decimal("2.50"),
            paid_at=datetime(2026, 11, 22, tzinfo=UTC),
        )
    return {name: user.pk for name, user in users.items()}


def rows(apps: Apps) -> dict[str, list[tuple]]:
    """Every row of the table app, as plain values that do not mention clubs."""
    fields = {
        "Player": ("pk", "owner_id", "name"),
        "Evening": ("pk", "owner_id", "name", "played_on", "settled_at"),
        "Partie": ("pk", "owner_id", "evening_id", "kind", "rules", "stake", "first_dealer_id",
                   "summary", "share_token"),
        "Seat": ("pk", "partie_id", "player_id", "position", "stake"),
        "Hand": ("pk", "partie_id", "number", "table", "kind", "knocker_id", "knocker_deadwood",
                 "defender_deadwood"),
        "HandChange": ("pk", "partie_id", "hand_number", "action", "user_id"),
        "EveningPayment": ("pk", "evening_id", "payer_id", "payee_id", "amount", "paid_at"),
    }  # fmt: skip
    return {
        model: list(
            apps.get_model("table", model)._default_manager.order_by("pk").values_list(*names)
        )
        for model, names in fields.items()
    }


def test_every_row_lands_in_its_owners_personal_club_and_stays_when_the_clubs_go(walk):
    """Forwards, then backwards: one round trip, since each migrates every app after
    the table's third migration."""
    before_clubs = migrate(walk, BEFORE_CLUBS)
    users = write_history(before_clubs)
    before = rows(before_clubs)

    after_apps = migrate(walk, latest(walk))

    assert rows(after_apps) == before
    assert len(before["Partie"]) == 2 * len(PARTIES)
    assert {kind for _, _, _, kind, *_ in before["Partie"]} == set(engine.KINDS)
    for name, pk in users.items():
        (membership,) = Membership.objects.filter(user_id=pk).select_related("club")
        club = membership.club
        assert membership.role == Role.OWNER
        assert (club.personal, club.name, club.memberships.count()) == (True, name, 1)
        for model in ("Player", "Evening", "Partie"):
            things = after_apps.get_model("table", model)._default_manager.filter(owner_id=pk)
            assert set(things.values_list("club_id", flat=True)) <= {club.pk}
            assert things.count() == (0 if name == "idle" else len(before[model]) // 2)
    assert sorted(Club.objects.values_list("slug", flat=True)) == ["anna", "anna-2", "idle"]

    apps = migrate(walk, BEFORE_CLUBS)

    assert rows(apps) == before
    assert not Club.objects.filter(personal=True).exists()
