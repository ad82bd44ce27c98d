"""The season document (FORMAT.md, "Season"): ``standings --season ID --format season``
and the season page's download write it, and ``standings FILE`` on it prints the
standings of the page: the same JSON as ``standings --season ID``."""

import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.engine import Hand
from scorekeeper.engine import season as season_module
from scorekeeper.engine.record import RecordError, loads
from scorekeeper.engine.season import standings_json
from scorekeeper.league import selectors
from scorekeeper.league import services as league_services
from scorekeeper.league.management.commands import standings as standings_command
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.league.conftest import G, K, confirm, moved, work

pytestmark = pytest.mark.django_db

RECORDS = Path(__file__).resolve().parent.parent / "records"
KINDS = ["format_example", "hollywood", "match", "partnership", "chouette", "three_player"]


def standings(*args: str) -> str:
    out = io.StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def export(season) -> str:
    return standings("--season", str(season.pk), "--format", "season")


def read_back(text: str, tmp_path: Path) -> str:
    """``standings FILE`` on the document."""
    path = tmp_path / "season.json"
    path.write_text(text, encoding="utf-8")
    return standings(str(path))


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def full(play, season, owner, club):
    """A season with parties of every kind, imported and played hand by hand, one given
    to it by hand; beside it a partie before its dates and a deleted one."""
    old = moved(play(["Eva", "Finn"], [G(90, knocker="Eva")]), season.starts_on - timedelta(days=9))
    league_services.partie_season_assign(partie=old, season=season)  # counts, played first
    moved(play(["Gus", "Hal"], [G(90, knocker="Gus")]), season.starts_on - timedelta(days=3))
    for name in KINDS:  # the chouette record's Dan plays his own stake of 0.10
        record = loads((RECORDS / f"{name}.json").read_text())
        services.partie_import(owner=owner, club=club, record=record)
    chouette = [K(1, 21, knocker="Y"), K(1, 16, knocker="Y"), K(1, 31, knocker="X"),
                K(1, 41, knocker="Z"), K(1, 31, knocker="Z")]  # fmt: skip
    play(["X", "Y", "Z"], chouette, kind="chouette", stakes={"Z": "0.20"})
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # Anna and Ben of the records, again
    play(["Carl", "Dora"], [K(3, 20, knocker="Carl")])  # running: listed, no game counted
    gone = play(["Ida", "Jan"], [G(90, knocker="Ida")])
    services.partie_delete(partie=gone, user=owner)
    return season


def test_the_season_document_reads_back_into_the_standings_of_the_database(full, tmp_path):
    text = export(full)

    assert read_back(text, tmp_path) == standings("--season", str(full.pk), "--format", "json")
    document = json.loads(text)
    assert (document["format"], document["name"], document["min_games"]) == (
        "scorekeeper-season/1",
        "Autumn",
        0,
    )
    assert document["points"] == {"win": 2, "shutout_win": 3, "loss": 0}
    parties = document["parties"]
    assert [p["kind"] for p in parties] == ["two_player", *(
        loads((RECORDS / f"{name}.json").read_text()).kind for name in KINDS
    ), "chouette", "two_player", "two_player"]  # fmt: skip
    assert parties[0]["players"] == ["Eva", "Finn"]  # assigned by hand, played first
    assert parties[5]["stakes"] == {"Dan": "0.1"}  # the imported chouette's own stake
    assert parties[7]["stakes"] == {"Z": "0.2"}  # and the one played at the table
    lines = {line["player"]: line for line in json.loads(read_back(text, tmp_path))["standings"]}
    assert {"Eva", "Carl", "Dora", "Paula", "You", "X"} <= lines.keys()
    assert not {"Gus", "Ida"} & lines.keys()  # before the season; deleted
    assert (lines["Carl"]["games"], lines["Carl"]["rank"]) == (0, lines["Dora"]["rank"])


def test_a_season_that_counts_only_some_kinds_exports_only_those(full, tmp_path):
    league_services.season_settings_change(
        season=full, kinds=["chouette", "three_player"], min_games=2
    )
    work()

    text = export(full)

    assert [p["kind"] for p in json.loads(text)["parties"]] == [
        "chouette", "three_player", "chouette",
    ]  # fmt: skip
    assert json.loads(text)["min_games"] == 2
    assert read_back(text, tmp_path) == standings("--season", str(full.pk))


def test_a_loss_that_costs_a_point_stands_alike_in_the_database_and_the_document(
    play, season, tmp_path
):
    season.points_loss = -1
    season.save()
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # Anna 3, Ben -1
    play(["Ben", "Carl"], [G(20, knocker="Ben"), G(20, knocker="Carl"), G(90, knocker="Carl")])
    play(["Anna", "Carl"], [G(20, knocker="Anna"), G(90, knocker="Carl")])  # Carl 2, Anna -1

    database = json.loads(standings("--season", str(season.pk)))
    text = export(season)

    assert json.loads(text)["points"] == {"win": 2, "shutout_win": 3, "loss": -1}
    assert json.loads(read_back(text, tmp_path)) == database
    assert [
        (line["rank"], line["player"], line["won"], line["lost"], line["league_points"])
        for line in database["standings"]
    ] == [
        (1, "Carl", 2, 0, 2 + 2),
        (2, "Anna", 1, 1, 3 - 1),
        (3, "Ben", 0, 2, -1 - 1),
    ]


