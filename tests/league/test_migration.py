"""An existing database keeps its league figures through the move of the results to
rows of the table app: the league results stored the old way (by the data migration
of the parties played before leagues existed) become exactly the rows that the
services store for the same parties now, and the standings read from them."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.league import selectors
from scorekeeper.table.models import ClosedGame, PartieStats, PlayerResult, SettlementLine
from tests.league.conftest import G, K, work

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("table", "0011_bounds_payment_amount"), ("league", "0006_standings_checkpoint")]
store_the_old_way = importlib.import_module(
    "scorekeeper.league.migrations.0002_results_of_existing_parties"
).store


def stored():
    return (
        sorted(ClosedGame.objects.values_list("partie_id", "number", "shutout", "club_id",
                                              "kind", "started_at")),
        sorted(PlayerResult.objects.values_list("game__partie_id", "game__number", "player_id",
                                                "won", "shutout", "net_points", "money_e4", "side",
                                                "rank", "started_at")),
        sorted(SettlementLine.objects.values_list("game__partie_id", "payer_id", "payee_id",
                                                  "points", "amount")),
        sorted(PartieStats.objects.values_list("partie_id", "player_id", "hands", "won", "gins",
                                               "undercuts", "points")),
    )  # fmt: skip


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_results_stored_the_old_way_become_the_rows_the_services_store(play, season):
    play(["Anna", "Ben"], [K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    play(["X", "Y", "Z"], [K(1, 61, knocker="X"), K(1, 51, knocker="X")], kind="chouette")
    play(["Ben", "Anna"], [G(50, knocker="Ben"), G(50, knocker="Ben")], kind="match")
    play(["Anna", "Carl"], [G(90, knocker="Carl")], kind="hollywood")  # its game 1 closes
    expected, standings = stored(), selectors.season_table(season).standings
    assert expected[0] and expected[2]  # games were closed and settled

    old = migrate(BEFORE)
    store_the_old_way(old, None)
    assert old.get_model("league", "Game").objects.count() == len(expected[0])
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    migrate(latest)
    work()  # the migration made every club due once

    assert stored() == expected
    assert selectors.season_table(season).standings.lines == standings.lines
