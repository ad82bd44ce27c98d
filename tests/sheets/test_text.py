"""Names as a PDF prints them: NFKC-normalised, Arabic joined, right-to-left runs turned
into the order they are seen in. Read back with pypdf in layout mode, which gives the
glyphs in the order they stand on the page."""

import io

import pytest
from pypdf import PdfReader

from scorekeeper.engine.record import parse_record
from scorekeeper.sheets import common
from scorekeeper.sheets.score_sheet import render_score_sheet, score_sheet

MARYAM = "مريم"  # Arabic, as typed: four letters in their plain (unjoined) forms
SARAH = "שרה"  # Hebrew
ZOE = "Zoe\u0308"  # e followed by a combining diaeresis
# Maryam as printed: each letter in its joined form, the last (meem, final) first.
MARYAM_SEEN = "\ufee2\ufef3\ufeae\ufee3"
SARAH_SEEN = "הרש"


def sheet_text(players: list[str]) -> str:
    """The score sheet of a three-player partie, one hand each, as laid out on the page."""
    first, second, third = players
    record = parse_record(
        {
            "kind": "three_player",
            "players": players,
            "stake": "0.05",
            "hands": [
                {"knocker": first, "knocker_deadwood": 2, "defender_deadwood": 20},
                {"knocker": third, "knocker_deadwood": 3, "defender_deadwood": 30},
                {"knocker": second, "knocker_deadwood": 3, "defender_deadwood": 30},
            ],
        }
    )
    pdf = render_score_sheet(score_sheet(record))
    return "\n".join(
        page.extract_text(extraction_mode="layout") for page in PdfReader(io.BytesIO(pdf)).pages
    )


@pytest.fixture(scope="module")
def printed() -> str:
    return sheet_text([MARYAM, SARAH, ZOE])


def test_a_combining_accent_is_printed_on_its_letter(printed: str):
    assert "Zoë" in printed  # U+00EB, one character
    assert "\u0308" not in printed


def test_a_hebrew_name_is_printed_right_to_left(printed: str):
    assert SARAH_SEEN in printed
    assert SARAH not in printed


def test_an_arabic_name_is_joined_and_printed_right_to_left(printed: str):
    assert MARYAM_SEEN in printed
    assert MARYAM not in printed
    assert "\u0645" not in printed  # no meem left in its plain form


def test_names_print_the_same_in_the_title_the_tables_and_the_footer(printed: str):
    lines = [line.strip() for line in printed.splitlines()]
    # The title: "Maryam – Sarah – Zoë", whose right-to-left run reads from the right.
    assert lines[0] == f"{SARAH_SEEN} – {MARYAM_SEEN} – Zoë"
    # The balances (a table of plain strings), one player a line.
    assert [line.split()[0] for line in lines if line.endswith("0.00")] == [
        MARYAM_SEEN,
        SARAH_SEEN,
        "Zoë",
    ]
    assert f"Scorekeeper · {SARAH_SEEN} – {MARYAM_SEEN} – Zoë" in printed  # the footer


def test_latin_names_give_the_same_bytes_as_without_the_clean_up(monkeypatch):
    """Umlauts, a long name that wraps and a title cut with an ellipsis: nothing to change."""
    players = ["Jürgen Größe", "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen"]
    gin = {"knocker": players[0], "gin": True, "defender_deadwood": 12}
    record = parse_record({"players": players, "hands": [gin]})
    sheets = [score_sheet(record), score_sheet(record, title=" ".join(players) * 8)]
    cleaned = [render_score_sheet(sheet) for sheet in sheets]
    monkeypatch.setattr(common, "printable", lambda value: value)
    assert [render_score_sheet(sheet) for sheet in sheets] == cleaned
