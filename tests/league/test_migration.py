"""The parties played before leagues existed get their league results from the data
migration, exactly as the services store them for a new partie."""

import importlib

import pytest
from django.apps import apps

from scorekeeper.league.models import Game, GamePayment, GamePlayer, PartieStats
from tests.league.conftest import G, K

pytestmark = pytest.mark.django_db

store = importlib.import_module(
    "scorekeeper.league.migrations.0002_results_of_existing_parties"
).store


def stored():
    return (
        sorted(Game.objects.values_list("partie_id", "number", "shutout", "ranking", "ranks")),
        sorted(GamePlayer.objects.values_list("game__partie_id", "player_id", "won")),
        sorted(
            GamePayment.objects.values_list("game__partie_id", "payer_id", "payee_id", "points")
        ),
        sorted(PartieStats.objects.values_list("partie_id", "player_id", "hands", "won", "gins")),
    )


def test_the_migration_stores_what_the_services_store(play):
    play(["Anna", "Ben"], [K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    play(["X", "Y", "Z"], [K(1, 61, knocker="X"), K(1, 51, knocker="X")], kind="chouette")
    play(["Ben", "Anna"], [G(50, knocker="Ben"), G(50, knocker="Ben")], kind="match")
    expected = stored()
    assert expected[0]  # games were closed and stored
    for model in (Game, PartieStats):
        model.objects.all().delete()

    store(apps, None)

    assert stored() == expected
