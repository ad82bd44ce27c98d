"""A partie's score sheet: what it shows, as plain frozen values built from a partie the
engine has scored (``printed_sheet``: the partie page's read model, or a game record
replayed by ``score_sheet``), and its PDF (``render_score_sheet``).

>>> from scorekeeper.engine.record import parse_record
>>> record = parse_record({"kind": "two_player", "players": ["Anna", "Ben"], "stake": "0.05",
...     "hands": [{"knocker": "Anna", "gin": True, "defender_deadwood": 70},
...               {"knocker": "Anna", "knocker_deadwood": 3, "defender_deadwood": 20}]})
>>> sheet = score_sheet(record)
>>> [(row.number, row.plays[0].result, row.cells) for row in sheet.parts[0].rows]
[(1, 'Gin', (Cell(gain=90, total=90), Cell(gain=None, total=0))), \
(2, 'Knock', (Cell(gain=17, total=107), Cell(gain=None, total=0)))]
>>> [(line.label, line.values) for line in sheet.parts[0].ending][-3:]
[('Total', (347, 0)), ('Net', (347, -347)), ('Money', (Decimal('17.35'), Decimal('-17.35')))]
>>> sheet.transfers
(Transfer(payer='Ben', payee='Anna', amount=Decimal('17.35')),)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table

from scorekeeper import engine
from scorekeeper.engine import Cell
from scorekeeper.engine.record import Record, replay
from scorekeeper.engine.settlement import Transfer, balances, settle_up
from scorekeeper.formats import number_text
from scorekeeper.vocabulary import (
    WHO_HEADINGS,
    box_note,
    column_name,
    foot_label,
    game_name,
    kind_name,
    outcome_name,
)

from .common import (
    BOLD,
    BOTTOM_PAD,
    CELL_PAD,
    CLOSED,
    FAINT,
    FONT,
    INK,
    RED,
    RED_SUITS,
    ROW_HEIGHT,
    RULE,
    SHADE,
    TOP_PAD,
    Balance,
    Command,
    PagedTable,
    Renderer,
    RulesText,
    rules_text,
    text,
)


@dataclass(frozen=True)
class PrintedPlay:
    """What happened at one table in one hand."""

    dealer: str
    knocker: str | None  # None for a no game
    result: str  # in words: Knock, Undercut, Gin, Big gin, No game, Void
    knocker_deadwood: int | None
    defender_deadwood: int | None
    points: int  # what the hand scored, to its winner
    winner: str | None
    upcard: str | None = None  # Oklahoma: the card with its suit symbol, "K♠"


@dataclass(frozen=True)
class Seats:
    """Chouette and three-player rotation: who played a hand in which role."""

    box: str
    captain: str
    out: tuple[str, ...]


@dataclass(frozen=True)
class PrintedRow:
    """One hand, or one partnership round (two plays: table 1, table 2)."""

    number: int
    plays: tuple[PrintedPlay, ...]
    cells: tuple[Cell, ...]  # one per column, across the groups
    seats: Seats | None = None
    closes: tuple[int, ...] = ()  # Hollywood: the games (1-based) this hand closed


@dataclass(frozen=True)
class Group:
    """Columns scored as one game: a Hollywood game, or the one game of the part."""

    label: str | None
    columns: tuple[str, ...]
    closed: bool
    winner: str | None  # the winning column's label
    net: int  # the engine's net: the winner's final minus the loser's (0 while running)
    shutout: bool


@dataclass(frozen=True)
class EndLine:
    """A line under the hands, one value per column; None: nothing to write there."""

    label: str
    values: tuple[int | Decimal | None, ...]
    strong: bool = False  # the total
    signed: bool = False  # won (+) or paid (−): the net and the money


@dataclass(frozen=True)
class PrintedPart:
    """One table of hands: the whole sheet, or one game of a match or chouette."""

    title: str | None
    note: str | None
    groups: tuple[Group, ...]
    rows: tuple[PrintedRow, ...]
    ending: tuple[EndLine, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(column for group in self.groups for column in group.columns)


@dataclass(frozen=True)
class PaymentLine:
    """Who pays whom for one game: points and money."""

    game: str | None
    payer: str
    payee: str
    points: int
    amount: Decimal


@dataclass(frozen=True)
class ScoreSheet:
    title: str
    kind: str
    kind_label: str
    played_on: date | None
    players: tuple[str, ...]
    rules: RulesText
    stake: Decimal
    stakes: tuple[tuple[str, Decimal], ...]  # chouette: a member's own stake
    upcards: bool  # Oklahoma: every hand shows its upcard
    who: tuple[engine.Who, ...]  # what a hand line says of who played it (the engine's)
    lines_per_row: int  # a partnership round: a line per table
    parts: tuple[PrintedPart, ...]
    payments: tuple[PaymentLine, ...]
    balances: tuple[Balance, ...]
    transfers: tuple[Transfer, ...]  # the fewest transfers that settle the balances
    notes: tuple[str, ...] = ()

    @property
    def for_money(self) -> bool:
        return bool(self.stake) or any(stake for _, stake in self.stakes)


class ScoredTable(Protocol):
    """One table of a scored partie: a part of the engine's sheet and the lines under it."""

    @property
    def part(self) -> engine.Part: ...
    @property
    def foot(self) -> Sequence[engine.FootLine]: ...


