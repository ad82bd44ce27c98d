"""Every write to parties and hands: keyword-only, transactional, replayed by the engine.

Each service locks the partie, replays all its hands through the engine with the
change applied, and saves only if the engine accepts every hand. A refused change
raises ``engine.HandError`` and leaves the database as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.clubs.models import Club, Membership
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine import bounds
from scorekeeper.engine.record import (
    Problems,
    Record,
    entry_json,
    parse_entry,
    replay,
)

from .models import (
    Entry,
    EntryKey,
    Evening,
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    Seat,
    SettlementLine,
    Unscorable,
    new_share_token,
    scoring,
)
from .results import games_renew, partie_results_drop, partie_results_store
from .selectors import HANDS_IN_ORDER, evening_sheet, partie_session, partie_with_players


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


def _check_room(evening: Evening) -> None:
    """Refuse a partie for an evening that holds MAX_PARTIES_PER_EVENING already."""
    if Partie.objects.filter(evening=evening).count() >= bounds.MAX_PARTIES_PER_EVENING:
        raise EveningFullError(evening)


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


# Players: a rename, and two entries for one person made one.

PLAYER_MESSAGES = {
    "name_empty": _("Enter the player's name."),
    "name_too_long": _("A name has at most %(limit)d characters: shorten it."),
    "name_taken": _(
        "The club has a player named %(name)s already: choose another name, or merge "
        "the two players if they are one person."
    ),
    "same_player": _("Choose another player: %(name)s cannot be merged with himself."),
    "other_club": _(
        "%(gone)s plays in another club than %(keep)s: only players of one club can be merged."
    ),
    "seated_together": _(
        "%(gone)s and %(keep)s both sat in the partie %(partie)s: they are two people, "
        "so they cannot be merged. Rename one of them instead."
    ),
}


class PlayerError(ValueError):
    """A rename or merge the club refuses; ``code`` is one of ``PLAYER_MESSAGES`` and
    the message says what to change."""

    def __init__(self, code: str, **params: object):
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(PLAYER_MESSAGES[self.code]) % self.params


@transaction.atomic
def player_rename(*, player: Player, name: str, user: AbstractBaseUser) -> Player:
    """Give the player another name, unique in his club (whatever the case: "anna" beside
    "Anna" would be one person twice); every partie he sat in names him anew, and its
    audit trail says so."""
    name = name.strip()
    limit = Player._meta.get_field("name").max_length
    if not name:
        raise PlayerError("name_empty")
    if len(name) > limit:
        raise PlayerError("name_too_long", limit=limit)
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = player.name
    if name == before:
        return player
    others = Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk)
    if others.filter(name__iexact=name).exists():
        raise PlayerError("name_taken", name=name)
    player.name = name
    try:
        with transaction.atomic():  # a savepoint: the same name saved at the same moment
            player.save(update_fields=["name"])
    except IntegrityError:
        raise PlayerError("name_taken", name=name) from None
    parties = Partie.objects.filter(seats__player=player).values_list("pk", flat=True)
    _players_renamed(list(parties), user, {"player": before}, {"player": name})
    return player


@transaction.atomic
def player_merge(*, keep: Player, gone: Player, user: AbstractBaseUser) -> Player:
    """Make two entries for one person one: everything of ``gone`` (seats, knocks, first
    deals, evening transfers, league results, hand statistics) becomes ``keep``'s and
    ``gone`` is deleted. ``keep`` keeps his account link, or takes ``gone``'s.

    Refused for players of two clubs, and for two who sat in one partie (one person
    cannot have held two seats). The parties' summaries name ``keep`` and their audit
    trails say who was merged into whom.
    """
    player_merge_check(keep=keep, gone=gone)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk])}
    if len(locked) < 2:  # one of them merged away or deleted meanwhile
        raise Player.DoesNotExist(f"{keep} or {gone} is gone")
    keep, gone = locked[keep.pk], locked[gone.pk]
    player_merge_check(keep=keep, gone=gone)  # again, under the lock
    parties = list(Partie.objects.filter(seats__player=gone).values_list("pk", flat=True))
    Seat.objects.filter(player=gone).update(player=keep)
    Hand.objects.filter(knocker=gone).update(knocker=keep)
    Partie.objects.filter(first_dealer=gone).update(first_dealer=keep)
    # A transfer between the two is one person paying himself: it settles nothing, and
    # every other transfer of its evening stays right (his balance is the two summed).
    EveningPayment.objects.filter(Q(payer=gone, payee=keep) | Q(payer=keep, payee=gone)).delete()
    EveningPayment.objects.filter(payer=gone).update(payer=keep)
    EveningPayment.objects.filter(payee=gone).update(payee=keep)
    PlayerResult.objects.filter(player=gone).update(player=keep)
    SettlementLine.objects.filter(payer=gone).update(payer=keep)
    SettlementLine.objects.filter(payee=gone).update(payee=keep)
    PartieStats.objects.filter(player=gone).update(player=keep)
    games_renew(parties=parties)  # his ratings are rated again from his first game
    account, name = gone.user, gone.name
    gone.delete()  # after its account link is free for keep (one player per member)
    if keep.user_id is None and account is not None:
        keep.user = account
        keep.save(update_fields=["user"])
    _players_renamed(parties, user, {"player": name}, {"player": keep.name, "merged": True})
    return keep


def player_merge_check(*, keep: Player, gone: Player) -> None:
    """Raise the PlayerError that would refuse merging ``gone`` into ``keep``, if any."""
    if keep.pk == gone.pk:
        raise PlayerError("same_player", name=keep.name)
    if keep.club_id != gone.club_id:
        raise PlayerError("other_club", keep=keep.name, gone=gone.name)
    together = (  # deleted parties too: the merge moves their seats as well
        Partie.all_objects.filter(seats__player=keep)
        .filter(seats__player=gone)
        .order_by("started_at", "pk")
        .first()
    )
    if together is not None:
        raise PlayerError(
            "seated_together", keep=keep.name, gone=gone.name, partie=_named(together)
        )


def _named(partie: Partie) -> str:
    names = " – ".join(partie.summary.get("players", [])) or f"#{partie.pk}"
    return f"{names} ({partie.started_at:%Y-%m-%d})"


def _players_renamed(parties: list[int], user: AbstractBaseUser, before: dict, after: dict) -> None:
    """The parties' summaries from a replay under the players' names now (a partnership's
    team is named after its members), and an entry in each audit trail. The hands, and
    so the state and the league's results, do not change."""
    locked = (
        Partie.objects.select_for_update(of=("self",))
        .filter(pk__in=parties)
        .prefetch_related(Prefetch("hands", queryset=HANDS_IN_ORDER))
        .order_by("pk")
    )
    rows = list(partie_with_players(locked))
    for partie in rows:
        # A partie that cannot be scored keeps its summary until it is repaired.
        with contextlib.suppress(Unscorable), scoring(partie):
            partie.summary = summary_of(partie_session(partie))
        partie.version += 1  # the sheet names him anew: the live view shows it
    Partie.objects.bulk_update(rows, ["summary", "version"])
    HandChange.objects.bulk_create(
        HandChange(
            partie=partie, action=HandChange.Action.PLAYER, user=user, before=before, after=after
        )
        for partie in rows
    )


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
        evening=evening,
    )
    stakes = stakes or {}
    Seat.objects.bulk_create(
        Seat(partie=partie, player=p, position=i, stake=stakes.get(p.name))
        for i, p in enumerate(players)
    )
    _save_result(partie, session, {p.name: p for p in players})
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
    *, partie: Partie, rules: engine.Ruleset, user: AbstractBaseUser
) -> Written:
    """Play the partie under other rules from its first hand on: an explicit, audited act."""
    partie, players, rows = _locked(partie)
    before = partie.rules
    partie.rules = rules.to_dict()
    session = _replay(partie, list(players), partie.entries_of(rows), changed=0)
    partie.save(update_fields=["rules"])
    change = HandChange.objects.create(
        partie=partie, action=HandChange.Action.RULES, user=user, before=before, after=partie.rules
    )
    _save_result(partie, session, players)
    return Written(change, session)


