"""Every write to parties and hands: keyword-only, transactional, replayed by the engine.

Each service locks the partie, replays all its hands through the engine with the
change applied, and saves only if the engine accepts every hand. A refused change
raises ``engine.HandError`` and leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs.models import Club, Membership
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine.record import Record, RecordError, entry_json, replay

from .models import (
    Entry,
    Evening,
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    Player,
    Seat,
    entries_to_engine,
    entry_rows,
)
from .selectors import evening_sheet


class EveningSettledError(ValueError):
    """A change to an evening that is already settled up."""

    def __init__(self, evening: Evening):
        super().__init__(f"the evening {evening} is settled up: its parties cannot change")
        self.evening = evening


def _seated_player(club: Club, name: str, owner: AbstractBaseUser) -> Player:
    """The club's player of that name, entered now if the club has none yet."""
    player, _ = Player.objects.get_or_create(
        club=club, name=name.strip(), defaults={"owner": owner}
    )
    return player


@transaction.atomic
def player_link(*, player: Player, user: AbstractBaseUser | None) -> Player:
    """Link the player to the account of a member of his club (None: to nobody); a member
    is one player in a club, so the link moves from any other player there."""
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise ValueError(f"{user} is not a member of the club of {player}")
        Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk).update(
            user=None
        )
    player.user = user
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def partie_start(
    *,
    owner: AbstractBaseUser,
    club: Club | None = None,
    names: Sequence[str],
    rules: engine.Ruleset,
    kind: str = Partie.Kind.TWO_PLAYER,
    stake: Decimal = Decimal(0),
    first_dealer: str | None = None,
    stakes: dict[str, Decimal] | None = None,
    evening: Evening | None = None,
) -> Partie:
    """Seat the players (in cut order where roles rotate) and fix the rules.

    The partie belongs to ``club`` (by default its evening's, or the personal club of
    ``owner``, who starts it); its players are the club's. The first named deals unless
    told otherwise (in a chouette or three-player rotation the roles decide); ``stakes``
    gives chouette members their own stake.
    """
    names = [name.strip() for name in names]
    session = engine.session_class(kind)(names, rules, first_dealer)  # checks the seating
    club = _club_of(owner, club, evening)
    if evening is not None and evening.is_settled:
        raise EveningSettledError(evening)
    players = [_seated_player(club, name, owner) for name in names]
    # Stored so that every replay deals as the table did: the named first dealer, or
    # whoever the session starts with (a partnership names table 1's).
    starts = session.dealer if isinstance(session.dealer, str) else names[0]
    dealer = players[names.index(first_dealer or starts)]
    partie = Partie.objects.create(
        club=club,
        owner=owner,
        kind=kind,
        rules=rules.to_dict(),
        stake=stake,
        first_dealer=dealer,
        evening=evening,
    )
    stakes = stakes or {}
    Seat.objects.bulk_create(
        Seat(partie=partie, player=p, position=i, stake=stakes.get(p.name))
        for i, p in enumerate(players)
    )
    _save_result(partie, session)
    return partie


def _club_of(owner: AbstractBaseUser, club: Club | None, evening: Evening | None) -> Club:
    """Where a new partie goes: the club given, its evening's, or the owner's own."""
    if evening is not None:
        if club is not None and club.pk != evening.club_id:
            raise ValueError(f"the evening {evening} belongs to another club than {club}")
        return evening.club
    return club or personal_club(owner)


@transaction.atomic
def partie_import(*, owner: AbstractBaseUser, record: Record, club: Club | None = None) -> Partie:
    """A new partie from a game record, in ``club`` (by default the owner's personal
    club); a refused hand raises RecordError naming it."""
    _check_names(record.players)
    session = replay(record)
    partie = partie_start(
        owner=owner,
        club=club,
        names=record.players,
        rules=record.rules,
        kind=record.kind,
        stake=record.stake,
        first_dealer=record.first_dealer,
        stakes=record.stakes,
    )
    players = {seat.player.name: seat.player for seat in partie.seats.select_related("player")}
    Hand.objects.bulk_create(
        Hand(partie=partie, number=number, **row)
        for number, entry in enumerate(record.hands, start=1)
        for row in entry_rows(entry, players)
    )
    HandChange.objects.bulk_create(
        HandChange(
            partie=partie,
            hand_number=number,
            action=HandChange.Action.IMPORTED,
            user=owner,
            after=entry_json(entry),
        )
        for number, entry in enumerate(record.hands, start=1)
    )
    _save_result(partie, session)
    return partie


