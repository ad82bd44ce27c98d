"""PDF documents drawn from the plain values of ``data``, with reportlab platypus.

One base class, ``Renderer``, holds the steps every document shares, each a method
a subclass may override (as pretix's invoice renderer does): ``fonts`` registers
DejaVu Sans, which has the card suits ♠♥♦♣ and every umlaut (Helvetica and
reportlab's Vera have no suits); ``styles`` makes the paragraph styles; ``story``
lists the flowables; ``page_furniture`` draws the footer with "page X of Y",
counted by a canvas that holds every page back until the last is known.

Every user string (names, titles) that goes into a ``Paragraph`` is escaped, so a
name can never be read as reportlab markup; table cells that need no wrapping are
plain strings, which reportlab draws literally and much faster.

``reportlab.rl_config.invariant`` is set, and the metadata is fixed, so the same
input gives byte-identical PDF bytes.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from scorekeeper import engine
from scorekeeper.formats import number_text
from scorekeeper.vocabulary import WHO_HEADINGS

from . import data
from .data import EveningSheet, Part, Play, Row, ScorePad, ScoreSheet
from .text import printable

# Byte-identical output: a fixed creation date and document ID, no random names.
rl_config.invariant = 1
# Streams compressed and left binary: ASCII85 on top makes them bigger, and reportlab
# encodes it in pure Python, which costs a tenth of a long sheet's time.
rl_config.useA85 = 0

FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
PRODUCER = "Scorekeeper"

INK = colors.black
FAINT = colors.HexColor("#6b6b6b")
RULE = colors.HexColor("#9a9a9a")
SHADE = colors.HexColor("#f1f1f1")
CLOSED = colors.HexColor("#dedede")
RED = colors.HexColor("#c0111f")
RED_SUITS = frozenset("♥♦")


@functools.cache
def register_fonts() -> None:
    """DejaVu Sans, regular and bold, embedded as subsets (once per process)."""
    pdfmetrics.registerFont(TTFont(FONT, FONTS / "DejaVuSans.ttf"))
    pdfmetrics.registerFont(TTFont(BOLD, FONTS / "DejaVuSans-Bold.ttf"))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def text(value: str) -> str:
    """A user string made safe for a Paragraph: markup characters are shown, not obeyed;
    and printable (``sheets.text``), as every string a Paragraph draws passes here."""
    return escape(printable(value), {'"': "&quot;"})


class NumberedCanvas(Canvas):
    """A canvas that keeps each page until the document ends, then draws the furniture
    of every page knowing how many there are: "page X of Y" in one pass."""

    def __init__(self, *args: Any, furniture: Callable[..., None], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._furniture = furniture
        self._pages: list[dict[str, Any]] = []

    # Every plain string (a table cell, the footer) is drawn by one of these three, and
    # made printable here, as a Paragraph's strings are by text(). (reportlab's names.)
    def drawString(self, x: float, y: float, value: str, *args: Any, **kw: Any) -> None:  # noqa: N802
        super().drawString(x, y, printable(value), *args, **kw)

    def drawRightString(self, x: float, y: float, value: str, *args: Any, **kw: Any) -> None:  # noqa: N802
        super().drawRightString(x, y, printable(value), *args, **kw)

    def drawCentredString(self, x: float, y: float, value: str, *args: Any, **kw: Any) -> None:  # noqa: N802
        super().drawCentredString(x, y, printable(value), *args, **kw)

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        count = len(self._pages)
        for page, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._furniture(self, page, count)
            super().showPage()
        super().save()


class Renderer:
    """The steps of one PDF document; a subclass gives its ``story``."""

    pagesize: tuple[float, float] = A4
    margin = 14 * mm
    font_size = 8.0

    def __init__(self, document: Any):
        self.document = document
        self.fonts()  # first: laying out measures text in them

    # Steps a document may override

    def fonts(self) -> None:
        register_fonts()

    def styles(self) -> dict[str, ParagraphStyle]:
        base = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11.5, textColor=INK)
        return {
            "body": base,
            "title": ParagraphStyle("title", base, fontName=BOLD, fontSize=16, leading=19),
            "meta": ParagraphStyle("meta", base, textColor=FAINT, spaceBefore=2),
            "h2": ParagraphStyle("h2", base, fontName=BOLD, fontSize=11, leading=14, spaceBefore=8),
            "note": ParagraphStyle("note", base, fontSize=8.5, leading=10.5, spaceBefore=3),
            "cell": ParagraphStyle("cell", base, fontSize=self.font_size, leading=9.6),
            "small": ParagraphStyle("small", base, fontSize=6.5, leading=7.5),
            "head": ParagraphStyle("head", base, fontName=BOLD, fontSize=7.5, leading=9),
            "head-right": ParagraphStyle(
                "head-right", base, fontName=BOLD, fontSize=7.5, leading=9, alignment=TA_RIGHT
            ),
        }

    def story(self) -> list[Flowable]:
        raise NotImplementedError

    def title(self) -> str:
        return self.document.title

    def subject(self) -> str:
        return ""

    def page_furniture(self, canvas: Canvas, page: int, pages: int) -> None:
        """The footer: the document's title on the left, "page X of Y" on the right."""
        width, _height = self.pagesize
        y = self.margin / 2
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(FAINT)
        numbering = _("page %(page)s of %(pages)s") % {"page": page, "pages": pages}
        canvas.drawRightString(width - self.margin, y, numbering)
        room = width - 2 * self.margin - canvas.stringWidth(numbering, FONT, 7) - 12
        canvas.drawString(self.margin, y, self._fit(f"Scorekeeper · {self.title()}", room, 7))
        canvas.restoreState()

    # The machinery

    def render(self) -> bytes:
        self.style = self.styles()
        buffer = io.BytesIO()
        document = SimpleDocTemplate(
            buffer,
            pagesize=self.pagesize,
            leftMargin=self.margin,
            rightMargin=self.margin,
            topMargin=self.margin,
            bottomMargin=self.margin,
            title=self.title(),
            author=PRODUCER,
            subject=self.subject(),
            creator=PRODUCER,
            producer=PRODUCER,
            invariant=1,
            # Or every page would name Helvetica, which nothing is written in.
            initialFontName=FONT,
            initialFontSize=self.font_size,
        )
        document.build(
            self.story(),
            canvasmaker=functools.partial(NumberedCanvas, furniture=self.page_furniture),
        )
        return buffer.getvalue()

    @property
    def width(self) -> float:
        """The width of the frame the story flows in (the frame pads 6 points a side)."""
        return self.pagesize[0] - 2 * self.margin - 12

    def para(self, markup: str, style: str = "body") -> Paragraph:
        """A paragraph of markup; user strings in it must come through ``text()``."""
        return Paragraph(markup, self.style[style])

    def _fit(self, value: str, room: float, size: float, font: str = FONT) -> str:
        """A string cut with an ellipsis to fit ``room`` points."""
        if pdfmetrics.stringWidth(value, font, size) <= room:
            return value
        while value and pdfmetrics.stringWidth(value + "…", font, size) > room:
            value = value[:-1]
        return value + "…"

    @functools.cached_property
    def _cells(self) -> dict[tuple[str, float], str | Paragraph]:
        return {}

    def name_cell(self, name: str | None, width: float) -> str | Paragraph:
        """A name as a table cell: a plain string where it fits, else a wrapping,
        escaped Paragraph (few of them: Paragraphs are what makes a table slow)."""
        if not name:
            return ""
        key = (name, width)
        cell = self._cells.get(key)
        if cell is None:
            room = width - 2 * CELL_PAD
            fits = pdfmetrics.stringWidth(name, FONT, self.font_size) <= room
            cell = name if fits else Paragraph(text(name), self.style["cell"])
            self._cells[key] = cell
        return cell

    def head_cell(self, label: str, width: float) -> str | Paragraph:
        """A column heading: a plain string where it fits, else a wrapping Paragraph."""
        if pdfmetrics.stringWidth(label, BOLD, 7.5) <= width - 2 * CELL_PAD:
            return label
        return Paragraph(text(label), self.style["head"])


