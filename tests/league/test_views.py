"""The league pages: who may see and change them, sorting, the public link, downloads."""

import csv
import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from scorekeeper import engine
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import night_services
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.league.conftest import G, K
from tests.sheets.helpers import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(play, season):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Ben"], [G(20, knocker="Carl"), G(70, knocker="Carl")])
    return season


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["owner", "member"])
def test_a_member_sees_the_standings_and_head_to_head(request, who, played):
    response = client_as(request.getfixturevalue(who)).get(
        reverse("season_detail", args=[played.pk])
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "Standings" in html and "Head-to-head" in html
    players = [row.line.player for row in response.context["rows"]]
    # Anna and Carl win by a shutout (3 points each); Carl's 370 beat Anna's 330.
    assert players == ["Carl", "Anna", "Ben"]
    assert ("Make the standings public" in html) == (who == "owner")


def test_an_outsider_gets_404_and_an_anonymous_visitor_is_sent_to_log_in(outsider, played):
    url = reverse("season_detail", args=[played.pk])
    assert client_as(outsider).get(url).status_code == 404
    response = client_as(None).get(url)
    assert response.status_code == 302 and "/login/" in response.url


def test_only_the_owner_opens_a_public_link(member, owner, played):
    url = reverse("season_share", args=[played.pk])
    assert client_as(member).post(url, {"shared": "1"}).status_code == 403
    client_as(owner).post(url, {"shared": "1"})
    played.refresh_from_db()
    public = reverse("season_public", args=[played.share_token])

    response = client_as(None).get(public)

    assert response.status_code == 200
    assert "Make the standings public" not in response.content.decode()
    assert (
        client_as(None).get(reverse("season_public_pdf", args=[played.share_token])).status_code
        == 200
    )
    client_as(owner).post(url, {"shared": "0"})
    assert client_as(None).get(public).status_code == 404


def test_the_standings_sort_by_any_column_and_htmx_gets_only_the_table(owner, played):
    url = reverse("season_detail", args=[played.pk])
    response = client_as(owner).get(url, {"sort": "player", "order": "asc"})
    assert [row.line.player for row in response.context["rows"]] == ["Anna", "Ben", "Carl"]

    response = client_as(owner).get(
        url, {"sort": "net_points", "order": "desc"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="standings"')
    names = re.findall(r'<th scope="row" class="player" title="([^"]+)">', html)
    assert names == ["Carl", "Anna", "Ben"]
    assert 'aria-sort="descending"' in html


def test_the_downloads_are_csv_and_a_real_pdf(owner, played):
    client = client_as(owner)
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("season_csv", args=[played.pk])).content.decode())
        )
    )
    assert rows[0][:3] == ["Rank", "Player", "Games"]
    assert [row[1] for row in rows[1:]] == ["Carl", "Anna", "Ben"]
    assert rows[0][9:] == ["Skill (μ)", "Uncertainty (σ)", "Rating", "Pending"]
    assert all(re.fullmatch(r"−?\d+\.\d\d", figure) for row in rows[1:] for figure in row[9:12])
    assert [row[12] for row in rows[1:]] == ["0", "0", "0"]  # nobody is asked to confirm

    hands = list(
        csv.reader(
            io.StringIO(client.get(reverse("season_hands_csv", args=[played.pk])).content.decode())
        )
    )
    assert len(hands) == 1 + 3  # the header and three hands
    assert hands[0][:4] == ["Partie", "Started", "Kind", "Players"]

    pdf = client.get(reverse("season_pdf", args=[played.pk])).content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Anna" in text and "Carl" in text


def test_page_pdf_csv_and_board_write_a_lost_league_point_with_the_minus_of_every_number(
    owner, club, season, play
):
    season.points_loss = -1
    season.save(update_fields=["points_loss"])
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # a shutout: Ben loses a point
    client = client_as(owner)

    page = client.get(reverse("season_detail", args=[season.pk])).content.decode()
    pdf = client.get(reverse("season_pdf", args=[season.pk])).content
    noticeboard = client.get(reverse("season_pdf", args=[season.pk]), {"layout": "noticeboard"})
    rows = list(csv.reader(io.StringIO(client.get(reverse("season_csv", args=[season.pk])).text)))
    board = client.get(reverse("club_board", args=[club.slug])).content.decode()

    # one column definition: the league points are each table's strong figure, signed as
    # numbers are (−1, not -1) wherever the standings are written
    assert '<td class="num"><strong>−1</strong></td>' in page
    assert '<td class="num"><strong>−1</strong></td>' in board
    ben = next(row for row in rows if row[1] == "Ben")
    assert ben[6] == "−1"
    for document in (pdf, noticeboard.content):
        assert re.search(r"2 Ben 1 0 1 (0 )?−1 −330", text_of(document))
        assert "loss −1" in text_of(document)  # the points formula under the title
    assert "-1" not in ben and "<strong>-1</strong>" not in page + board
    assert "loss −1" in page and "loss -1" not in page
    next_season = client.get(reverse("season_next", args=[season.pk])).content.decode()
    assert "loss −1" in next_season


