"""The tournament's PDFs through the client: printed from the page's read model, in the
reader's language, linked from the page; none before the start."""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.tournaments import services
from tests.sheets.helpers import text_of

from .conftest import create, entered, win, work

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def finished(club, owner, players):
    """Four players, seeds holding: Anna beats Dora and Ben, Ben beat Carl."""
    tournament = entered(create(club, owner), players, FOUR)

    services.tournament_start(tournament=tournament, owner=owner)
    for match, winner in (("W1-1", "Anna"), ("W1-2", "Ben")):
        win(tournament, match, winner, owner)
    work()
    win(tournament, "W2-1", "Anna", owner)
    work()
    tournament.refresh_from_db()
    assert tournament.is_over
    return tournament


def test_the_bracket_pdf_shows_every_match_and_its_winner(client_owner: Client, finished):
    response = client_owner.get(reverse("tournament_bracket_pdf", args=[finished.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "bracket-2026-11-28-club-championship.pdf" in response["Content-Disposition"]
    words = text_of(response.content)
    assert "Club championship" in words and "Champion: Anna" in words
    for words_in in ("Semi-finals", "Final", "W1-1", "Anna ✓", "Ben ✓", "Carl", "Dora"):
        assert words_in in words, words_in


def test_the_placings_pdf_gives_place_player_and_record(client_owner: Client, finished):
    response = client_owner.get(reverse("tournament_placings_pdf", args=[finished.pk]))
    assert response.status_code == 200
    words = text_of(response.content)
    assert "Place Player Won Lost 1 Anna 2 0 2 Ben 1 1 3 Carl 0 1 3 Dora 0 1" in words


def test_the_pdfs_are_in_the_readers_language(client_owner: Client, finished):
    url = reverse("tournament_placings_pdf", args=[finished.pk])
    words = text_of(client_owner.get(url, HTTP_ACCEPT_LANGUAGE="de").content)
    assert "Platz Spieler Gewonnen Verloren 1 Anna 2 0" in words and "Seite 1 von 1" in words


def test_the_page_links_the_bracket_once_started_and_the_placings_once_over(
    client_owner: Client, club, owner, players, finished
):
    page = client_owner.get(finished.get_absolute_url()).content.decode()
    assert reverse("tournament_bracket_pdf", args=[finished.pk]) in page
    assert reverse("tournament_placings_pdf", args=[finished.pk]) in page
    draft = entered(create(club, owner), players, FOUR)
    page = client_owner.get(draft.get_absolute_url()).content.decode()
    assert "bracket.pdf" not in page
    assert client_owner.get(reverse("tournament_bracket_pdf", args=[draft.pk])).status_code == 404