class Scored(Protocol):
    """What a score sheet reads of a partie the engine has scored, from one replay of its
    hands: the partie page's read model (``table.selectors.Sheet``), or a game record
    replayed (``Replayed``). ``stakes`` are the members' own, where a chouette plays them."""

    @property
    def session(self) -> engine.Session: ...
    @property
    def tables(self) -> Sequence[ScoredTable]: ...
    @property
    def stake(self) -> Decimal: ...
    @property
    def stakes(self) -> Mapping[str, Decimal]: ...


@dataclass(frozen=True)
class ReplayedTable:
    part: engine.Part
    foot: tuple[engine.FootLine, ...]


@dataclass(frozen=True)
class Replayed:
    """A game record replayed by the engine, without a database: a ``Scored``."""

    session: engine.Session
    tables: tuple[ReplayedTable, ...]
    stake: Decimal
    stakes: Mapping[str, Decimal]


def replayed(record: Record) -> Replayed:
    """The record's hands replayed, its tables and their lines; RecordError for a bad one."""
    session = replay(record)
    for_money = bool(record.stake) or any(record.stakes.values())
    unit = record.rules.money_unit
    tables = tuple(
        ReplayedTable(part, engine.foot_lines(part.games, for_money, unit))
        for part in session.parts(record.stake, record.stakes)
    )
    return Replayed(session, tables, record.stake, record.stakes)


def score_sheet(
    record: Record, *, title: str | None = None, played_on: date | None = None
) -> ScoreSheet:
    """The score sheet of a game record of any kind; RecordError for a bad record."""
    return printed_sheet(replayed(record), title=title, played_on=played_on)


def printed_sheet(
    scored: Scored, *, title: str | None = None, played_on: date | None = None
) -> ScoreSheet:
    """The sheet in words, from the engine's description of the replayed session (the
    title: the players' columns, unless given)."""
    session = scored.session
    players, rules, stakes = session.players, session.rules, scored.stakes
    games = [game for table in scored.tables for game in table.part.games]
    payments = [payment for game in games for payment in game.payments]
    owed = balances(players, payments, rules.money_unit)
    return ScoreSheet(
        title=title if title is not None else " – ".join(session.heading),
        kind=session.kind,
        kind_label=kind_name(session.kind),
        played_on=played_on,
        players=players,
        rules=rules_text(rules, session.kind),
        stake=scored.stake,
        stakes=tuple((name, stakes[name]) for name in players if name in stakes),
        upcards=rules.is_oklahoma,
        who=session.who_columns(),
        lines_per_row=session.hands_per_entry,
        parts=tuple(sheet_part(table, rules) for table in scored.tables),
        payments=tuple(
            PaymentLine(_game_label(session, game), p.payer, p.payee, p.points, p.amount)
            for game in games
            for p in game.payments
        ),
        balances=tuple(Balance(name, *owed[name]) for name in players),
        transfers=tuple(settle_up({name: amount for name, (_, amount) in owed.items()})),
        notes=_notes(session, games),
    )


