"""The tournament's PDFs: the bracket and the final placings, built from the read model
(here the engine's state, as ``manage.py tournament --format pdf`` prints it) and read
back from real PDF bytes: names, winners, places, and 64 players on turned A4 with no
two pieces of text on top of each other."""

import io
import itertools

import pytest
from django.utils import translation
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase import pdfmetrics

from scorekeeper.engine import tournaments as t
from scorekeeper.sheets.common import BOLD
from scorekeeper.sheets.tournament import (
    bracket_sheet,
    document_tournament,
    placings_sheet,
    render_bracket,
    render_placings,
)
from tests.sheets.helpers import flat, pages, text_of

LONG = "Maximiliane Hohenzollern-Sigmaringen"


def played(system: str, count: int, **options) -> t.State:
    """A tournament of ``count`` players (the first with a long name) played to its end:
    the upper seat wins, except every third match."""
    players = (LONG, *(f"Player {n:02}" for n in range(2, count + 1)))
    tournament = t.TournamentPlan(t.System(system), players, name="Club championship", **options)
    results: list[t.MatchWinner] = []
    state = t.tournament_state(tournament, results)
    while not state.is_over():
        for match in state.playable():
            results.append(t.MatchWinner(match.id, match.players[len(results) % 3 == 2]))
        state = t.tournament_state(tournament, results)
    return state


def bracket_pdf(state: t.State) -> bytes:
    return render_bracket(bracket_sheet(document_tournament(state), title="Club championship"))


def pieces(page) -> list[tuple[str, float, float, float, float]]:
    """Each piece of text on a page and its box: left, bottom, right, top (bold widths,
    the wider face, so an overlap is never missed)."""
    found = []

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        scale = cm[0] * tm[0]
        width = pdfmetrics.stringWidth(text.strip(), BOLD, size) * scale
        found.append((text.strip(), x, y - 0.2 * size * scale, x + width, y + 0.75 * size * scale))

    page.extract_text(visitor_text=visit)
    return found


def assert_laid_out_apart(pdf: bytes) -> None:
    """Every piece of text inside the turned A4 page, none over another."""
    width, height = landscape(A4)
    for page in PdfReader(io.BytesIO(pdf)).pages:
        assert float(page.mediabox.width) == pytest.approx(width, abs=0.01)
        found = pieces(page)
        assert found
        for _text, left, bottom, right, top in found:
            assert 0 <= left < right <= width and 0 <= bottom < top <= height
        for one, other in itertools.combinations(found, 2):
            apart = (
                one[3] <= other[1] + 0.1
                or other[3] <= one[1] + 0.1
                or one[4] <= other[2] + 0.1
                or other[4] <= one[2] + 0.1
            )
            assert apart, (one, other)


# The values


def test_a_bracket_places_each_match_between_the_two_it_follows_from():
    state = t.tournament_state(
        t.TournamentPlan(t.System.SINGLE_ELIMINATION, ("A", "B", "C", "D", "E"), third_place=True),
        [],
    )
    (section,) = bracket_sheet(document_tournament(state), title="Cup").sections
    assert section.title == "Bracket"
    assert [(c.title, c.slots, c.joined, [(b.id, b.slot) for b in c.boxes])
            for c in section.columns] == [
        ("Quarter-finals", 4, False, [("W1-1", 1), ("W1-2", 2), ("W1-3", 3), ("W1-4", 4)]),
        ("Semi-finals", 2, True, [("W2-1", 1), ("W2-2", 2)]),
        ("Final", 1, True, [("W3-1", 1)]),
        ("Third place", 1, False, [("3P", 1)]),
    ]  # fmt: skip
    assert section.columns[0].boxes[0].players == ("A",) and section.columns[0].boxes[0].bye


def test_a_double_elimination_has_both_brackets_and_the_grand_final_after_the_winners():
    sheet = bracket_sheet(document_tournament(played("double_elimination", 8)), title="Cup")
    winners, losers = sheet.sections
    assert [c.title for c in winners.columns] == [
        "Winners' quarter-finals", "Winners' semi-finals", "Winners' final", "Grand final",
    ]  # fmt: skip
    assert [(c.title, c.slots) for c in losers.columns] == [
        ("Losers' round 1", 2), ("Losers' round 2", 2),
        ("Losers' round 3", 1), ("Losers' final", 1),
    ]  # fmt: skip
    assert losers.title == "Losers' bracket" and winners.title == "Winners' bracket"


