"""A tournament on paper: the bracket (``bracket_sheet``, ``render_bracket``) and the
final placings (``placings_sheet``, ``render_placings``), as plain frozen values built
from the tournament page's read model (``tournaments.selectors.TournamentView``), which
this module knows only by the Protocol ``TournamentRead``. Without a database
(``manage.py tournament FILE --format pdf``) the engine's state stands in for it
(``document_tournament``).

The bracket is printed on turned A4, one part of the tournament after the other: the
(winners') bracket, the losers' bracket, the finals, the consolation bracket, a round
robin's or a Swiss's rounds (their pairings, eight rounds across at most), the top cut,
and the Swiss table with its tie-breaks. A bracket's rounds are its columns, each match
a box at its place in the bracket of the next power of two, so that a match sits
between the two it follows from; a part as tall as a 64-player bracket's first round
(32 matches) fills its page in smaller type rather than leave it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, Spacer, Table

from scorekeeper.engine import tournaments as engine_tournaments
from scorekeeper.vocabulary import round_title

from .common import BOLD, CELL_PAD, FAINT, FONT, INK, RULE, SHADE, Command, Renderer, text

# What the sheets read of the tournament page's read model


class MatchRead(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def players(self) -> tuple[str | None, ...]: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def bye(self) -> bool: ...
    @property
    def forfeit(self) -> bool: ...


class RoundRead(Protocol):
    @property
    def stage(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def matches(self) -> Sequence[MatchRead]: ...
    @property
    def name(self) -> engine_tournaments.RoundName: ...


class PlaceRead(Protocol):
    @property
    def place(self) -> int: ...
    @property
    def players(self) -> tuple[str, ...]: ...


class SwissRead(Protocol):
    @property
    def place(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def buchholz(self) -> int: ...
    @property
    def byes(self) -> int: ...


class TournamentRead(Protocol):
    """The read model of a started tournament: its rounds (a page's columns, in the
    order of the stages), the champion and standings once it is over, the Swiss table,
    the players withdrawn."""

    @property
    def system(self) -> str: ...
    @property
    def rounds(self) -> Sequence[RoundRead]: ...
    @property
    def champion(self) -> str | None: ...
    @property
    def standings(self) -> Sequence[PlaceRead]: ...
    @property
    def swiss_table(self) -> Sequence[SwissRead]: ...
    @property
    def withdrawn(self) -> Collection[str]: ...


# The printed values


@dataclass(frozen=True)
class Box:
    """A match as the bracket prints it; ``slot``: its place down its column, from 1."""

    id: str
    players: tuple[str | None, ...]
    winner: str | None
    bye: bool
    forfeit: bool
    slot: int


@dataclass(frozen=True)
class RoundColumn:
    """A round: its heading, how many places its column has (a bracket's round: its
    matches, counting those two byes left out) and its matches. ``joined``: its
    players are the previous column's winners (a line is drawn from each match)."""

    title: str
    slots: int
    boxes: tuple[Box, ...]
    joined: bool = False


@dataclass(frozen=True)
class BracketBlock:
    """A part of the bracket, printed as a block of columns."""

    title: str
    columns: tuple[RoundColumn, ...]


@dataclass(frozen=True)
class BracketSheet:
    title: str
    subtitle: str | None  # the date and the system, as the caller words them
    champion: str | None
    sections: tuple[BracketBlock, ...]
    swiss: tuple[SwissRead, ...]  # the Swiss table (Swiss only), as the read model has it
    withdrawn: frozenset[str] = frozenset()  # marked so in the Swiss table


@dataclass(frozen=True)
class PlacingLine:
    """A player's line of the final placings: his place (shared where the system does
    not separate players) and his record: matches won and lost, byes apart; whether he
    withdrew."""

    place: int
    player: str
    won: int
    lost: int
    byes: int
    withdrawn: bool = False


@dataclass(frozen=True)
class PlacingsSheet:
    title: str
    subtitle: str | None
    champion: str | None
    lines: tuple[PlacingLine, ...]  # empty: the tournament is not over

    @property
    def has_byes(self) -> bool:
        return any(line.byes for line in self.lines)


# From the read model to the printed values

