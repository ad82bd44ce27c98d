"""A season's standings: the table and the head-to-head matrix as plain frozen values
built from the season page's read model (``standings_sheet``), in the columns every
table of the standings has (``engine.league.StandingsColumn``), and their PDF: the full
standings on turned A4 pages (``render_standings``), or the sheet for the club's
noticeboard, upright A4 in type of 10 points or more, read from a step away
(``render_noticeboard``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table

from scorekeeper import engine
from scorekeeper.engine import league
from scorekeeper.engine.league import COLUMNS, LINE_COLUMNS, STATS_COLUMNS, StandingsColumn
from scorekeeper.formats import figure_text, number_text
from scorekeeper.vocabulary import STANDINGS_COLUMNS, pending_text

from .common import BOLD, CELL_PAD, CLOSED, FAINT, FONT, INK, RULE, SHADE, Command, Renderer, text


@dataclass(frozen=True)
class StandingsLine:
    """One player's line of the printed standings: his figures in the sheet's columns,
    as the columns read them (None: nothing to show, printed "–")."""

    rank: int | None  # None: fewer counted games than the season asks (printed "–")
    player: str
    figures: tuple[league.Figure, ...]
    pending: int = 0  # his pending games (printed beside his name)

    @property
    def name(self) -> str:
        """The player as his cell prints him: "Ben (1 pending)" while games are pending."""
        return pending_text(self.player, self.pending) if self.pending else self.player


@dataclass(frozen=True)
class Meeting:
    """One cell of the head-to-head: the row's player against the column's."""

    won: int
    lost: int
    net_points: int  # the settlement points between them, to the row's player

    @property
    def score(self) -> str:
        return f"{self.won}–{self.lost}"


@dataclass(frozen=True)
class StandingsSheet:
    title: str
    subtitle: str | None  # the season's dates and points formula, as the caller words it
    printed_on: date | None
    columns: tuple[StandingsColumn, ...]  # left to right
    headings: tuple[str, ...]  # the columns in words
    lines: tuple[StandingsLine, ...]  # in the standings' order
    matrix: tuple[tuple[Meeting | None, ...], ...]  # players × players; None: never met
    note: str | None = None  # why some players have no rank
    # What "pending" means, where a line has pending games (None: none has;
    # the sheet then prints as it did before the players confirmed their games).
    pending_note: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """The head-to-head's rows and columns: the players in the standings' order."""
        return tuple(line.player for line in self.lines)


# The full standings' columns, left to right: a player's line, then his hands.
STANDINGS_LINE = LINE_COLUMNS


STANDINGS_STATS = STATS_COLUMNS


# The noticeboard's columns: what decides the rank, and the games behind it.
NOTICEBOARD_LINE = tuple(
    COLUMNS[key]
    for key in ("rank", "player", "games", "won", "lost", "league_points", "net_points")
)


class PlayerRow(Protocol):
    """A player's row of the season's table: his line, his hands (None: none known) and
    his pending games."""

    @property
    def line(self) -> league.Line: ...
    @property
    def stats(self) -> engine.HandStats | None: ...
    @property
    def pending(self) -> int: ...


class SeasonStandings(Protocol):
    """What the printed standings read of the season page's read model
    (``league.selectors.SeasonTable``): the rows of the players with a counted game,
    ranked among themselves, and the head-to-head."""

    @property
    def played_rows(self) -> Sequence[PlayerRow]: ...
    @property
    def head_to_head(self) -> Mapping[str, Mapping[str, engine.HeadToHead]]: ...


def standings_sheet(
    table: SeasonStandings,
    *,
    title: str,
    subtitle: str | None,
    printed_on: date | None = None,
    columns: tuple[StandingsColumn, ...] = STANDINGS_LINE + STANDINGS_STATS,
    pending_note: str | None = None,
) -> StandingsSheet:
    """The standings of a season to print: a line per player in the standings' order, in
    ``columns`` ("player" among them; by default the full standings with the hands), and
    the head-to-head. A player with pending games is marked ("Ben (1 pending)"), and
    ``pending_note`` says under the table what that means; with none pending, neither is
    printed.

    >>> from decimal import Decimal
    >>> from types import SimpleNamespace as Row
    >>> game = engine.GameResult(1, ("Anna",), ("Ben",), False, (("Anna",), ("Ben",)), (1, 2),
    ...                          (engine.Payment("Ben", "Anna", 175, Decimal("8.75")),))
    >>> standings = engine.standings([game], [])
    >>> rows = [Row(line=line, stats=None, pending=0) for line in standings.lines]
    >>> table = Row(played_rows=rows, head_to_head=standings.head_to_head)
    >>> sheet = standings_sheet(table, title="Autumn", subtitle=None, columns=NOTICEBOARD_LINE)
    >>> [line.figures for line in sheet.lines]
    [(1, 'Anna', 1, 1, 0, 2, 175), (2, 'Ben', 1, 0, 1, 0, -175)]
    >>> rows[1].pending = 1  # Ben has not confirmed the game yet
    >>> [line.name for line in standings_sheet(table, title="Autumn", subtitle=None).lines]
    ['Anna', 'Ben (1 pending)']
    >>> [[cell and (cell.score, cell.net_points) for cell in row] for row in sheet.matrix]
    [[None, ('1–0', 175)], [('0–1', -175), None]]
    """
    rows = table.played_rows
    players = [row.line.player for row in rows]
    meetings = table.head_to_head
    return StandingsSheet(
        title=title,
        subtitle=subtitle,
        printed_on=printed_on,
        columns=columns,
        headings=tuple(str(STANDINGS_COLUMNS[column.key]) for column in columns),
        lines=tuple(
            StandingsLine(
                row.line.rank,
                row.line.player,
                tuple(column.read(row.line, row.stats) for column in columns),
                row.pending,
            )
            for row in rows
        ),
        matrix=tuple(
            tuple(_meeting(meetings.get(one, {}).get(other)) for other in players)
            for one in players
        ),
        note=(
            _("Players with fewer counted games are listed unranked.")
            if any(row.line.rank is None for row in rows)
            else None
        ),
        pending_note=pending_note if any(row.pending for row in rows) else None,
    )


def _meeting(met: engine.HeadToHead | None) -> Meeting | None:
    return None if met is None else Meeting(met.won, met.lost, met.net_points)


class StandingsRenderer(Renderer):
    """A season's standings on turned A4 pages: a line per player (the heading repeated
    on every page), then the head-to-head of every two players, on a page of its own
    when there are more than a few, and in slices of columns when there are many, so
    that a cell never gets too narrow to read."""

    document: StandingsSheet
    pagesize = landscape(A4)
    RANK = 22.0
    NUMBER = 30.0  # a figure column's narrowest
    NAMES = (90.0, 150.0, 220.0)  # the player column: narrowest, comfortable, widest
    MATRIX_NAME = 150.0  # the head-to-head's player column
    MATRIX_CELL = 64.0  # a head-to-head cell's widest
    MATRIX_COLUMNS = 12  # the most players across one slice of the head-to-head
    MATRIX_PAGE = 4  # more players than this: the head-to-head starts a new page
    head_size = 7.5  # the standings' column headings
    head_leading = 9.0
    row_leading = 9.6

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
        story += self.notes()
        story += self.head_to_head()
        return story

    def notes(self) -> list[Flowable]:
        """Under the table: why some players have no rank, what "pending" means."""
        sheet = self.document
        return [self.para(text(note), "note") for note in (sheet.note, sheet.pending_note) if note]

    # The standings

    def cell(self, column: StandingsColumn, value: league.Figure) -> str:
        """A figure as printed: as its column writes it, "–" where there is none. A figure
        with decimals (the rating) keeps the decimal point in every language, as the
        printed standings always had it."""
        return figure_text(column, value, localize=column.places is None) or "–"

    def standings_widths(self) -> list[float]:
        """Each figure column as wide as its widest value and its heading on one line;
        where that leaves the player column less than NAMES' comfortable width, the
        headings take two lines (or their longest word). The player column takes what
        is left, within NAMES; where even its narrowest does not fit, the figure columns
        give way, so that the table never leaves the page."""
        sheet = self.document
        full, compact = [], []
        for c, (column, heading) in enumerate(zip(sheet.columns, sheet.headings, strict=True)):
            if column.key == "player":
                full.append(0.0)
                compact.append(0.0)
                continue
            values = [self.cell(column, line.figures[c]) for line in sheet.lines]
            widest = max(
                [pdfmetrics.stringWidth(value, BOLD, self.font_size) for value in values],
                default=0.0,
            )
            label = pdfmetrics.stringWidth(heading, BOLD, self.head_size)
            word = max(
                (pdfmetrics.stringWidth(w, BOLD, self.head_size) for w in heading.split()),
                default=0.0,
            )
            floor = self.RANK if column.key == "rank" else self.NUMBER
            full.append(max(floor, widest, label) + 2 * CELL_PAD + 1)
            compact.append(max(floor, widest, word, label / 2) + 2 * CELL_PAD + 1)
        low, comfortable, high = self.NAMES
        widths = full if self.width - sum(full) >= comfortable else compact
        figures = sum(widths)
        if self.width - figures < low:
            widths = [width * (self.width - low) / figures for width in widths]
        widths[self.player_column] = min(high, self.width - sum(widths))
        return widths

    @property
    def player_column(self) -> int:
        return next(c for c, column in enumerate(self.document.columns) if column.key == "player")

    def heading(self, label: str, width: float, right: bool) -> str | Paragraph:
        """A column heading: a plain string where it fits, else a wrapping Paragraph
        (which breaks a word too long for the column rather than overflow it)."""
        if pdfmetrics.stringWidth(label, BOLD, self.head_size) <= width - 2 * CELL_PAD:
            return label
        return Paragraph(text(label), self.style["head-right" if right else "head"])

    def standings_table(self) -> Table:
        sheet = self.document
        widths = self.standings_widths()
        player = self.player_column
        rows: list[list[Any]] = [
            [
                self.heading(label, width, right=c != player)
                for c, (label, width) in enumerate(zip(sheet.headings, widths, strict=True))
            ]
        ]
        for line in sheet.lines:
            rows.append(
                [
                    self.name_cell(line.name, widths[c])
                    if c == player
                    else self.cell(column, value)
                    for c, (column, value) in enumerate(
                        zip(sheet.columns, line.figures, strict=True)
                    )
                ]
            )
        style: list[Command] = [
            ("FONT", (0, 0), (-1, -1), FONT, self.font_size, self.row_leading),
            ("FONT", (0, 0), (-1, 0), BOLD, self.head_size, self.head_leading),
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
            ]
            style += [
                ("FONT", (c, 1), (c, -1), BOLD, self.font_size, self.row_leading)
                for c, column in enumerate(sheet.columns)
                if column.strong
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


class NoticeboardRenderer(StandingsRenderer):
    """The standings for the club's noticeboard: upright A4, every word in 10 points or
    more (the title larger), the table alone, its heading repeated on every page. The
    head-to-head, which needs a column per player, stays in the full standings."""

    pagesize = A4
    font_size = 10.0
    footer_size = 10.0
    head_size = 10.0
    head_leading = 12.0
    row_leading = 13.0
    RANK = 28.0
    NUMBER = 36.0
    NAMES = (110.0, 170.0, 240.0)

    def styles(self) -> dict[str, ParagraphStyle]:
        base = ParagraphStyle("body", fontName=FONT, fontSize=10, leading=13, textColor=INK)
        head = ParagraphStyle("head", base, fontName=BOLD, leading=self.head_leading)
        return {
            "body": base,
            "title": ParagraphStyle("title", base, fontName=BOLD, fontSize=20, leading=24),
            "meta": ParagraphStyle("meta", base, textColor=FAINT, spaceBefore=3),
            "note": ParagraphStyle("note", base, spaceBefore=4),
            "cell": ParagraphStyle("cell", base, leading=self.row_leading),
            "head": head,
            "head-right": ParagraphStyle("head-right", head, alignment=TA_RIGHT),
        }

    def story(self) -> list[Flowable]:
        sheet = self.document
        story: list[Flowable] = [self.para(text(sheet.title), "title")]
        facts = [sheet.subtitle] if sheet.subtitle else []
        if sheet.printed_on:
            day = date_format(sheet.printed_on, "DATE_FORMAT")
            facts.append(_("printed %(date)s") % {"date": day})
        if facts:
            story.append(self.para(" · ".join(text(fact) for fact in facts), "meta"))
        story += [Spacer(0, 8), self.standings_table()]
        story += self.notes()
        return story


def render_standings(sheet: StandingsSheet) -> bytes:
    return StandingsRenderer(sheet).render()


def render_noticeboard(sheet: StandingsSheet) -> bytes:
    """The sheet for the noticeboard (give it NOTICEBOARD_LINE's columns)."""
    return NoticeboardRenderer(sheet).render()