def test_the_placings_give_each_player_his_place_and_record():
    state = played("single_elimination", 5, third_place=True)
    sheet = placings_sheet(document_tournament(state), title="Cup")
    assert sheet.champion == state.champion
    assert [(line.place, line.won, line.lost, line.byes) for line in sheet.lines] == [
        (1, 3, 0, 0), (2, 1, 1, 1), (3, 1, 1, 1), (4, 0, 2, 1), (5, 0, 1, 0),
    ]  # fmt: skip
    players = [line.player for line in sheet.lines]
    assert sorted(players) == sorted(state.tournament.players)


def test_before_the_end_the_placings_are_empty():
    state = t.tournament_state(t.TournamentPlan(t.System.ROUND_ROBIN, ("A", "B", "C")), [])
    sheet = placings_sheet(document_tournament(state), title="Cup")
    assert sheet.lines == () and sheet.champion is None
    assert "its placings are printed once every match is played" in text_of(render_placings(sheet))


# The PDFs


@pytest.fixture(scope="module")
def knockout_64() -> t.State:
    return played("single_elimination", 64)


def test_a_64_player_bracket_fits_one_turned_page_every_name_and_winner_on_it(knockout_64):
    pdf = bracket_pdf(knockout_64)
    (page,) = pages(pdf)
    words = flat(page)
    for player in knockout_64.tournament.players[1:]:
        assert player in words
    assert "Maximiliane Hohenzollern" in words  # cut to its box with an ellipsis
    rounds = ("Round of 64", "Round of 32", "Round of 16", "Quarter-finals", "Semi-finals", "Final")
    assert [title in words for title in rounds] == [True] * 6
    decided = sum(1 for m in knockout_64.matches if m.winner and not m.bye)
    assert words.count("✓") == decided == 63
    assert f"Champion: {knockout_64.champion}" in words
    assert_laid_out_apart(pdf)


def test_a_64_player_double_elimination_prints_both_brackets_apart():
    state = played("double_elimination", 64)
    pdf = bracket_pdf(state)
    texts = [flat(text) for text in pages(pdf)]
    assert len(texts) == 2
    assert "Winners' bracket" in texts[0] and "Grand final" in texts[0]
    assert "Losers' bracket" in texts[1] and "Losers' round 9" in texts[1]
    assert "Losers' final" in texts[1] and "Winners' round of 64" in texts[0]
    assert_laid_out_apart(pdf)


def test_a_swiss_prints_each_rounds_pairings_the_top_cut_and_the_table():
    state = played("swiss", 64, rounds=6, top_cut=8)
    pdf = bracket_pdf(state)
    words = text_of(pdf)
    for title in (
        "Swiss rounds: the pairings",
        "Round 6",
        "Top cut",
        "Quarter-finals",
        "Swiss table",
    ):
        assert title in words
    assert "Place Player Points Buchholz Byes" in words
    first = state.swiss_table[0]
    assert f"{first.place} {first.player} {first.score} {first.buchholz} {first.byes}" in words
    assert "Ties are broken by Buchholz, then by the result between them" in words
    assert_laid_out_apart(pdf)


def test_the_placings_pdf_lists_every_place_and_record(knockout_64):
    pdf = render_placings(placings_sheet(document_tournament(knockout_64), title="Cup"))
    words = text_of(pdf)
    assert "Place Player Won Lost" in words and "Byes" not in words
    assert f"1 {knockout_64.champion} 6 0" in words
    assert words.count(" 33 ") >= 31  # the first round's 32 losers share place 33


def test_the_pdfs_are_german_in_german():
    state = played("double_elimination", 6)
    with translation.override("de"):
        bracket = text_of(bracket_pdf(state))
        placings = text_of(render_placings(placings_sheet(document_tournament(state), title="C")))
    for words in ("Verliererrunde 1", "Großes Finale", "Seite 1 von 1"):
        assert words in bracket, words
    assert "Platz Spieler Gewonnen Verloren" in placings and "Endplatzierungen" in placings


def test_the_same_tournament_gives_the_same_bytes(knockout_64):
    assert bracket_pdf(knockout_64) == bracket_pdf(knockout_64)