# The parts of a tournament in the order they print, each with the stages it holds: the
# finals to the right of the (winners') bracket.
PARTS = (
    ("winners", "grand_final", "grand_final_reset", "third_place"),
    ("losers",),
    ("consolation",),
    ("round_robin",),
    ("swiss",),
    ("top_cut",),
)
# The stages drawn as a bracket; each with how many rounds halve the field once more:
# every round of a knockout, every second round of the losers' bracket (an odd round
# pairs its own winners, an even round takes in the winners' bracket's losers).
HALVING = {
    "winners": lambda r: r - 1,
    "consolation": lambda r: r - 1,
    "top_cut": lambda r: r - 1,
    "losers": lambda r: (r - 1) // 2,
}
PAIRINGS = ("round_robin", "swiss")
ROUNDS_ACROSS = 8  # a round robin's or a Swiss's rounds side by side, at most


def bracket_sheet(view: TournamentRead, *, title: str, subtitle: str | None = None) -> BracketSheet:
    """The bracket to print: every round of every part of the tournament, each match
    at its place (in a bracket, the place of the next power of two: a match between
    the two it follows from).

    >>> state = engine_tournaments.tournament_state(engine_tournaments.TournamentPlan(
    ...     engine_tournaments.System.SINGLE_ELIMINATION, ("Anna", "Ben", "Carl")), [])
    >>> sheet = bracket_sheet(document_tournament(state), title="Cup")
    >>> [(c.title, c.slots, [(b.id, b.slot, b.players) for b in c.boxes])
    ...  for c in sheet.sections[0].columns]  # doctest: +NORMALIZE_WHITESPACE
    [('Semi-finals', 2, [('W1-1', 1, ('Anna',)), ('W1-2', 2, ('Ben', 'Carl'))]),
     ('Final', 1, [('W2-1', 1, ('Anna', None))])]
    """
    sections = []
    for stages in PARTS:
        rounds = [column for column in view.rounds if column.stage in stages]
        if not rounds:
            continue
        if stages[0] in PAIRINGS:
            for first in range(0, len(rounds), ROUNDS_ACROSS):
                chunk = rounds[first : first + ROUNDS_ACROSS]
                sections.append(BracketBlock(_part_title(stages[0], view.system), _listed(chunk)))
        else:
            sections.append(BracketBlock(_part_title(stages[0], view.system), _placed(rounds)))
    return BracketSheet(
        title=title,
        subtitle=subtitle,
        champion=view.champion,
        sections=tuple(sections),
        swiss=tuple(view.swiss_table),
        withdrawn=frozenset(view.withdrawn),
    )


def _part_title(stage: str, system: str) -> str:
    if stage == "winners":
        return _("Winners' bracket") if system == "double_elimination" else _("Bracket")
    return {
        "losers": _("Losers' bracket"),
        "consolation": _("Consolation bracket"),
        "round_robin": _("Round robin: the pairings"),
        "swiss": _("Swiss rounds: the pairings"),
        "top_cut": _("Top cut"),
    }[stage]


def _box(match: MatchRead, slot: int) -> Box:
    return Box(match.id, tuple(match.players), match.winner, match.bye, match.forfeit, slot)


def _placed(rounds: Sequence[RoundRead]) -> tuple[RoundColumn, ...]:
    """A bracket's columns: match n of a round (its id's number, counted from the top of
    the full bracket) at place n of as many places as the round has in the full
    bracket, known from its last round, which has one. Then the finals, one place each:
    the grand final and its reset follow from the bracket, the third place does not."""
    stage = rounds[0].stage
    halving = HALVING[stage]
    bracket = [column for column in rounds if column.stage == stage]
    deepest = halving(bracket[-1].round)
    columns = []
    for n, column in enumerate(bracket):
        boxes = tuple(_box(m, _number(m.id)) for m in column.matches)
        slots = max([1 << (deepest - halving(column.round)), *(b.slot for b in boxes)])
        columns.append(RoundColumn(round_title(column.name), slots, boxes, n > 0))
    columns += [
        RoundColumn(
            round_title(c.name),
            1,
            tuple(_box(m, 1) for m in c.matches),
            c.stage != "third_place",
        )
        for c in rounds
        if c.stage != stage
    ]
    return tuple(columns)


def _number(match_id: str) -> int:
    """A bracket match's number in its round: ``W3-2`` is 2."""
    return int(match_id.rsplit("-", 1)[1])


