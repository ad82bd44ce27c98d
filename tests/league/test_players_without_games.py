"""A season's players with no counted game (their partie runs): one line under the
table of the page, left out of its CSV and PDF, ranks closed up; the JSON of FORMAT.md
(``standings --format json``) lists them as RULES.md §11 says."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.league.conftest import G, K

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_with_a_running_partie(play, season):
    """Anna beats Ben; Carl and Dora have a partie running, no game closed: by the rules
    they (0 points, net 0) rank above Ben (0 points, net below 0)."""
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [K(3, 20, knocker="Carl")])
    return season


def page(owner, season):
    client = Client()
    client.force_login(owner)
    return client.get(reverse("season_detail", args=[season.pk]))


def test_the_page_lists_players_without_a_game_in_one_line_and_closes_the_ranks(
    owner, season_with_a_running_partie
):
    response = page(owner, season_with_a_running_partie)

    rows = [(row.line.rank, row.line.player) for row in response.context["rows"]]
    assert rows == [(1, "Anna"), (2, "Ben")]
    html = response.content.decode()
    assert "Also in this season, no counted game yet: Carl, Dora" in html
    assert ">Carl</a>" not in html  # no row of zeros


def test_the_json_of_the_command_lists_every_player_with_the_ranks_of_the_rules(
    season_with_a_running_partie,
):
    out = io.StringIO()
    call_command("standings", "--season", str(season_with_a_running_partie.pk), stdout=out)

    lines = [
        (line["rank"], line["player"], line["games"])
        for line in json.loads(out.getvalue())["standings"]
    ]
    assert lines == [(1, "Anna", 1), (2, "Carl", 0), (2, "Dora", 0), (4, "Ben", 1)]


def test_the_csv_and_the_pdf_leave_out_the_players_without_a_game(
    owner, season_with_a_running_partie
):
    client = Client()
    client.force_login(owner)
    season = season_with_a_running_partie

    text = client.get(reverse("season_csv", args=[season.pk])).content.decode("utf-8-sig")
    pdf = client.get(reverse("season_pdf", args=[season.pk])).content

    rows = list(csv.reader(io.StringIO(text)))
    assert [row[:2] for row in rows[1:]] == [["1", "Anna"], ["2", "Ben"]]
    printed = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Anna" in printed and "Ben" in printed
    assert "Carl" not in printed and "Dora" not in printed
    out = io.StringIO()
    call_command("standings", "--season", str(season.pk), "--format", "csv", stdout=out)
    assert list(csv.reader(io.StringIO(out.getvalue())))[1:] == rows[1:]