CELL_PAD = 2.0
# reportlab's own top and bottom padding, left as they are: a table of hands sets
# as few properties per cell as it can, since each command visits every cell it names.
TOP_PAD = BOTTOM_PAD = 3.0
ROW_HEIGHT = 12.0  # a table row of one line of 8-point text

Command = tuple[Any, ...]


class SheetTable(Table):
    """A reportlab Table that draws nothing for an empty cell (most gain cells are
    empty): reportlab would otherwise write an empty text object for each."""

    def _drawCell(self, cellval, cellstyle, pos, size):  # noqa: N802 (reportlab's name)
        if cellval == "" and not cellstyle.href and not cellstyle.destination:
            return
        super()._drawCell(cellval, cellstyle, pos, size)


class PagedTable(Flowable):
    """A long table laid out a page at a time, its header rows repeated on every page.

    This is what ``Table(repeatRows=...)`` does, without its cost: reportlab splits a
    long table by building the rest as a new table and styling it again, page after
    page, which grows with the square of the rows. Here every row has a known height,
    so each page's rows are counted once and only they are built into a Table (which
    still gets ``repeatRows``, should reportlab ever need to split it).

    ``style`` applies to every page's table as it is (rows 0.. are the header rows,
    -1 the page's last row); ``body_style`` names rows of the body, counted from 0,
    and is moved onto the page that shows them. ``keep`` lists body rows that stay on
    the page of the row after them.
    """

    def __init__(
        self,
        head: list[list[Any]],
        head_heights: list[float],
        body: list[list[Any]],
        heights: list[float],
        widths: list[float],
        style: list[Command],
        body_style: list[Command],
        keep: frozenset[int] = frozenset(),
    ):
        super().__init__()
        self.head, self.head_heights = head, head_heights
        self.body, self.heights = body, heights
        self.widths, self.style, self.body_style = widths, style, body_style
        self.keep = keep
        self.hAlign = "LEFT"

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = sum(self.widths)
        self.height = sum(self.head_heights) + sum(self.heights)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        room = available_height - sum(self.head_heights)
        fits, used = 0, 0.0
        for n, height in enumerate(self.heights):
            used += height
            if used > room:
                break
            if n not in self.keep:
                fits = n + 1  # a page may end after this row
        if fits == 0:
            return []  # not even one row: the frame tries the next page
        if fits == len(self.body):
            return [self]
        rest = PagedTable(
            self.head,
            self.head_heights,
            self.body[fits:],
            self.heights[fits:],
            self.widths,
            self.style,
            [moved for command in self.body_style if (moved := _move(command, fits, None))],
            frozenset(n - fits for n in self.keep if n >= fits),
        )
        return [self.table(fits), rest]

    def draw(self) -> None:
        table = self.table(len(self.body))
        table.wrap(self.width, self.height)
        table.drawOn(self.canv, 0, 0)

    def table(self, rows: int) -> Table:
        """The Table of the header and the first ``rows`` rows of the body."""
        top = len(self.head)
        commands = list(self.style)
        for command in self.body_style:
            moved = _move(command, 0, rows, top)
            if moved:
                commands.append(moved)
        table = SheetTable(
            self.head + self.body[:rows],
            colWidths=self.widths,
            rowHeights=self.head_heights + self.heights[:rows],
            repeatRows=top,
            hAlign="LEFT",
        )
        table.setStyle(TableStyle(commands))
        return table


def _move(command: Command, start: int, stop: int | None, offset: int = 0) -> Command | None:
    """A body command for the body's rows ``start:stop``, renumbered from ``offset``;
    None when it names none of them. Alternating row colours keep their phase."""
    op, (c0, r0), (c1, r1), *args = command
    last = r1 if stop is None else min(r1, stop - 1)
    first = max(r0, start)
    if first > last:
        return None
    if op == "ROWBACKGROUNDS":
        shades = args[0]
        turn = (first - r0) % len(shades)
        args = [shades[turn:] + shades[:turn], *args[1:]]
    return (op, (c0, first - start + offset), (c1, last - start + offset), *args)


