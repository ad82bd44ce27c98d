"""PDF bytes of score sheets, evenings and pads, read back with pypdf."""

import io
import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.utils import translation
from pypdf import PdfReader

from scorekeeper import engine
from scorekeeper.engine.record import Record, parse_record
from scorekeeper.engine.settlement import Transfer
from scorekeeper.sheets.evening_tally import printed_evening, render_evening
from scorekeeper.sheets.score_pad import PAD_KINDS, render_pad, score_pad
from scorekeeper.sheets.score_sheet import render_score_sheet, score_sheet
from tests.sheets.helpers import Stored, evening_of, flat, pages, payment, record_of

KINDS = ("format_example", "hollywood", "match", "partnership", "chouette", "three_player")
MARKUP = "<b>Eve</b> & <font size=40>Mallory</font>"


def knock(knocker: str, points: int) -> dict:
    return {"knocker": knocker, "knocker_deadwood": 1, "defender_deadwood": 1 + points}


NO_GAME = {"no_game": True}


def long_hollywood() -> Record:
    """300 hands of Hollywood: one-point wins between no games, until the last few
    hands close game 1 (hand 295), game 2 (297) and game 3 (300)."""
    hands = [NO_GAME, knock("You", 1), knock("Opp", 1)] * 98
    hands += [knock("You", 2), NO_GAME, knock("You", 1), knock("Opp", 1), NO_GAME, knock("You", 1)]
    return parse_record(
        {
            "kind": "hollywood",
            "rules": {"preset": "hollywood"},
            "players": ["You", "Opp"],
            "stake": "0.01",
            "hands": hands,
        }
    )


OKLAHOMA = {
    "kind": "two_player",
    "rules": {"preset": "oklahoma"},
    "players": ["Jürgen Größe", MARKUP],
    "stake": "0.02",
    "hands": [
        {"knocker": "Jürgen Größe", "knocker_deadwood": 4, "defender_deadwood": 19, "upcard": "KS"},
        {"knocker": MARKUP, "knocker_deadwood": 3, "defender_deadwood": 20, "upcard": "7H"},
        {"knocker": "Jürgen Größe", "gin": True, "defender_deadwood": 12, "upcard": "TD"},
        {"knocker": "Jürgen Größe", "knocker_deadwood": 2, "defender_deadwood": 30, "upcard": "5C"},
    ],
}


@pytest.fixture(scope="module")
def long_sheet_pdf() -> bytes:
    return render_score_sheet(score_sheet(long_hollywood()))


def test_a_score_sheet_shows_its_hands_totals_and_who_pays():
    pdf = render_score_sheet(score_sheet(record_of("format_example"), played_on=date(2025, 3, 14)))
    assert pdf.startswith(b"%PDF-")
    (text,) = pages(pdf)
    text = flat(text)
    assert text.startswith("Anna – Ben Two players · March 14, 2025 · Anna, Ben · stake 0.05")
    for words in (
        "Rules: Classic — Knock limit 10",
        "Box bonus (20 each) 60 40",
        "Game bonus 100 0",
        "Total 261 86",
        "Net +175 −175",
        "Money +8.75 −8.75",
        "Ben pays Anna 175 points 8.75",
        "Settle up Ben pays Anna 8.75",
        "page 1 of 1",
    ):
        assert words in text


@pytest.mark.parametrize("name", KINDS)
def test_every_kind_of_record_renders_with_its_players_and_totals(name):
    sheet = score_sheet(record_of(name))
    text = flat(" ".join(pages(render_score_sheet(sheet))))
    for player in sheet.players:
        assert player in text
    for part in sheet.parts:
        (total,) = [line for line in part.ending if line.label == "Total"]
        assert "Total " + " ".join(str(value) for value in total.values) in text


def test_a_hollywood_sheet_marks_the_closed_games():
    text = flat(pages(render_score_sheet(score_sheet(record_of("hollywood"))))[0])
    assert "Game 1 ✓ You Game 2 ✓ You Game 3 ✓ You" in text
    assert "Net +208 −208 +202 −202 +320 −320" in text