def partie_share(*, partie: Partie, shared: bool = True) -> Partie:
    """Give the partie a new read-only link, which ends the old one, or withdraw it
    (``shared=False``). The sheet does not change, so neither does its version."""
    partie.share_token = new_share_token() if shared else None
    partie.save(update_fields=["share_token"])
    return partie


def evening_share(*, evening: Evening, shared: bool = True) -> Evening:
    """Open the evening's board to anyone with a new link (the old one ends), or close it."""
    evening.share_token = new_share_token() if shared else None
    evening.save(update_fields=["share_token"])
    return evening


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
    return Written(change, session)


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
    ``Unscorable``, and the caller's transaction saves nothing."""
    with scoring(partie):
        _store_result(partie, session, players, appended)


def _store_result(
    partie: Partie, session: engine.Session, players: dict[str, Player], appended: bool
) -> None:
    summary = summary_of(session)
    settled_games_changed = (
        not appended or partie.summary.get("closed_games") != summary["closed_games"]
    )
    over = session.is_over()
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
        "next_dealer": session.dealer,
        "closed_games": sum(game.closed for game in games),
    }


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
    if evening is not None and partie.evening_id != evening.pk:
        _check_room(evening)
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


# Repair: deletes that can be undone, parties archived, settled evenings reopened. Each
# is an entry in the audit trail (HandChange); an undo names the entry it undoes.

