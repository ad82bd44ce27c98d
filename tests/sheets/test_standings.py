"""The printed standings of a season: the data object built from the season page's read
model (made here of the engine's standings), then real PDF bytes read back with pypdf."""

import io
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import translation
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase import pdfmetrics

from scorekeeper import engine
from scorekeeper.engine import GameResult, HandStats, Payment
from scorekeeper.engine.league import COLUMNS
from scorekeeper.sheets.common import BOLD
from scorekeeper.sheets.standings import (
    NOTICEBOARD_LINE,
    STANDINGS_LINE,
    STANDINGS_STATS,
    Meeting,
    StandingsLine,
    StandingsRenderer,
    StandingsSheet,
    render_noticeboard,
    render_standings,
    standings_sheet,
)
from tests.sheets.helpers import flat, pages

SUBTITLE = "Autumn league · 1 Sep – 30 Nov 2026 · win 2, shutout win 3, loss 0"
HEADINGS = (
    "Rank",
    "Player",
    "Games",
    "Won",
    "Lost",
    "Shutout wins",
    "League points",
    "Net points",
    "Money",
    "Rating",
)
STATS_HEADINGS = ("Hands", "Gins", "Undercuts", "Points per hand won")
MARKUP = "<b>Eve</b> & <font size=40>Mallory</font>"


def game(winner: str, loser: str, points: int, shutout: bool = False) -> GameResult:
    """A two-player game; the loser pays ``points`` at five cents a point."""
    payment = Payment(loser, winner, points, Decimal(points) * Decimal("0.05"))
    return GameResult(1, (winner,), (loser,), shutout, ((winner,), (loser,)), (1, 2), (payment,))


# Anna beats Ben and shuts Carl out; Ben beats Carl; Dora plays no counted game.
GAMES = [game("Anna", "Ben", 175), game("Anna", "Carl", 330, shutout=True), game("Ben", "Carl", 40)]
STATS = {
    "Anna": HandStats(hands=12, won=7, gins=2, undercuts=1, points=200),
    "Ben": HandStats(hands=10, won=4, gins=0, undercuts=1, points=90),
    "Carl": HandStats(hands=8, won=0, gins=0, undercuts=0, points=0),
}


def season(min_games: int = 1) -> engine.Standings:
    return engine.standings(GAMES, ["Anna", "Ben", "Carl", "Dora"], min_games=min_games)


def table_of(standings: engine.Standings, stats: Mapping[str, HandStats] | None = None):
    """The season page's read model of these standings (league.selectors.SeasonTable): a
    row per line, with the player's hands where ``stats`` has them (else None)."""
    rows = [
        SimpleNamespace(line=line, stats=(stats or {}).get(line.player), pending=0)
        for line in standings.lines
    ]
    return SimpleNamespace(played_rows=rows, head_to_head=standings.head_to_head)


def sheet(standings: engine.Standings | None = None, stats=None, **options) -> StandingsSheet:
    table = table_of(standings or season(), stats)
    return standings_sheet(table, title="Gin Club Köln: Autumn", subtitle=SUBTITLE, **options)


# The data


def test_the_sheet_is_the_standings_line_by_line_with_the_hand_statistics():
    table = season()
    ordinal = {line.player: line.rating.ordinal for line in table.lines}

    def line(rank, player, *figures, stats=(None, None, None, None)):
        return StandingsLine(rank, player, (rank, player, *figures, ordinal[player], *stats))

    assert sheet(standings=table, stats=STATS, printed_on=date(2026, 12, 1)) == StandingsSheet(
        title="Gin Club Köln: Autumn",
        subtitle=SUBTITLE,
        printed_on=date(2026, 12, 1),
        columns=STANDINGS_LINE + STANDINGS_STATS,
        headings=HEADINGS + STATS_HEADINGS,
        lines=(
            line(1, "Anna", 2, 2, 0, 1, 5, 505, Decimal("25.25"), stats=(12, 2, 1, 200 / 7)),
            line(2, "Ben", 2, 1, 1, 0, 2, -135, Decimal("-6.75"), stats=(10, 0, 1, 22.5)),
            line(3, "Carl", 2, 0, 2, 0, 0, -370, Decimal("-18.50"), stats=(8, 0, 0, None)),
            line(None, "Dora", 0, 0, 0, 0, 0, 0, Decimal("0.00")),  # no hands given: none
        ),
        matrix=(
            (None, Meeting(1, 0, 175), Meeting(1, 0, 330), None),
            (Meeting(0, 1, -175), None, Meeting(1, 0, 40), None),
            (Meeting(0, 1, -330), Meeting(0, 1, -40), None, None),
            (None, None, None, None),
        ),
        note="Players with fewer counted games are listed unranked.",
    )