@dataclass(frozen=True)
class Written:
    """What a write leaves: its audit entry and the engine's replay of the partie."""

    change: HandChange
    session: engine.Session


@transaction.atomic
def hand_record(*, partie: Partie, hand: Entry, user: AbstractBaseUser) -> Written:
    """Add the next hand (a round of two hands in a partnership); refused once it is over."""
    partie, players, rows = _locked(partie)
    entries = entries_to_engine(partie.kind, rows)
    number = len(entries) + 1
    session = _replay(partie, list(players), [*entries, hand], changed=number)
    Hand.objects.bulk_create(
        Hand(partie=partie, number=number, **row) for row in entry_rows(hand, players)
    )
    return _written(partie, session, user, HandChange.Action.RECORDED, number, after=hand)


@transaction.atomic
def hand_edit(*, partie: Partie, number: int, hand: Entry, user: AbstractBaseUser) -> Written:
    """Correct an earlier hand; every hand after it is scored again."""
    partie, players, rows = _locked(partie)
    entries = entries_to_engine(partie.kind, rows)
    before = _nth(entries, number)
    new = [hand if n == number else e for n, e in _numbered(entries)]
    session = _replay(partie, list(players), new, changed=number)
    targets = {row.table: row for row in rows if row.number == number}
    for fields in entry_rows(hand, players):
        target = targets[fields["table"]]
        for field, value in fields.items():
            setattr(target, field, value)
        target.save()
    return _written(
        partie, session, user, HandChange.Action.EDITED, number, before=before, after=hand
    )


@transaction.atomic
def hand_delete(*, partie: Partie, number: int, user: AbstractBaseUser) -> Written:
    """Remove a hand; the hands after it move up one number and are scored again."""
    partie, players, rows = _locked(partie)
    entries = entries_to_engine(partie.kind, rows)
    before = _nth(entries, number)
    rest = [e for n, e in _numbered(entries) if n != number]
    session = _replay(partie, list(players), rest, changed=number)
    Hand.objects.filter(partie=partie, number=number).delete()
    for row in rows:  # in order, so that the unique (partie, number, table) holds at every step
        if row.number > number:
            row.number -= 1
            row.save(update_fields=["number"])
    return _written(partie, session, user, HandChange.Action.DELETED, number, before=before)


@transaction.atomic
def partie_rules_change(
    *, partie: Partie, rules: engine.Ruleset, user: AbstractBaseUser
) -> Written:
    """Play the partie under other rules from its first hand on: an explicit, audited act."""
    partie, players, rows = _locked(partie)
    before = partie.rules
    partie.rules = rules.to_dict()
    session = _replay(partie, list(players), entries_to_engine(partie.kind, rows), changed=0)
    partie.save(update_fields=["rules"])
    change = HandChange.objects.create(
        partie=partie, action=HandChange.Action.RULES, user=user, before=before, after=partie.rules
    )
    _save_result(partie, session)
    return Written(change, session)


def partie_replay(partie: Partie, rules: engine.Ruleset | None = None) -> engine.Session:
    """The partie's hands replayed, under other rules when given; nothing is saved."""
    rows = list(partie.hands.select_related("knocker").order_by("number", "table"))
    session = engine.session_class(partie.kind)(
        partie.player_names, rules or partie.ruleset, partie.first_dealer.name
    )
    for number, entry in _numbered(entries_to_engine(partie.kind, rows)):
        _record(session, number, entry, changed=0)
    return session


