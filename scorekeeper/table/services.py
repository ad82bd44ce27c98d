"""Every write to parties and hands: keyword-only, transactional, replayed by the engine.

Each service locks the partie, replays all its hands through the engine with the
change applied, and saves only if the engine accepts every hand. A refused change
raises ``engine.HandError`` and leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.engine.record import Record, RecordError, hand_json, replay

from .models import Hand, HandChange, Partie, Player, Seat, hand_from_engine, hand_to_engine


def player_for(*, owner: AbstractBaseUser, name: str) -> Player:
    player, _ = Player.objects.get_or_create(owner=owner, name=name.strip())
    return player


@transaction.atomic
def partie_start(
    *,
    owner: AbstractBaseUser,
    names: Sequence[str],
    rules: engine.Ruleset,
    stake: Decimal = Decimal(0),
    first_dealer: str | None = None,
) -> Partie:
    """Seat the players and fix the rules; the first named deals unless told otherwise."""
    names = [name.strip() for name in names]
    engine.Game(names, rules, first_dealer)  # the engine checks the seating
    players = [player_for(owner=owner, name=name) for name in names]
    dealer = players[names.index(first_dealer)] if first_dealer else players[0]
    partie = Partie.objects.create(
        owner=owner, rules=rules.to_dict(), stake=stake, first_dealer=dealer
    )
    Seat.objects.bulk_create(
        Seat(partie=partie, player=p, position=i) for i, p in enumerate(players)
    )
    _save_result(partie, names, engine.Game(names, rules, first_dealer))
    return partie


@transaction.atomic
def partie_import(*, owner: AbstractBaseUser, record: Record) -> Partie:
    """A new partie from a game record; a refused hand raises RecordError naming it."""
    _check_names(record.players)
    game = replay(record)
    partie = partie_start(
        owner=owner,
        names=record.players,
        rules=record.rules,
        stake=record.stake,
        first_dealer=record.first_dealer,
    )
    players = {seat.player.name: seat.player for seat in partie.seats.select_related("player")}
    Hand.objects.bulk_create(
        Hand(partie=partie, number=n, **hand_from_engine(h, players))
        for n, h in enumerate(record.hands, start=1)
    )
    HandChange.objects.bulk_create(
        HandChange(
            partie=partie,
            hand_number=n,
            action=HandChange.Action.IMPORTED,
            user=owner,
            after=hand_json(h),
        )
        for n, h in enumerate(record.hands, start=1)
    )
    _save_result(partie, list(record.players), game)
    return partie


@dataclass(frozen=True)
class Written:
    """What a write to the hands leaves: its audit entry and the engine's replay."""

    change: HandChange
    game: engine.Game


@transaction.atomic
def hand_record(*, partie: Partie, hand: engine.Hand, user: AbstractBaseUser) -> Written:
    """Add the next hand; refused once the partie is over."""
    partie, names, players, hands = _locked(partie)
    number = len(hands) + 1
    game = _replay(partie, names, [*map(hand_to_engine, hands), hand], changed=number)
    Hand.objects.create(partie=partie, number=number, **hand_from_engine(hand, players))
    return _written(partie, names, game, user, HandChange.Action.RECORDED, number, after=hand)


@transaction.atomic
def hand_edit(*, partie: Partie, number: int, hand: engine.Hand, user: AbstractBaseUser) -> Written:
    """Correct an earlier hand; every hand after it is scored again."""
    partie, names, players, hands = _locked(partie)
    target = _nth(hands, number)
    before = hand_to_engine(target)
    new_hands = [hand if h.number == number else hand_to_engine(h) for h in hands]
    game = _replay(partie, names, new_hands, changed=number)
    for field, value in hand_from_engine(hand, players).items():
        setattr(target, field, value)
    target.save()
    return _written(
        partie, names, game, user, HandChange.Action.EDITED, number, before=before, after=hand
    )


@transaction.atomic
def hand_delete(*, partie: Partie, number: int, user: AbstractBaseUser) -> Written:
    """Remove a hand; the hands after it move up one number and are scored again."""
    partie, names, _, hands = _locked(partie)
    target = _nth(hands, number)
    game = _replay(
        partie, names, [hand_to_engine(h) for h in hands if h.number != number], changed=number
    )
    target.delete()
    later = [h for h in hands if h.number > number]
    for h in later:  # renumber in order so that the unique (partie, number) holds at every step
        h.number -= 1
        h.save(update_fields=["number"])
    before = hand_to_engine(target)
    return _written(partie, names, game, user, HandChange.Action.DELETED, number, before=before)


def _written(
    partie: Partie,
    names: list[str],
    game: engine.Game,
    user: AbstractBaseUser,
    action: HandChange.Action,
    number: int,
    before: engine.Hand | None = None,
    after: engine.Hand | None = None,
) -> Written:
    """Keep the change in the audit trail and refresh the cached result."""
    change = HandChange.objects.create(
        partie=partie,
        hand_number=number,
        action=action,
        user=user,
        before=hand_json(before) if before else None,
        after=hand_json(after) if after else None,
    )
    _save_result(partie, names, game)
    return Written(change, game)


def _check_names(names: Sequence[str]) -> None:
    """Names the table can seat as they are: the engine accepts any text, a Player does not."""
    longest = Player._meta.get_field("name").max_length
    errors = []
    for name in names:
        if name != name.strip():
            errors.append(f"players: {name!r} begins or ends with a space: remove it")
        elif len(name) > longest:
            errors.append(f"players: {name!r} is longer than {longest} characters")
    if errors:
        raise RecordError(errors)


def _locked(partie: Partie) -> tuple[Partie, list[str], dict[str, Player], list[Hand]]:
    """The partie locked for this transaction, its seated names, players and hands.

    The seats are fixed when a partie starts, so the caller's (usually prefetched)
    seats serve; the partie row itself is read again under the lock.
    """
    seats = list(partie.seats.all())
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    players = {seat.player.name: seat.player for seat in seats}
    partie.first_dealer = next(p for p in players.values() if p.pk == partie.first_dealer_id)
    hands = list(partie.hands.select_related("knocker").order_by("number"))
    return partie, [seat.player.name for seat in seats], players, hands


def _nth(hands: list[Hand], number: int) -> Hand:
    for hand in hands:
        if hand.number == number:
            return hand
    raise Hand.DoesNotExist(f"hand {number} does not exist")


def _replay(
    partie: Partie, names: list[str], hands: list[engine.Hand], changed: int
) -> engine.Game:
    """Score all hands; a hand refused after the changed one is named in the error."""
    game = engine.Game(names, partie.ruleset, partie.first_dealer.name)
    for number, hand in enumerate(hands, start=1):
        try:
            game.record(hand)
        except engine.HandError as error:
            if number <= changed:
                raise
            raise engine.HandError(
                "later_hand_refused",
                f"hand {number} would then be refused: {error}",
                number=number,
                reason=error,
            ) from error
    return game


def _save_result(partie: Partie, names: list[str], game: engine.Game) -> None:
    """Refresh the cached state and summary from the engine's replay."""
    tally = game.tally()
    partie.state = Partie.State.CLOSED if tally.closed else Partie.State.RUNNING
    if tally.closed and partie.closed_at is None:
        partie.closed_at = timezone.now()
    elif not tally.closed:
        partie.closed_at = None
    partie.summary = {
        "players": names,
        "hands": len(game.lines),
        "totals": {name: tally.players[name].total for name in names},
        "winner": tally.winner,
        "next_dealer": game.dealer,
    }
    partie.save(update_fields=["state", "closed_at", "summary"])