def _listed(rounds: Sequence[RoundRead]) -> tuple[RoundColumn, ...]:
    """A round's pairings, table after table, every column as tall as the fullest."""
    tallest = max(len(column.matches) for column in rounds)
    return tuple(
        RoundColumn(
            round_title(column.name),
            tallest,
            tuple(_box(m, n) for n, m in enumerate(column.matches, start=1)),
        )
        for column in rounds
    )


def placings_sheet(
    view: TournamentRead, *, title: str, subtitle: str | None = None
) -> PlacingsSheet:
    """The final placings: each player at his place, with the matches he won and lost
    and his byes, counted from the rounds of the read model (empty until it is over)."""
    won: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for column in view.rounds:
        for match in column.matches:
            if match.winner is None:
                continue
            if match.bye:
                byes[match.winner] += 1
                continue
            won[match.winner] += 1
            lost.update(p for p in match.players if p is not None and p != match.winner)
    out = frozenset(view.withdrawn)
    lines = tuple(
        PlacingLine(place.place, player, won[player], lost[player], byes[player], player in out)
        for place in view.standings
        for player in place.players
    )
    return PlacingsSheet(title, subtitle, view.champion, lines)


# The engine's state as a read model (the command prints a document without a database)


@dataclass(frozen=True)
class DocumentMatch:
    id: str
    players: tuple[str | None, ...]
    winner: str | None
    bye: bool
    forfeit: bool = False  # a document's results are winners; none is a withdrawal


@dataclass(frozen=True)
class DocumentRound:
    stage: str
    round: int
    matches: tuple[DocumentMatch, ...]
    name: engine_tournaments.RoundName


@dataclass(frozen=True)
class DocumentTournament:
    system: str
    rounds: tuple[DocumentRound, ...]
    champion: str | None
    standings: tuple[engine_tournaments.Place, ...]
    swiss_table: tuple[engine_tournaments.SwissLine, ...]
    withdrawn: frozenset[str] = frozenset()


def document_tournament(state: engine_tournaments.State) -> DocumentTournament:
    """A tournament document's state as the read model the sheets print from."""
    return DocumentTournament(
        system=state.tournament.system.value,
        rounds=tuple(
            DocumentRound(
                stage.value,
                number,
                tuple(DocumentMatch(m.id, m.players, m.winner, m.bye) for m in matches),
                state.round_name(stage, number),
            )
            for stage in state.stages()
            for number, matches in state.rounds(stage)
        ),
        champion=state.champion,
        standings=state.standings,
        swiss_table=state.swiss_table,
        withdrawn=frozenset(state.withdrawn),
    )


def withdrawn_name(name: str) -> str:
    """A withdrawn player's name as the sheets print it in a table."""
    return _("%(name)s (withdrawn)") % {"name": name}


# The renderers


def _head(renderer: Renderer, sheet: BracketSheet | PlacingsSheet) -> list[Flowable]:
    """The sheet's title and, under it, its subtitle and champion on one line."""
    head: list[Flowable] = [renderer.para(text(sheet.title), "title")]
    facts = _facts(sheet.subtitle, sheet.champion)
    if facts:
        head.append(renderer.para(" · ".join(text(fact) for fact in facts), "meta"))
    return head


def _facts(subtitle: str | None, champion: str | None) -> list[str]:
    facts = [subtitle] if subtitle else []
    if champion:
        facts.append(_("Champion: %(name)s") % {"name": champion})
    return facts


