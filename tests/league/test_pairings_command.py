"""``manage.py pairings``: a league night's tables from the season's stored results, as
JSON; the same seed prints the same tables; bad input exits with status 2."""

import json
import sqlite3
from contextlib import closing
from datetime import timedelta
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from scorekeeper.league.nights import night_record
from scorekeeper.table.models import Player
from tests.commands import manage
from tests.league.conftest import G, moved

pytestmark = pytest.mark.django_db


def pairings(*args: str) -> dict:
    out = StringIO()
    call_command("pairings", *args, stdout=out)
    return json.loads(out.getvalue())


def refused(*args: str) -> str:
    err = StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("pairings", *args, stdout=StringIO(), stderr=err)
    assert exit.value.code == 2
    return err.getvalue()


@pytest.fixture
def roster(club):
    return [
        Player.objects.create(club=club, name=name)
        for name in ("Anna", "Ben", "Carl", "Dora", "Zoë")
    ]


def seated(result: dict) -> list[list[str]]:
    return sorted(sorted(table["players"]) for table in result["tables"])


def test_four_players_make_two_tables_of_two(season, roster):
    result = pairings("--season", str(season.pk), "--present", "Anna, Ben,Carl,Dora", "--method",
                      "round_robin", "--format", "json")  # fmt: skip

    assert set(result) == {"tables", "byes"}
    assert [table["table"] for table in result["tables"]] == [1, 2]
    assert sorted(sum((t["players"] for t in result["tables"]), [])) == [
        "Anna",
        "Ben",
        "Carl",
        "Dora",
    ]
    assert result["byes"] == []


def test_the_same_seed_prints_the_same_tables(season, roster):
    args = ["--season", str(season.pk), "--present", "Anna,Ben,Carl,Dora,Zoë", "--method", "swiss"]
    first = pairings(*args, "--seed", "7")
    assert all(pairings(*args, "--seed", "7") == first for _ in range(3))
    assert len({json.dumps(pairings(*args, "--seed", str(seed))) for seed in range(12)}) > 1


def test_round_robin_avoids_the_seasons_meetings(season, roster, play):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Dora")])
    play(["Anna", "Carl"], [G(90, knocker="Carl")])
    moved(play(["Ben", "Dora"], [G(90, knocker="Ben")]), timezone.localdate() - timedelta(days=3))

    for seed in range(5):
        result = pairings("--season", str(season.pk), "--present", "Anna,Ben,Carl,Dora",
                          "--method", "round_robin", "--seed", str(seed))  # fmt: skip
        assert seated(result) == [["Anna", "Dora"], ["Ben", "Carl"]]


def test_swiss_pairs_tonights_winners_and_losers_without_a_rematch(season, roster, play):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])
    # Anna and Carl met last week: that is no rematch tonight.
    moved(play(["Anna", "Carl"], [G(90, knocker="Anna")]), timezone.localdate() - timedelta(days=7))

    result = pairings(
        "--season", str(season.pk), "--present", "Dora,Carl,Ben,Anna", "--method", "swiss"
    )

    assert result["tables"][0]["table"] == 1
    assert seated(result) == [["Anna", "Carl"], ["Ben", "Dora"]]
    assert sorted(result["tables"][0]["players"]) == ["Anna", "Carl"]  # the top table first


def test_an_odd_count_gets_one_bye_or_a_table_of_three(season, roster, play):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(50, knocker="Carl")])
    args = ["--season", str(season.pk), "--method"]

    # Nobody has had a bye: it goes to the lowest standing, a player with no game lowest.
    result = pairings(*args, "round_robin", "--present", "Anna,Ben,Carl,Dora,Zoë")
    assert result["byes"] == ["Zoë"]
    assert len(result["tables"]) == 2
    assert pairings(*args, "round_robin", "--present", "Anna,Ben,Carl")["byes"] == ["Ben"]

    result = pairings(*args, "swiss", "--three-player-table", "--present", "Anna,Ben,Carl,Dora,Zoë")
    assert result["byes"] == []
    assert sorted(len(table["players"]) for table in result["tables"]) == [2, 3]