class ScoreSheetRenderer(Renderer):
    """A partie's score sheet: header, rules, a table of hands per part with its end
    lines, then who pays whom, the balances and the transfers that settle up."""

    document: ScoreSheet

    def __init__(self, document: ScoreSheet):
        super().__init__(document)
        # Turn the page when a table of hands does not fit across it with its name
        # columns at their narrowest (Hollywood's three games, a three-player rotation).
        if any(HandTable(self, part).cramped for part in document.parts):
            self.pagesize = landscape(A4)

    def subject(self) -> str:
        return self.document.kind_label

    def story(self) -> list[Flowable]:
        sheet = self.document
        story: list[Flowable] = [self.para(text(sheet.title), "title")]
        story += self.header()
        for part in sheet.parts:
            if part.title:
                story.append(self.para(text(part.title), "h2"))
            if part.note:
                story.append(self.para(text(part.note), "note"))
            story.append(Spacer(0, 4))
            story.append(HandTable(self, part).flowable())
        story += [self.para(text(note), "note") for note in sheet.notes]
        story += self.settlement()
        return story

    def header(self) -> list[Flowable]:
        sheet = self.document
        facts = [sheet.kind_label]
        if sheet.played_on:
            facts.append(date_format(sheet.played_on, "DATE_FORMAT"))
        facts.append(", ".join(sheet.players))
        if sheet.for_money:
            facts.append(_("stake %(stake)s per point") % {"stake": number_text(sheet.stake)})
            facts += [
                _("%(player)s plays at %(stake)s") % {"player": name, "stake": number_text(stake)}
                for name, stake in sheet.stakes
            ]
        rules = " · ".join(
            f"{text(line.label)} <b>{text(line.value)}</b>{'*' if line.changed else ''}"
            for line in sheet.rules.lines
        )
        flowables = [
            self.para(" · ".join(text(fact) for fact in facts), "meta"),
            self.para(f"<b>{text(_('Rules'))}: {text(sheet.rules.preset)}</b> — {rules}", "note"),
        ]
        if sheet.rules.changed:
            flowables.append(self.para(text(_("* changed from the preset")), "meta"))
        return flowables

    def settlement(self) -> list[Flowable]:
        sheet = self.document
        money = sheet.for_money
        flowables: list[Flowable] = []
        if sheet.payments:
            games = any(p.game for p in sheet.payments)
            game_width = 60 if games else 0
            rows: list[list[Any]] = [
                [
                    self.name_cell(p.game, 60) if games else "",
                    self.para(
                        text(
                            _("%(payer)s pays %(payee)s %(points)s points")
                            % {"payer": p.payer, "payee": p.payee, "points": p.points}
                        ),
                        "cell",
                    ),
                    number_text(p.amount) if money else "",
                ]
                for p in sheet.payments
            ]
            flowables += [
                self.para(text(_("Who pays whom")), "h2"),
                self.small_table(rows, [game_width, 260, 60], right=[2]),
            ]
        head = [_("Player"), _("Points")] + ([_("Money")] if money else [])
        rows = [
            [self.name_cell(b.player, 200), number_text(b.points, sign=True)]
            + ([number_text(b.amount, sign=True)] if money else [])
            for b in sheet.balances
        ]
        flowables += [
            self.para(text(_("Balances")), "h2"),
            self.small_table([head, *rows], [200, 60, 60][: len(head)], right=[1, 2], head=True),
        ]
        if money and sheet.transfers:
            rows = [
                [
                    self.para(
                        text(
                            _("%(payer)s pays %(payee)s %(amount)s")
                            % {"payer": t.payer, "payee": t.payee, "amount": number_text(t.amount)}
                        ),
                        "cell",
                    )
                ]
                for t in sheet.transfers
            ]
            flowables += [
                self.para(text(_("Settle up")), "h2"),
                self.small_table(rows, [320]),
            ]
        return [KeepTogether(flowables)]  # the money on one page, if it fits on one

    def small_table(
        self,
        rows: list[list[Any]],
        widths: Sequence[float],
        *,
        right: Iterable[int] = (),
        head: bool = False,
    ) -> Table:
        style = [
            ("FONT", (0, 0), (-1, -1), FONT, 8.5, 10),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
        ]
        style += [("ALIGN", (c, 0), (c, -1), "RIGHT") for c in right if c < len(widths)]
        if head:
            style += [
                ("FONT", (0, 0), (-1, 0), BOLD, 8, 10),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
            ]
        return Table(rows, colWidths=list(widths), style=style, hAlign="LEFT")


def _heading_width(label: str) -> float:
    return pdfmetrics.stringWidth(label, BOLD, 7.5) + 2 * CELL_PAD + 1


