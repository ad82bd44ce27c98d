"""Writes to parties and hands: started, imported, a hand recorded, edited or deleted, the rules
changed, time called, ended early. Each locks the partie, replays every hand through the
engine with the change applied, and saves only what the engine accepts; a refused change
raises ``engine.HandError`` and leaves the database as it was.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine import bounds
from scorekeeper.engine.record import Problems, Record, entry_json, replay
from scorekeeper.prepared import Prepared

from ..models import (
    Entry,
    EntryKey,
    Evening,
    Hand,
    HandChange,
    Partie,
    Player,
    ResultsChange,
    Seat,
    scoring,
)
from ..selectors import hands_in_order, partie_leader, per_point
from .evenings import EveningSettledError, _check_room
from .results import GameLocked, partie_results_store


def _seated_player(club: Club, name: str, owner: AbstractBaseUser) -> Player:
    """The club's player of that name, entered now if the club has none yet."""
    player, _ = Player.objects.get_or_create(
        club=club, name=name.strip(), defaults={"owner": owner}
    )
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
    cut: bool = False,
) -> Partie:
    """Seat the players (in cut order where roles rotate) and fix the rules.

    The partie belongs to ``club`` (by default its evening's, or the personal club of
    ``owner``, who starts it); its players are the club's. The first named deals unless
    told otherwise (in a chouette or three-player rotation the roles decide); ``stakes``
    gives chouette members their own stake. ``cut``: the app cuts for the deal instead
    (``cut_for_deal``) and the partie remembers it, to say so at the table.
    """
    names = [name.strip() for name in names]
    if cut:
        names, first_dealer = cut_for_deal(kind, names)
    session = engine.session_class(kind)(names, rules, first_dealer)  # checks the seating
    club = _club_of(owner, club, evening)
    if evening is not None and evening.is_settled:
        raise EveningSettledError(evening)
    if evening is not None:
        _check_room(evening)
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
        dealer_cut=cut,
        evening=evening,
    )
    stakes = stakes or {}
    Seat.objects.bulk_create(
        Seat(partie=partie, player=p, position=i, stake=stakes.get(p.name))
        for i, p in enumerate(players)
    )
    _save_result(partie, session, {p.name: p for p in players})
    return partie


def cut_for_deal(kind: str, names: Sequence[str]) -> tuple[list[str], str | None]:
    """The cut, as a table would make it, by an unpredictable draw (``secrets``): the
    seats in cut order, highest first, where the roles deal (the first is in the box);
    otherwise the seats as given and the one who deals first."""
    names = list(names)
    if engine.session_class(kind).dealt_by_roles:
        secrets.SystemRandom().shuffle(names)
        return names, None
    return names, secrets.choice(names)


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
        for row in partie.rows_of(entry, players)
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
    _save_result(partie, session, players)
    return partie


@dataclass(frozen=True)
class Written:
    """What a write leaves: its audit entry and the engine's replay of the partie."""

    change: HandChange
    session: engine.Session
    # The entry's key was recorded before (a double tap, a retry): nothing was written,
    # ``change`` is the first recording's.
    replayed: bool = False


def hand_record(
    *, partie: Partie, hand: Entry, user: AbstractBaseUser, key: UUID | None = None
) -> Written:
    """Add the next hand (a round of two hands in a partnership); refused once it is over.

    ``key``, the hand form's idempotency key, records the entry once: the same key again
    answers with the entry recorded under it (``replayed``), not a second one.
    """
    try:
        return _hand_record(partie=partie, hand=hand, user=user, key=key)
    except IntegrityError:
        # Two requests with one key that the partie's lock did not put in order (it
        # holds on PostgreSQL; SQLite writes one transaction at a time): the first won.
        replayed = _recorded_under(partie, key) if key is not None else None
        if replayed is None:
            raise
        return replayed


@transaction.atomic
def _hand_record(
    *, partie: Partie, hand: Entry, user: AbstractBaseUser, key: UUID | None
) -> Written:
    partie, players, rows = _locked(partie)
    if key is not None:
        # Under the partie's lock, so a second request with the key waits for the first
        # to commit, then finds its key here (PostgreSQL reads committed rows anew).
        replayed = _recorded_under(partie, key)
        if replayed is not None:
            return replayed
    entries = partie.entries_of(rows)
    number = len(entries) + 1
    if number > bounds.MAX_HANDS:
        raise engine.HandError(
            "too_many_hands",
            f"a partie holds at most {bounds.MAX_HANDS} hands",
            most=bounds.MAX_HANDS,
        )
    session = _replay(partie, list(players), [*entries, hand], changed=number)
    Hand.objects.bulk_create(
        Hand(partie=partie, number=number, **row) for row in partie.rows_of(hand, players)
    )
    if key is not None:
        EntryKey.objects.create(partie=partie, key=key, number=number)
    return _written(partie, session, players, user, HandChange.Action.RECORDED, number, after=hand)