def test_the_caller_chooses_the_columns_from_those_of_the_standings():
    printed = sheet(standings=season(min_games=0), columns=STANDINGS_LINE)
    assert printed.columns == STANDINGS_LINE
    assert printed.headings == HEADINGS
    assert {len(line.figures) for line in printed.lines} == {len(STANDINGS_LINE)}
    assert printed.note is None  # everybody ranked
    # Dora, without a game, is ranked now: ahead of Carl, whose net is below her nothing
    assert [(line.rank, line.player) for line in printed.lines] == [
        (1, "Anna"),
        (2, "Ben"),
        (3, "Dora"),
        (4, "Carl"),
    ]


def test_the_rating_is_the_ordinal_printed_to_one_decimal_and_a_new_player_has_zero():
    table = season()
    printed = sheet(standings=table)
    at = printed.columns.index(COLUMNS["rating"])
    cell = StandingsRenderer(printed).cell
    for line, engine_line in zip(printed.lines, table.lines, strict=True):
        assert line.figures[at] == engine_line.rating.ordinal
        assert cell(COLUMNS["rating"], line.figures[at]) == (
            f"{round(engine_line.rating.ordinal, 1) + 0.0:.1f}".replace("-", "−")
        )
    # A new player's ordinal is 25 − 3·25/3, a hair below zero in floating point:
    # printed as 0.0, never as −0.0.
    assert engine.Rating().ordinal <= 0
    assert cell(COLUMNS["rating"], printed.lines[-1].figures[at]) == "0.0"


def test_a_negative_figure_has_the_minus_sign_of_every_number():
    table = engine.standings([game("Anna", "Ben", 10)], [], engine.LeaguePoints(loss=-1))
    (text,) = pages(render_standings(sheet(standings=table)))
    assert "2 Ben 1 0 1 0 −1 −10 −0.50" in flat(text)  # league points, net points, money


def test_points_per_hand_won_are_rounded_half_up_as_people_round():
    """The issue's defect: 117 points in 4 hands won, 29.25, printed 29.2 (half to even)."""
    stats = {**STATS, "Ben": HandStats(hands=10, won=4, gins=0, undercuts=1, points=117)}
    (text,) = pages(render_standings(sheet(stats=stats)))
    assert " 10 0 1 29.3" in flat(text)


def test_a_meeting_reads_wins_dash_losses():
    assert Meeting(3, 1, 120).score == "3–1"
    assert sheet().players == ("Anna", "Ben", "Carl", "Dora")


def test_the_words_are_german_in_german():
    with translation.override("de"):
        printed = sheet(stats=STATS)
    assert printed.headings == (
        "Platz",
        "Spieler",
        "Partien",
        "Gewonnen",
        "Verloren",
        "Shutout-Siege",
        "Ligapunkte",
        "Punktdifferenz",
        "Geld",
        "Wertung",
        "Spiele",
        "Gins",
        "Undercuts",
        "Punkte je gewonnenem Spiel",
    )
    assert printed.note == "Spieler mit weniger gezählten Partien stehen ohne Platz in der Tabelle."


# The PDF


def test_the_pdf_shows_every_player_his_rank_and_figures_then_the_head_to_head():
    pdf = render_standings(sheet(stats=STATS, printed_on=date(2026, 12, 1)))
    assert pdf.startswith(b"%PDF-")
    (text,) = pages(pdf)  # four players: the head-to-head follows on the same page
    text = flat(text)
    anna, ben, carl, _dora = (
        f"{round(line.rating.ordinal, 1) + 0.0:.1f}".replace("-", "−") for line in season().lines
    )
    assert text.startswith(f"Gin Club Köln: Autumn {SUBTITLE} · printed Dec. 1, 2026")
    for words in (
        "Rank Player Games Won Lost Shutout wins League points Net points Money Rating "
        "Hands Gins Undercuts Points per hand won",
        f"1 Anna 2 2 0 1 5 +505 +25.25 {anna} 12 2 1 28.6",
        f"2 Ben 2 1 1 0 2 −135 −6.75 {ben} 10 0 1 22.5",
        f"3 Carl 2 0 2 0 0 −370 −18.50 {carl} 8 0 0 –",
        "– Dora 0 0 0 0 0 0 0.00 0.0 – – – –",
        "Players with fewer counted games are listed unranked.",
        "Head-to-head",
        "1 Anna 2 Ben 3 Carl 4 Dora",  # the column heads: standings number and name
        "1 Anna 1–0 +175 1–0 +330",
        "2 Ben 0–1 −175 1–0 +40",
        "3 Carl 0–1 −330 0–1 −40",
        "page 1 of 1",
    ):
        assert words in text


