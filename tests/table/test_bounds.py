"""The bounds of engine/bounds.py against the database: whatever they accept can be
stored and settled (issue 12: a stake of 999999.9999 and two gins made an evening
unsettleable; a game bonus of 10**15 too)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import models

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.table import services
from scorekeeper.table.models import (
    ClosedGame,
    Evening,
    EveningPayment,
    Hand,
    Partie,
    PartieStats,
    Player,
    Seat,
    SettlementLine,
)


def largest(field: models.DecimalField) -> Decimal:
    """The largest value a decimal column stores."""
    return Decimal(10) ** (field.max_digits - field.decimal_places) - Decimal(1).scaleb(
        -field.decimal_places
    )


INTEGER_MAX = 2**31 - 1  # IntegerField on PostgreSQL
SMALL_MAX = 2**15 - 1  # PositiveSmallIntegerField


@pytest.mark.parametrize("field", [Partie._meta.get_field("stake"), Seat._meta.get_field("stake")])
def test_a_stake_column_holds_the_largest_stake_to_four_places(field):
    assert field.decimal_places == bounds.MONEY_PLACES
    assert largest(field) >= bounds.MAX_STAKE


def test_an_evening_payment_holds_the_largest_evening():
    field = EveningPayment._meta.get_field("amount")
    assert field.decimal_places == bounds.MONEY_PLACES
    assert largest(field) >= bounds.largest_evening_amount()
    assert field.max_digits <= 15  # SQLite keeps 15 significant digits exactly


def test_a_league_payment_holds_the_largest_line_of_a_game():
    field = SettlementLine._meta.get_field("amount")
    assert largest(field) >= bounds.largest_line_points() * bounds.MAX_STAKE
    assert bounds.largest_line_points() <= INTEGER_MAX  # SettlementLine.points
    assert bounds.largest_partie_points() <= INTEGER_MAX  # PartieStats.points
    assert isinstance(PartieStats._meta.get_field("points"), models.PositiveIntegerField)


def test_names_deadwoods_and_numbers_fit_their_columns():
    assert Player._meta.get_field("name").max_length == bounds.MAX_NAME_LENGTH
    assert bounds.MAX_DEADWOOD_ROUND_THE_CORNER <= SMALL_MAX  # Hand.*_deadwood
    assert isinstance(Hand._meta.get_field("defender_deadwood"), models.PositiveSmallIntegerField)
    assert bounds.MAX_HANDS <= SMALL_MAX  # ClosedGame.number: at most one game per hand
    assert isinstance(ClosedGame._meta.get_field("number"), models.PositiveSmallIntegerField)


# The largest rules and stakes, played: the evening settles and its payments are stored
# exactly as the engine computed them.

LARGEST_RULES = {
    name: high for name, (_, high) in bounds.RULE_INTEGERS.items() if name != "knock_limit"
} | {
    "knock_limit": engine.UPCARD,
    "spade_double": engine.SpadeDouble.POINTS_AND_BOXES,
    "shutout": engine.Shutout.DOUBLE_TOTAL,
    "money_unit": bounds.MIN_MONEY_UNIT,
}


@pytest.mark.django_db
def test_a_chouette_at_the_largest_stakes_settles_and_stores_its_payments(owner):
    rules = engine.preset("oklahoma", **LARGEST_RULES)
    names = [f"P{n}" for n in range(1, 9)]  # the box against seven members
    evening = services.evening_start(owner=owner, name="High", played_on="2026-11-23")
    partie = services.partie_start(
        owner=owner,
        names=names,
        rules=rules,
        kind="chouette",
        stake=bounds.MAX_STAKE,
        stakes=dict.fromkeys(names[1:], bounds.MAX_STAKE),
        evening=evening,
    )
    spade = engine.Card.parse("KS")
    for _ in range(40):  # big gins of each captain, doubled by a spade upcard
        captain = services.partie_replay(partie).turn().roles.captain
        hand = engine.Hand.gin(98, knocker=captain, upcard=spade, big=True)
        services.hand_record(partie=partie, hand=hand, user=owner)
    payments = services.evening_settle(evening=evening)
    assert payments
    stored = {p.pk: p.amount for p in EveningPayment.objects.filter(evening=evening)}
    assert sorted(stored.values()) == sorted(p.amount for p in payments)
    assert max(stored.values()) <= bounds.largest_evening_amount()


@pytest.mark.django_db
def test_the_501st_hand_is_refused_with_a_message(owner):
    partie = services.partie_start(owner=owner, names=["A", "B"], rules=engine.preset("classic"))
    Hand.objects.bulk_create(
        Hand(partie=partie, number=n, kind=Hand.Kind.NO_GAME)
        for n in range(1, bounds.MAX_HANDS + 1)
    )
    with pytest.raises(engine.HandError) as refusal:
        services.hand_record(partie=partie, hand=engine.Hand.no_game(), user=owner)
    assert refusal.value.code == "too_many_hands"
    assert partie.hands.count() == bounds.MAX_HANDS


@pytest.mark.django_db
def test_an_evening_takes_no_more_parties_than_the_bound(owner):
    evening = services.evening_start(owner=owner, name="Club", played_on="2026-11-23")
    classic = engine.preset("classic")
    for _ in range(bounds.MAX_PARTIES_PER_EVENING):
        services.partie_start(owner=owner, names=["A", "B"], rules=classic, evening=evening)
    with pytest.raises(services.EveningFullError):
        services.partie_start(owner=owner, names=["A", "B"], rules=classic, evening=evening)
    other = services.partie_start(owner=owner, names=["A", "B"], rules=classic)
    with pytest.raises(services.EveningFullError):
        services.partie_evening_set(partie=other, evening=evening)
    assert Partie.objects.filter(evening=evening).count() == bounds.MAX_PARTIES_PER_EVENING
    assert Evening.objects.get(pk=evening.pk).parties.count() == bounds.MAX_PARTIES_PER_EVENING
