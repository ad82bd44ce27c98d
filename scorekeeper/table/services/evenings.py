"""Writes to evenings: the parties of one table or club night, settled up together."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scorekeeper.clubs.models import Club
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine import bounds
from scorekeeper.engine.names import cleaned

from ..models import Evening, EveningPayment, Partie
from ..selectors import HeldGame, evening_sheet


class EveningSettledError(ValueError):
    """A change to an evening that is already settled up."""

    def __init__(self, evening: Evening):
        super().__init__(f"the evening {evening} is settled up: its parties cannot change")
        self.evening = evening


class EveningFullError(ValueError):
    """An evening that holds the most parties the bounds allow (engine/bounds.py)."""

    def __init__(self, evening: Evening):
        most = bounds.MAX_PARTIES_PER_EVENING
        super().__init__(f"the evening {evening} holds {most} parties, the most it may")
        self.evening, self.most = evening, most


class EveningAmountError(ValueError):
    """A transfer larger than the payments' column can hold: only debts carried on,
    unpaid, through several evenings of the largest stakes come to that."""

    def __init__(self, evening: Evening, amount: Decimal):
        super().__init__(f"the evening {evening} would settle {amount}, more than can be stored")
        self.evening, self.amount = evening, amount


class EveningHeldError(ValueError):
    """An evening whose settle-up waits: a game of it is disputed, or (an evening of
    confirmed games only) not confirmed by every player asked yet; ``held`` names them."""

    def __init__(self, evening: Evening, held: list[HeldGame]):
        games = ", ".join(f"{game.partie.pk}.{game.number}" for game in held)
        super().__init__(f"the evening {evening} waits for the games {games}")
        self.evening, self.held = evening, held


def _check_room(evening: Evening) -> None:
    """Refuse a partie for an evening that holds MAX_PARTIES_PER_EVENING already."""
    if Partie.objects.filter(evening=evening).count() >= bounds.MAX_PARTIES_PER_EVENING:
        raise EveningFullError(evening)


def evening_start(
    *,
    owner: AbstractBaseUser,
    name: str,
    played_on: date,
    club: Club | None = None,
    confirmed_games_only: bool = False,
) -> Evening:
    """A new evening of ``club`` (by default the personal club of ``owner``, who starts it);
    ``confirmed_games_only``: a game not confirmed by every player asked holds its settle-up
    back (a disputed one always does)."""
    return Evening.objects.create(
        club=club or personal_club(owner),
        owner=owner,
        name=cleaned(name),
        played_on=played_on,
        confirmed_games_only=confirmed_games_only,
    )


@transaction.atomic
def partie_evening_set(*, partie: Partie, evening: Evening | None) -> Partie:
    """Put a partie into an evening of its club (or take it out); a settled evening is
    closed to changes."""
    if evening is not None and evening.club_id != partie.club_id:
        raise ValueError(f"the partie {partie.pk} is not of the club of the evening {evening}")
    for touched in (partie.evening, evening):
        if touched is not None and touched.is_settled:
            raise EveningSettledError(touched)
    if evening is not None and partie.evening_id != evening.pk:
        _check_room(evening)
    partie.evening = evening
    partie.save(update_fields=["evening"])
    return partie


@transaction.atomic
def evening_settle(*, evening: Evening) -> list[EveningPayment]:
    """Freeze the evening's settle-up: the fewest transfers, open debts carried in included.
    A game still in question holds it back (EveningHeldError, ``selectors.held_games``):
    money is not settled on a result its players have not agreed."""
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if evening.is_settled:
        raise EveningSettledError(evening)
    sheet = evening_sheet(evening)  # the very figures the evening page shows
    if sheet.held:
        raise EveningHeldError(evening, sheet.held)
    largest = EveningPayment._meta.get_field("amount")
    most = Decimal(10) ** (largest.max_digits - largest.decimal_places) - 1
    for transfer in sheet.transfers:
        if abs(transfer.amount) > most:  # refused, not a database error on every try
            raise EveningAmountError(evening, transfer.amount)
    players = {player.name: player for player in sheet.players}
    payments = EveningPayment.objects.bulk_create(
        EveningPayment(
            evening=evening,
            payer=players[t.payer],
            payee=players[t.payee],
            amount=t.amount,
        )
        for t in sheet.transfers
    )
    EveningPayment.objects.filter(pk__in=[debt.pk for debt in sheet.debts]).update(
        carried_to=evening
    )
    evening.settled_at = timezone.now()
    evening.save(update_fields=["settled_at"])
    return payments


def evening_payment_paid(*, payment: EveningPayment, paid: bool = True) -> EveningPayment:
    """Mark a transfer paid, or not paid after all; a debt carried on is settled there."""
    if payment.carried_to_id is not None:
        raise EveningSettledError(payment.carried_to)
    payment.paid_at = timezone.now() if paid else None
    payment.save(update_fields=["paid_at"])
    return payment