class BracketRenderer(Renderer):
    """The bracket on turned A4 pages: the title, then each part as a block of columns
    that takes the height of the page it starts on (or the next), then the Swiss table."""

    document: BracketSheet
    pagesize = landscape(A4)

    def subject(self) -> str:
        return _("Bracket")

    def story(self) -> list[Flowable]:
        sheet = self.document
        story = _head(self, sheet)
        story.append(Spacer(0, 6))
        story += [BracketDrawing(self, section) for section in sheet.sections]
        if sheet.swiss:
            story += [self.para(text(_("Swiss table")), "h2"), self.swiss_table()]
            story.append(
                self.para(
                    text(
                        _(
                            "Ties are broken by Buchholz, then by the result between them, "
                            "then by the seed."
                        )
                    ),
                    "note",
                )
            )
        return story

    @property
    def frame_height(self) -> float:
        return self.pagesize[1] - 2 * self.margin - 12

    def swiss_table(self) -> Table:
        headings = [_("Place"), _("Player"), _("Points"), _("Buchholz"), _("Byes")]
        widths = [40.0, 220.0, 60.0, 70.0, 50.0]
        rows: list[list[Any]] = [
            [self.head_cell(h, w) for h, w in zip(headings, widths, strict=True)]
        ]
        out = self.document.withdrawn
        rows += [
            [str(s.place),
             self.name_cell(withdrawn_name(s.player) if s.player in out else s.player, widths[1]),
             str(s.score), str(s.buchholz), str(s.byes)]
            for s in self.document.swiss
        ]  # fmt: skip
        return Table(rows, colWidths=widths, style=_table_style(), repeatRows=1, hAlign="LEFT")