def test_the_pdf_is_german_in_german():
    with translation.override("de"):
        (text,) = pages(render_standings(sheet(printed_on=date(2026, 12, 1))))
    text = flat(text)
    for words in (
        "gedruckt am 1. Dezember 2026",
        "Platz Spieler Partien Gewonnen Verloren Shutout-Siege Ligapunkte",
        "Direkter Vergleich",
        "Seite 1 von 1",
    ):
        assert words in text


def test_the_same_standings_give_the_same_bytes():
    first = render_standings(sheet(stats=STATS))
    again = render_standings(sheet(stats=STATS))
    assert first == again
    metadata = PdfReader(io.BytesIO(first)).metadata
    assert metadata["/CreationDate"] == "D:20000101000000+00'00'"
    assert metadata["/Title"] == "Gin Club Köln: Autumn"


PENDING = "Pending: games a player has not confirmed yet."


def pending_sheet(waiting: dict[str, int], **options) -> StandingsSheet:
    """The sheet of ``season()`` where the players named have pending games."""
    table = table_of(season(), STATS)
    for row in table.played_rows:
        row.pending = waiting.get(row.line.player, 0)
    return standings_sheet(table, title="Autumn", subtitle=None, pending_note=PENDING, **options)


def test_a_player_with_games_pending_is_marked_and_the_note_says_what_it_means():
    marked = pending_sheet({"Ben": 1, "Carl": 2})

    assert [line.name for line in marked.lines] == [
        "Anna",
        "Ben (1 pending)",
        "Carl (2 pending)",
        "Dora",
    ]
    assert [line.player for line in marked.lines] == ["Anna", "Ben", "Carl", "Dora"]
    for pdf in (render_standings(marked), render_noticeboard(pending_sheet({"Ben": 1}))):
        text = flat(pages(pdf)[0])
        assert "2 Ben (1 pending) 2 1 1" in text and PENDING in text
    assert "2 Ben 0–1 −175 1–0 +40" in flat(pages(render_standings(marked))[0])  # unmarked


@pytest.mark.parametrize("render", [render_standings, render_noticeboard])
def test_with_no_game_pending_the_pdf_is_the_same_bytes_as_without_the_marks(render):
    """A season without confirmations prints as it did before there were any: no mark, no
    note, not one byte more."""
    unmarked = pending_sheet({})

    assert unmarked.pending_note is None
    assert [line.name for line in unmarked.lines] == ["Anna", "Ben", "Carl", "Dora"]
    plain = standings_sheet(table_of(season(), STATS), title="Autumn", subtitle=None)
    assert render(unmarked) == render(plain)


def test_a_name_full_of_markup_is_printed_as_it_is():
    table = engine.standings([game(MARKUP, "Ben", 10)], [])
    pdf = render_standings(sheet(standings=table))
    (text,) = pages(pdf)
    assert f"1 {MARKUP} 1 1 0" in flat(text)
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()
    assert b" 40 Tf" not in content  # no <font size=40> obeyed


def test_an_empty_season_prints_its_heading_alone():
    (text,) = pages(render_standings(sheet(standings=engine.standings([], []))))
    assert "Rank Player Games" in flat(text)
    assert "Head-to-head" not in text


# Sixty players


def many() -> engine.Standings:
    """60 players, each beating the next three round the table; every tenth has a
    long name, one is full of markup."""
    players = [f"Player {n:02}" for n in range(60)]
    for n in range(0, 60, 10):
        players[n] = f"Maximiliane Wilhelmine von Hohenzollern-Sigmaringen {n:02}"
    players[7] = MARKUP
    games = [
        game(players[n], players[(n + step) % 60], 10 * step + n, shutout=step == 3)
        for n in range(60)
        for step in (1, 2, 3)
    ]
    return engine.standings(games, players)


@pytest.fixture(scope="module")
def many_pdf() -> bytes:
    table = many()
    stats = {line.player: HandStats(40, 20, 3, 1, 444) for line in table.lines}
    return render_standings(sheet(standings=table, stats=stats))


def positions(page) -> list[tuple[float, float, float]]:
    """Each piece of text on a page: where it starts (x, y) and where it ends (x)."""
    found = []

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        # Bold is the wider face: an upper bound of the width, whichever was used.
        width = pdfmetrics.stringWidth(text.rstrip("\n"), BOLD, size) * cm[0] * tm[0]
        found.append((x, y, x + width))

    page.extract_text(visitor_text=visit)
    return found


