"""What a session's score sheet is made of: columns, games, rows of plays and cells, the
parts (tables) they stand in, and the lines under the hands.

Every kind of session describes itself in these types (``Session.parts``,
``Session.game_sheets``, ``foot_lines``), so that sheets, tallies and forms read
one shape whatever the kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Protocol, TypeVar

from .hand import Hand, HandScore
from .roles import Roles
from .tally import Final, Payment, Tally

_T = TypeVar("_T")


class Play(Protocol):
    """One hand as played at one table: every kind's line, and a partnership's table line."""

    @property
    def dealer(self) -> str: ...
    @property
    def hand(self) -> Hand: ...
    @property
    def score(self) -> HandScore: ...
    @property
    def knocker(self) -> str | None: ...
    @property
    def winner(self) -> str | None: ...


class Who(StrEnum):
    """The columns of a hand line that say who played it, before the knocker."""

    TABLE = "table"  # which table of a partnership round
    BOX = "box"
    CAPTAIN = "captain"
    DEALER = "dealer"
    OUT = "out"  # the one player sitting out, where the box deals every hand


class Side(StrEnum):
    """What a column of the sheet stands for."""

    PLAYER = "player"  # one player's own score
    PARTNERS = "partners"  # a partnership team: two players
    BOX = "box"  # the chouette's box
    TEAM = "team"  # the chouette's team, every member but the box


@dataclass(frozen=True)
class Column:
    """One column of a game: the key of its tally, its name, who settles as it."""

    key: str
    name: str
    members: tuple[str, ...]
    side: Side = Side.PLAYER


@dataclass(frozen=True)
class GameSheet:
    """One game of a session: its number, columns, tally and settlement lines."""

    number: int  # 1-based
    columns: tuple[Column, ...]
    tally: Tally
    payments: tuple[Payment, ...]

    def net(self, column: Column) -> int | None:
        """The points the column's members each won (negative: paid) in this game."""
        return _same(self._won(member, lambda p: p.points) for member in column.members)

    def money(self, column: Column) -> Decimal | None:
        """The money each member won; None when it differs between them (a chouette team
        whose members play at stakes of their own)."""
        return _same(Decimal(self._won(member, lambda p: p.amount)) for member in column.members)

    def _won(self, member: str, value: Callable[[Payment], int | Decimal]) -> int | Decimal:
        won: int | Decimal = 0
        for payment in self.payments:
            if member == payment.payee:
                won += value(payment)
            elif member == payment.payer:
                won -= value(payment)
        return won


def _same(values: Iterable[_T]) -> _T | None:
    """The one value they all have, or None."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


@dataclass(frozen=True)
class Cell:
    """One column of one row: what the entry added (None: nothing) and the running total."""

    gain: int | None
    total: int


@dataclass(frozen=True)
class EntryRow:
    """One entry on the sheet: its plays (two for a partnership round), its cells."""

    number: int
    game: int  # the game (1-based) it was played in; Hollywood: 1
    plays: tuple[Play, ...]
    cells: tuple[Cell, ...]  # one per column of its part
    roles: Roles | None = None  # who was box, captain and out, where not everyone plays
    closes: tuple[int, ...] = ()  # Hollywood: the games (1-based) this hand closed
    seated: tuple[tuple[str, str], ...] = ()  # the two who played, at each table

    @property
    def table(self) -> tuple[str, str] | None:
        """The two who played it, where not everyone does."""
        return self.roles.table if self.roles else None

    @property
    def at_tables(self) -> tuple[tuple[str, str], ...]:
        """The two who played each of its plays: the roles' box and captain, or as seated."""
        return (self.roles.table,) if self.roles else self.seated


@dataclass(frozen=True)
class Part:
    """One table of a sheet: the games whose columns stand side by side, and their rows."""

    games: tuple[GameSheet, ...]
    rows: tuple[EntryRow, ...]
    titled: bool = False  # its one game's name stands above the table ("Game 2")
    labelled: bool = False  # each game's name stands above its columns ("Game 1" ...)

    @property
    def columns(self) -> tuple[Column, ...]:
        return tuple(column for game in self.games for column in game.columns)

    @property
    def closed(self) -> bool:
        return any(game.tally.closed for game in self.games)

    @property
    def box_and_team(self) -> tuple[str, tuple[str, ...]] | None:
        """Who sat in the box and who made up the team; None where nobody is in the box."""
        sides = {column.side: column for column in self.columns}
        if Side.BOX not in sides:
            return None
        return sides[Side.BOX].name, sides[Side.TEAM].members


class Foot(StrEnum):
    """The lines under the hands, in their order."""

    POINTS = "points"
    BOXES = "boxes"
    BOX_BONUS = "box_bonus"
    GAME_BONUS = "game_bonus"
    SHUTOUT = "shutout_bonus"
    TOTAL = "total"
    NET = "net"
    MONEY = "money"


# What each line under the hands shows of a column's final.
_FINALS: dict[Foot, Callable[[Final], int]] = {
    Foot.POINTS: lambda final: final.points,
    Foot.BOXES: lambda final: final.boxes,
    Foot.BOX_BONUS: lambda final: final.box_bonus,
    Foot.GAME_BONUS: lambda final: final.game_bonus,
    Foot.SHUTOUT: lambda final: final.shutout_bonus,
    Foot.TOTAL: lambda final: final.total,
}


@dataclass(frozen=True)
class FootLine:
    """A line under the hands, one value per column; None: nothing to write there."""

    item: Foot
    values: tuple[int | Decimal | None, ...]


def foot_lines(games: Sequence[GameSheet], for_money: bool, unit: Decimal) -> tuple[FootLine, ...]:
    """Points and boxes; for closed games each end bonus on its own line; the total; then
    the net and the money each column won. A running game shows only what it has."""
    cells = [(game, column) for game in games for column in game.columns]
    closed = any(game.tally.closed for game in games)

    def line(item: Foot, ended: bool = True) -> FootLine:
        values = []
        for game, column in cells:
            if ended and not game.tally.closed:
                values.append(None)
            elif item == Foot.NET:
                values.append(game.net(column))
            elif item == Foot.MONEY:
                amount = game.money(column)
                values.append(None if amount is None else amount.quantize(unit))
            else:
                values.append(_FINALS[item](game.tally.players[column.key]))
        return FootLine(item, tuple(values))

    lines = [line(Foot.POINTS, ended=False), line(Foot.BOXES, ended=False)]
    if closed:
        lines += [line(Foot.BOX_BONUS), line(Foot.GAME_BONUS)]
        if any(game.tally.shutout for game in games):
            lines.append(line(Foot.SHUTOUT))
    lines.append(line(Foot.TOTAL, ended=False))
    if closed:
        lines.append(line(Foot.NET))
        if for_money:
            lines.append(line(Foot.MONEY))
    return tuple(lines)


def cells(
    points: Mapping[str, int], gainer: str | None, gain: int, keys: Iterable[str]
) -> tuple[Cell, ...]:
    """(gain, running total) per column: the gain in the column that scored the entry."""
    return tuple(Cell(gain if key == gainer else None, points[key]) for key in keys)
