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

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from scorekeeper import engine
from scorekeeper.engine.record import Record

from .models import (
    Evening,
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    Player,
    Seat,
    entries_to_engine,
)

Cell = tuple[int | None, int]  # points won on this hand (None: nothing), running total


def plain_amount(amount: Decimal) -> Decimal:
    """An amount as it was settled: the database pads to four places (5.4000 is 5.40).

    >>> [plain_amount(Decimal(text)) for text in ("5.4000", "45", "0.1250")]
    [Decimal('5.40'), Decimal('45.00'), Decimal('0.125')]
    """
    cents = amount.quantize(Decimal("0.01"))
    return cents if cents == amount else amount.normalize()


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
    """Columns that belong to one game: its label, column names, and its tally."""

    label: str | None
    columns: list[str]
    tally: engine.Tally
    keys: list[str] | None = None  # the tally's keys, where they differ from the labels

    @property
    def finals(self) -> list[engine.Final]:
        return [self.tally.players[key] for key in self.keys or self.columns]


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
        return [final for group in self.groups for final in group.finals]

    @property
    def final_cells(self) -> list[tuple[engine.Final, bool]]:
        """Each column's totals and whether its game is over (its end bonuses count)."""
        return [(final, group.tally.closed) for group in self.groups for final in group.finals]

    @property
    def roles(self) -> Any:
        """Chouette and three players: who is box, captain, out and deals next."""
        return getattr(self.session, "roles", None)

    @property
    def at_table(self) -> tuple[str, str] | None:
        """The two who play the next hand, where not everyone does."""
        return self.roles.table if self.roles else None

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
    def in_all(self) -> list[engine.Transfer]:
        """The payments netted, where that takes fewer transfers: who pays whom in all
        (money, or points when playing for honour); empty when nothing nets."""
        if self.partie.stake:
            netted = engine.settle_up(engine.balances_of(self.payments))
        else:
            netted = engine.settle_up(engine.points_of(self.payments))
        return netted if len(netted) < len(self.payments) else []

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


def hands_in_order(partie: Partie) -> list[Hand]:
    """The partie's hands in playing order: prefetched (an evening's parties) or queried."""
    if "hands" in getattr(partie, "_prefetched_objects_cache", {}):
        return list(partie.hands.all())
    return list(HANDS_IN_ORDER.filter(partie=partie))


HANDS_IN_ORDER = Hand.objects.select_related("knocker").order_by("number", "table")


def partie_sheet(partie: Partie) -> Sheet:
    """The whole score sheet of a partie: every hand, running totals, bonuses, money."""
    hands = hands_in_order(partie)
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
    elif session.kind == "chouette":  # the box against the team, game after game
        if games:
            current = games[-1]
        else:  # no hand yet: an empty column for the first box
            nothing = {session.roles.box: 0, "team": 0}
            current = engine.final_tally(nothing, nothing, None, session.rules)
        box = next(key for key in current.players if key != "team")
        labels = [_("Box: %(name)s") % {"name": box}, _("Team")]
        groups = [Group(None, labels, current, keys=[box, "team"])]
        rows = _game_rows(session.lines, lambda line: _cells(line, [line.roles.box, "team"]))
    else:  # two or three players, one game at a time (a match shows the game being played)
        groups = [Group(None, players, games[-1])]
        rows = _game_rows(session.lines, lambda line: _cells(line, players))
    payments = partie_payments(partie, session)
    return Sheet(partie, players, session.rules, session, groups, rows, payments, games)


def _game_rows(lines: list, cells: Any) -> list[SheetRow]:
    """Rows that note where a new game of a match or chouette starts."""
    rows: list[SheetRow] = []
    for line in lines:
        game = getattr(line, "game", 1)
        starts = game > 1 and (not rows or rows[-1].game != game)
        rows.append(SheetRow(line, cells(line), game, starts))
    return rows


def _cells(line: Any, columns: list[str]) -> list[Cell]:
    """(gain, running total) per column; a chouette's team column wins with its captain."""
    winner = line.winner
    if winner is not None and "team" in line.points and line.box_won is False:
        winner = "team"
    return [(line.score.points if winner == key else None, line.points[key]) for key in columns]


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
    hands = hands_in_order(partie)
    return Record(
        partie.kind,
        partie.ruleset,
        tuple(partie.player_names),
        partie.first_dealer.name,
        per_point(partie.stake),
        tuple(entries_to_engine(partie.kind, hands)),
        # a chouette member's own stake (Seat.stake), so that the record settles alike
        {s.player.name: per_point(s.stake) for s in partie.seats.all() if s.stake is not None},
    )


def per_point(stake: Decimal) -> Decimal:
    """A stored stake as a record writes it, without the database's padding and never
    in exponent form (``normalize`` alone turns 10 into 1E+1).

    >>> [str(per_point(Decimal(text))) for text in ("0.1000", "10.0000", "0.0000", "2.5")]
    ['0.1', '10', '0', '2.5']
    """
    stake = Decimal(stake).normalize()
    return stake.quantize(Decimal(1)) if stake == stake.to_integral_value() else stake


