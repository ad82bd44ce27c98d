"""PDF downloads: the score sheet of a partie (owner and share link), an evening's tally
and blank pads; real PDF bytes read back with pypdf."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scorekeeper import engine
from scorekeeper.sheets.score_sheet import render_score_sheet, score_sheet
from scorekeeper.table import services
from scorekeeper.table.selectors import partie_record
from tests.sheets.helpers import record_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def replays(monkeypatch) -> list[str]:
    """The kind of every session the engine starts: one per replay of a partie's hands."""
    started: list[str] = []
    start = engine.Session.__init__

    def counted(self, *args, **kwargs) -> None:
        started.append(self.kind)
        start(self, *args, **kwargs)

    monkeypatch.setattr(engine.Session, "__init__", counted)
    return started


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_owner_downloads_the_score_sheet_of_a_finished_partie(client_owner, closed_partie):
    response = client_owner.get(reverse("partie_pdf", args=[closed_partie.pk]))

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="scoresheet-')
    assert response["Content-Disposition"].endswith('-anna-ben.pdf"')
    text = pdf_text(response)
    for figure in ("Anna", "Ben", "261", "86", "175", "8.75"):
        assert figure in text


def test_the_score_sheet_is_printed_from_the_page_with_one_replay_of_the_hands(
    client_owner, closed_partie, replays
):
    response = client_owner.get(reverse("partie_pdf", args=[closed_partie.pk]))

    assert replays == ["two_player"]
    # what the game record of the partie prints, byte for byte
    played_on = closed_partie.started_at.date()
    record = score_sheet(partie_record(closed_partie), title="Anna – Ben", played_on=played_on)
    assert response.content == render_score_sheet(record)


def test_a_chouette_whose_member_plays_his_own_stake_prints_as_its_record(client_owner, owner):
    record = record_of("chouette")  # Dan plays at 0.10, the others at 0.05
    partie = services.partie_import(owner=owner, record=record)

    response = client_owner.get(reverse("partie_pdf", args=[partie.pk]))

    title, played_on = " – ".join(record.players), partie.started_at.date()
    expected = render_score_sheet(score_sheet(record, title=title, played_on=played_on))
    assert response.content == expected
    assert "Dan plays at 0.10" in pdf_text(response)


def test_an_outsider_gets_no_score_sheet_and_an_anonymous_user_must_log_in(
    client, client_outsider, closed_partie
):
    url = reverse("partie_pdf", args=[closed_partie.pk])

    assert client_outsider.get(url).status_code == 404
    assert client.get(url).status_code == 302


def test_the_share_link_downloads_the_score_sheet_too(client, closed_partie):
    response = client.get(reverse("shared_partie_pdf", args=[closed_partie.share_token]))

    assert response.status_code == 200
    assert "261" in pdf_text(response)
    assert client.get(reverse("shared_partie_pdf", args=["not-a-token"])).status_code == 404


def test_the_partie_page_and_the_shared_page_link_to_the_pdf(client, client_owner, closed_partie):
    owner_page = client_owner.get(closed_partie.get_absolute_url()).content.decode()
    shared = client.get(reverse("shared_partie", args=[closed_partie.share_token])).content.decode()

    assert reverse("partie_pdf", args=[closed_partie.pk]) in owner_page
    assert reverse("shared_partie_pdf", args=[closed_partie.share_token]) in shared


def test_the_evening_tally_lists_its_parties_and_who_pays_whom(
    client_owner, client_outsider, closed_partie, evening
):
    services.partie_evening_set(partie=closed_partie, evening=evening)
    url = reverse("evening_pdf", args=[evening.pk])

    response = client_owner.get(url)

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="evening-')
    text = pdf_text(response)
    assert "Anna" in text and "Ben" in text and "8.75" in text
    assert client_outsider.get(url).status_code == 404


def test_the_evening_tally_replays_each_partie_once(client_owner, owner, evening, replays):
    for name in ("format_example", "hollywood", "chouette"):
        partie = services.partie_import(owner=owner, record=record_of(name))
        services.partie_evening_set(partie=partie, evening=evening)
    replays.clear()

    response = client_owner.get(reverse("evening_pdf", args=[evening.pk]))

    assert response.status_code == 200
    assert sorted(replays) == ["chouette", "hollywood", "two_player"]


def test_a_blank_pad_prints_the_chosen_rules_on_the_chosen_paper(client_owner, rules_data):
    data = rules_data(preset="modern") | {"kind": "hollywood", "paper": "letter"}

    response = client_owner.get(reverse("pad"), data)

    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="scorepad-hollywood-modern-letter.pdf"'
    )
    reader = PdfReader(io.BytesIO(response.content))
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(width), round(height)) == (612, 792)  # US Letter in points
    text = pdf_text(response)
    assert "Hollywood" in text and "Modern" in text


def test_the_pad_page_shows_the_form_and_refuses_an_unknown_paper(client_owner, rules_data):
    page = client_owner.get(reverse("pad"))
    response = client_owner.get(
        reverse("pad"), rules_data() | {"kind": "two_player", "paper": "A0"}
    )

    assert page.status_code == 200 and 'name="paper"' in page.content.decode()
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "A0 is not one of the available choices" in response.content.decode()
