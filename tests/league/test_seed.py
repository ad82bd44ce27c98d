"""seed_league writes parties whose stored league rows are those the engine gives."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scorekeeper.engine.record import record_json
from scorekeeper.engine.season import parse_season, season_standings, standings_json
from scorekeeper.league import selectors
from scorekeeper.league.models import Season
from scorekeeper.table.models import Partie, PlayerResult
from scorekeeper.table.selectors import partie_record

pytestmark = pytest.mark.django_db


def test_a_seeded_season_stands_as_its_records_do():
    call_command("seed_league", players=12, parties=60, stdout=io.StringIO())
    call_command("worker", until_idle=True)
    season = Season.objects.get()
    parties = selectors.season_parties(season).order_by("started_at", "id")
    assert parties.count() == 60
    assert {p.kind for p in Partie.objects.all()} == {
        "two_player", "hollywood", "match", "chouette", "three_player", "partnership",
    }  # fmt: skip
    document = {"parties": [record_json(partie_record(p)) for p in parties]}
    expected = standings_json(season_standings(parse_season(json.loads(json.dumps(document)))))

    assert standings_json(selectors.season_table(season).standings) == expected


def test_a_club_name_taken_is_refused():
    call_command("seed_league", players=4, parties=1, stdout=io.StringIO())
    with pytest.raises(CommandError, match="exists already"):
        call_command("seed_league", players=4, parties=1, stdout=io.StringIO())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL keeps the statistics")
def test_the_seed_leaves_statistics_on_the_rows_it_wrote():
    call_command("seed_league", players=12, parties=60, stdout=io.StringIO())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples FROM pg_class WHERE relname = %s",
            [PlayerResult._meta.db_table],
        )
        (estimated,) = cursor.fetchone()
    assert estimated == PlayerResult.objects.count()  # ANALYZE counted them