REPAIR_MESSAGES = {
    "undone_already": _("This change was undone already."),
    "not_undoable": _("Only a deleted hand, a deleted partie or a reopened evening can be undone."),
    "place_gone": _(
        "Hand %(number)s cannot go back to its place: the partie has %(hands)s hands now. "
        "Record it again instead."
    ),
    "evening_settled": _(
        "This partie belongs to the settled evening %(evening)s: its owner can reopen the "
        "evening first."
    ),
    "evening_carried": _(
        "The evening %(evening)s cannot be reopened: its open payments were carried into "
        "the settled evening %(later)s. Reopen %(later)s first."
    ),
    "evening_open": _("The evening %(evening)s is not settled up: there is nothing to reopen."),
    "evening_settled_again": _(
        "The evening %(evening)s is settled up again: its payments are those of the new settle-up."
    ),
    "evening_changed": _(
        "The figures of the evening %(evening)s changed since it was reopened, so its old "
        "payments would not settle it: settle it up again instead."
    ),
}


class RepairError(ValueError):
    """A delete, restore, archive or reopen refused; ``code`` is one of
    ``REPAIR_MESSAGES`` and the message says what to do instead."""

    def __init__(self, code: str, **params: object):
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(REPAIR_MESSAGES[self.code]) % self.params


def _undone(change: HandChange) -> None:
    """Refuse to undo a change twice (its object is locked by the caller)."""
    if HandChange.objects.filter(undoes=change).exists():
        raise RepairError("undone_already")


@transaction.atomic
def hand_restore(*, partie: Partie, change: HandChange, user: AbstractBaseUser) -> Written:
    """Undo a hand's deletion: the hand goes back to its number (the hands from there on
    move down one) and every hand is scored again; refused, as any edit, when the engine
    would refuse it or a later hand."""
    partie, players, rows = _locked(partie)
    if change.partie_id != partie.pk or change.action != HandChange.Action.DELETED:
        raise RepairError("not_undoable")
    _undone(change)
    entries = partie.entries_of(rows)
    number = change.hand_number
    if not 1 <= number <= len(entries) + 1:
        raise RepairError("place_gone", number=number, hands=len(entries))
    hand = parse_entry(partie.kind, change.before, partie.ruleset)
    restored = [*entries[: number - 1], hand, *entries[number - 1 :]]
    session = _replay(partie, list(players), restored, changed=number)
    for row in reversed(rows):  # last first, so that the unique (partie, number, table) holds
        if row.number >= number:
            row.number += 1
            row.save(update_fields=["number"])
    Hand.objects.bulk_create(
        Hand(partie=partie, number=number, **row) for row in partie.rows_of(hand, players)
    )
    action = HandChange.Action.RESTORED
    return _written(partie, session, players, user, action, number, after=hand, undoes=change)


def _unsettled_evening(partie: Partie) -> None:
    """Lock the partie's evening and refuse a change to one that is settled up: its
    payments are frozen and a partie more or less would make them disagree."""
    if partie.evening_id is None:
        return
    evening = Evening.objects.select_for_update().get(pk=partie.evening_id)
    if evening.is_settled:
        raise RepairError("evening_settled", evening=evening.name)


@transaction.atomic
def partie_delete(*, partie: Partie, user: AbstractBaseUser) -> HandChange:
    """Delete a partie so that it can be restored: it leaves every page, list, evening
    and the league's standings, and keeps its hands and audit trail; the entry returned
    is the one that ``partie_restore`` undoes."""
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    _unsettled_evening(partie)
    partie.deleted_at = timezone.now()
    partie.version += 1  # its live view learns that it is gone
    partie.save(update_fields=["deleted_at", "version"])
    partie_results_drop(partie=partie)
    return HandChange.objects.create(partie=partie, action=HandChange.Action.REMOVED, user=user)


