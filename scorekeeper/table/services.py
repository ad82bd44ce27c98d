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
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.clubs.models import Club, Membership
from scorekeeper.clubs.services import personal_club
from scorekeeper.engine.record import Record, RecordError, entry_json, replay
from scorekeeper.league.models import Game, GamePayment, GamePlayer, PartieStats
from scorekeeper.league.services import partie_results_store, results_changed

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
from .selectors import HANDS_IN_ORDER, evening_sheet, partie_session, partie_with_players


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
    results_changed(club_id=player.club_id, full=True)  # the standings name him
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
    GamePlayer.objects.filter(player=gone).update(player=keep)
    GamePayment.objects.filter(payer=gone).update(payer=keep)
    GamePayment.objects.filter(payee=gone).update(payee=keep)
    PartieStats.objects.filter(player=gone).update(player=keep)
    games = list(Game.objects.filter(partie__in=parties))
    for game in games:  # the ranking names the sides by player id
        game.ranking = [[keep.pk if pk == gone.pk else pk for pk in side] for side in game.ranking]
    Game.objects.bulk_update(games, ["ranking"])
    results_changed(club_id=keep.club_id, full=True)
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
    together = (
        Partie.objects.filter(seats__player=keep)
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
        partie.summary = summary_of(partie_session(partie))
    Partie.objects.bulk_update(rows, ["summary"])
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
        for row in entry_rows(partie.kind, entry, players)
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


@transaction.atomic
def hand_record(*, partie: Partie, hand: Entry, user: AbstractBaseUser) -> Written:
    """Add the next hand (a round of two hands in a partnership); refused once it is over."""
    partie, players, rows = _locked(partie)
    entries = entries_to_engine(partie.kind, rows)
    number = len(entries) + 1
    session = _replay(partie, list(players), [*entries, hand], changed=number)
    Hand.objects.bulk_create(
        Hand(partie=partie, number=number, **row) for row in entry_rows(partie.kind, hand, players)
    )
    return _written(partie, session, players, user, HandChange.Action.RECORDED, number, after=hand)


@transaction.atomic
def hand_edit(*, partie: Partie, number: int, hand: Entry, user: AbstractBaseUser) -> Written:
    """Correct an earlier hand; every hand after it is scored again."""
    partie, players, rows = _locked(partie)
    entries = entries_to_engine(partie.kind, rows)
    before = _nth(entries, number)
    new = [hand if n == number else e for n, e in _numbered(entries)]
    session = _replay(partie, list(players), new, changed=number)
    targets = {row.table: row for row in rows if row.number == number}
    for fields in entry_rows(partie.kind, hand, players):
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
    entries = entries_to_engine(partie.kind, rows)
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
    session = _replay(partie, list(players), entries_to_engine(partie.kind, rows), changed=0)
    partie.save(update_fields=["rules"])
    change = HandChange.objects.create(
        partie=partie, action=HandChange.Action.RULES, user=user, before=before, after=partie.rules
    )
    _save_result(partie, session, players)
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
    players: dict[str, Player],
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
    _save_result(partie, session, players, appended=action == HandChange.Action.RECORDED)
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


def _save_result(
    partie: Partie, session: engine.Session, players: dict[str, Player], appended: bool = False
) -> None:
    """Refresh the cached state and summary from the engine's replay, and what the
    partie gives a league: the standings follow every change in the same transaction.
    A hand added to the end changes the league's games only when it closes one."""
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
    partie.save(update_fields=["state", "closed_at", "summary"])
    partie_results_store(
        partie=partie, session=session, players=players, games=settled_games_changed
    )


def summary_of(session: engine.Session) -> dict:
    """What lists show of a partie without replaying it: names, hands, totals, winner."""
    games = session.games()
    totals = [{name: final.total for name, final in game.players.items()} for game in games]
    return {
        "players": list(session.players),
        "hands": len(session.lines),
        "totals": totals[-1] if totals else {},  # the game being played, or the last one
        "games": totals,
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
