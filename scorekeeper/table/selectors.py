"""Reads that shape what a page shows: the score sheet of a partie, the lists.

Every figure comes from replaying the hands through the engine; each selector
runs a fixed number of queries, however many hands a partie has.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch, QuerySet

from scorekeeper import engine
from scorekeeper.engine.record import Record

from .models import HandChange, Partie, Seat, hand_to_engine


@dataclass(frozen=True)
class SheetRow:
    """One hand on the score sheet, with what each column gained."""

    line: engine.Line
    gains: list[int | None]  # per seat: points won on this hand, None when nothing
    totals: list[int]  # per seat: running totals after this hand

    @property
    def gains_and_totals(self) -> list[tuple[int | None, int]]:
        return list(zip(self.gains, self.totals, strict=True))


@dataclass(frozen=True)
class Sheet:
    partie: Partie
    players: list[str]
    rules: engine.Ruleset
    rows: list[SheetRow]
    tally: engine.Tally
    payments: list[engine.Payment]
    next_dealer: str

    @property
    def is_over(self) -> bool:
        return self.tally.closed

    @property
    def finals(self) -> list[engine.Final]:
        return [self.tally.players[name] for name in self.players]

    @property
    def knock_limit(self) -> int | str:
        return self.rules.knock_limit


def partie_with_players(queryset: QuerySet[Partie]) -> QuerySet[Partie]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    return queryset.select_related("first_dealer").prefetch_related(seats)


def partie_sheet(partie: Partie) -> Sheet:
    """The whole score sheet of a partie: every hand, running totals, bonuses, money."""
    hands = partie.hands.select_related("knocker").order_by("number")
    game = engine.Game.replay(
        partie.player_names, partie.ruleset, partie.first_dealer.name, map(hand_to_engine, hands)
    )
    return sheet_of(partie, game)


def sheet_of(partie: Partie, game: engine.Game) -> Sheet:
    """The score sheet of a partie from the engine's replay of its hands."""
    players = list(game.players)
    rows = [
        SheetRow(
            line,
            [line.score.points if line.winner == name else None for name in players],
            [line.points[name] for name in players],
        )
        for line in game.lines
    ]
    tally = game.tally()
    payments = tally.settle(Decimal(partie.stake), game.rules.money_unit)
    return Sheet(partie, players, game.rules, rows, tally, payments, game.dealer)


def partie_record(partie: Partie) -> Record:
    """The partie as a game record (FORMAT.md), ready to export."""
    players = tuple(partie.player_names)
    hands = tuple(map(hand_to_engine, partie.hands.select_related("knocker").order_by("number")))
    return Record(
        partie.kind,
        partie.ruleset,
        players,
        partie.first_dealer.name,
        Decimal(partie.stake).normalize() if partie.stake else Decimal(0),
        hands,
    )


def partie_changes(partie: Partie) -> QuerySet[HandChange]:
    """The audit trail, newest first."""
    return partie.changes.select_related("user")


def parties_of(user) -> QuerySet[Partie]:
    return Partie.objects.filter(owner=user).order_by(
        "-state", "-started_at", "-id"
    )  # running first