def partie_changes(partie: Partie) -> QuerySet[HandChange]:
    """The audit trail, newest first."""
    return partie.changes.select_related("user")


def parties_of(user) -> QuerySet[Partie]:
    return Partie.objects.filter(owner=user).order_by(
        "-state", "-started_at", "-id"
    )  # running first


# Evenings and players' money


@dataclass(frozen=True)
class PartieResult:
    """One partie of an evening: its sheet and what it moved between the players."""

    partie: Partie
    sheet: Sheet


@dataclass(frozen=True)
class Balance:
    player: Player
    points: int
    amount: Decimal


@dataclass(frozen=True)
class EveningSheet:
    evening: Evening
    results: list[PartieResult]
    balances: list[Balance]  # every player's net over the parties and the debts carried in
    debts: list[EveningPayment]  # open debts of earlier evenings carried into this one
    transfers: list  # the fewest transfers that settle the balances (engine.Transfer)
    payments: list[EveningPayment]  # once settled: the transfers as frozen

    @property
    def players(self) -> list[Player]:
        return [balance.player for balance in self.balances]

    @property
    def running(self) -> bool:
        return any(result.partie.is_running for result in self.results)

    @property
    def settle_text(self) -> str:
        """Who pays whom, one line each, to copy into a chat."""
        lines = self.payments or self.transfers
        return "\n".join(f"{t.payer} → {t.payee}: {plain_amount(t.amount)}" for t in lines)


def partie_payments(partie: Partie, session: Any) -> list[engine.Payment]:
    """The partie's settlement at its stake (a chouette member's own stake where set)."""
    if partie.kind == Partie.Kind.CHOUETTE:
        stakes = {s.player.name: s.stake for s in partie.seats.all() if s.stake is not None}
        return session.settle(stakes, default=Decimal(partie.stake))
    return session.settle(Decimal(partie.stake))


def evening_sheet(evening: Evening) -> EveningSheet:
    """Every partie of an evening, each player's net, and how to settle up."""
    parties = list(
        partie_with_players(evening.parties.all())
        .prefetch_related(Prefetch("hands", queryset=HANDS_IN_ORDER))
        .order_by("started_at", "id")
    )
    results = [PartieResult(partie, partie_sheet(partie)) for partie in parties]
    seated = {seat.player.name: seat.player for p in parties for seat in p.seats.all()}
    points: dict[str, int] = dict.fromkeys(seated, 0)
    money: dict[str, Decimal] = dict.fromkeys(seated, Decimal(0))
    for result in results:
        for payment in result.sheet.payments:
            for name, sign in ((payment.payer, -1), (payment.payee, 1)):
                points[name] += sign * payment.points
                money[name] += sign * payment.amount
    if evening.is_settled:  # the debts it took over when it was settled, still in its figures
        debts = list(evening.carried_debts.select_related("payer", "payee", "evening"))
    else:
        debts = list(open_debts(evening.owner, list(seated.values())))
    for debt in debts:
        for player, sign in ((debt.payer, -1), (debt.payee, 1)):
            seated.setdefault(player.name, player)
            points.setdefault(player.name, 0)
            money[player.name] = money.get(player.name, Decimal(0)) + sign * debt.amount
    balances = [Balance(seated[name], points[name], money[name]) for name in sorted(seated)]
    transfers = engine.settle_up({b.player.name: b.amount for b in balances})
    payments = list(evening.payments.select_related("payer", "payee", "carried_to"))
    return EveningSheet(evening, results, balances, debts, transfers, payments)


def open_debts(owner, players: list[Player]) -> QuerySet[EveningPayment]:
    """Unpaid transfers of settled evenings that involve any of these players."""
    return (
        EveningPayment.objects.filter(evening__owner=owner, paid_at=None, carried_to=None)
        .filter(Q(payer__in=players) | Q(payee__in=players))
        .select_related("payer", "payee", "evening")
    )


def evenings_of(user) -> QuerySet[Evening]:
    return Evening.objects.filter(owner=user)


@dataclass(frozen=True)
class Ledger:
    """What a player owes and is owed, and the parties played."""

    player: Player
    owes: list[EveningPayment]
    owed: list[EveningPayment]
    parties: list[Partie]

    @property
    def net(self) -> Decimal:
        return sum((p.amount for p in self.owed), Decimal(0)) - sum(
            (p.amount for p in self.owes), Decimal(0)
        )


def player_ledger(player: Player) -> Ledger:
    debts = list(open_debts(player.owner, [player]))
    parties = list(
        partie_with_players(Partie.objects.filter(seats__player=player)).order_by("-started_at")
    )
    return Ledger(
        player,
        [d for d in debts if d.payer_id == player.pk],
        [d for d in debts if d.payee_id == player.pk],
        parties,
    )