def test_a_season_of_confirmed_games_reads_back_into_its_page_with_a_game_pending(
    play, season, accounts, tmp_path
):
    season.confirmed_games_only = True
    season.save()
    first = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    confirm(first, accounts["Anna"], accounts["Ben"])
    play(["Ben", "Anna"], [G(90, knocker="Ben")])  # waits for Anna and Ben
    play(["Carl", "Anna"], [K(3, 20, knocker="Carl"), G(90, knocker="Carl")])  # for Anna
    play(["Carl", "Dora"], [G(90, knocker="Dora")])  # nobody to ask: counts at once

    text = export(season)
    page = standings_json(selectors.season_table(season).standings)

    document = json.loads(text)
    assert document["confirmed_games_only"] is True
    assert [party.get("pending_games") for party in document["parties"]] == [
        None, [1], [1], None,
    ]  # fmt: skip
    assert json.loads(read_back(text, tmp_path)) == page
    assert read_back(text, tmp_path) == standings("--season", str(season.pk))
    games = {line["player"]: (line["games"], line["won"]) for line in page["standings"]}
    assert games == {"Anna": (1, 1), "Ben": (1, 0), "Carl": (1, 0), "Dora": (1, 1)}


def test_a_season_that_counts_every_game_names_its_pending_ones_and_counts_them(
    play, season, accounts, tmp_path
):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # waits for Anna and Ben

    text = export(season)

    document = json.loads(text)
    assert document["confirmed_games_only"] is False
    assert document["parties"][0]["pending_games"] == [1]
    assert read_back(text, tmp_path) == standings("--season", str(season.pk))
    assert [line["games"] for line in json.loads(read_back(text, tmp_path))["standings"]] == [1, 1]


def test_a_partie_the_engine_cannot_score_stops_the_export_with_a_clear_line(play, season, capsys):
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    Partie.objects.filter(pk=partie.pk).update(rules={"preset": "no such preset"})

    with pytest.raises(SystemExit) as exit:
        export(season)

    assert exit.value.code == 2
    assert capsys.readouterr().err.startswith(
        f"error: partie {partie.pk} cannot be scored any more: "
    )


def test_format_season_needs_a_season_of_the_database(capsys, tmp_path):
    with pytest.raises(SystemExit):
        standings(str(tmp_path / "season.json"), "--format", "season")
    assert "give --season ID" in capsys.readouterr().err


# The download on the season page


@pytest.mark.parametrize("who", ["owner", "member"])
def test_a_member_downloads_the_season_document_of_the_command(request, who, full):
    page = client_as(request.getfixturevalue(who)).get(reverse("season_detail", args=[full.pk]))
    url = reverse("season_json", args=[full.pk])
    assert f'href="{url}"' in page.content.decode()

    response = client_as(request.getfixturevalue(who)).get(url)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    disposition = 'attachment; filename="club-league-autumn-season.json"'
    assert response["Content-Disposition"] == disposition
    assert response.content.decode() == export(full)


def test_an_outsider_gets_404_and_an_anonymous_visitor_is_sent_to_log_in(outsider, season):
    url = reverse("season_json", args=[season.pk])
    assert client_as(outsider).get(url).status_code == 404
    response = client_as(None).get(url)
    assert response.status_code == 302 and "/login/" in response.url


def test_the_public_link_offers_the_document_while_it_is_open(owner, full):
    league_services.season_share(season=full, shared=True)
    token = full.share_token
    url = reverse("season_public_json", args=[token])
    page = client_as(None).get(reverse("season_public", args=[token])).content.decode()
    assert f'href="{url}"' in page

    response = client_as(None).get(url)

    assert response.status_code == 200
    assert response.content.decode() == export(full)
    league_services.season_share(season=full, shared=False)
    assert client_as(None).get(url).status_code == 404


def test_a_document_of_a_season_without_parties_reads_back(season, tmp_path):
    text = export(season)
    assert json.loads(text)["parties"] == []
    assert json.loads(read_back(text, tmp_path)) == {"standings": [], "head_to_head": {}}


def test_a_three_player_game_exported_keeps_the_shutout_the_shut_out_players_alone(
    play, season, tmp_path
):
    # RULES.md §10.11, seed 001's game: P wins; Q ends at 0, R at 27.
    hands = [K(1, 21, knocker="P"), K(1, 16, knocker="R"), K(1, 13, knocker="R"),
             Hand.gin(60, knocker="P")]  # fmt: skip
    play(["P", "Q", "R"], hands, kind="three_player")

    text = export(season)

    assert read_back(text, tmp_path) == standings("--season", str(season.pk))


def test_the_document_is_read_in_the_same_queries_for_few_and_many_parties(play, season):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["X", "Y", "Z"], [K(1, 21, knocker="Y")], kind="chouette", stakes={"Z": "0.20"})
    with CaptureQueriesContext(connection) as few:
        selectors.season_document(season)
    for n in range(6):
        play([f"P{n}", f"Q{n}"], [G(20, knocker=f"P{n}"), K(3, 9, knocker=f"Q{n}")])

    with CaptureQueriesContext(connection) as many:
        document = selectors.season_document(season)

    assert len(document.parties) == 8
    assert len(many) == len(few)


def test_a_season_document_larger_than_what_others_may_send_reads_back(full, tmp_path, monkeypatch):
    """The 20 MB bound guards what others send (``engine.season.loads``); the app's own
    export of a season of any size is read back by ``standings FILE``."""
    text = export(full)
    bound = len(text.encode()) // 2  # the bound made smaller than this document
    monkeypatch.setattr(season_module.loads, "__defaults__", (bound,))
    monkeypatch.setattr(standings_command, "MAX_SEASON_BYTES", bound, raising=False)
    with pytest.raises(RecordError, match="larger than"):
        season_module.loads(text)  # as an upload would be read

    assert read_back(text, tmp_path) == standings("--season", str(full.pk))