class HandTable:
    """The table of one part of a score sheet: two header rows (repeated on every page),
    a row per hand (two per partnership round), then the end lines."""

    NUMBER, TABLE, RESULT, DEADWOOD, POINTS, UPCARD = 20, 26, 50, 36, 34, 32
    GAIN, TOTAL = 26, 30
    NAMES = (44, 96)  # the narrowest and widest name column
    NARROWEST = 24  # a name column's floor, where nothing else helps
    WIDEST_SCORE = 1.4  # score columns widen up to this factor on a roomy page
    HEAD = 2  # header rows

    def __init__(self, renderer: ScoreSheetRenderer, part: Part):
        self.renderer = renderer
        self.sheet = renderer.document
        self.part = part
        # Who played each hand, and how many lines a row has: the engine's, on the sheet.
        self.who = self.sheet.who
        self.lines_per_row = self.sheet.lines_per_row
        self.scores = len(part.columns)
        self.hands = self.hand_headers()
        self.widths = self.column_widths()

    def hand_headers(self) -> list[str]:
        """The hand columns' labels, left to right."""
        headers = ["#", *(str(WHO_HEADINGS[who]) for who in self.who), _("Knocker")]
        if self.sheet.upcards:
            headers.append(_("Upcard"))
        headers += [_("Result"), _("knocker"), _("defender"), _("Points")]
        return headers

    def column_widths(self) -> list[float]:
        """Fixed columns as wide as their content or their (translated) heading; the
        name columns share what is left, within NAMES; then the score columns grow."""
        heading = {label: _heading_width(label) for label in self.hands}
        tabled = engine.Who.TABLE in self.who  # a narrow column, not a name
        names = len(self.hands) - 5 - int(tabled) - int(self.sheet.upcards)
        number, *rest = self.hands
        result, knocker, defender, points = rest[-4:]
        deadwood = max(self.DEADWOOD, heading[knocker], heading[defender])
        fixed = [
            self.NUMBER,
            max(self.RESULT, heading[result]),
            deadwood,
            deadwood,
            max(self.POINTS, heading[points]),
        ]
        table = max(self.TABLE, heading[rest[0]]) if tabled else 0
        upcard = max(self.UPCARD, heading[rest[-5]]) if self.sheet.upcards else 0
        scores = self.scores * (self.GAIN + self.TOTAL)
        low, high = self.NAMES
        room = self.renderer.width - sum(fixed) - table - upcard - scores
        self.cramped = room < names * low
        # Narrower than NAMES only where even a turned page is too narrow; names wrap.
        name = max(self.NARROWEST, min(high, room / names))
        # What the names leave over widens the score columns, up to a point.
        grow = min(self.WIDEST_SCORE, 1 + max(0.0, room - names * name) / scores)
        widths = [float(self.NUMBER)]
        if tabled:
            widths.append(table)
        widths += [name] * names
        if self.sheet.upcards:
            widths.append(upcard)
        widths += fixed[1:]
        widths += [self.GAIN * grow, self.TOTAL * grow] * self.scores
        return widths

    @property
    def deadwood(self) -> int:
        """The table column of the knocker's deadwood; the defender's is the next."""
        return len(self.hands) - 3

    def score_column(self, index: int) -> int:
        """The table column of score column ``index``'s gain; its total is the next."""
        return len(self.hands) + 2 * index

    def group_columns(self) -> list[tuple[int, int]]:
        """Each group's first and last table column."""
        spans, index = [], 0
        for group in self.part.groups:
            index += len(group.columns)
            spans.append(
                (self.score_column(index - len(group.columns)), self.score_column(index) - 1)
            )
        return spans

    def flowable(self) -> PagedTable:
        head, head_heights = self.head()
        body, body_style, keep = self.body()
        ending, ending_style = self.ending(len(body))
        rows = body + ending
        heights = [self.height(row) for row in rows]
        # The end lines stay together, and with the last hand.
        keep |= set(range(len(body) - 1, len(rows) - 1)) if body else set()
        style = self.base_style() + self.head_style() + self.column_style()
        return PagedTable(
            head,
            head_heights,
            rows,
            heights,
            self.widths,
            style,
            body_style + ending_style,
            frozenset(keep),
        )

    def height(self, row: list[Any], widths: Sequence[float] | None = None) -> float:
        """A row's height: one line, or what its tallest wrapping cell needs."""
        height = ROW_HEIGHT
        for cell, width in zip(row, widths or self.widths, strict=True):
            if isinstance(cell, Paragraph):
                _width, needed = cell.wrap(width - 2 * CELL_PAD, 10_000)
                height = max(height, needed + TOP_PAD + BOTTOM_PAD)
        return height

    def head(self) -> tuple[list[list[Any]], list[float]]:
        """Two rows: the group labels (and "Deadwood"), then the column labels. A label
        over a span is measured at the span's width."""
        style = self.renderer.style
        top: list[Any] = [""] * len(self.widths)
        top_widths = list(self.widths)
        top[self.deadwood] = _("Deadwood")
        names: list[Any] = [
            self.renderer.head_cell(label, width)
            for label, width in zip(self.hands, self.widths, strict=False)
        ]
        name_widths = list(self.widths)
        for group, (first, last) in zip(self.part.groups, self.group_columns(), strict=True):
            if group.label:
                label = group.label
                if group.closed:
                    label += " ✓"
                    if group.winner:
                        label += f" {group.winner}"
                top_widths[first] = sum(self.widths[first : last + 1])
                fits = _heading_width(label) <= top_widths[first]
                top[first] = label if fits else Paragraph(text(label), style["head"])
            for n, column in enumerate(group.columns):
                at = first + 2 * n
                name_widths[at] = self.widths[at] + self.widths[at + 1]
                fits = _heading_width(column) <= name_widths[at]
                names[at : at + 2] = [
                    column if fits else Paragraph(text(column), style["head-right"]),
                    "",
                ]
        return [top, names], [self.height(top, top_widths), self.height(names, name_widths)]

    def base_style(self) -> list[Command]:
        """Every row: the font (leading 8: a line sits in the middle of ROW_HEIGHT with
        reportlab's paddings), numbers from the deadwood on to the right, the grid."""
        right = self.deadwood
        return [
            ("FONT", (0, 0), (-1, -1), FONT, 8.0, 8.0),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("LEFTPADDING", (0, 0), (right - 1, -1), CELL_PAD),
            ("ALIGN", (0, 0), (0, -1), "RIGHT"),
            ("ALIGN", (right, 0), (-1, -1), "RIGHT"),
            ("GRID", (0, 0), (-1, -1), 0.25, RULE),
        ]

    def head_style(self) -> list[Command]:
        deadwood = self.deadwood
        commands: list[Command] = [
            ("FONT", (0, 0), (-1, 1), BOLD, 7.5, 7.5),
            ("LEFTPADDING", (0, 0), (-1, 1), CELL_PAD),  # as head() measured the labels
            ("BACKGROUND", (0, 0), (-1, 1), SHADE),
            ("SPAN", (deadwood, 0), (deadwood + 1, 0)),
            ("ALIGN", (deadwood, 0), (deadwood + 1, 0), "CENTER"),
            ("LINEBELOW", (0, 1), (-1, 1), 0.8, INK),
        ]
        for group, (first, last) in zip(self.part.groups, self.group_columns(), strict=True):
            if group.label:
                commands += [
                    ("SPAN", (first, 0), (last, 0)),
                    ("ALIGN", (first, 0), (first, 0), "CENTER"),
                ]
            commands.append(("LINEBEFORE", (first, 0), (first, -1), 0.8, INK))
            commands += [("SPAN", (c, 1), (c + 1, 1)) for c in range(first, last, 2)]
        return commands

    def column_style(self) -> list[Command]:
        """Column by column, for every row under the header: the gains faint, the
        running totals bold."""
        top = self.HEAD
        commands: list[Command] = []
        for i in range(self.scores):
            gain = self.score_column(i)
            commands += [
                ("TEXTCOLOR", (gain, top), (gain, -1), FAINT),
                ("FONT", (gain + 1, top), (gain + 1, -1), BOLD, 8.0, 8.0),
            ]
        return commands

    def body(self) -> tuple[list[list[Any]], list[Command], set[int]]:
        """The hand rows, the styles that depend on them (red suits, the closed Hollywood
        games, shading) with rows counted from the first hand, and the rows to keep with
        the next (a partnership round's first table)."""
        rows: list[list[Any]] = []
        style: list[Command] = []
        keep: set[int] = set()
        upcard = len(self.hands) - 5 if self.sheet.upcards else None
        closed_at: dict[int, int] = {}  # group index -> the row of the hand that closed it
        for row in self.part.rows:
            lines = self.hand_rows(row)
            for g in row.closes:
                closed_at[g - 1] = len(rows) + len(lines) - 1
            for play, line in zip(row.plays, lines, strict=True):
                y = len(rows)
                rows.append(line)
                if upcard is not None and play.upcard and play.upcard[-1] in RED_SUITS:
                    style.append(("TEXTCOLOR", (upcard, y), (upcard, y), RED))
            keep.update(range(len(rows) - len(lines), len(rows) - 1))
        if rows:
            # a round's lines share a shade
            shades = [colors.white] * self.lines_per_row + [SHADE] * self.lines_per_row
            style.append(("ROWBACKGROUNDS", (0, 0), (-1, len(rows) - 1), shades))
        style += self.closed_games(rows, closed_at)
        return rows, style, keep

    @staticmethod
    def who_played(who: engine.Who, table: int, row: Row, play: Play) -> str:
        """A who-column's cell of the line of ``play``, the row's ``table``-th (from 0)."""
        if who is engine.Who.TABLE:
            return str(table + 1)
        if who is engine.Who.DEALER or row.seats is None:
            return play.dealer
        return {
            engine.Who.BOX: row.seats.box,
            engine.Who.CAPTAIN: row.seats.captain,
            engine.Who.OUT: row.seats.out[0],
        }[who]

    def hand_rows(self, row: Row) -> list[list[Any]]:
        """One table row per play; the scores go on a round's last line."""
        lines = []
        name = self.renderer.name_cell
        widths = self.widths
        for n, play in enumerate(row.plays):
            last = n == len(row.plays) - 1
            line: list[Any] = [str(row.number) if n == 0 else ""]
            line += [self.who_played(who, n, row, play) for who in self.who]
            line.append(play.knocker)
            line = [name(cell, widths[c]) if c else cell for c, cell in enumerate(line)]
            if self.sheet.upcards:
                line.append(play.upcard or "")
            line += [
                play.result,
                number_text(play.knocker_deadwood),
                number_text(play.defender_deadwood),
                str(play.points) if play.winner else "",
            ]
            for cell in row.cells:
                if last:
                    line += ["" if cell.gain is None else f"+{cell.gain}", str(cell.total)]
                else:
                    line += ["", ""]
            lines.append(line)
        return lines

    def closed_games(self, rows: list[list[Any]], closed_at: dict[int, int]) -> list[Command]:
        """Hollywood: a closed game takes no more entries, so its columns go grey and
        empty below the hand that closed it; that hand's totals are boxed."""
        style: list[Command] = []
        for g, (first, last) in enumerate(self.group_columns()):
            if g not in closed_at:
                continue
            closing = closed_at[g]
            style.append(("BOX", (first, closing), (last, closing), 1.0, INK))
            if closing + 1 < len(rows):
                for line in rows[closing + 1 :]:
                    line[first : last + 1] = [""] * (last + 1 - first)
                style.append(("BACKGROUND", (first, closing + 1), (last, len(rows) - 1), CLOSED))
        return style

    def ending(self, top: int) -> tuple[list[list[Any]], list[Command]]:
        """Each end line: its label across the hand columns, each value across its
        column's gain and total."""
        rows = []
        style: list[Command] = []
        hands = len(self.hands)
        for n, end in enumerate(self.part.ending):
            y = top + n
            line: list[Any] = [end.label] + [""] * (len(self.widths) - 1)
            for i, value in enumerate(end.values):
                column = self.score_column(i)
                line[column] = number_text(value, sign=end.signed)
                style.append(("SPAN", (column, y), (column + 1, y)))
            rows.append(line)
            style.append(("SPAN", (0, y), (hands - 1, y)))
            if end.strong:
                style += [
                    ("FONT", (0, y), (-1, y), BOLD, 8.0, 8.0),
                    ("LINEABOVE", (0, y), (-1, y), 0.8, INK),
                ]
        if rows:
            last = top + len(rows) - 1
            style[:0] = [
                ("FONT", (0, top), (-1, last), FONT, 8.0, 8.0),
                ("TEXTCOLOR", (0, top), (-1, last), INK),
                ("LINEABOVE", (0, top), (-1, top), 1.0, INK),
            ]
        return rows, style


