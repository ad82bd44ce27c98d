"""A blank score pad: the rules at the top, then games to fill in by pen; its layout as
plain values (``score_pad``) and its PDF (``render_pad``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import Flowable, Paragraph, Spacer, Table

from scorekeeper import engine
from scorekeeper.vocabulary import game_name, kind_name, rule_words

from .common import (
    BOLD,
    CELL_PAD,
    FAINT,
    FONT,
    INK,
    RULE,
    SHADE,
    Renderer,
    RulesText,
    rules_text,
    text,
)


@dataclass(frozen=True)
class PadGroup:
    """Columns of a blank game; an empty column label is a blank to write a name on."""

    label: str | None
    columns: tuple[str, ...]


@dataclass(frozen=True)
class ScorePad:
    """A blank score pad: the rules at the top, then games to fill in by pen."""

    kind: str
    kind_label: str
    title: str
    paper: str
    rules: RulesText
    hand_columns: tuple[str, ...]  # written on each hand line before the scores
    groups: tuple[PadGroup, ...]
    ending: tuple[str, ...]  # the lines under the hands: boxes, bonuses, total
    games_per_page: int
    lines_per_game: int


@dataclass(frozen=True)
class _PadLayout:
    """A kind's blank pad: games a page, what each hand line starts with, the games side
    by side and each one's column heads (empty: a name to write in)."""

    games_per_page: int
    hand_column: Promise
    games: int
    columns: tuple[Promise | str, ...]


PAD_LAYOUTS = {
    "two_player": _PadLayout(2, gettext_lazy("Dealer"), 1, ("", "")),
    "hollywood": _PadLayout(1, gettext_lazy("Dealer"), 3, ("", "")),
    "chouette": _PadLayout(
        2, gettext_lazy("Captain"), 1, (gettext_lazy("Box"), gettext_lazy("Team"))
    ),
}


PAD_KINDS = tuple(PAD_LAYOUTS)


# Paper sizes in points (1/72 inch), portrait.
PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}


# The pad's geometry, in points; the renderer draws with these very figures, so the
# lines counted here fill the page exactly.
PAD_MARGIN = 36.0


PAD_ROW = 16.0  # a hand line, tall enough to write on


PAD_NAME_ROW = 20.0  # the header line where the players' names are written


PAD_LABEL_ROW = 13.0  # a printed header line (Hollywood's game labels)


PAD_TITLE = 26.0  # the pad's title line


PAD_RULE_ROW = 11.0  # one line of the rules block, which has PAD_RULE_COLUMNS rules a line


PAD_RULE_COLUMNS = 3


PAD_GAME_TITLE = 18.0  # "Game ___  Date ________" above each game


PAD_GAP = 12.0  # space after the rules and after each game


PAD_FOOTER = 18.0


PAD_FEWEST_LINES = 5


class PadError(ValueError):
    """A pad that cannot be printed: an unknown kind or paper, too many games a page."""


def score_pad(
    kind: str,
    rules: engine.Ruleset,
    *,
    paper: str = "a4",
    games_per_page: int | None = None,
) -> ScorePad:
    """A blank pad for two players, Hollywood or chouette, with the rules at the top.

    >>> pad = score_pad("hollywood", engine.preset("hollywood"))
    >>> pad.games_per_page, pad.lines_per_game, [group.label for group in pad.groups]
    (1, 32, ['Game 1', 'Game 2', 'Game 3'])
    >>> score_pad("partnership", engine.preset("classic"))
    Traceback (most recent call last):
    ...
    scorekeeper.sheets.score_pad.PadError: no score pad for 'partnership': choose one of \
two_player, hollywood, chouette
    """
    if kind not in PAD_KINDS:
        raise PadError(f"no score pad for {kind!r}: choose one of {', '.join(PAD_KINDS)}")
    if paper not in PAPERS:
        raise PadError(f"unknown paper {paper!r}: choose one of {', '.join(PAPERS)}")
    layout = PAD_LAYOUTS[kind]
    per_page = layout.games_per_page if games_per_page is None else games_per_page
    if isinstance(per_page, bool) or not isinstance(per_page, int) or per_page < 1:
        raise PadError(f"games per page must be a whole number from 1, not {per_page!r}")
    text = rules_text(rules, kind)
    groups = _pad_groups(layout)
    ending = _pad_ending(rules)
    lines = pad_lines(paper, per_page, len(text.lines), bool(groups[0].label), len(ending))
    if lines < PAD_FEWEST_LINES:
        raise PadError(
            f"{per_page} games a page leave {max(lines, 0)} lines a game: "
            f"print fewer games a page (each needs {PAD_FEWEST_LINES} lines at least)"
        )
    hand_columns = ["#", str(layout.hand_column)]
    if rules.is_oklahoma:
        hand_columns.append(_("Upcard"))
    return ScorePad(
        kind=kind,
        kind_label=kind_name(kind),
        title=_("Gin rummy score pad: %(kind)s") % {"kind": kind_name(kind)},
        paper=paper,
        rules=text,
        hand_columns=tuple(hand_columns),
        groups=groups,
        ending=ending,
        games_per_page=per_page,
        lines_per_game=lines,
    )