def test_a_german_reader_gets_german_csv_with_decimal_commas(owner, played):
    client = client_as(owner)
    german = client.get(reverse("season_csv", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="de")
    english = client.get(reverse("season_csv", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="en")
    # Semicolons between the fields, as a German spreadsheet reads them: the decimal
    # mark is the comma.
    rows = list(csv.reader(io.StringIO(german.content.decode()), delimiter=";"))
    assert rows[0] == [
        "Platz", "Spieler", "Partien", "Gewonnen", "Verloren", "Shutout-Siege", "Ligapunkte",
        "Punktdifferenz", "Geld", "Spielstärke (μ)", "Unsicherheit (σ)", "Wertung", "Offen",
    ]  # fmt: skip
    in_english = list(csv.reader(io.StringIO(english.content.decode())))
    assert [row[:7] for row in rows[1:]] == [row[:7] for row in in_english[1:]]
    for row, same in zip(rows[1:], in_english[1:], strict=True):
        assert row[7:] == [figure.replace(".", ",") for figure in same[7:]]
    ben = rows[3]
    assert ben[1] == "Ben" and ben[7:9] == ["−700", "−35,00"]
    assert all(re.fullmatch(r"−?\d+,\d\d", figure) for row in rows[1:] for figure in row[9:12])

    hands = client.get(reverse("season_hands_csv", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="de")
    header = next(csv.reader(io.StringIO(hands.content.decode()), delimiter=";"))
    assert header[:4] == ["Partie", "Begonnen", "Art", "Spieler"]


def test_the_hands_csv_says_where_each_hand_was_played(owner, season, play):
    """The issue's defect: every hand said table 1. A league night's partie gives its
    round and table; a partnership's round its two tables; a partie started on its own
    and the kinds played at one table leave them empty."""
    seating = Pairing((Table(1, ("Anna", "Ben")), Table(2, ("Carl", "Dora"))))
    night = night_services.night_round_start(
        season=season, owner=owner, seating=seating, played_on=timezone.localdate(), round=1
    )
    second = night.tables.get(number=2).partie
    services.hand_record(partie=second, hand=K(3, 20, knocker="Carl"), user=owner)
    seating = Pairing((Table(1, ("Carl", "Ben")),), byes=("Anna", "Dora"))
    night = night_services.night_round_start(
        season=season, owner=owner, seating=seating, played_on=timezone.localdate(), round=2
    )
    services.hand_record(
        partie=night.tables.get(round=2).partie, hand=G(90, knocker="Ben"), user=owner
    )
    rounds = [engine.Round((K(3, 20, knocker="Emil"), G(90, knocker="Gus")))]
    play(["Emil", "Fay", "Gus", "Hal"], rounds, kind="partnership")
    play(["Ida", "Jo"], [K(5, 27, knocker="Ida")])

    text = client_as(owner).get(reverse("season_hands_csv", args=[season.pk])).content
    header, *rows = csv.reader(io.StringIO(text.decode()))

    assert header[3:8] == [
        "Players", "Round (league night)", "Table (league night)", "Hand", "Table (partnership)"
    ]  # fmt: skip
    where = [(row[3], row[4], row[5], row[6], row[7]) for row in rows]
    assert sorted(where) == [
        ("Carl – Ben", "2", "1", "1", ""),
        ("Carl – Dora", "1", "2", "1", ""),
        ("Emil – Fay – Gus – Hal", "", "", "1", "1"),
        ("Emil – Fay – Gus – Hal", "", "", "1", "2"),
        ("Ida – Jo", "", "", "1", ""),
    ]


def test_the_player_page_rounds_points_per_hand_won_half_up(owner, club, play):
    """The issue's defect: 117 points in 4 hands won (29.25) read 29.2, half to even."""
    play(["Anna", "Ben"], [K(1, 30, knocker="Anna")] * 3 + [K(1, 31, knocker="Anna")])
    anna = Player.objects.get(club=club, name="Anna")

    page = client_as(owner).get(reverse("player_detail", args=[anna.pk])).content.decode()

    assert "<dt>Points per hand won</dt><dd>29.3</dd>" in page


def test_the_owner_starts_a_league_and_a_season(owner, member, club):
    url = reverse("league_list", args=[club.slug])
    assert client_as(member).post(url, {"name": "Winter league"}).status_code == 403
    response = client_as(owner).post(url, {"name": "Winter league"})
    assert response.status_code == 302

    response = client_as(owner).post(
        response.url,
        {
            "name": "Winter",
            "starts_on": "2026-12-01",
            "ends_on": "2026-11-01",
            "points_win": 2,
            "points_shutout_win": 3,
            "points_loss": 0,
            "min_games": 0,
        },
    )
    assert response.status_code == 400
    assert "The last day cannot come before the first." in response.content.decode()


def test_a_scorer_gives_an_old_partie_to_the_season(owner, member, play, season):
    from datetime import timedelta

    from tests.league.conftest import moved

    old = moved(play(["Eva", "Finn"], [G(90, knocker="Eva")]), season.starts_on - timedelta(days=5))
    url = reverse("partie_season", args=[old.pk])
    standings = reverse("season_detail", args=[season.pk])
    assert "Eva" not in [r.line.player for r in client_as(owner).get(standings).context["rows"]]
    assert client_as(member).get(url).status_code == 200
    assert client_as(member).post(url, {"season": season.pk}).status_code == 403

    response = client_as(owner).post(url, {"season": season.pk})

    assert response.status_code == 302
    rows = client_as(owner).get(standings).context["rows"]
    assert [r.line.player for r in rows] == ["Eva", "Finn"]
    client_as(owner).post(url, {"season": ""})  # back to its date
    assert client_as(owner).get(standings).context["rows"] == []
