"""Settling up an evening: the fewest transfers that square every balance."""

import math
import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.game import Payment
from scorekeeper.engine.settlement import (
    EXACT_LIMIT,
    Transfer,
    balances_of,
    points_of,
    settle_up,
)


def cents(**balances):
    return {name: Decimal(value) / 100 for name, value in balances.items()}


def brute_minimum(values):
    """The fewest transfers, by trying every way to square the first open balance.

    Independent of the zero-sum-groups argument the engine relies on: some
    transfer must square the first open balance against a balance of the other
    sign, so trying each such partner in turn finds the minimum.
    """
    debts = [v for v in values if v]

    def search(start):
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = math.inf
        for i in range(start + 1, len(debts)):
            if debts[i] * debts[start] < 0:
                debts[i] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[i] -= debts[start]
        return best

    return search(0)


def settles(balances, transfers):
    """Whether the transfers bring every balance to exactly zero."""
    left = dict(balances)
    for t in transfers:
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return all(value == 0 for value in left.values())


# Worked examples.


def test_one_winner_is_paid_by_each_loser():
    assert settle_up(cents(Anna=500, Ben=-300, Carl=-200)) == [
        Transfer("Ben", "Anna", Decimal("3.00")),
        Transfer("Carl", "Anna", Decimal("2.00")),
    ]


def test_a_player_who_is_square_takes_no_part():
    assert settle_up(cents(A=-500, B=0, C=500)) == [Transfer("A", "C", Decimal("5.00"))]


def test_pairs_that_square_among_themselves_settle_apart():
    balances = cents(A=-700, B=-500, C=500, D=700)
    assert settle_up(balances) == [
        Transfer("A", "D", Decimal("7.00")),
        Transfer("B", "C", Decimal("5.00")),
    ]


def test_a_group_of_three_and_a_pair_take_three_transfers():
    balances = cents(A=500, B=-500, C=200, D=300, E=-500)
    transfers = settle_up(balances)
    assert len(transfers) == 3
    assert Transfer("B", "A", Decimal("5.00")) in transfers
    assert settles(balances, transfers)


def test_two_hidden_groups_of_three_take_four_transfers():
    # Largest debtor to largest creditor would take five: F→B 6, F→E 2, C→E 3, C→D 3,
    # C→A 1. A, B, C square among themselves, and so do D, E, F.
    balances = cents(A=100, B=600, C=-700, D=300, E=500, F=-800)
    assert settle_up(balances) == [
        Transfer("C", "A", Decimal("1.00")),
        Transfer("C", "B", Decimal("6.00")),
        Transfer("F", "D", Decimal("3.00")),
        Transfer("F", "E", Decimal("5.00")),
    ]


def test_without_any_zero_sum_group_it_takes_one_fewer_than_the_players():
    balances = cents(A=500, B=300, C=-400, D=-400)
    transfers = settle_up(balances)
    assert len(transfers) == 3
    assert settles(balances, transfers)


def test_the_chouette_example_settles_in_two_transfers():
    # RULES.md §6: X pays 235 to Y and to Z.
    assert settle_up({"X": -470, "Y": 235, "Z": 235}) == [
        Transfer("X", "Y", 235),
        Transfer("X", "Z", 235),
    ]


def test_nobody_owing_nothing_to_do():
    assert settle_up({}) == []
    assert settle_up(cents(A=0, B=0)) == []


def test_balances_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError, match="the balances sum to 0.5, not 0"):
        settle_up(cents(A=100, B=-50))


def test_a_balance_that_is_not_an_amount_is_refused():
    with pytest.raises(TypeError, match="A's balance must be a Decimal or an int"):
        settle_up({"A": 1.5, "B": -1.5})
    with pytest.raises(ValueError, match="finite"):
        settle_up({"A": Decimal("NaN"), "B": Decimal(0)})


def test_the_output_is_sorted_and_the_same_whatever_the_order_given():
    balances = cents(Zoe=-1200, Anna=300, Mia=-300, Ben=700, Carl=500)
    shuffled = dict(reversed(list(balances.items())))
    assert settle_up(balances) == settle_up(shuffled) == sorted(settle_up(balances))