def test_tonight_is_the_date_given(season, roster, play):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    today = timezone.localdate()

    assert night_record(season, today).met_tonight == {("Anna", "Ben"): 1}
    assert night_record(season, today).scores_tonight == {"Anna": 3, "Ben": 0}  # a shutout win
    yesterday = night_record(season, today - timedelta(days=1))
    assert yesterday.met_tonight == {} and yesterday.met == {("Anna", "Ben"): 1}
    assert yesterday.standing == ["Anna", "Ben"]


def test_an_unknown_name_is_refused_with_a_hint(season, roster):
    err = refused("--season", str(season.pk), "--present", "Anna,ben,Zoe,Otto", "--method", "swiss")

    assert "error: ben is not a player of the club Gin Club (did you mean Ben?)" in err
    assert "error: Zoe is not a player of the club Gin Club (did you mean Zoë?)" in err
    assert "error: Otto is not a player of the club Gin Club\n" in err


def test_a_player_of_another_club_is_unknown(season, roster, owner):
    from scorekeeper.clubs import services as club_services

    other = club_services.club_create(name="Other", owner=owner)
    Player.objects.create(club=other, name="Olga")

    assert "Olga is not a player" in refused("--season", str(season.pk), "--present", "Anna,Olga",
                                             "--method", "swiss")  # fmt: skip


def test_an_unknown_season_method_or_date_is_refused(season, roster):
    assert "there is no season 999" in refused(
        "--season", "999", "--present", "Anna", "--method", "swiss"
    )
    assert "there is no season x" in refused(
        "--season", "x", "--present", "Anna", "--method", "swiss"
    )
    assert "unknown method 'knockout': use round_robin or swiss" in refused(
        "--season", str(season.pk), "--present", "Anna,Ben", "--method", "knockout"
    )
    assert "is not a date" in refused(
        "--season", str(season.pk), "--present", "Anna", "--method", "swiss", "--date", "31.12."
    )
    assert "Anna is present twice" in refused(
        "--season", str(season.pk), "--present", "Anna,Ben,Anna", "--method", "swiss"
    )
    assert "nobody is present" in refused(
        "--season", str(season.pk), "--present", " , ", "--method", "swiss"
    )


def database_url(tmp_path: Path) -> str:
    """An address of the test's rows that another process can open: a copy of the
    database in a file on SQLite (the test database lives in this process's memory), the
    test database itself on PostgreSQL (the test commits: it runs outside a transaction)."""
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        path = tmp_path / "db.sqlite3"
        with closing(sqlite3.connect(path)) as copy:
            connection.connection.backup(copy)
        return f"sqlite:///{path}"
    db = connection.settings_dict
    user = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{user}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_the_real_command_line(tmp_path, season, roster):
    """The installed entry point, in processes of its own; a copy of the database saves
    each run of the test the migrations of a new one."""
    env = {"DATABASE_URL": database_url(tmp_path)}
    args = ["pairings", "--season", str(season.pk), "--present", "Anna,Ben,Carl,Dora,Zoë",
            "--method", "round_robin", "--seed", "3", "--format", "json"]  # fmt: skip

    first, again = manage(*args, env=env), manage(*args, env=env)  # two hash seeds

    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert first.stdout.startswith(b'{"tables": [{"table": 1, "players": ["')
    result = json.loads(first.stdout)
    assert len(result["tables"]) == 2 and len(result["byes"]) == 1

    refusal = manage(
        "pairings", "--season", str(season.pk), "--present", "Anna,Bob", "--method", "swiss",
        env=env,
    )  # fmt: skip
    assert refusal.returncode == 2
    assert refusal.stdout == b""
    assert refusal.stderr.decode() == "error: Bob is not a player of the club Gin Club\n"