def _table_style() -> list[Command]:
    return [
        ("FONT", (0, 0), (-1, -1), FONT, 8, 9.6),
        ("FONT", (0, 0), (-1, 0), BOLD, 7.5, 9),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
        ("ALIGN", (1, 0), (1, -1), "LEFT"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
    ]


class BracketDrawing(Flowable):
    """A part of the bracket: its title, its columns' headings, and each match as a box
    of two lines at its place down its column, the winner in bold with a tick; in a
    bracket, a line from each match to the one its winner plays next.

    It is as tall as its fullest column wants (PITCH a place), or the height it is
    given if that is less, down to MIN_PITCH a place; the type shrinks with it."""

    PITCH = 34.0  # a place's height where there is room: two names in 8 points
    MIN_PITCH = 13.0  # the least: two names in 5.4 points
    HEAD = 26.0  # the part's title and the columns' headings
    WIDEST = 190.0  # a column's width at most
    GAP = 14.0  # between the columns: the lines from one round to the next

    def __init__(self, renderer: BracketRenderer, section: BracketBlock):
        super().__init__()
        self.renderer = renderer
        self.section = section
        self.places = max(column.slots for column in section.columns)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        wanted = self.HEAD + self.places * self.PITCH
        least = self.HEAD + self.places * self.MIN_PITCH
        self.width = available_width
        if available_height >= least:
            self.height = min(wanted, available_height)
        else:  # too little room here: the next page's (which is all the room there is)
            self.height = min(wanted, self.renderer.frame_height)
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        section = self.section
        count = len(section.columns)
        step = min(self.WIDEST, self.width / count)
        body = self.height - self.HEAD
        pitch = body / self.places
        box_height = min(pitch * 0.84, 27.0)
        size = min(8.0, (box_height - 2) / 2.4)
        canvas.saveState()
        canvas.setFillColor(INK)
        canvas.setFont(BOLD, 11)
        canvas.drawString(0, self.height - 11, section.title)
        for c, column in enumerate(section.columns):
            x = c * step
            canvas.setFont(BOLD, 7)
            canvas.setFillColor(INK)
            canvas.drawString(
                x, self.height - 23, self.renderer._fit(column.title, step - 6, 7, BOLD)
            )
            column_pitch = body / column.slots
            following = section.columns[c + 1] if c + 1 < count else None
            if following is not None and not following.joined:
                following = None
            for box in column.boxes:
                middle = body - (box.slot - 0.5) * column_pitch
                self.draw_box(box, x, middle, step - self.GAP, box_height, size, pitch)
                if following is not None:
                    self.draw_line(box, column, following, x + step - self.GAP, middle, body)
        canvas.restoreState()

    def draw_box(
        self, box: Box, x: float, middle: float, width: float, height: float, size: float,
        pitch: float,
    ) -> None:  # fmt: skip
        canvas = self.canv
        top = middle + height / 2
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.rect(x, middle - height / 2, width, height)
        canvas.setLineWidth(0.25)
        canvas.line(x, middle, x + width, middle)
        if pitch - height >= 7:  # room above the box for its id
            canvas.setFont(FONT, 5)
            canvas.setFillColor(FAINT)
            canvas.drawString(x, top + 1.2, box.id)
        seats: list[str | None] = list(box.players)
        if box.bye:
            seats = seats[:1]
        for n in range(2):
            baseline = (top if n == 0 else middle) - height / 4 - size * 0.35
            self.draw_seat(box, seats[n] if n < len(seats) else None, n, x, baseline, width, size)

    def draw_seat(
        self, box: Box, name: str | None, n: int, x: float, baseline: float, width: float,
        size: float,
    ) -> None:  # fmt: skip
        canvas = self.canv
        fit = self.renderer._fit
        room = width - 4
        if name is None:
            words = _("bye") if box.bye and n == 1 else _("to be decided")
            canvas.setFont(FONT, size)
            canvas.setFillColor(FAINT)
            canvas.drawString(x + 2, baseline, fit(words, room, size))
            return
        if name == box.winner:
            tick = "✓"
            canvas.setFont(BOLD, size)
            canvas.setFillColor(INK)
            room -= pdfmetrics.stringWidth(tick + " ", BOLD, size)
            canvas.drawString(x + 2, baseline, fit(name, room, size, BOLD))
            canvas.drawRightString(x + width - 2, baseline, tick)
            return
        if box.winner is not None:
            canvas.setFillColor(FAINT)
            if box.forfeit:
                name = _("%(name)s (forfeit)") % {"name": name}
        else:
            canvas.setFillColor(INK)
        canvas.setFont(FONT, size)
        canvas.drawString(x + 2, baseline, fit(name, room, size))

    def draw_line(
        self,
        box: Box,
        column: RoundColumn,
        following: RoundColumn,
        x: float,
        middle: float,
        body: float,
    ) -> None:
        """From a match to the one its winner plays next: the same place where the next
        round has as many, else the place of the pair it belongs to."""
        slot = box.slot if following.slots == column.slots else (box.slot + 1) // 2
        if all(b.slot != slot for b in following.boxes):
            return
        target = body - (slot - 0.5) * (body / following.slots)
        bend = x + self.GAP / 2
        path = self.canv.beginPath()
        path.moveTo(x, middle)
        path.lineTo(bend, middle)
        path.lineTo(bend, target)
        path.lineTo(x + self.GAP, target)
        self.canv.setStrokeColor(RULE)
        self.canv.setLineWidth(0.5)
        self.canv.drawPath(path, stroke=1, fill=0)


class PlacingsRenderer(Renderer):
    """The final placings on upright A4: a line per player, the heading on every page."""

    document: PlacingsSheet

    def subject(self) -> str:
        return _("Final placings")

    def story(self) -> list[Flowable]:
        sheet = self.document
        story = _head(self, sheet)
        story += [Spacer(0, 6), self.para(text(_("Final placings")), "h2")]
        if not sheet.lines:
            note = _(
                "The tournament is not over: its placings are printed once every match is played."
            )
            return [*story, self.para(text(note), "note")]
        return [*story, Spacer(0, 4), self.placings_table()]

    def placings_table(self) -> Table:
        sheet = self.document
        headings = [_("Place"), _("Player"), _("Won"), _("Lost")]
        widths = [40.0, 260.0, 50.0, 50.0]
        if sheet.has_byes:
            headings.append(_("Byes"))
            widths.append(50.0)
        rows: list[list[Any]] = [
            [self.head_cell(h, w) for h, w in zip(headings, widths, strict=True)]
        ]
        for line in sheet.lines:
            name = withdrawn_name(line.player) if line.withdrawn else line.player
            row = [str(line.place), self.name_cell(name, widths[1]), str(line.won),
                   str(line.lost)]  # fmt: skip
            if sheet.has_byes:
                row.append(str(line.byes))
            rows.append(row)
        return Table(rows, colWidths=widths, style=_table_style(), repeatRows=1, hAlign="LEFT")


def render_bracket(sheet: BracketSheet) -> bytes:
    return BracketRenderer(sheet).render()


def render_placings(sheet: PlacingsSheet) -> bytes:
    return PlacingsRenderer(sheet).render()


def subtitle_of(played_on: date | None, system: str) -> str:
    """The date and the system in words, as both sheets print under the title."""
    words = {
        "single_elimination": _("Single elimination"),
        "double_elimination": _("Double elimination"),
        "round_robin": _("Round robin"),
        "swiss": _("Swiss"),
    }[system]
    return f"{date_format(played_on, 'DATE_FORMAT')} · {words}" if played_on else words