def _recorded_under(partie: Partie, key: UUID) -> Written | None:
    """What the entry recorded under ``key`` left: its audit entry and the partie now."""
    entry_key = EntryKey.objects.filter(partie=partie, key=key).first()
    if entry_key is None:
        return None
    changes = HandChange.objects.filter(partie=partie, action=HandChange.Action.RECORDED)
    change = changes.filter(hand_number=entry_key.number).order_by("-at", "-pk").first()
    if change is None:  # not in the trail (any more): an unsaved one names the hand
        change = HandChange(partie=partie, hand_number=entry_key.number)
    return Written(change, partie_replay(partie), replayed=True)


@transaction.atomic
def hand_edit(*, partie: Partie, number: int, hand: Entry, user: AbstractBaseUser) -> Written:
    """Correct an earlier hand; every hand after it is scored again."""
    partie, players, rows = _locked(partie)
    entries = partie.entries_of(rows)
    before = _nth(entries, number)
    new = [hand if n == number else e for n, e in _numbered(entries)]
    session = _replay(partie, list(players), new, changed=number)
    targets = {row.table: row for row in rows if row.number == number}
    for fields in partie.rows_of(hand, players):
        target = targets[fields["table"]]
        for field, value in fields.items():
            setattr(target, field, value)
        target.save()
    return _written(
        partie, session, players, user, HandChange.Action.EDITED, number, before=before, after=hand
    )


@transaction.atomic
def hand_delete(*, partie: Partie, number: int, user: AbstractBaseUser) -> Written:
    """Remove a hand; the hands after it move up one number and are scored again."""
    partie, players, rows = _locked(partie)
    entries = partie.entries_of(rows)
    before = _nth(entries, number)
    rest = [e for n, e in _numbered(entries) if n != number]
    session = _replay(partie, list(players), rest, changed=number)
    Hand.objects.filter(partie=partie, number=number).delete()
    for row in rows:  # in order, so that the unique (partie, number, table) holds at every step
        if row.number > number:
            row.number -= 1
            row.save(update_fields=["number"])
    return _written(
        partie, session, players, user, HandChange.Action.DELETED, number, before=before
    )


@transaction.atomic
def partie_rules_change(
    *,
    partie: Partie,
    rules: engine.Ruleset,
    user: AbstractBaseUser,
    stake: Decimal | None = None,
) -> Written:
    """Play the partie under other rules (and, given, at another stake per point) from
    its first hand on: an explicit, audited act. Like every change of its games, it is
    refused in a settled evening (its payments are frozen) and for a game its players
    confirmed (its money is theirs)."""
    partie, players, rows = _locked(partie)
    before, after = dict(partie.rules), rules.to_dict()
    if stake is not None and Decimal(stake) != Decimal(partie.stake):
        # The trail keeps a stake beside the rules only when it changes.
        before["stake"], after["stake"] = str(per_point(partie.stake)), str(per_point(stake))
        partie.stake = stake
    partie.rules = rules.to_dict()
    session = _replay(partie, list(players), partie.entries_of(rows), changed=0)
    partie.save(update_fields=["rules", "stake"])
    change = HandChange.objects.create(
        partie=partie, action=HandChange.Action.RULES, user=user, before=before, after=after
    )
    _save_result(partie, session, players)
    _time_up(partie, user)
    return Written(change, session)


class DealerError(ValueError):
    """A first dealer the partie cannot take: after its first hand, where the roles
    deal, or not one of its players."""


@transaction.atomic
def partie_first_dealer_change(*, partie: Partie, name: str, user: AbstractBaseUser) -> Partie:
    """The players name another first dealer than the cut's (or the first named), before
    the first hand: after it, every hand's dealer follows from the first. Audited."""
    partie, players, rows = _locked(partie)
    if rows:
        raise DealerError("the first hand is recorded: the first dealer stays")
    if partie.session_class.dealt_by_roles:
        raise DealerError(f"in a {partie.kind} partie the roles say who deals")
    if name not in players:
        raise DealerError(f"{name!r} is not one of the players")
    before = partie.first_dealer.name
    partie.first_dealer, partie.dealer_cut = players[name], False
    partie.save(update_fields=["first_dealer", "dealer_cut"])
    HandChange.objects.create(
        partie=partie,
        action=HandChange.Action.DEALER,
        user=user,
        before={"first_dealer": before},
        after={"first_dealer": name},
    )
    _save_result(partie, partie.new_session(list(players)), players)
    return partie