def _pad_groups(layout: _PadLayout) -> tuple[PadGroup, ...]:
    columns = tuple(str(column) for column in layout.columns)
    if layout.games == 1:
        return (PadGroup(None, columns),)
    return tuple(PadGroup(game_name(n), columns) for n in range(1, layout.games + 1))


def _pad_ending(rules: engine.Ruleset) -> tuple[str, ...]:
    lines = [
        _("Boxes"),
        _("Box bonus (%(bonus)s each)") % {"bonus": rules.box_bonus},
        _("Game bonus (%(bonus)s)") % {"bonus": rules.game_bonus},
    ]
    if rules.shutout == engine.Shutout.BONUS:
        lines.append(_("Shutout (%(rule)s)") % {"rule": rules.shutout_bonus})
    elif rules.shutout != engine.Shutout.NONE:
        lines.append(_("Shutout (%(rule)s)") % {"rule": rule_words("shutout", rules.shutout)})
    lines.append(_("Total"))
    return tuple(lines)


def pad_rules_height(rules: int) -> float:
    """The height of the pad's title and rules block, with the gap after it: the
    preset's name, then the ``rules``, PAD_RULE_COLUMNS a line."""
    return PAD_TITLE + pad_rule_lines(rules) * PAD_RULE_ROW + PAD_GAP


def pad_rule_lines(rules: int) -> int:
    return math.ceil((1 + rules) / PAD_RULE_COLUMNS)


def pad_lines(paper: str, games: int, rules: int, labelled: bool, ending: int) -> int:
    """How many hand lines each of ``games`` blank games gets on a page of ``paper``."""
    height = PAPERS[paper][1] - 2 * PAD_MARGIN - PAD_FOOTER - pad_rules_height(rules)
    header = PAD_NAME_ROW + (PAD_LABEL_ROW if labelled else 0)
    per_game = height / games - PAD_GAME_TITLE - header - ending * PAD_ROW - PAD_GAP
    return math.floor(per_game / PAD_ROW)


class PadRenderer(Renderer):
    """A blank score pad: title and rules, then games of empty lines to fill by pen.

    The heights are the fixed figures of ``data`` (PAD_*), so the lines the pad
    counted fill the page and no game breaks over a page."""

    document: ScorePad
    font_size = 8.0

    def __init__(self, document: ScorePad):
        super().__init__(document)
        self.pagesize = PAPERS[document.paper]
        self.margin = PAD_MARGIN

    def subject(self) -> str:
        return self.document.kind_label

    def story(self) -> list[Flowable]:
        pad = self.document
        story: list[Flowable] = [self.title_block(), self.rules_block(), Spacer(0, PAD_GAP)]
        for _n in range(pad.games_per_page):
            story += [self.game_title(), self.game(), Spacer(0, PAD_GAP)]
        return story

    def title_block(self) -> Table:
        return Table(
            [[self.para(text(self.document.title), "title")]],
            colWidths=[self.width],
            rowHeights=[PAD_TITLE],
            style=[("LEFTPADDING", (0, 0), (-1, -1), 0), ("VALIGN", (0, 0), (-1, -1), "TOP")],
        )

    def rules_block(self) -> Table:
        pad = self.document
        per_line = PAD_RULE_COLUMNS
        items = [f"{text(_('Rules'))}: <b>{text(pad.rules.preset)}</b>"]
        items += [
            f"{text(line.label)}: <b>{text(line.value)}</b>{'*' if line.changed else ''}"
            for line in pad.rules.lines
        ]
        width = self.width / per_line
        cells = []
        for item in items:  # one line each: a long one (a long translation) gets smaller
            cell = Paragraph(item, self.style["cell"])
            if cell.wrap(width - 4, 1000)[1] > PAD_RULE_ROW:
                cell = Paragraph(item, self.style["small"])
            cells.append(cell)
        lines = pad_rule_lines(len(pad.rules.lines))
        grid = [cells[i * per_line : (i + 1) * per_line] for i in range(lines)]
        for line in grid:
            line += [""] * (per_line - len(line))
        return Table(
            grid,
            colWidths=[width] * per_line,
            rowHeights=[PAD_RULE_ROW] * lines,
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
            rowHeights=[PAD_GAME_TITLE],
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
            heights.append(PAD_LABEL_ROW)
            style += [("FONT", (0, 0), (-1, 0), BOLD, 8), ("BACKGROUND", (0, 0), (-1, 0), SHADE)]
        names = len(rows)
        line = list(pad.hand_columns)
        for group in pad.groups:
            for column in group.columns:
                line += [column, ""]
        rows.append(line)
        heights.append(PAD_NAME_ROW)
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
            heights.append(PAD_ROW)
        top = len(rows)
        style += [
            ("FONT", (0, first), (0, top - 1), FONT, 7),
            ("TEXTCOLOR", (0, first), (0, top - 1), FAINT),
            ("ALIGN", (0, first), (0, top - 1), "RIGHT"),
        ]
        for label in pad.ending:
            rows.append([label] + [""] * (len(widths) - 1))
            heights.append(PAD_ROW)
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


def render_pad(pad: ScorePad) -> bytes:
    return PadRenderer(pad).render()