def test_an_oklahoma_sheet_draws_the_suits_and_the_umlauts():
    pdf = render_score_sheet(score_sheet(parse_record(OKLAHOMA)))
    (text,) = pages(pdf)
    for card in ("K♠", "7♥", "10♦", "5♣"):
        assert card in text
    assert "Jürgen Größe" in text


def test_hearts_and_diamonds_are_red():
    pdf = render_score_sheet(score_sheet(parse_record(OKLAHOMA)))
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()
    # The upcard column's fill colour: #c0111f, written as reportlab writes it.
    assert content.count(b".752941 .066667 .121569 rg") == 2


def test_the_fonts_are_dejavu_embedded():
    pdf = render_score_sheet(score_sheet(parse_record(OKLAHOMA)))
    fonts = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert "/FontFile2" in font["/FontDescriptor"]  # the TrueType program, embedded
            fonts.add(re.sub(r"^/([A-Z]{6}\+)?", "", font["/BaseFont"]))
    assert fonts == {"DejaVuSans", "DejaVuSans-Bold"}


def test_a_name_full_of_markup_is_printed_as_it_is():
    pdf = render_score_sheet(score_sheet(parse_record(OKLAHOMA)))
    (text,) = pages(pdf)
    assert f"Jürgen Größe – {MARKUP}" in flat(text)  # the title
    assert MARKUP in text.splitlines()  # the balances
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()
    assert b" 40 Tf" not in content  # no <font size=40> obeyed


def test_the_same_sheet_gives_the_same_bytes():
    first = render_score_sheet(score_sheet(record_of("chouette")))
    again = render_score_sheet(score_sheet(record_of("chouette")))
    assert first == again
    assert PdfReader(io.BytesIO(first)).metadata["/CreationDate"] == "D:20000101000000+00'00'"
    assert PdfReader(io.BytesIO(first)).metadata["/Producer"] == "Scorekeeper"


def test_a_300_hand_hollywood_sheet_flows_over_pages_under_its_header(long_sheet_pdf):
    texts = pages(long_sheet_pdf)
    count = len(texts)
    assert count >= 6
    for number, text in enumerate(texts, start=1):
        assert f"page {number} of {count}" in text
        if number < count:  # the last page may hold the settlement alone
            head = flat(text)
            assert "Deadwood Game 1 ✓ You Game 2 ✓ You Game 3 ✓ You" in head
            assert "Dealer Knocker Result knocker defender Points" in head
    everything = flat(" ".join(texts))
    assert "300 You You Knock 1 2 1 +1 100 97 Points" in everything  # game 3 closes
    assert "Opp pays You 4.08" in everything


def test_a_300_hand_sheet_numbers_every_hand_once(long_sheet_pdf):
    lines = [line for text in pages(long_sheet_pdf) for line in text.splitlines()]
    # Each hand row starts with its number, then the dealer.
    numbers = [
        int(a)
        for a, b in zip(lines, lines[1:], strict=False)
        if a.isdigit() and b in ("You", "Opp")
    ]
    assert numbers == list(range(1, 301))


def test_long_names_wrap_inside_their_column():
    record = parse_record(
        {
            "players": ["Maximiliane Wilhelmine von Hohenzollern-Sigmaringen", "Bo"],
            "hands": [knock("Maximiliane Wilhelmine von Hohenzollern-Sigmaringen", 20)],
        }
    )
    (text,) = pages(render_score_sheet(score_sheet(record)))
    lines = text.splitlines()
    assert "Maximiliane Wilhelmine von" in lines  # wrapped in the dealer and knocker cells