class EveningRenderer(Renderer):
    """An evening: each partie with its result and what it moved, every player's net,
    and the transfers that settle up."""

    document: EveningSheet

    def title(self) -> str:
        return self.document.name

    def subject(self) -> str:
        return _("Evening")

    def story(self) -> list[Flowable]:
        evening = self.document
        story: list[Flowable] = [self.para(text(evening.name), "title")]
        if evening.played_on:
            story.append(self.para(text(date_format(evening.played_on, "DATE_FORMAT")), "meta"))
        story.append(self.para(text(_("Parties")), "h2"))
        rows: list[list[Any]] = [[_("Partie"), _("Result"), _("Net")]]
        for partie in evening.parties:
            rows.append(
                [
                    self.para(f"<b>{text(partie.title)}</b><br/>{text(partie.kind_label)}", "cell"),
                    self.para("<br/>".join(self.result(game) for game in partie.games), "cell"),
                    self.para(
                        "<br/>".join(
                            text(
                                f"{b.player} {number_text(b.points, sign=True)}"
                                f" ({number_text(b.amount, sign=True)})"
                            )
                            for b in partie.balances
                        ),
                        "cell",
                    ),
                ]
            )
        third = self.width / 3
        story.append(self.table(rows, [third * 0.8, third * 1.3, third * 0.9]))
        story.append(self.para(text(_("Balances")), "h2"))
        rows = [[_("Player"), _("Points"), _("Money")]]
        rows += [
            [
                self.para(text(b.player), "cell"),
                number_text(b.points, sign=True),
                number_text(b.amount, sign=True),
            ]
            for b in evening.balances
        ]
        story.append(self.table(rows, [200, 70, 70], right=(1, 2)))
        if evening.debts:
            story += self.debts()
        story.append(self.para(text(_("Settle up")), "h2"))
        if evening.transfers:
            settled = evening.settled  # then each transfer says whether it is paid
            rows = [[_("Pays"), _("To"), _("Amount")] + ([_("Paid")] if settled else [])]
            rows += [
                [
                    self.para(text(t.payer), "cell"),
                    self.para(text(t.payee), "cell"),
                    number_text(t.amount),
                ]
                + ([self.para(text(("✓ " if t.paid else "") + t.state), "cell")] if settled else [])
                for t in evening.transfers
            ]
            widths = [120, 120, 70, 190] if settled else [150, 150, 70]
            story.append(self.table(rows, widths, right=(2,)))
            if evening.debts:
                words = _("The transfers settle this evening's balances and the debts carried in.")
                story.append(self.para(text(words), "note"))
        else:
            story.append(self.para(text(_("Nobody pays: the totals are equal.")), "note"))
        return story

    def debts(self) -> list[Flowable]:
        """The open debts of earlier evenings that this evening's settle-up takes in."""
        rows: list[list[Any]] = [[_("Owes"), _("To"), _("Amount"), _("From the evening")]]
        for debt in self.document.debts:
            when = debt.played_on and date_format(debt.played_on, "SHORT_DATE_FORMAT")
            rows.append(
                [
                    self.para(text(debt.payer), "cell"),
                    self.para(text(debt.payee), "cell"),
                    number_text(debt.amount),
                    self.para(text(f"{debt.evening} ({when})" if when else debt.evening), "cell"),
                ]
            )
        return [
            self.para(text(_("Carried in from earlier evenings")), "h2"),
            self.table(rows, [110, 110, 70, 180], right=(2,)),
        ]

    def result(self, game: data.GameSummary) -> str:
        totals = " – ".join(f"{column} {total}" for column, total in game.totals)
        words = f"{game.label}: {totals}" if game.label else totals
        if not game.closed:
            words += " (" + _("running") + ")"
        elif game.winner:
            words += " · " + _("%(winner)s wins by %(net)s") % {
                "winner": game.winner,
                "net": game.net,
            }
        return text(words)

    def table(self, rows: list[list[Any]], widths: Sequence[float], right=()) -> Table:
        style = [
            ("FONT", (0, 0), (-1, -1), FONT, 8.5, 10),
            ("FONT", (0, 0), (-1, 0), BOLD, 8, 10),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
            ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ]
        style += [("ALIGN", (c, 0), (c, -1), "RIGHT") for c in right]
        return Table(rows, colWidths=list(widths), style=style, repeatRows=1, hAlign="LEFT")