@transaction.atomic
def partie_restore(*, partie: Partie, user: AbstractBaseUser) -> HandChange:
    """Undo a partie's deletion: back in its lists and evening, and its closed games in the
    standings again (a partie the engine cannot score comes back to be repaired)."""
    partie = Partie.all_objects.select_for_update().get(pk=partie.pk)
    removal = partie.changes.filter(action=HandChange.Action.REMOVED).first()  # the latest
    if partie.deleted_at is None or removal is None:
        raise RepairError("undone_already")
    _unsettled_evening(partie)
    partie.deleted_at = None
    partie.save(update_fields=["deleted_at"])
    change = HandChange.objects.create(
        partie=partie, action=HandChange.Action.UNREMOVED, user=user, undoes=removal
    )
    partie = partie_with_players(Partie.objects.filter(pk=partie.pk)).get()
    try:
        with transaction.atomic(), scoring(partie):  # a savepoint: all results, or none
            partie, players, rows = _locked(partie)
            entries = partie.entries_of(rows)
            _save_result(partie, _replay(partie, list(players), entries, changed=0), players)
    except Unscorable:
        pass  # its page says why, and how to repair it; then the standings count it
    return change


@transaction.atomic
def partie_archive(*, partie: Partie, user: AbstractBaseUser, archived: bool = True) -> Partie:
    """Hide a partie from the home list (``archived``), or show it there again. It still
    counts everywhere else; the audit trail keeps who did it."""
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    if partie.is_archived != archived:
        partie.archived_at = timezone.now() if archived else None
        partie.save(update_fields=["archived_at"])
        action = HandChange.Action.ARCHIVED if archived else HandChange.Action.UNARCHIVED
        HandChange.objects.create(partie=partie, action=action, user=user)
    return partie


@transaction.atomic
def evening_reopen(*, evening: Evening, user: AbstractBaseUser) -> HandChange:
    """Undo an evening's settle-up, so that its parties can be corrected: its payments are
    dropped (paid or not) and the debts it took over are open again, as before it was
    settled; ``evening_settle`` then settles it anew. Refused while a later settled
    evening holds its open payments. The audit entry keeps every dropped payment, and
    ``evening_reopen_undo`` puts them back while the evening's figures are unchanged."""
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if not evening.is_settled:
        raise RepairError("evening_open", evening=evening.name)
    payments = list(evening.payments.select_related("carried_to").order_by("pk"))
    later = next((p.carried_to for p in payments if p.carried_to_id is not None), None)
    if later is not None:
        raise RepairError("evening_carried", evening=evening.name, later=later.name)
    carried_in = list(evening.carried_debts.order_by("pk").values_list("pk", flat=True))
    before = {
        "settled_at": evening.settled_at.isoformat(),
        "payments": [
            {
                "payer": p.payer_id,
                "payee": p.payee_id,
                "amount": str(p.amount),
                "paid_at": p.paid_at.isoformat() if p.paid_at else None,
            }
            for p in payments
        ],
        "carried_in": carried_in,
    }
    EveningPayment.objects.filter(pk__in=carried_in).update(carried_to=None)
    evening.payments.all().delete()
    evening.settled_at = None
    evening.save(update_fields=["settled_at"])
    return HandChange.objects.create(
        evening=evening, action=HandChange.Action.REOPENED, user=user, before=before
    )


@transaction.atomic
def evening_reopen_undo(*, change: HandChange, user: AbstractBaseUser) -> HandChange:
    """Settle a reopened evening as it was: the same payments, paid where they were, and
    the same debts taken over; refused once its figures changed (settle it anew then)."""
    if change.action != HandChange.Action.REOPENED or change.evening_id is None:
        raise RepairError("not_undoable")
    evening = Evening.objects.select_for_update().get(pk=change.evening_id)
    _undone(change)
    if evening.is_settled:
        raise RepairError("evening_settled_again", evening=evening.name)
    snapshot = change.before
    sheet = evening_sheet(evening)
    now = sorted((t.payer, t.payee, Decimal(t.amount)) for t in sheet.transfers)
    names = dict(Player.objects.filter(club_id=evening.club_id).values_list("pk", "name"))
    then = sorted(
        (names.get(p["payer"]), names.get(p["payee"]), Decimal(p["amount"]))
        for p in snapshot["payments"]
    )
    if now != then or sorted(d.pk for d in sheet.debts) != sorted(snapshot["carried_in"]):
        raise RepairError("evening_changed", evening=evening.name)
    EveningPayment.objects.bulk_create(
        EveningPayment(
            evening=evening,
            payer_id=p["payer"],
            payee_id=p["payee"],
            amount=Decimal(p["amount"]),
            paid_at=datetime.fromisoformat(p["paid_at"]) if p["paid_at"] else None,
        )
        for p in snapshot["payments"]
    )
    EveningPayment.objects.filter(pk__in=snapshot["carried_in"]).update(carried_to=evening)
    evening.settled_at = datetime.fromisoformat(snapshot["settled_at"])
    evening.save(update_fields=["settled_at"])
    return HandChange.objects.create(
        evening=evening, action=HandChange.Action.RESTORED, user=user, undoes=change
    )