def test_an_evening_lists_parties_balances_and_transfers():
    evening = evening_of(
        [record_of("format_example"), record_of("three_player")],
        transfers=[
            Transfer("Ben", "Anna", Decimal("8.75")),
            Transfer("Quinn", "Paula", Decimal("20.35")),
        ],
        name="Friday at Jürgen's",
        played_on=date(2025, 3, 14),
    )
    (text,) = pages(render_evening(printed_evening(evening)))
    text = flat(text)
    for words in (
        "Friday at Jürgen's March 14, 2025",
        "Anna – Ben Two players Anna 261 – Ben 86 · Anna wins by 175",
        "Paula +513 (+25.65)",
        "Quinn −407 −20.35",
        "Ben Anna 8.75",
        "Quinn Paula 20.35",
        "page 1 of 1",
    ):
        assert words in text


def test_a_settled_evening_prints_cents_the_debts_carried_in_and_what_is_paid():
    last_week = Stored("Last week", date(2025, 3, 7))
    evening = evening_of(
        [record_of("format_example")],
        name="Friday",
        played_on=date(2025, 3, 14),
        # as the database keeps them: four places
        debts=[payment("Carl", "Anna", "1.2000", evening=last_week)],
        payments=[
            payment("Ben", "Anna", "8.7500", paid_at=datetime(2025, 3, 15, 12, tzinfo=UTC)),
            payment("Carl", "Anna", "1.2000"),
        ],
    )
    (text,) = pages(render_evening(printed_evening(evening)))
    text = flat(text)
    for words in (
        "Balances Player Points Money Anna +175 +8.75 Ben −175 −8.75",
        "Carried in from earlier evenings Owes To Amount From the evening "
        "Carl Anna 1.20 Last week (03/07/2025)",
        "Settle up Pays To Amount Paid Ben Anna 8.75 ✓ paid Carl Anna 1.20 open",
        "The transfers settle this evening's balances and the debts carried in.",
    ):
        assert words in text
    assert "8.7500" not in text and "1.2000" not in text


def test_money_in_a_german_pdf_has_a_decimal_comma():
    record = record_of("format_example")
    with translation.override("de"):
        sheet = flat(pages(render_score_sheet(score_sheet(record)))[0])
        evening = flat(
            pages(render_evening(printed_evening(evening_of([record], name="Freitag"))))[0]
        )
    assert "0,05" in sheet and "+8,75" in sheet and "−8,75" in sheet
    assert "8.75" not in sheet and "0.05" not in sheet
    assert "Ben Anna 8,75" in evening and "8.75" not in evening


@pytest.mark.parametrize("kind", PAD_KINDS)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_pad_fills_one_page_with_its_numbered_lines(kind, paper):
    pad = score_pad(
        kind, engine.preset("hollywood" if kind == "hollywood" else "classic"), paper=paper
    )
    pdf = render_pad(pad)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == {"a4": (595, 842), "letter": (612, 792)}[paper]
    lines = reader.pages[0].extract_text().splitlines()
    assert lines.count(str(pad.lines_per_game)) == pad.games_per_page
    assert str(pad.lines_per_game + 1) not in lines
    assert "Knock limit: 10" in lines
    assert lines.count("Total") == pad.games_per_page


def test_a_pad_prints_a_custom_rule_and_an_oklahoma_upcard_column():
    pad = score_pad("chouette", engine.preset("oklahoma", gin_bonus=30), games_per_page=1)
    text = flat(pages(render_pad(pad))[0])
    assert "Rules: Oklahoma" in text
    assert "Gin bonus: 30*" in text
    assert "# Captain Upcard Box Team" in text


def test_a_renderer_step_can_be_overridden():
    from scorekeeper.sheets.score_sheet import ScoreSheetRenderer

    class ClubSheet(ScoreSheetRenderer):
        def page_furniture(self, canvas, page, pages):
            canvas.setFont("DejaVuSans", 7)
            canvas.drawString(40, 20, f"Gin Club Köln – {page}/{pages}")

    (text,) = pages(ClubSheet(score_sheet(record_of("format_example"))).render())
    assert "Gin Club Köln – 1/1" in text
    assert "page 1 of 1" not in text
