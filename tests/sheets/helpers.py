"""Helpers of the sheet tests: the records of tests/records, an evening page's read model
made of them, and the text of PDF bytes read back with pypdf. Plain functions, imported
as ``from tests.sheets.helpers import ...``.
"""

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from pypdf import PdfReader

from scorekeeper.engine.record import Record, loads
from scorekeeper.engine.settlement import Transfer, balances_of, points_of, settle_up
from scorekeeper.sheets.score_sheet import Replayed, replayed

RECORDS = Path(__file__).resolve().parent.parent / "records"


def record_of(name: str) -> Record:
    """The record ``tests/records/<name>.json``."""
    return loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))


def pages(pdf: bytes) -> list[str]:
    """The text of each page."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    """The text with every run of white space as one space: wrapped lines join again."""
    return " ".join(text.split())


def text_of(pdf: bytes) -> str:
    """The text of every page, flat."""
    return flat(" ".join(pages(pdf)))


# An evening as its page's read model holds it (table.selectors.EveningView), without a
# database: stored players and evenings are their names (and dates).


@dataclass(frozen=True)
class Stored:
    name: str
    played_on: date | None = None


@dataclass(frozen=True)
class Result:
    sheet: Replayed


@dataclass(frozen=True)
class Net:
    player: Stored
    points: int
    amount: Decimal


@dataclass(frozen=True)
class Payment:
    """An EveningPayment: a transfer frozen by a settle-up."""

    payer: Stored
    payee: Stored
    amount: Decimal
    evening: Stored = Stored("")
    paid_at: datetime | None = None
    carried_to: Stored | None = None


@dataclass(frozen=True)
class Evening:
    evening: Stored
    results: tuple[Result, ...]
    balances: tuple[Net, ...]
    debts: tuple[Payment, ...]
    transfers: tuple[Transfer, ...]
    payments: tuple[Payment, ...]


def payment(payer: str, payee: str, amount: str, **fields) -> Payment:
    return Payment(Stored(payer), Stored(payee), Decimal(amount), **fields)


def evening_of(
    records: Sequence[Record],
    *,
    name: str = "Friday",
    played_on: date | None = None,
    transfers: Sequence[Transfer] | None = None,
    debts: Sequence[Payment] = (),
    payments: Sequence[Payment] = (),
) -> Evening:
    """The records as the parties of an evening: each player's net over their payments
    (by name), and the transfers (unless given: those that settle the nets and the debts
    carried in)."""
    results = tuple(Result(replayed(record)) for record in records)
    paid = [
        p
        for result in results
        for table in result.sheet.tables
        for game in table.part.games
        for p in game.payments
    ]
    points, money = points_of(paid), balances_of(paid)
    names = sorted({player for record in records for player in record.players})
    nets = tuple(Net(Stored(n), points.get(n, 0), money.get(n, Decimal("0.00"))) for n in names)
    owed = {net.player.name: net.amount for net in nets}
    for debt in debts:
        owed[debt.payer.name] = owed.get(debt.payer.name, Decimal(0)) - debt.amount
        owed[debt.payee.name] = owed.get(debt.payee.name, Decimal(0)) + debt.amount
    if transfers is None:
        transfers = settle_up(owed)
    return Evening(
        Stored(name, played_on), results, nets, tuple(debts), tuple(transfers), tuple(payments)
    )