def partie_replay(partie: Partie, rules: engine.Ruleset | None = None) -> engine.Session:
    """The partie's hands replayed, under other rules when given; nothing is saved."""
    rows = list(partie.hands.select_related("knocker").order_by("number", "table"))
    session = partie.new_session(rules=rules)
    for number, entry in _numbered(partie.entries_of(rows)):
        _record(session, number, entry, changed=0)
    return session


def _written(
    partie: Partie,
    session: engine.Session,
    players: dict[str, Player],
    user: AbstractBaseUser,
    action: HandChange.Action,
    number: int,
    before: Entry | None = None,
    after: Entry | None = None,
    undoes: HandChange | None = None,
) -> Written:
    """Keep the change in the audit trail and refresh the cached result."""
    change = HandChange.objects.create(
        partie=partie,
        hand_number=number,
        action=action,
        user=user,
        before=entry_json(before) if before else None,
        after=entry_json(after) if after else None,
        undoes=undoes,
    )
    _save_result(partie, session, players, appended=action == HandChange.Action.RECORDED)
    _time_up(partie, user)
    return Written(change, session)


@transaction.atomic
def partie_time_call(*, partie: Partie, user: AbstractBaseUser | None = None) -> Partie:
    """Time is called on a running partie (a tournament's round, "one more hand"): the
    hand after those played is its last. The write that reaches it ends the partie in
    its own transaction (``_time_up``), unless its players are level then: they play on
    until a hand puts one ahead. Called already, or over: left as it is. Audited."""
    partie, _players, _rows = _locked(partie)
    if not partie.is_running or partie.last_hand is not None:
        return partie
    partie.last_hand = partie.summary.get("hands", 0) + 1
    partie.version += 1  # its page and live view say so
    partie.save(update_fields=["last_hand", "version"])
    HandChange.objects.create(
        partie=partie,
        action=HandChange.Action.TIME,
        user=user,
        after={"last_hand": partie.last_hand},
    )
    return partie


def _time_up(partie: Partie, user: AbstractBaseUser | None) -> None:
    """Time called and its last hand reached with a leader: the partie ends here, in
    the transaction of the write that reached it (a partie that closed by itself just
    closed)."""
    if (
        partie.last_hand is not None
        and partie.is_running
        and partie.summary.get("hands", 0) >= partie.last_hand
        and partie_leader(partie) is not None
    ):
        _end(partie, Partie.EarlyEnd.TIME, user)


@transaction.atomic
def partie_end_early(
    *, partie: Partie, why: Partie.EarlyEnd, user: AbstractBaseUser | None = None
) -> Partie:
    """End a running partie before its games are played out (``why``: time was called
    on a tournament's round, a player withdrew): it is over with the hands played so
    far, a game it left open counts for nothing (RULES.md §10.5), and it takes no more
    hands, changes or rules. A partie over already is left as it is (it closed by
    itself first). The audit trail keeps who ended it and why."""
    partie, _players, _rows = _locked(partie, ended=True)
    if partie.is_running:
        _end(partie, why, user)
    return partie


def _end(partie: Partie, why: Partie.EarlyEnd, user: AbstractBaseUser | None) -> None:
    """Close the locked partie early. Its end changes what is due though no game
    closed (a tournament's match is decided by it): a ``ResultsChange`` says so, and
    its task runs the tournaments' step (``tasks.results_changed``)."""
    partie.state = Partie.State.CLOSED
    partie.closed_at = timezone.now()
    partie.ended_early = why
    partie.version += 1  # its live view learns that it is over
    partie.save(update_fields=["state", "closed_at", "ended_early", "version"])
    HandChange.objects.create(
        partie=partie, action=HandChange.Action.ENDED, user=user, after={"why": str(why)}
    )
    ResultsChange.record(partie.club_id, partie.started_at)


