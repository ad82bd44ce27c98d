"""The screen in the bar: a tournament's read model (``selectors.TournamentView``) cut
into sections that each fit 1920 × 1080 without scrolling, read from across the room.

A section holds one or more bands; a band is a bracket (or a part of one) as columns
of match boxes, one column a round, or a part of the Swiss table. A column holds at
most ``ROWS`` boxes and a band at most ``COLUMNS`` columns: a bigger bracket is cut
into parts of the draw (the top half, the bottom half, …: each round's matches cut in
as many slices, the rounds with fewer matches than parts shown whole in every part, so
that each part leads to the final), and a band with more rounds into runs of columns.
Bands are packed into sections while their rows add up to ``ROWS``: a 16-player double
elimination shows its winners' and losers' brackets together, a 32-player one in turns.
The sections take turns like the board's pages (``live.BoardPage``: one clock for
every screen, ``?section=`` to hold one)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorekeeper.engine.tournaments import SwissLine
from scorekeeper.table import live

from .selectors import RoundView, TournamentView

ROWS = 16  # match boxes a screen's column holds, one above the other
COLUMNS = 10  # rounds side by side
SWISS_LINES = 20  # lines of one Swiss table; two tables stand side by side

# The brackets a screen shows apart, by stage.
_BRACKET_OF = {
    "winners": "winners",
    "third_place": "winners",
    "top_cut": "top_cut",
    "consolation": "consolation",
    "losers": "losers",
    "grand_final": "losers",
    "grand_final_reset": "losers",
    "round_robin": "rounds",
    "swiss": "rounds",
}


@dataclass(frozen=True)
class Band:
    """A bracket's part on the screen: its columns, or lines of the Swiss table."""

    bracket: str  # winners, losers, consolation, top_cut, rounds, swiss_table
    part: int  # 1-based; of ``parts``
    parts: int
    columns: tuple[RoundView, ...] = ()
    tables: tuple[tuple[SwissLine, ...], ...] = ()  # the Swiss table, side by side

    @property
    def rows(self) -> int:
        """How many boxes (or lines) its tallest column holds."""
        if self.tables:
            return ROWS
        return max((len(column.matches) for column in self.columns), default=0)


@dataclass(frozen=True)
class Section:
    bands: tuple[Band, ...]


@dataclass(frozen=True)
class SectionTurn:
    """Which section the screen shows: the reader's choice, or the clock's turn."""

    number: int  # 1-based
    count: int
    chosen: bool

    @classmethod
    def of(cls, sections: int, chosen: int | None) -> SectionTurn:
        count = max(sections, 1)
        if chosen is not None:
            return cls(min(max(chosen, 1), count), count, True)
        return cls(int(live.clock() // live.ROTATE_SECONDS) % count + 1, count, False)

    @property
    def numbers(self) -> range:
        return range(1, self.count + 1)


def sections_of(view: TournamentView) -> list[Section]:
    """The screen's sections, in the order they take turns."""
    bands: list[Band] = []
    if view.swiss_table:
        bands += _swiss_bands(view.swiss_table)
    groups: dict[str, list[RoundView]] = {}
    for column in view.rounds:
        groups.setdefault(_BRACKET_OF[column.stage], []).append(column)
    for bracket, columns in groups.items():
        bands += _bracket_bands(bracket, columns)
    return _packed(bands)


def _swiss_bands(lines: tuple[SwissLine, ...]) -> list[Band]:
    per_band = 2 * SWISS_LINES
    chunks = [lines[at : at + per_band] for at in range(0, len(lines), per_band)]
    return [
        Band(
            "swiss_table",
            number,
            len(chunks),
            tables=tuple(chunk[at : at + SWISS_LINES] for at in range(0, len(chunk), SWISS_LINES)),
        )
        for number, chunk in enumerate(chunks, start=1)
    ]


def _bracket_bands(bracket: str, columns: list[RoundView]) -> list[Band]:
    """A bracket cut into parts of the draw, each part into runs of ``COLUMNS``."""
    tallest = max(len(column.matches) for column in columns)
    parts = 1
    while tallest > parts * ROWS:
        parts *= 2
    runs = []
    for part in range(parts):
        sliced = [_slice(column, part, parts) for column in columns]
        runs += [sliced[at : at + COLUMNS] for at in range(0, len(sliced), COLUMNS)]
    return [
        Band(bracket, number, len(runs), columns=tuple(run))
        for number, run in enumerate(runs, start=1)
    ]


def _slice(column: RoundView, part: int, parts: int) -> RoundView:
    """The column's share of the part; a column of fewer matches than parts, whole."""
    count = len(column.matches)
    if count < parts:
        return column
    size = -(-count // parts)
    return replace(column, matches=column.matches[part * size : (part + 1) * size])


def _packed(bands: list[Band]) -> list[Section]:
    """Consecutive bands share a section while their rows add up to ``ROWS``."""
    sections: list[list[Band]] = []
    for band in bands:
        current = sections[-1] if sections else None
        if current is not None and sum(b.rows for b in current) + band.rows <= ROWS:
            current.append(band)
        else:
            sections.append([band])
    return [Section(tuple(section)) for section in sections] or [Section(())]