def _written(
    partie: Partie,
    session: engine.Session,
    user: AbstractBaseUser,
    action: HandChange.Action,
    number: int,
    before: Entry | None = None,
    after: Entry | None = None,
) -> Written:
    """Keep the change in the audit trail and refresh the cached result."""
    change = HandChange.objects.create(
        partie=partie,
        hand_number=number,
        action=action,
        user=user,
        before=entry_json(before) if before else None,
        after=entry_json(after) if after else None,
    )
    _save_result(partie, session)
    return Written(change, session)


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


def _locked(partie: Partie) -> tuple[Partie, dict[str, Player], list[Hand]]:
    """The partie locked for this transaction, its seated players by name and its hands.

    The seats are fixed when a partie starts, so the caller's (usually prefetched)
    seats serve; the partie row itself is read again under the lock.
    """
    seats = list(partie.seats.all())
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    # Its evening locked too (settling locks it), by a query of its own: Postgres locks
    # no row on the nullable side of an outer join (select_related("evening")).
    if partie.evening_id is not None:
        partie.evening = Evening.objects.select_for_update().get(pk=partie.evening_id)
    if partie.evening is not None and partie.evening.is_settled:
        # Its payments are frozen: a change here would make them disagree.
        raise engine.HandError(
            "evening_settled",
            f"the partie belongs to the settled evening {partie.evening.name}",
            evening=partie.evening.name,
        )
    players = {seat.player.name: seat.player for seat in seats}
    partie.first_dealer = next(p for p in players.values() if p.pk == partie.first_dealer_id)
    rows = list(partie.hands.select_related("knocker").order_by("number", "table"))
    return partie, players, rows


def _numbered(entries: list[Entry]) -> list[tuple[int, Entry]]:
    return list(enumerate(entries, start=1))


def _nth(entries: list[Entry], number: int) -> Entry:
    if not 1 <= number <= len(entries):
        raise Hand.DoesNotExist(f"hand {number} does not exist")
    return entries[number - 1]


def _replay(partie: Partie, names: list[str], entries: list[Entry], changed: int) -> engine.Session:
    """Score all entries; a hand refused after the changed one is named in the error."""
    session = engine.session_class(partie.kind)(names, partie.ruleset, partie.first_dealer.name)
    for number, entry in _numbered(entries):
        _record(session, number, entry, changed)
    return session


def _record(session: engine.Session, number: int, entry: Entry, changed: int) -> None:
    try:
        session.record(entry)
    except engine.HandError as error:
        if number == changed:
            raise
        raise engine.HandError(
            "later_hand_refused",
            f"hand {number} would then be refused: {error}",
            number=number,
            reason=error,
        ) from error


def _save_result(partie: Partie, session: engine.Session) -> None:
    """Refresh the cached state and summary from the engine's replay."""
    games = session.games()
    over = session.is_over()
    partie.state = Partie.State.CLOSED if over else Partie.State.RUNNING
    if over and partie.closed_at is None:
        partie.closed_at = timezone.now()
    elif not over:
        partie.closed_at = None
    totals = [{name: final.total for name, final in game.players.items()} for game in games]
    partie.summary = {
        "players": list(session.players),
        "hands": len(session.lines),
        "totals": totals[-1] if totals else {},  # the game being played, or the last one
        "games": totals,
        "winner": session.overall_winner(),  # Hollywood has none: three games
        "next_dealer": session.dealer,
    }
    partie.save(update_fields=["state", "closed_at", "summary"])


# Evenings: the parties of one table or club night, settled up together.


def evening_start(
    *, owner: AbstractBaseUser, name: str, played_on: date, club: Club | None = None
) -> Evening:
    """A new evening of ``club`` (by default the personal club of ``owner``, who starts it)."""
    return Evening.objects.create(
        club=club or personal_club(owner), owner=owner, name=name.strip(), played_on=played_on
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
    partie.evening = evening
    partie.save(update_fields=["evening"])
    return partie


@transaction.atomic
def evening_settle(*, evening: Evening) -> list[EveningPayment]:
    """Freeze the evening's settle-up: the fewest transfers, open debts carried in included."""
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if evening.is_settled:
        raise EveningSettledError(evening)
    sheet = evening_sheet(evening)  # the very figures the evening page shows
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
