"""What every printed document shares: the rules in words and a player's balance (values),
the fonts, the number formats, and ``Renderer``, the steps of one PDF document
(reportlab platypus), with the tables that flow over pages.

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
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from scorekeeper import engine
from scorekeeper.vocabulary import preset_name, rule_label, rule_words, rules_to_name

from .text import printable


@dataclass(frozen=True)
class RuleLine:
    """One rule in words: ``Gin bonus: 25``; ``changed`` when it differs from the preset."""

    label: str
    value: str
    changed: bool = False


@dataclass(frozen=True)
class RulesText:
    """The rules in force: the preset's name and the rules that matter at the table."""

    preset: str
    lines: tuple[RuleLine, ...]

    @property
    def changed(self) -> tuple[RuleLine, ...]:
        return tuple(line for line in self.lines if line.changed)


@dataclass(frozen=True)
class Balance:
    """A player's net: points and money, won positive."""

    player: str
    points: int
    amount: Decimal


def rules_text(rules: engine.Ruleset, kind: str = "two_player") -> RulesText:
    """The preset's name and, in words, every rule that matters for the kind, plus every
    rule changed from the preset (marked ``changed``).

    >>> [(line.label, line.value) for line in rules_text(engine.preset("oklahoma")).lines][:3]
    [('Knock limit', 'the upcard'), ('Undercut bonus', '25'), ('Gin bonus', '25')]
    >>> rules_text(engine.preset("classic", gin_bonus=25)).changed
    (RuleLine(label='Gin bonus', value='25', changed=True),)
    """
    changed = rules.changes_from_preset()
    values = rules.to_dict()
    session = engine.session_class(kind)
    shown = [
        name
        for name in engine.PARAMETERS
        if name in changed or (session.plays_rule(name) and _matters(name, rules))
    ]
    # "Shutout bonus 100" says the shutout rule too: changed when either is.
    changed_too = {"shutout_bonus"} if "shutout" in changed else set()
    changed_names = set(changed) | changed_too
    lines = tuple(
        RuleLine(rule_label(name), rule_words(name, values[name]), name in changed_names)
        for name in rules_to_name(shown, rules)
    )
    return RulesText(preset_name(rules.preset), lines)


def _matters(name: str, rules: engine.Ruleset) -> bool:
    """Whether a rule is worth printing even at its preset's value."""
    return {
        "tie_is_undercut": not rules.tie_is_undercut,
        "shutout_bonus": rules.shutout == engine.Shutout.BONUS,
        "spade_double": rules.is_oklahoma,
        "oklahoma_ace": rules.is_oklahoma,
        "extra_boxes_gin": rules.extra_boxes_gin > 0,
        "extra_boxes_undercut": rules.extra_boxes_undercut > 0,
        "round_the_corner": rules.round_the_corner,
        "money_unit": False,
    }.get(name, True)


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
    footer_size = 7.0

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
        size = self.footer_size
        canvas.saveState()
        canvas.setFont(FONT, size)
        canvas.setFillColor(FAINT)
        numbering = _("page %(page)s of %(pages)s") % {"page": page, "pages": pages}
        canvas.drawRightString(width - self.margin, y, numbering)
        room = width - 2 * self.margin - canvas.stringWidth(numbering, FONT, size) - 12
        canvas.drawString(self.margin, y, self._fit(f"Scorekeeper · {self.title()}", room, size))
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


class SparseTable(Table):
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
        table = SparseTable(
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
