"""Reads that shape what a page shows: the score sheet of a partie, the lists.

Every figure comes from replaying the hands through the engine; each selector
runs a fixed number of queries, however many hands a partie has.

One sheet layout serves every kind: column groups (one game of two columns; three
Hollywood games side by side; two team columns in a partnership), and one row per
hand or round with a (gain, running total) cell per column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet

from scorekeeper import engine
from scorekeeper.engine.record import Record

from .models import HandChange, Partie, Seat, entries_to_engine

Cell = tuple[int | None, int]  # points won on this hand (None: nothing), running total


@dataclass(frozen=True)
class SheetRow:
    """One hand (or partnership round) on the score sheet."""

    line: Any  # the engine's line for this entry
    cells: list[Cell]
    game: int = 1  # the match game it belongs to
    starts_game: bool = False  # the first hand of a match game after the first

    @property
    def tables(self) -> tuple | None:
        """A partnership round's two table lines."""
        return getattr(self.line, "tables", None)


@dataclass(frozen=True)
class Group:
    """Columns that belong to one game: its label, column names, and whether it is over."""

    label: str | None
    columns: list[str]
    tally: engine.Tally


@dataclass(frozen=True)
class Sheet:
    partie: Partie
    players: list[str]
    rules: engine.Ruleset
    session: Any
    groups: list[Group]
    rows: list[SheetRow]
    payments: list[engine.Payment]
    games: list[engine.Tally] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.session.kind

    @property
    def is_over(self) -> bool:
        return self.session.is_over()

    @property
    def next_dealer(self) -> str:
        dealer = self.session.dealer
        return " / ".join(dealer) if isinstance(dealer, tuple) else dealer

    @property
    def columns(self) -> list[str]:
        return [name for group in self.groups for name in group.columns]

    @property
    def finals(self) -> list[engine.Final]:
        """Each column's totals in its game, aligned with the cells."""
        return [group.tally.players[name] for group in self.groups for name in group.columns]

    @property
    def final_cells(self) -> list[tuple[engine.Final, bool]]:
        """Each column's totals and whether its game is over (its end bonuses count)."""
        return [
            (group.tally.players[name], group.tally.closed)
            for group in self.groups
            for name in group.columns
        ]

    @property
    def any_closed(self) -> bool:
        return any(group.tally.closed for group in self.groups)

    @property
    def winner(self) -> str | None:
        return getattr(self.session, "winner", None)

    @property
    def shutout(self) -> bool:
        return any(group.tally.shutout for group in self.groups)

    @property
    def current_game(self) -> int:
        """The number of the match game the next hand belongs to."""
        closed = bool(self.games) and self.games[-1].closed
        return len(self.games) + (1 if closed and not self.is_over else 0)

    @property
    def dealers(self) -> tuple[str, ...]:
        dealer = self.session.dealer
        return dealer if isinstance(dealer, tuple) else (dealer,)

    @property
    def game_results(self) -> list[tuple[int, engine.Tally]]:
        """A match's closed games, numbered."""
        return [(n, t) for n, t in enumerate(self.games, start=1) if t.closed]

    @property
    def games_won(self) -> dict[str, int]:
        return self.session.games_won() if hasattr(self.session, "games_won") else {}


def partie_with_players(queryset: QuerySet[Partie]) -> QuerySet[Partie]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    return queryset.select_related("first_dealer").prefetch_related(seats)


def partie_sheet(partie: Partie) -> Sheet:
    """The whole score sheet of a partie: every hand, running totals, bonuses, money."""
    hands = list(partie.hands.select_related("knocker").order_by("number", "table"))
    session = engine.session_class(partie.kind).replay(
        partie.player_names,
        partie.ruleset,
        partie.first_dealer.name,
        entries_to_engine(partie.kind, hands),
    )
    return sheet_of(partie, session)


def sheet_of(partie: Partie, session: Any) -> Sheet:
    """The score sheet of a partie from the engine's replay of its hands."""
    games = session.games()
    players = list(session.players)
    if session.kind == "hollywood":
        labels = [f"G{n}" for n in (1, 2, 3)]
        groups = [Group(label, players, tally) for label, tally in zip(labels, games, strict=True)]
        rows = [SheetRow(line, _hollywood_cells(line, players)) for line in session.lines]
    elif session.kind == "partnership":
        teams = list(games[0].players)
        groups = [Group(None, teams, games[0])]
        rows = [SheetRow(line, _round_cells(line, teams)) for line in session.lines]
    else:  # two players, one game at a time (a match shows the game being played)
        groups = [Group(None, players, games[-1])]
        rows = []
        for line in session.lines:
            game = getattr(line, "game", 1)
            starts = game > 1 and (not rows or rows[-1].game != game)
            rows.append(SheetRow(line, _cells(line, players), game, starts))
    payments = session.settle(Decimal(partie.stake))
    return Sheet(partie, players, session.rules, session, groups, rows, payments, games)


def _cells(line: Any, columns: list[str]) -> list[Cell]:
    return [
        (line.score.points if line.winner == name else None, line.points[name]) for name in columns
    ]


def _hollywood_cells(line: Any, players: list[str]) -> list[Cell]:
    return [
        (
            line.score.points if line.winner == name and game in line.entered else None,
            line.points[game][name],
        )
        for game in range(3)
        for name in players
    ]


def _round_cells(line: Any, teams: list[str]) -> list[Cell]:
    return [(line.gained.get(team) or None, line.points[team]) for team in teams]


def partie_record(partie: Partie) -> Record:
    """The partie as a game record (FORMAT.md), ready to export."""
    hands = list(partie.hands.select_related("knocker").order_by("number", "table"))
    return Record(
        partie.kind,
        partie.ruleset,
        tuple(partie.player_names),
        partie.first_dealer.name,
        Decimal(partie.stake).normalize() if partie.stake else Decimal(0),
        tuple(entries_to_engine(partie.kind, hands)),
    )


def partie_changes(partie: Partie) -> QuerySet[HandChange]:
    """The audit trail, newest first."""
    return partie.changes.select_related("user")


def parties_of(user) -> QuerySet[Partie]:
    return Partie.objects.filter(owner=user).order_by(
        "-state", "-started_at", "-id"
    )  # running first