def _game_label(session: engine.Session, game: engine.GameSheet) -> str | None:
    return game_name(game.number) if session.numbered else None


def sheet_part(table: ScoredTable, rules: engine.Ruleset) -> PrintedPart:
    """One table of the sheet in words: its title, note, column groups, rows and ending."""
    part = table.part
    title = game_name(part.games[0].number) if part.titled else None
    return PrintedPart(
        title,
        box_note(part),
        tuple(_group(game, part.labelled) for game in part.games),
        tuple(
            PrintedRow(
                row.number,
                tuple(_play(play) for play in row.plays),
                row.cells,
                seats=_seats(row.roles) if row.roles else None,
                closes=row.closes,
            )
            for row in part.rows
        ),
        tuple(
            EndLine(
                foot_label(line.item, rules),
                line.values,
                strong=line.item == engine.Foot.TOTAL,
                signed=line.item in (engine.Foot.NET, engine.Foot.MONEY),
            )
            for line in table.foot
        ),
    )


def _group(game: engine.GameSheet, labelled: bool) -> Group:
    tally = game.tally
    winner = next((c for c in game.columns if c.key == tally.winner), None)
    return Group(
        game_name(game.number) if labelled else None,
        tuple(column_name(column) for column in game.columns),
        tally.closed,
        column_name(winner) if winner else None,
        tally.net,
        tally.shutout,
    )


def _play(line: engine.Play) -> PrintedPlay:
    """A hand line of any kind (a partnership's table line too) as the sheet shows it."""
    hand, score = line.hand, line.score
    scored = hand.kind != engine.HandKind.NO_GAME
    return PrintedPlay(
        dealer=line.dealer,
        knocker=line.knocker,
        result=outcome_name(score.outcome),
        knocker_deadwood=hand.knocker_deadwood if scored else None,
        defender_deadwood=hand.defender_deadwood if scored else None,
        points=score.points,
        winner=line.winner,
        upcard=card_text(hand.upcard) if hand.upcard is not None else None,
    )


def card_text(card: engine.Card) -> str:
    """A card as players write it: ``10♦``, ``K♠``, ``A♥``."""
    text = str(card)
    return "10" + text[1:] if text.startswith("T") else text


def _seats(roles: engine.Roles) -> Seats:
    return Seats(roles.box, roles.captain, tuple(roles.out))


def _notes(session: engine.Session, games: Sequence[engine.GameSheet]) -> tuple[str, ...]:
    notes = []
    standing = session.standing()
    if standing is not None:
        score = ", ".join(f"{name} {count}" for name, count in standing.games_won.items())
        notes.append(
            _("Best of %(best_of)s: %(standing)s.")
            % {"best_of": standing.best_of, "standing": score}
        )
        if standing.winner is not None:
            notes.append(_("%(winner)s wins the match.") % {"winner": standing.winner})
    if any(not game.tally.closed for game in games):
        notes.append(_("A game still running has no end bonuses yet."))
    return tuple(notes)


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

    def __init__(self, renderer: ScoreSheetRenderer, part: PrintedPart):
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
    def who_played(who: engine.Who, table: int, row: PrintedRow, play: PrintedPlay) -> str:
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

    def hand_rows(self, row: PrintedRow) -> list[list[Any]]:
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


def render_score_sheet(sheet: ScoreSheet) -> bytes:
    return ScoreSheetRenderer(sheet).render()
