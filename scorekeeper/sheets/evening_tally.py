"""An evening's tally: its parties, balances, debts carried in and the transfers that
settle them, as plain frozen values built from the evening page's read model
(``printed_evening``), and its PDF (``render_evening``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Protocol

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.platypus import Flowable, Table

from scorekeeper import engine
from scorekeeper.engine.settlement import balances
from scorekeeper.formats import number_text
from scorekeeper.vocabulary import kind_name

from .common import BOLD, CELL_PAD, FONT, INK, RULE, Balance, Renderer, text
from .score_sheet import Scored, _game_label, _group


@dataclass(frozen=True)
class GameSummary:
    """One game of a partie in an evening: the columns' totals and the winner."""

    label: str | None
    totals: tuple[tuple[str, int], ...]
    closed: bool
    winner: str | None
    net: int


@dataclass(frozen=True)
class PartieSummary:
    title: str
    kind_label: str
    players: tuple[str, ...]
    games: tuple[GameSummary, ...]
    balances: tuple[Balance, ...]  # what the partie moved, per player


@dataclass(frozen=True)
class Debt:
    """An open debt of an earlier evening, carried into this one's settle-up."""

    payer: str
    payee: str
    amount: Decimal
    evening: str  # the evening that left it open
    played_on: date | None = None


@dataclass(frozen=True)
class SettleLine:
    """One transfer that settles an evening up; once settled, whether it is paid."""

    payer: str
    payee: str
    amount: Decimal
    paid: bool | None = None  # None: not settled up yet
    carried_to: str | None = None  # unpaid, taken over by the players' next evening

    @property
    def state(self) -> str:
        """'paid', 'open' or 'carried to <evening>'; nothing before the evening is settled."""
        if self.paid is None:
            return ""
        if self.paid:
            return _("paid")
        if self.carried_to:
            return _("carried to %(evening)s") % {"evening": self.carried_to}
        return _("open")


@dataclass(frozen=True)
class EveningSheet:
    """An evening's tally in the order it adds up: the parties, this evening's balances,
    the debts carried in, and the transfers that settle both."""

    name: str
    played_on: date | None
    parties: tuple[PartieSummary, ...]
    balances: tuple[Balance, ...]  # each player's net over this evening's parties, by name
    transfers: tuple[SettleLine, ...]
    debts: tuple[Debt, ...] = ()

    @property
    def settled(self) -> bool:
        return any(line.paid is not None for line in self.transfers)


# What the tally reads of the evening page's read model (table.selectors.EveningView):
# its players and evenings are the stored ones, of which it writes the names.


class Named(Protocol):
    @property
    def name(self) -> str: ...