def test_60_players_flow_over_pages_and_stay_inside_them(many_pdf):
    reader = PdfReader(io.BytesIO(many_pdf))
    width, height = landscape(A4)
    count = len(reader.pages)
    assert count > 2
    for number, page in enumerate(reader.pages, start=1):
        assert float(page.mediabox.width) == pytest.approx(width, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(height, abs=0.01)
        assert f"page {number} of {count}" in page.extract_text()
        for x, y, end in positions(page):
            assert 0 <= x <= end <= width
            assert 0 <= y <= height


def test_60_players_list_every_player_and_slice_the_head_to_head(many_pdf):
    texts = [flat(text) for text in pages(many_pdf)]
    everything = " ".join(texts)
    for line in many().lines:
        assert line.player in everything
    # 60 columns in five slices of twelve, each with every player's row
    for first in range(1, 60, 12):
        assert f"Head-to-head · players {first}–{first + 11} of 60" in everything
    slices = [text for text in texts if "Head-to-head · players" in text]
    assert len(slices) == 5
    assert all(text.startswith("Head-to-head") for text in slices)  # each on a new page


# The noticeboard


def font_sizes(pdf: bytes) -> list[tuple[float, str]]:
    """Every piece of text of every page with the size it is drawn at on the page: its
    font size scaled by the text matrix and the page's current matrix."""
    found = []
    for page in PdfReader(io.BytesIO(pdf)).pages:

        def visit(text, cm, tm, font, size):
            if text.strip():
                c = tm[2] * cm[0] + tm[3] * cm[2]
                d = tm[2] * cm[1] + tm[3] * cm[3]
                found.append((round(size * (c * c + d * d) ** 0.5, 2), text.strip()))

        page.extract_text(visitor_text=visit)
    return found


def noticeboard(**options) -> bytes:
    return render_noticeboard(sheet(columns=NOTICEBOARD_LINE, **options))


def test_the_noticeboard_sheet_has_the_columns_that_decide_the_rank():
    printed = sheet(columns=NOTICEBOARD_LINE, stats=STATS)
    assert printed.columns == NOTICEBOARD_LINE
    assert printed.headings == (
        "Rank", "Player", "Games", "Won", "Lost", "League points", "Net points",
    )  # fmt: skip
    full = sheet(stats=STATS)  # the same lines, fewer of their figures shown
    shown = [full.columns.index(column) for column in NOTICEBOARD_LINE]
    assert [line.figures for line in printed.lines] == [
        tuple(line.figures[c] for c in shown) for line in full.lines
    ]


def test_the_full_standings_print_below_10_points_which_the_measure_sees():
    sizes = {size for size, _ in font_sizes(render_standings(sheet(stats=STATS)))}
    assert min(sizes) < 10  # the measure below is no test that cannot fail
    assert {7.0, 7.5, 8.0, 16.0} <= sizes


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_noticeboard_is_upright_a4_in_10_points_or_more(language):
    with translation.override(language):
        pdf = noticeboard(printed_on=date(2026, 12, 1))
    (page,) = PdfReader(io.BytesIO(pdf)).pages
    assert float(page.mediabox.width) == pytest.approx(A4[0], abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(A4[1], abs=0.01)
    sizes = font_sizes(pdf)
    assert sizes and min(size for size, _ in sizes) >= 10, [s for s in sizes if s[0] < 10]
    text = flat(page.extract_text())
    head = "Rank Player Games Won Lost League points Net points"
    if language == "de":
        head = "Platz Spieler Partien Gewonnen Verloren Ligapunkte Punktdifferenz"
    for words in (head, "1 Anna 2 2 0 5 +505", "2 Ben 2 1 1 2 −135", "– Dora 0 0 0 0 0"):
        assert words in text
    assert "Head-to-head" not in text and "Direkter Vergleich" not in text


def test_the_noticeboard_of_60_players_flows_over_upright_pages_in_10_points_or_more():
    pdf = render_noticeboard(sheet(standings=many(), columns=NOTICEBOARD_LINE))
    reader = PdfReader(io.BytesIO(pdf))
    count = len(reader.pages)
    assert count >= 2
    width, height = A4
    for number, page in enumerate(reader.pages, start=1):
        assert float(page.mediabox.width) == pytest.approx(width, abs=0.01)
        assert f"page {number} of {count}" in page.extract_text()
        assert "Rank Player Games" in flat(page.extract_text())  # the heading on every page
        for x, y, end in positions(page):
            assert 0 <= x <= end <= width
            assert 0 <= y <= height
    assert min(size for size, _ in font_sizes(pdf)) >= 10
    everything = " ".join(flat(text) for text in pages(pdf))
    for line in many().lines:
        assert line.player in everything


def test_the_noticeboard_gives_the_same_bytes_for_the_same_standings():
    assert noticeboard() == noticeboard()
