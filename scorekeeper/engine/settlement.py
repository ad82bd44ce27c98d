"""Settling up an evening: the fewest transfers that square everybody's balance.

A chouette or a three-player evening leaves many settlement lines; what the
table wants at the end is who hands money to whom. Players whose balances
sum to zero among themselves can settle apart from the rest, so with ``n``
players owed or owing, and the balances splitting into at most ``g`` disjoint
groups that each sum to zero, the fewest transfers are exactly ``n − g``
(a group of ``k`` needs ``k − 1``, and no fewer can connect it).

>>> settle_up({"Anna": Decimal("5.00"), "Ben": Decimal("-3.00"), "Carl": Decimal("-2.00")})
[Transfer(payer='Ben', payee='Anna', amount=Decimal('3.00')), \
Transfer(payer='Carl', payee='Anna', amount=Decimal('2.00'))]

Two pairs that square among themselves need two transfers, not three:

>>> [(t.payer, t.payee, t.amount) for t in settle_up({"A": 7, "B": -7, "C": 5, "D": -5})]
[('B', 'A', 7), ('D', 'C', 5)]
>>> settle_up({"A": Decimal(1), "B": Decimal(-2)})
Traceback (most recent call last):
...
ValueError: the balances sum to -1, not 0: every amount won is an amount lost
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from .tally import Payment

# Up to this many players with a balance, the exact minimum is found over every
# subset (2**12 subsets); beyond, a greedy settlement uses at most n − 1 transfers.
EXACT_LIMIT = 12

Amount = Decimal | int


@dataclass(frozen=True, order=True)
class Transfer:
    """One payment at the end of the evening."""

    payer: str
    payee: str
    amount: Amount


def settle_up(balances: Mapping[str, Amount]) -> list[Transfer]:
    """The fewest transfers that bring every balance to zero, sorted by payer and payee.

    A positive balance is owed to the player, a negative one he owes. Exact for
    up to EXACT_LIMIT players with a non-zero balance; beyond, greedy and at most
    one transfer fewer than the players. ValueError when the balances do not sum
    to zero.
    """
    owed: dict[str, Amount] = {}
    for name, value in balances.items():
        if isinstance(value, bool) or not isinstance(value, Decimal | int):
            raise TypeError(f"{name}'s balance must be a Decimal or an int, not {value!r}")
        if isinstance(value, Decimal) and not value.is_finite():
            raise ValueError(f"{name}'s balance must be a finite amount, not {value}")
        if value:
            owed[name] = value
    total = sum(owed.values(), start=0)
    if total != 0:
        raise ValueError(f"the balances sum to {total}, not 0: every amount won is an amount lost")
    names = sorted(owed)
    groups = _groups(names, owed) if len(names) <= EXACT_LIMIT else _greedy_groups(names, owed)
    return sorted(transfer for group in groups for transfer in _settle_group(group, owed))


def _groups(names: list[str], owed: Mapping[str, Amount]) -> list[list[str]]:
    """The most disjoint zero-sum groups the players split into (subset dynamic programme).

    ``most[mask]`` is the most zero-sum groups into which the players of ``mask``
    can be ordered so that every prefix ending a group sums to zero: taking a
    player away from a mask never loses a group, and a zero-sum mask ends one more.
    """
    n = len(names)
    full = (1 << n) - 1
    sums: list[Amount] = [0] * (full + 1)
    most = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + owed[names[low.bit_length() - 1]]
        best = max(most[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        most[mask] = best + (sums[mask] == 0)
    # Walk back from the full set: the removal order, reversed, lists the players
    # so that the prefix sums return to zero exactly at the end of each group.
    order, mask = [], full
    while mask:
        wanted = most[mask] - (sums[mask] == 0)
        i = next(i for i in range(n) if mask >> i & 1 and most[mask ^ (1 << i)] == wanted)
        order.append(i)
        mask ^= 1 << i
    groups: list[list[str]] = [[]]
    running: Amount = 0
    for i in reversed(order):
        groups[-1].append(names[i])
        running += owed[names[i]]
        if running == 0:
            groups.append([])
    return [group for group in groups if group]


def _greedy_groups(names: list[str], owed: Mapping[str, Amount]) -> list[list[str]]:
    """Pairs that square each other, then everybody else as one group."""
    groups, rest = [], []
    waiting: dict[Amount, list[str]] = {}  # creditors by amount, not yet paired
    for name in sorted(names, key=lambda n: (owed[n] < 0, n)):  # creditors first
        value = owed[name]
        if value > 0:
            waiting.setdefault(value, []).append(name)
        elif waiting.get(-value):
            groups.append([waiting[-value].pop(0), name])
        else:
            rest.append(name)
    rest += [name for names_ in waiting.values() for name in names_]
    return [*groups, rest] if rest else groups


def _settle_group(group: list[str], owed: Mapping[str, Amount]) -> list[Transfer]:
    """The largest debtor pays the largest creditor until all are square.

    Every transfer squares at least one of the two and the last squares both,
    so a group of ``k`` takes at most ``k − 1`` transfers.
    """
    debtors = sorted(((-owed[n], n) for n in group if owed[n] < 0), key=lambda d: (-d[0], d[1]))
    creditors = sorted(((owed[n], n) for n in group if owed[n] > 0), key=lambda c: (-c[0], c[1]))
    debts = [list(d) for d in debtors]
    credits = [list(c) for c in creditors]
    transfers, i, j = [], 0, 0
    while i < len(debts) and j < len(credits):
        amount = min(debts[i][0], credits[j][0])
        transfers.append(Transfer(debts[i][1], credits[j][1], amount))
        debts[i][0] -= amount
        credits[j][0] -= amount
        i += debts[i][0] == 0
        j += credits[j][0] == 0
    return transfers


def balances_of(payments: Iterable[Payment]) -> dict[str, Decimal]:
    """Each player's net money over the payments (won positive), sorted by name.

    >>> balances_of([Payment("X", "Y", 235, Decimal("23.50")),
    ...              Payment("X", "Z", 235, Decimal("11.75"))])
    {'X': Decimal('-35.25'), 'Y': Decimal('23.50'), 'Z': Decimal('11.75')}
    """
    result: dict[str, Decimal] = {}
    for p in payments:
        result[p.payer] = result.get(p.payer, Decimal(0)) - p.amount
        result[p.payee] = result.get(p.payee, Decimal(0)) + p.amount
    return dict(sorted(result.items()))


def points_of(payments: Iterable[Payment]) -> dict[str, int]:
    """Each player's net points over the payments (won positive), sorted by name."""
    result: dict[str, int] = {}
    for p in payments:
        result[p.payer] = result.get(p.payer, 0) - p.points
        result[p.payee] = result.get(p.payee, 0) + p.points
    return dict(sorted(result.items()))


def balances(
    players: Iterable[str], payments: Iterable[Payment], unit: Decimal = Decimal("0.01")
) -> dict[str, tuple[int, Decimal]]:
    """Each player's net points and money over the payments, in the players' order; they
    sum to zero."""
    zero = Decimal(0).quantize(unit)
    result = {name: (0, zero) for name in players}
    for p in payments:
        points, amount = result[p.payer]
        result[p.payer] = (points - p.points, amount - p.amount)
        points, amount = result[p.payee]
        result[p.payee] = (points + p.points, amount + p.amount)
    return result


def transfers_json(
    players: Iterable[str], payments: Iterable[Payment], unit: Decimal = Decimal("0.01")
) -> list[dict[str, str]]:
    """The fewest transfers that settle the payments' money, as a tally writes them."""
    owed = {name: amount for name, (_, amount) in balances(players, payments, unit).items()}
    return [{"from": t.payer, "to": t.payee, "amount": str(t.amount)} for t in settle_up(owed)]