class DatedEvening(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def played_on(self) -> date | None: ...


class EveningResult(Protocol):
    """One partie of the evening, as its page scored it."""

    @property
    def sheet(self) -> Scored: ...


class PlayerNet(Protocol):
    """A player's net over the evening's parties: points and money, won positive."""

    @property
    def player(self) -> Named: ...
    @property
    def points(self) -> int: ...
    @property
    def amount(self) -> Decimal: ...


class StoredTransfer(Protocol):
    """A transfer frozen when an evening was settled: this evening's, or an open debt of
    an earlier one carried in."""

    @property
    def payer(self) -> Named: ...
    @property
    def payee(self) -> Named: ...
    @property
    def amount(self) -> Decimal: ...
    @property
    def evening(self) -> DatedEvening: ...
    @property
    def paid_at(self) -> datetime | None: ...
    @property
    def carried_to(self) -> Named | None: ...


class EveningRead(Protocol):
    """An evening as its page shows it: its parties, balances and debts carried in, the
    transfers that settle them, and once settled the transfers as frozen (``payments``)."""

    @property
    def evening(self) -> DatedEvening: ...
    @property
    def results(self) -> Sequence[EveningResult]: ...
    @property
    def balances(self) -> Sequence[PlayerNet]: ...
    @property
    def debts(self) -> Sequence[StoredTransfer]: ...
    @property
    def transfers(self) -> Sequence[engine.Transfer]: ...
    @property
    def payments(self) -> Sequence[StoredTransfer]: ...


def printed_evening(read: EveningRead) -> EveningSheet:
    """Every partie of an evening with its result and what it moved, each player's net
    over them, the debts carried in from earlier evenings and the transfers that settle
    up (they settle the nets and the debts together): once settled, the transfers as
    frozen, each paid, open or carried on."""
    evening = read.evening
    settled = tuple(
        SettleLine(
            p.payer.name,
            p.payee.name,
            p.amount,
            paid=p.paid_at is not None,
            carried_to=p.carried_to.name if p.carried_to else None,
        )
        for p in read.payments
    )
    return EveningSheet(
        evening.name,
        evening.played_on,
        tuple(partie_summary(result.sheet) for result in read.results),
        tuple(Balance(b.player.name, b.points, b.amount) for b in read.balances),
        settled or tuple(SettleLine(t.payer, t.payee, t.amount) for t in read.transfers),
        tuple(
            Debt(d.payer.name, d.payee.name, d.amount, d.evening.name, d.evening.played_on)
            for d in read.debts
        ),
    )


def partie_summary(scored: Scored) -> PartieSummary:
    """A partie of the evening, named by its columns as its page names it: its games'
    results and what it moved between the players."""
    session = scored.session
    players = session.players
    games = [game for table in scored.tables for game in table.part.games]
    payments = [payment for game in games for payment in game.payments]
    owed = balances(players, payments, session.rules.money_unit)
    return PartieSummary(
        " – ".join(session.heading),
        kind_name(session.kind),
        players,
        tuple(_summary(session, game) for game in games),
        tuple(Balance(player, *owed[player]) for player in players),
    )


def _summary(session: engine.Session, game: engine.GameSheet) -> GameSummary:
    group = _group(game, labelled=False)
    return GameSummary(
        _game_label(session, game),
        tuple(
            (label, game.tally.players[column.key].total)
            for label, column in zip(group.columns, game.columns, strict=True)
        ),
        game.tally.closed,
        group.winner,
        game.tally.net,
    )


class EveningRenderer(Renderer):
    """An evening: each partie with its result and what it moved, every player's net,
    and the transfers that settle up."""

    document: EveningSheet

    def title(self) -> str:
        return self.document.name

    def subject(self) -> str:
        return _("Evening")

    def story(self) -> list[Flowable]:
        evening = self.document
        story: list[Flowable] = [self.para(text(evening.name), "title")]
        if evening.played_on:
            story.append(self.para(text(date_format(evening.played_on, "DATE_FORMAT")), "meta"))
        story.append(self.para(text(_("Parties")), "h2"))
        rows: list[list[Any]] = [[_("Partie"), _("Result"), _("Net")]]
        for partie in evening.parties:
            rows.append(
                [
                    self.para(f"<b>{text(partie.title)}</b><br/>{text(partie.kind_label)}", "cell"),
                    self.para("<br/>".join(self.result(game) for game in partie.games), "cell"),
                    self.para(
                        "<br/>".join(
                            text(
                                f"{b.player} {number_text(b.points, sign=True)}"
                                f" ({number_text(b.amount, sign=True)})"
                            )
                            for b in partie.balances
                        ),
                        "cell",
                    ),
                ]
            )
        third = self.width / 3
        story.append(self.table(rows, [third * 0.8, third * 1.3, third * 0.9]))
        story.append(self.para(text(_("Balances")), "h2"))
        rows = [[_("Player"), _("Points"), _("Money")]]
        rows += [
            [
                self.para(text(b.player), "cell"),
                number_text(b.points, sign=True),
                number_text(b.amount, sign=True),
            ]
            for b in evening.balances
        ]
        story.append(self.table(rows, [200, 70, 70], right=(1, 2)))
        if evening.debts:
            story += self.debts()
        story.append(self.para(text(_("Settle up")), "h2"))
        if evening.transfers:
            settled = evening.settled  # then each transfer says whether it is paid
            rows = [[_("Pays"), _("To"), _("Amount")] + ([_("Paid")] if settled else [])]
            rows += [
                [
                    self.para(text(t.payer), "cell"),
                    self.para(text(t.payee), "cell"),
                    number_text(t.amount),
                ]
                + ([self.para(text(("✓ " if t.paid else "") + t.state), "cell")] if settled else [])
                for t in evening.transfers
            ]
            widths = [120, 120, 70, 190] if settled else [150, 150, 70]
            story.append(self.table(rows, widths, right=(2,)))
            if evening.debts:
                words = _("The transfers settle this evening's balances and the debts carried in.")
                story.append(self.para(text(words), "note"))
        else:
            story.append(self.para(text(_("Nobody pays: the totals are equal.")), "note"))
        return story

    def debts(self) -> list[Flowable]:
        """The open debts of earlier evenings that this evening's settle-up takes in."""
        rows: list[list[Any]] = [[_("Owes"), _("To"), _("Amount"), _("From the evening")]]
        for debt in self.document.debts:
            when = debt.played_on and date_format(debt.played_on, "SHORT_DATE_FORMAT")
            rows.append(
                [
                    self.para(text(debt.payer), "cell"),
                    self.para(text(debt.payee), "cell"),
                    number_text(debt.amount),
                    self.para(text(f"{debt.evening} ({when})" if when else debt.evening), "cell"),
                ]
            )
        return [
            self.para(text(_("Carried in from earlier evenings")), "h2"),
            self.table(rows, [110, 110, 70, 180], right=(2,)),
        ]

    def result(self, game: GameSummary) -> str:
        totals = " – ".join(f"{column} {total}" for column, total in game.totals)
        words = f"{game.label}: {totals}" if game.label else totals
        if not game.closed:
            words += " (" + _("running") + ")"
        elif game.winner:
            words += " · " + _("%(winner)s wins by %(net)s") % {
                "winner": game.winner,
                "net": game.net,
            }
        return text(words)

    def table(self, rows: list[list[Any]], widths: Sequence[float], right=()) -> Table:
        style = [
            ("FONT", (0, 0), (-1, -1), FONT, 8.5, 10),
            ("FONT", (0, 0), (-1, 0), BOLD, 8, 10),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
            ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ]
        style += [("ALIGN", (c, 0), (c, -1), "RIGHT") for c in right]
        return Table(rows, colWidths=list(widths), style=style, repeatRows=1, hAlign="LEFT")


def render_evening(sheet: EveningSheet) -> bytes:
    return EveningRenderer(sheet).render()