def test_exactly_twelve_players_are_still_settled_exactly():
    # Six pairs that square each other, hidden among near misses: six transfers.
    amounts = [100, 250, 333, 475, 610, 999]
    balances = {f"P{i:02}": Decimal(a) for i, a in enumerate(amounts)}
    balances |= {f"N{i:02}": Decimal(-a) for i, a in enumerate(amounts)}
    assert len(balances) == EXACT_LIMIT
    transfers = settle_up(balances)
    assert len(transfers) == 6
    assert {(t.payer[1:], t.payee[1:]) for t in transfers} == {(f"{i:02}",) * 2 for i in range(6)}


def test_beyond_twelve_players_the_greedy_pairs_opposites_first():
    amounts = [100, 250, 333, 475, 610, 999, 1200]
    balances = {f"P{i:02}": a for i, a in enumerate(amounts)}
    balances |= {f"N{i:02}": -a for i, a in enumerate(amounts)}
    transfers = settle_up(balances)
    assert len(transfers) == 7
    assert settles(balances, transfers)


def test_beyond_twelve_players_the_greedy_never_needs_more_than_n_minus_1():
    rng = random.Random(7)
    values = [rng.randint(-5000, 5000) for _ in range(19)]
    balances = {f"p{i}": v for i, v in enumerate(values)} | {"last": -sum(values)}
    transfers = settle_up(balances)
    assert len(transfers) <= len([v for v in balances.values() if v]) - 1
    assert settles(balances, transfers)


def test_balances_of_payments_in_money_and_points():
    payments = [
        Payment("X", "Y", 235, Decimal("23.50")),
        Payment("X", "Z", 235, Decimal("11.75")),
        Payment("Y", "Z", 40, Decimal("2.00")),
    ]
    assert balances_of(payments) == {
        "X": Decimal("-35.25"),
        "Y": Decimal("21.50"),
        "Z": Decimal("13.75"),
    }
    assert points_of(payments) == {"X": -470, "Y": 195, "Z": 275}
    assert settle_up(balances_of(payments)) == [
        Transfer("X", "Y", Decimal("21.50")),
        Transfer("X", "Z", Decimal("13.75")),
    ]
    assert balances_of([]) == {} == points_of([])


# Random evenings (hypothesis): integer-cent balances summing to zero.

amounts = st.one_of(st.integers(-9, 9), st.integers(-20_000, 20_000))  # small ones make groups


@st.composite
def evenings(draw, fewest=1, most=8):
    """Balances in cents of ``fewest`` to ``most`` players, summing to zero.

    The players come in hidden groups that square among themselves (each
    group's last balance squares the others), so that settling each group
    apart is often the only way to the minimum.
    """
    count = draw(st.integers(fewest, most))
    values: list[int] = []
    while len(values) < count:
        size = draw(st.integers(1, count - len(values)))
        group = draw(st.lists(amounts, min_size=size - 1, max_size=size - 1))
        values += [*group, -sum(group)]
    values = draw(st.permutations(values))
    names = [f"player {i}" for i in range(len(values))]
    return {name: Decimal(v) / 100 for name, v in zip(names, values, strict=True)}


@given(evenings(most=8))
def test_the_count_is_the_brute_force_minimum(balances):
    transfers = settle_up(balances)
    assert len(transfers) == brute_minimum(list(balances.values()))


@given(evenings(most=8))
def test_the_transfers_settle_every_balance_exactly(balances):
    transfers = settle_up(balances)
    assert settles(balances, transfers)
    owing = [v for v in balances.values() if v]
    assert len(transfers) <= max(len(owing) - 1, 0)
    for t in transfers:
        assert t.amount > 0
        assert balances[t.payer] < 0 < balances[t.payee]
    assert transfers == sorted(transfers)
    assert settle_up(dict(reversed(list(balances.items())))) == transfers


@given(evenings(fewest=13, most=30))
def test_large_evenings_settle_in_at_most_n_minus_1(balances):
    transfers = settle_up(balances)
    assert settles(balances, transfers)
    owing = [v for v in balances.values() if v]
    assert len(transfers) <= max(len(owing) - 1, 0)