class PadRenderer(Renderer):
    """A blank score pad: title and rules, then games of empty lines to fill by pen.

    The heights are the fixed figures of ``data`` (PAD_*), so the lines the pad
    counted fill the page and no game breaks over a page."""

    document: ScorePad
    font_size = 8.0

    def __init__(self, document: ScorePad):
        super().__init__(document)
        self.pagesize = data.PAPERS[document.paper]
        self.margin = data.PAD_MARGIN

    def subject(self) -> str:
        return self.document.kind_label

    def story(self) -> list[Flowable]:
        pad = self.document
        story: list[Flowable] = [self.title_block(), self.rules_block(), Spacer(0, data.PAD_GAP)]
        for _n in range(pad.games_per_page):
            story += [self.game_title(), self.game(), Spacer(0, data.PAD_GAP)]
        return story

    def title_block(self) -> Table:
        return Table(
            [[self.para(text(self.document.title), "title")]],
            colWidths=[self.width],
            rowHeights=[data.PAD_TITLE],
            style=[("LEFTPADDING", (0, 0), (-1, -1), 0), ("VALIGN", (0, 0), (-1, -1), "TOP")],
        )

    def rules_block(self) -> Table:
        pad = self.document
        per_line = data.PAD_RULE_COLUMNS
        items = [f"{text(_('Rules'))}: <b>{text(pad.rules.preset)}</b>"]
        items += [
            f"{text(line.label)}: <b>{text(line.value)}</b>{'*' if line.changed else ''}"
            for line in pad.rules.lines
        ]
        width = self.width / per_line
        cells = []
        for item in items:  # one line each: a long one (a long translation) gets smaller
            cell = Paragraph(item, self.style["cell"])
            if cell.wrap(width - 4, 1000)[1] > data.PAD_RULE_ROW:
                cell = Paragraph(item, self.style["small"])
            cells.append(cell)
        lines = data.pad_rule_lines(len(pad.rules.lines))
        grid = [cells[i * per_line : (i + 1) * per_line] for i in range(lines)]
        for line in grid:
            line += [""] * (per_line - len(line))
        return Table(
            grid,
            colWidths=[width] * per_line,
            rowHeights=[data.PAD_RULE_ROW] * lines,
            style=[
                ("FONT", (0, 0), (-1, -1), FONT, 8),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ],
        )

    def game_title(self) -> Table:
        blanks = f"{_('Game')} ______    {_('Date')} ______________    {_('Stake')} ________"
        return Table(
            [[blanks]],
            colWidths=[self.width],
            rowHeights=[data.PAD_GAME_TITLE],
            style=[
                ("FONT", (0, 0), (-1, -1), BOLD, 9),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ],
        )

    def game(self) -> Table:
        pad = self.document
        hands = len(pad.hand_columns)
        scores = sum(len(group.columns) for group in pad.groups)
        hand_widths = [22.0] + [64.0] * (hands - 1)
        score = (self.width - sum(hand_widths)) / scores
        label_width = sum(hand_widths)
        if label_width < 110:  # the end lines' labels need room: widen the hand columns
            hand_widths[-1] += 110 - label_width
            score = (self.width - sum(hand_widths)) / scores
        widths = hand_widths + [score * 0.42, score * 0.58] * scores
        labelled = bool(pad.groups[0].label)
        rows: list[list[Any]] = []
        heights: list[float] = []
        style: list[tuple] = [
            ("FONT", (0, 0), (-1, -1), FONT, 8),
            ("GRID", (0, 0), (-1, -1), 0.4, RULE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ]
        if labelled:
            line: list[Any] = [""] * len(widths)
            for g, group in enumerate(pad.groups):
                start = hands + 2 * sum(len(x.columns) for x in pad.groups[:g])
                line[start] = group.label or ""
                style += [
                    ("SPAN", (start, 0), (start + 2 * len(group.columns) - 1, 0)),
                    ("ALIGN", (start, 0), (start, 0), "CENTER"),
                ]
            rows.append(line)
            heights.append(data.PAD_LABEL_ROW)
            style += [("FONT", (0, 0), (-1, 0), BOLD, 8), ("BACKGROUND", (0, 0), (-1, 0), SHADE)]
        names = len(rows)
        line = list(pad.hand_columns)
        for group in pad.groups:
            for column in group.columns:
                line += [column, ""]
        rows.append(line)
        heights.append(data.PAD_NAME_ROW)
        for c in range(scores):
            style.append(("SPAN", (hands + 2 * c, names), (hands + 2 * c + 1, names)))
        style += [
            ("FONT", (0, names), (-1, names), BOLD, 8),
            ("VALIGN", (0, names), (hands - 1, names), "BOTTOM"),
            ("LINEBELOW", (0, names), (-1, names), 1.0, INK),
        ]
        first = len(rows)
        for n in range(1, pad.lines_per_game + 1):
            rows.append([str(n)] + [""] * (len(widths) - 1))
            heights.append(data.PAD_ROW)
        top = len(rows)
        style += [
            ("FONT", (0, first), (0, top - 1), FONT, 7),
            ("TEXTCOLOR", (0, first), (0, top - 1), FAINT),
            ("ALIGN", (0, first), (0, top - 1), "RIGHT"),
        ]
        for label in pad.ending:
            rows.append([label] + [""] * (len(widths) - 1))
            heights.append(data.PAD_ROW)
            style.append(("SPAN", (0, len(rows) - 1), (hands - 1, len(rows) - 1)))
        style += [
            ("LINEABOVE", (0, top), (-1, top), 1.0, INK),
            ("LINEABOVE", (0, len(rows) - 1), (-1, len(rows) - 1), 1.0, INK),
            ("FONT", (0, len(rows) - 1), (-1, len(rows) - 1), BOLD, 8),
        ]
        for c in range(scores):  # the running totals' column, lightly shaded
            total = hands + 2 * c + 1
            style.append(("BACKGROUND", (total, first), (total, -1), SHADE))
            if c % 2 == 0:
                style.append(("LINEBEFORE", (hands + 2 * c, 0), (hands + 2 * c, -1), 1.0, INK))
        return Table(rows, colWidths=widths, rowHeights=heights, style=style, hAlign="LEFT")


def render_score_sheet(sheet: ScoreSheet) -> bytes:
    return ScoreSheetRenderer(sheet).render()


def render_evening(sheet: EveningSheet) -> bytes:
    return EveningRenderer(sheet).render()


def render_pad(pad: ScorePad) -> bytes:
    return PadRenderer(pad).render()


class StandingsRenderer(Renderer):
    """A season's standings on turned A4 pages: a line per player (the heading repeated
    on every page), then the head-to-head of every two players, on a page of its own
    when there are more than a few, and in slices of columns when there are many, so
    that a cell never gets too narrow to read."""

    document: data.StandingsSheet
    pagesize = landscape(A4)
    RANK = 22.0
    NUMBER = 30.0  # a figure column's narrowest
    NAMES = (90.0, 150.0, 220.0)  # the player column: narrowest, comfortable, widest
    MATRIX_NAME = 150.0  # the head-to-head's player column
    MATRIX_CELL = 64.0  # a head-to-head cell's widest
    MATRIX_COLUMNS = 12  # the most players across one slice of the head-to-head
    MATRIX_PAGE = 4  # more players than this: the head-to-head starts a new page

    def subject(self) -> str:
        return _("Standings")

    def story(self) -> list[Flowable]:
        sheet = self.document
        story: list[Flowable] = [self.para(text(sheet.title), "title")]
        facts = [sheet.subtitle] if sheet.subtitle else []
        if sheet.printed_on:
            day = date_format(sheet.printed_on, "DATE_FORMAT")
            facts.append(_("printed %(date)s") % {"date": day})
        if facts:
            story.append(self.para(" · ".join(text(fact) for fact in facts), "meta"))
        story += [Spacer(0, 6), self.standings_table()]
        if sheet.note:
            story.append(self.para(text(sheet.note), "note"))
        story += self.head_to_head()
        return story

    # The standings

    def cell(self, line: data.StandingsLine, column: str) -> str:
        """A line's value in a figure column, as printed."""
        value = getattr(line, column)
        if value is None:
            return "–"
        if column in ("net_points", "money"):
            return number_text(value, sign=True)
        if column in ("rating", "points_per_hand_won"):
            # The decimal point in every language, as the printed standings always had it.
            return number_text(value, places=1, localize=False)
        return str(value)

    def standings_widths(self) -> list[float]:
        """Each figure column as wide as its widest value and its heading on one line;
        where that leaves the player column less than NAMES' comfortable width, the
        headings take two lines (or their longest word). The player column takes what
        is left, within NAMES; where even its narrowest does not fit, the figure columns
        give way, so that the table never leaves the page."""
        sheet = self.document
        full, compact = [], []
        for column, heading in zip(sheet.columns, sheet.headings, strict=True):
            if column == "player":
                full.append(0.0)
                compact.append(0.0)
                continue
            values = [self.cell(line, column) for line in sheet.lines]
            widest = max(
                [pdfmetrics.stringWidth(value, BOLD, self.font_size) for value in values],
                default=0.0,
            )
            label = pdfmetrics.stringWidth(heading, BOLD, 7.5)
            word = max((pdfmetrics.stringWidth(w, BOLD, 7.5) for w in heading.split()), default=0.0)
            floor = self.RANK if column == "rank" else self.NUMBER
            full.append(max(floor, widest, label) + 2 * CELL_PAD + 1)
            compact.append(max(floor, widest, word, label / 2) + 2 * CELL_PAD + 1)
        low, comfortable, high = self.NAMES
        widths = full if self.width - sum(full) >= comfortable else compact
        figures = sum(widths)
        if self.width - figures < low:
            widths = [width * (self.width - low) / figures for width in widths]
        widths[sheet.columns.index("player")] = min(high, self.width - sum(widths))
        return widths

    def heading(self, label: str, width: float, right: bool) -> str | Paragraph:
        """A column heading: a plain string where it fits, else a wrapping Paragraph
        (which breaks a word too long for the column rather than overflow it)."""
        if pdfmetrics.stringWidth(label, BOLD, 7.5) <= width - 2 * CELL_PAD:
            return label
        return Paragraph(text(label), self.style["head-right" if right else "head"])

    def standings_table(self) -> Table:
        sheet = self.document
        widths = self.standings_widths()
        player = sheet.columns.index("player")
        rows: list[list[Any]] = [
            [
                self.heading(label, width, right=c != player)
                for c, (label, width) in enumerate(zip(sheet.headings, widths, strict=True))
            ]
        ]
        for line in sheet.lines:
            rows.append(
                [
                    self.name_cell(line.player, widths[c]) if c == player else self.cell(line, key)
                    for c, key in enumerate(sheet.columns)
                ]
            )
        points = sheet.columns.index("league_points")
        style: list[Command] = [
            ("FONT", (0, 0), (-1, -1), FONT, self.font_size, 9.6),
            ("FONT", (0, 0), (-1, 0), BOLD, 7.5, 9),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
            ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
            ("ALIGN", (player, 0), (player, -1), "LEFT"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ]
        if sheet.lines:
            style += [
                ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, SHADE]),
                ("FONT", (points, 1), (points, -1), BOLD, self.font_size, 9.6),
            ]
        unranked = [y for y, line in enumerate(sheet.lines, start=1) if line.rank is None]
        if unranked:  # the unranked players come last, set apart and faint
            style += [
                ("TEXTCOLOR", (0, unranked[0]), (-1, -1), FAINT),
                ("LINEABOVE", (0, unranked[0]), (-1, unranked[0]), 0.8, INK),
            ]
        return Table(rows, colWidths=widths, style=style, repeatRows=1, hAlign="LEFT")

    # The head-to-head

    def head_to_head(self) -> list[Flowable]:
        """The matrix, a slice of at most MATRIX_COLUMNS columns at a time; every slice
        has every player's row, and a slice after the first starts a new page."""
        players = self.document.players
        count = len(players)
        if count < 2:
            return []
        slices = math.ceil(count / self.MATRIX_COLUMNS)
        size = math.ceil(count / slices)  # the slices as even as they can be
        legend = _(
            "Each line: that player's wins and losses against the player of the column, "
            "and the points between them."
        )
        flowables: list[Flowable] = []
        for n, first in enumerate(range(0, count, size)):
            last = min(first + size, count)
            title = _("Head-to-head")
            if slices > 1:
                title += " · " + _("players %(first)s–%(last)s of %(count)s") % {
                    "first": first + 1,
                    "last": last,
                    "count": count,
                }
            block: list[Flowable] = [self.para(text(title), "h2")]
            if n == 0:
                block.append(self.para(text(legend), "note"))
            block += [Spacer(0, 4), self.matrix(first, last)]
            if count > self.MATRIX_PAGE:
                flowables += [PageBreak(), *block]
            else:  # a small matrix follows the standings, all of it on one page
                flowables.append(KeepTogether(block))
        return flowables

    def matrix(self, first: int, last: int) -> Table:
        """The columns ``first:last`` of the head-to-head: each row's player, numbered
        as in the standings, against each column's (its number and name, cut to fit)."""
        sheet = self.document
        players = sheet.players
        cell = min(self.MATRIX_CELL, (self.width - self.RANK - self.MATRIX_NAME) / (last - first))
        widths = [self.RANK, self.MATRIX_NAME] + [cell] * (last - first)
        room = cell - 2 * CELL_PAD
        rows: list[list[Any]] = [
            ["", ""]
            + [f"{k + 1}\n{self._fit(players[k], room, 7.5, BOLD)}" for k in range(first, last)]
        ]
        for k, (player, meetings) in enumerate(zip(players, sheet.matrix, strict=True)):
            rows.append(
                [str(k + 1), self.name_cell(player, self.MATRIX_NAME)]
                + [
                    "" if met is None else f"{met.score}\n{number_text(met.net_points, sign=True)}"
                    for met in meetings[first:last]
                ]
            )
        style: list[Command] = [
            ("FONT", (0, 0), (-1, -1), FONT, 7.5, 8.5),
            ("FONT", (0, 0), (-1, 0), BOLD, 7.5, 8.5),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ALIGN", (0, 0), (0, -1), "RIGHT"),
            ("ALIGN", (2, 0), (-1, -1), "CENTER"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
            ("LINEBELOW", (0, 1), (1, -1), 0.25, RULE),
            ("GRID", (2, 0), (-1, -1), 0.25, RULE),
        ]
        # A player does not meet himself: his own cell is greyed.
        style += [
            ("BACKGROUND", (2 + k - first, k + 1), (2 + k - first, k + 1), CLOSED)
            for k in range(first, last)
        ]
        return Table(rows, colWidths=widths, style=style, repeatRows=1, hAlign="LEFT")


def render_standings(sheet: data.StandingsSheet) -> bytes:
    return StandingsRenderer(sheet).render()