def _check_names(names: Sequence[str]) -> None:
    """Names the table can seat as they are: the engine accepts any text, a Player does not."""
    longest = Player._meta.get_field("name").max_length
    errors = Problems()
    for name in names:
        if name != name.strip():
            line = f"players: {name!r} begins or ends with a space: remove it"
            errors.add(line, "name_spaces", name=repr(name))
        elif len(name) > longest:
            line = f"players: {name!r} is longer than {longest} characters"
            errors.add(line, "name_too_long", name=repr(name), longest=longest)
    if errors:
        raise errors.error()


def _locked(partie: Partie, *, ended: bool = False) -> tuple[Partie, dict[str, Player], list[Hand]]:
    """The partie locked for this transaction, its seated players by name and its hands;
    a partie ended early is refused (its hands are final), unless ``ended`` says the
    caller knows.

    The seats are fixed when a partie starts, so the caller's (usually prefetched)
    seats serve; the partie row itself is read again under the lock.
    """
    seats = list(partie.seats.all())
    found = _LOCKING.all(pk=partie.pk)
    if not found:
        raise Partie.DoesNotExist(f"partie {partie.pk} does not exist")
    partie = found[0]
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
    if partie.ended_early and not ended:
        raise engine.HandError(
            "partie_ended",
            f"the partie ended early ({partie.ended_early}): its hands cannot change",
            why=partie.ended_early,
        )
    players = {seat.player.name: seat.player for seat in seats}
    partie.first_dealer = next(p for p in players.values() if p.pk == partie.first_dealer_id)
    rows = hands_in_order(partie)
    for row in rows:
        row.partie = partie  # as partie.hands would set it
    return partie, players, rows


# Asked on every hand: its SQL written once per database.
_LOCKING = Prepared(lambda pk: Partie.objects.select_for_update().filter(pk=pk))


def _numbered(entries: list[Entry]) -> list[tuple[int, Entry]]:
    return list(enumerate(entries, start=1))


def _nth(entries: list[Entry], number: int) -> Entry:
    if not 1 <= number <= len(entries):
        raise Hand.DoesNotExist(f"hand {number} does not exist")
    return entries[number - 1]


def _replay(partie: Partie, names: list[str], entries: list[Entry], changed: int) -> engine.Session:
    """Score all entries; a hand refused after the changed one is named in the error."""
    session = partie.new_session(names)
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


def _save_result(
    partie: Partie, session: engine.Session, players: dict[str, Player], appended: bool = False
) -> None:
    """Refresh the cached state and summary from the engine's replay, and what the
    partie gives a league: the standings follow every change in the same transaction.
    A hand added to the end changes the league's games only when it closes one.

    Money the engine cannot compute (rules stored before their bounds) raises
    ``Unscorable``, and a change that would alter a game its players confirmed raises
    ``HandError`` ("game_confirmed"): the caller's transaction saves nothing."""
    try:
        with scoring(partie):
            _store_result(partie, session, players, appended)
    except GameLocked as locked:
        numbered = partie.session_class.numbered
        code = "game_confirmed" if numbered else "result_confirmed"
        raise engine.HandError(code, str(locked), game=locked.number) from None


def _store_result(
    partie: Partie, session: engine.Session, players: dict[str, Player], appended: bool
) -> None:
    summary = summary_of(session)
    settled_games_changed = (
        not appended or partie.summary.get("closed_games") != summary["closed_games"]
    )
    over = session.is_over() or bool(partie.ended_early)  # ended early: over for good
    partie.state = Partie.State.CLOSED if over else Partie.State.RUNNING
    if over and partie.closed_at is None:
        partie.closed_at = timezone.now()
    elif not over:
        partie.closed_at = None
    partie.summary = summary
    # Under the row lock (_locked) or on a new row, so no write is lost: the live view
    # answers "unchanged" by this number alone.
    partie.version += 1
    partie.save(update_fields=["state", "closed_at", "summary", "version"])
    partie_results_store(
        partie=partie, session=session, players=players, games=settled_games_changed
    )


def summary_of(session: engine.Session) -> dict:
    """What lists show of a partie without replaying it: names, hands, totals, winner."""
    games = session.games()
    totals = [[[name, final.total] for name, final in game.players.items()] for game in games]
    return {
        "players": list(session.players),
        "hands": len(session.lines),
        "totals": dict(totals[-1]) if totals else {},  # the game being played, or the last one
        "games": totals,  # pairs, in column order (Partie.game_totals)
        "winner": session.overall_winner(),  # Hollywood has none: three games
        "winners": [game.winner for game in games],  # each game's winning column, or None
        "next_dealer": session.dealer,
        "closed_games": sum(game.closed for game in games),
    }
