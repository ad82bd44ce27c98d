"""Reads that shape what a page shows: the score sheet of a partie, the lists.

Every figure comes from replaying the hands through the engine; each selector
runs a fixed number of queries, however many hands a partie has.

The page shows what the engine describes for every kind alike: the sheet's tables
(Hollywood's three games side by side, a match's or a chouette's games one after
another, each whole), their rows, the lines under them and the payments by game.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.contrib.auth import get_user_model
from django.db.models import (
    Exists,
    F,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from scorekeeper import engine, vocabulary
from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.clubs.selectors import clubs_of
from scorekeeper.engine.record import Record
from scorekeeper.formats import number_text
from scorekeeper.prepared import ForUser, Prepared
from scorekeeper.sheets.score_sheet import PaymentLine

from .models import (
    SCORING_ERRORS,
    AccountChangesSeen,
    ClosedGame,
    Evening,
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    Player,
    PlayerMerge,
    PlayerResult,
    ResultConfirmation,
    Seat,
    Unscorable,
    scoring,
)


@dataclass(frozen=True)
class SheetTable:
    """One table of the page: a part of the sheet and the lines under its hands."""

    part: engine.Part
    foot: tuple[engine.FootLine, ...]
    last: bool  # the table the next hand goes to: HTMX appends its rows there

    @property
    def title(self) -> str | None:
        return vocabulary.game_name(self.part.games[0].number) if self.part.titled else None

    @property
    def note(self) -> str | None:
        return vocabulary.box_note(self.part)

    @property
    def result(self) -> engine.Tally | None:
        """The closed game of a table of its own, to say who won it."""
        tally = self.part.games[0].tally
        return tally if self.part.titled and tally.closed and tally.winner else None

    @property
    def width(self) -> int:
        """Its columns: number, hand, one per score column, and the change link."""
        return len(self.part.columns) + 3


@dataclass(frozen=True)
class Sheet:
    """A partie's score sheet as the page shows it and its PDF prints it (a
    ``sheets.score_sheet.Scored``), from one replay of its hands."""

    partie: Partie
    session: engine.Session
    tables: tuple[SheetTable, ...]

    @property
    def kind(self) -> str:
        return self.session.kind

    @property
    def entry_word(self) -> str:
        """What its entries are called: "Hand", or "Round" in a partnership."""
        return str(vocabulary.ENTRY_WORDS[self.session.entry])

    @property
    def players(self) -> tuple[str, ...]:
        return self.session.heading

    @property
    def rules(self) -> engine.Ruleset:
        return self.session.rules

    @property
    def stake(self) -> Decimal:
        return Decimal(self.partie.stake)

    @property
    def stakes(self) -> dict[str, Decimal]:
        """A chouette member's own stake, where he plays one."""
        return self.partie.own_stakes

    @property
    def is_over(self) -> bool:
        """Its games played out, or the partie ended before (``ended_early``)."""
        return self.session.is_over() or bool(self.partie.ended_early)

    @property
    def ended_early(self) -> str:
        """Why it ended before its games were played out (Partie.EarlyEnd), or ""."""
        return self.partie.ended_early

    @property
    def time_called(self) -> str:
        """Time called on the partie still played (``services.partie_time_call``):
        "last" while its last hand is still to be played, "level" once it was and the
        players were level, so they play on; "" otherwise."""
        if self.partie.last_hand is None or self.is_over:
            return ""
        return "last" if len(self.session.lines) < self.partie.last_hand else "level"

    @cached_property
    def turn(self) -> engine.Turn:
        return self.session.turn()

    @property
    def at_table(self) -> tuple[str, str] | None:
        """The two who play the next hand, where not everyone does."""
        return self.turn.table

    @property
    def winner(self) -> str | None:
        return self.session.overall_winner()

    @property
    def standing(self) -> engine.Standing | None:
        return self.session.standing()

    @property
    def games(self) -> list[engine.GameSheet]:
        return [game for table in self.tables for game in table.part.games]

    @property
    def has_closed_game(self) -> bool:
        """Some game of it is over: only a closed game has a result to confirm
        (``ClosedGame``, written from the same replay), so until then its page needs no
        query for the confirmations."""
        return any(game.tally.closed for game in self.games)

    @property
    def last_row(self) -> engine.EntryRow:
        return self.tables[-1].part.rows[-1]

    @property
    def rows(self) -> list[engine.EntryRow]:
        """Every entry in playing order, over all the tables."""
        return [row for table in self.tables for row in table.part.rows]

    def row(self, number: int) -> engine.EntryRow | None:
        return next((row for row in self.rows if row.number == number), None)

    def games_of(self, number: int) -> tuple[int, ...]:
        """The games entry ``number`` was played in: its table's game; where a table
        holds several games at once (Hollywood), each one still open when it was played,
        since every hand before a game's end shapes it (the per-player entry rule)."""
        return self._games_by_entry.get(number, ())

    def hands_in_games(self, games: set[int]) -> dict[int, int]:
        """The entries played in any of ``games``, each with the first of them."""
        found = {}
        for number, played in self._games_by_entry.items():
            among = games.intersection(played)
            if among:
                found[number] = min(among)
        return found

    @cached_property
    def _games_by_entry(self) -> dict[int, tuple[int, ...]]:
        played: dict[int, tuple[int, ...]] = {}
        for table in self.tables:
            still_open = tuple(game.number for game in table.part.games)
            for row in table.part.rows:
                played[row.number] = still_open
                still_open = tuple(game for game in still_open if game not in row.closes)
        return played

    @property
    def payment_lines(self) -> list[PaymentLine]:
        """Who pays whom, game by game, named by its game where the kind has several."""
        numbered = self.session.numbered
        return [
            PaymentLine(
                vocabulary.game_name(game.number) if numbered else None,
                payment.payer,
                payment.payee,
                payment.points,
                payment.amount,
            )
            for game in self.games
            for payment in game.payments
        ]

    @property
    def payments(self) -> list[engine.Payment]:
        return [payment for game in self.games for payment in game.payments]

    @property
    def column_totals(self) -> list[tuple[str, int]]:
        """Each column's total in its game, named with the game where there are several."""
        several = len(self.games) > 1
        return [
            (
                f"{vocabulary.game_name(game.number)} {vocabulary.column_name(column)}"
                if several
                else vocabulary.column_name(column),
                game.tally.players[column.key].total,
            )
            for game in self.games
            for column in game.columns
        ]

    @property
    def in_all(self) -> list[engine.Transfer]:
        """The payments netted, where that takes fewer transfers: who pays whom in all
        (money, or points when playing for honour); empty when nothing nets."""
        payments = self.payments
        if self.partie.stake:
            netted = engine.settle_up(engine.balances_of(payments))
        else:
            netted = engine.settle_up(engine.points_of(payments))
        return netted if len(netted) < len(payments) else []


def partie_with_players(queryset: QuerySet[Partie]) -> QuerySet[Partie]:
    seats = Prefetch("seats", queryset=SEATS_WITH_PLAYERS)
    return queryset.select_related("first_dealer").prefetch_related(seats)


def seat_players(partie: Partie) -> Partie:
    """The partie's seats with their players, loaded into it as ``partie_with_players``
    prefetches them (``partie.seats.all()`` asks nothing more), by a query written once
    per database: for the partie of every score sheet and every hand."""
    seats = _SEATS_OF.all(partie_id=partie.pk)
    for seat in seats:
        seat.partie = partie  # as the prefetch sets it
    loaded = partie.seats.all()
    loaded._result_cache, loaded._prefetch_done = seats, True
    partie._prefetched_objects_cache = {**getattr(partie, "_prefetched_objects_cache", {})}
    partie._prefetched_objects_cache["seats"] = loaded
    return partie


SEATS_WITH_PLAYERS = Seat.objects.select_related("player")
_SEATS_OF = Prepared(lambda partie_id: SEATS_WITH_PLAYERS.filter(partie_id=partie_id))


def hands_in_order(partie: Partie) -> list[Hand]:
    """The partie's hands in playing order: prefetched (an evening's parties) or queried."""
    if "hands" in getattr(partie, "_prefetched_objects_cache", {}):
        return list(partie.hands.all())
    return _HANDS_OF.all(partie_id=partie.pk)


HANDS_IN_ORDER = Hand.objects.select_related("knocker").order_by("number", "table")
# On every score sheet and every hand: its SQL written once per database.
_HANDS_OF = Prepared(lambda partie_id: HANDS_IN_ORDER.filter(partie_id=partie_id))


def partie_sheet(partie: Partie) -> Sheet:
    """The whole score sheet of a partie: every hand, running totals, bonuses, money.

    A partie the engine cannot score any more raises ``Unscorable`` (the money is
    computed here too, in ``sheet_of``), which the pages answer with a repair page.
    """
    with scoring(partie):
        return sheet_of(partie, partie_session(partie))


def partie_leader(partie: Partie) -> str | None:
    """Who leads a partie (read from its summary): more games won, then more points in
    the game being played; None when they are level. The rule of a partie on which time
    was called (``services.partie_time_call``), and of a tournament's "leader" at time."""
    summary = partie.summary
    won = [w for w in summary.get("winners", []) if w]
    totals = summary.get("totals") or {}
    standing = sorted(
        ((won.count(name), totals.get(name, 0)), name) for name in summary.get("players") or []
    )
    if len(standing) < 2 or standing[-1][0] == standing[-2][0]:
        return None
    return standing[-1][1]


def rules_to_repair(partie: Partie) -> engine.Ruleset:
    """The partie's rules as the rules form starts from: the stored ones, or where the
    engine refuses them now, the stored preset's with every stored value it still
    accepts (the refused ones at the preset's values)."""
    with contextlib.suppress(Unscorable):
        return partie.ruleset
    stored = dict(partie.rules) if isinstance(partie.rules, dict) else {}
    try:
        rules = engine.preset(stored.pop("preset", "classic"))
    except engine.RulesError:
        rules = engine.preset("classic")
    for name, value in stored.items():
        with contextlib.suppress(engine.RulesError):
            rules = rules.replace(**{name: value})
    return rules


def refused_hand(partie: Partie) -> int | None:
    """The number of the first stored entry the engine refuses now, if one is (read
    when a partie cannot be scored, to say which hand to correct)."""
    try:
        session = partie.new_session()
    except (Unscorable, *SCORING_ERRORS):
        return None
    for number, entry in enumerate(partie.entries_of(hands_in_order(partie)), 1):
        try:
            session.record(entry)
        except engine.HandError:
            return number
    return None


def hands_as_entered(partie: Partie) -> list[tuple[int, list[dict]]]:
    """Each number's hands as the players reported them (FORMAT.md form, a round's
    tables in order), without replaying: what a partie that cannot be scored shows."""
    numbers: dict[int, list[dict]] = {}
    for hand in hands_in_order(partie):
        numbers.setdefault(hand.number, []).append(
            {
                "no_game": hand.kind == Hand.Kind.NO_GAME,
                "gin": hand.kind == Hand.Kind.GIN,
                "big_gin": hand.kind == Hand.Kind.BIG_GIN,
                "knocker": hand.knocker.name if hand.knocker_id else None,
                "knocker_deadwood": hand.knocker_deadwood,
                "defender_deadwood": hand.defender_deadwood,
                "upcard": hand.upcard,
            }
        )
    return sorted(numbers.items())


def partie_session(partie: Partie, rules: engine.Ruleset | None = None) -> engine.Session:
    """The partie's hands replayed by the engine (under other rules when given)."""
    return partie.session_class.replay(
        partie.player_names,
        rules or partie.ruleset,
        partie.first_dealer.name,
        partie.entries_of(hands_in_order(partie)),
    )


def sheet_of(partie: Partie, session: engine.Session) -> Sheet:
    """The score sheet of a partie from the engine's replay of its hands."""
    parts = session.parts(Decimal(partie.stake), partie.own_stakes)
    rules = session.rules
    for_money = bool(partie.stake) or any(partie.own_stakes.values())
    tables = tuple(
        SheetTable(
            part,
            engine.foot_lines(part.games, for_money, rules.money_unit),
            last=number == len(parts),
        )
        for number, part in enumerate(parts, start=1)
    )
    return Sheet(partie, session, tables)


def compare_totals(before: Sheet, after: Sheet) -> list[tuple[str, int | None, int | None]]:
    """Each column's total now and under other rules (a game that one of them does not
    reach shows nothing there)."""
    now, then = dict(before.column_totals), dict(after.column_totals)
    names = list(now) + [name for name in then if name not in now]
    return [(name, now.get(name), then.get(name)) for name in names]


def partie_record(partie: Partie) -> Record:
    """The partie as a game record (FORMAT.md), ready to export."""
    hands = hands_in_order(partie)
    return Record(
        partie.kind,
        partie.ruleset,
        tuple(partie.player_names),
        partie.first_dealer.name,
        per_point(partie.stake),
        tuple(partie.entries_of(hands)),
        # a chouette member's own stake (Seat.stake), so that the record settles alike
        {name: per_point(stake) for name, stake in partie.own_stakes.items()},
    )


def per_point(stake: Decimal) -> Decimal:
    """A stored stake as a record writes it, without the database's padding and never
    in exponent form (``normalize`` alone turns 10 into 1E+1).

    >>> [str(per_point(Decimal(text))) for text in ("0.1000", "10.0000", "0.0000", "2.5")]
    ['0.1', '10', '0', '2.5']
    """
    stake = Decimal(stake).normalize()
    return stake.quantize(Decimal(1)) if stake == stake.to_integral_value() else stake


NEWEST_CHANGES = 50  # what a score sheet shows of its trail
# On every score sheet: its SQL written once per database.
_NEWEST_CHANGES = Prepared(
    lambda partie_id: HandChange.objects.select_related("user").filter(partie_id=partie_id)[
        :NEWEST_CHANGES
    ]
)


def partie_changes(partie: Partie, newest: int = NEWEST_CHANGES) -> list[HandChange]:
    """The audit trail's ``newest`` changes, newest first; ``undone`` says whether a later
    change undid one.

    A change that undoes another is written after it, in the same partie's trail, so it
    is among the newest whenever the change it undoes is: the list answers ``undone``
    itself, without an ``Exists`` that the ORM compiled, and the database ran, per line.
    """
    if newest == NEWEST_CHANGES:
        changes = _NEWEST_CHANGES.all(partie_id=partie.pk)
        for change in changes:
            change.partie = partie  # as partie.changes would set it
    else:
        changes = list(partie.changes.select_related("user")[:newest])
    undone = {change.undoes_id for change in changes}
    for change in changes:
        change.undone = change.pk in undone
    return changes


def deletion_to_undo(changes: list[HandChange]) -> HandChange | None:
    """The deletion of a hand that the page offers to undo where the hand was: the
    partie's last change (``changes`` newest first, from partie_changes), not undone."""
    last = changes[0] if changes else None
    if last is None or last.action != HandChange.Action.DELETED or last.undone:
        return None
    return last


def parties_of(user, archived: bool = False) -> QuerySet[Partie]:
    """The parties of all the user's clubs, running first: those not archived, or
    (``archived``) only the archived ones."""
    return parties_in(clubs_of(user)).filter(archived_at__isnull=not archived)


def deleted_parties_of(user) -> QuerySet[Partie]:
    """The deleted parties of the user's clubs, last deleted first: what can be restored."""
    return (
        Partie.all_objects.filter(club__in=clubs_of(user), deleted_at__isnull=False)
        .select_related("club")
        .order_by("-deleted_at", "-id")
    )


def parties_played_by(user) -> QuerySet[Partie]:
    """The parties where the player linked to his account sat, newest first (a member is
    one player in a club); those of a club he has left too: they stay his to read
    (table/access.py)."""
    return (
        Partie.objects.filter(seats__player__user=user, club__deleted_at=None)
        .select_related("club")
        .distinct()
        .order_by("-started_at", "-id")
    )


def open_debts_of(user) -> QuerySet[EveningPayment]:
    """The unpaid transfers of settled evenings that the players linked to his account
    pay or receive, in every club he plays in or played in."""
    return (
        EveningPayment.objects.filter(paid_at=None, carried_to=None, evening__club__deleted_at=None)
        .filter(Q(payer__user=user) | Q(payee__user=user))
        .select_related("payer", "payee", "evening__club")
        .order_by("-evening__played_on", "id")
    )


def start_club(user) -> Club | None:
    """The club a new partie or evening starts in unless the user picks another: among
    the clubs other than his personal one where he scores, the one of the last partie he
    started, else the one he joined last; None when there is none (his personal club,
    then)."""
    last_partie = Max("parties__started_at", filter=Q(parties__owner=user))
    joined = Max("memberships__joined_at")  # his own: clubs_of joins his memberships
    club = (
        clubs_of(user, need=Role.SCORER)
        .filter(personal=False)
        .annotate(last_partie=last_partie, joined=joined)
        .order_by(F("last_partie").desc(nulls_last=True), F("joined").desc(), "-id")
        .first()
    )
    return club


def parties_in(clubs: QuerySet[Club] | list[Club]) -> QuerySet[Partie]:
    return (
        Partie.objects.filter(club__in=clubs)
        .select_related("club")
        .order_by("-state", "-started_at", "-id")  # running first
    )


# Evenings and players' money


@dataclass(frozen=True)
class EveningPartie:
    """One partie of an evening: its sheet and what it moved between the players."""

    partie: Partie
    sheet: Sheet


@dataclass(frozen=True)
class PlayerBalance:
    player: Player
    points: int
    amount: Decimal


@dataclass(frozen=True)
class HeldGame:
    """A closed game of an evening that holds its settle-up back: disputed, or (in an
    evening of confirmed games only) not confirmed by every player asked yet."""

    partie: Partie
    number: int  # the game's number in its partie
    disputed: bool

    @property
    def named(self) -> bool:
        """Whether its partie names its games ("Game 2"): else the partie is the game."""
        return self.partie.session_class.numbered


def held_games(evening: Evening, parties: list[Partie]) -> list[HeldGame]:
    """The games of these parties (the evening's) that hold its settle-up back, in the
    parties' order: every disputed one, and where the evening settles confirmed games
    only, every one some asked player has not confirmed (``ResultConfirmation``)."""
    unsettled = ResultConfirmation.objects.filter(
        game__partie__in=[partie.pk for partie in parties]
    ).exclude(state__in=ResultConfirmation.SETTLED)
    if not evening.confirmed_games_only:
        unsettled = unsettled.filter(state=State.DISPUTED)
    disputed: dict[tuple[int, int], bool] = {}
    for partie_id, number, state in unsettled.values_list(
        "game__partie_id", "game__number", "state"
    ):
        key = (partie_id, number)
        disputed[key] = disputed.get(key, False) or state == State.DISPUTED
    by_pk = {partie.pk: partie for partie in parties}
    order = {partie.pk: place for place, partie in enumerate(parties)}
    return [
        HeldGame(by_pk[partie_id], number, disputed[partie_id, number])
        for partie_id, number in sorted(disputed, key=lambda key: (order[key[0]], key[1]))
    ]


@dataclass(frozen=True)
class EveningView:
    """What an evening adds up to, in the order its page and its tally show it: this
    evening's balances, the debts carried in, and the transfers that settle both (the
    transfers are the sum of what is listed above them)."""

    evening: Evening
    results: list[EveningPartie]
    balances: list[PlayerBalance]  # each player's net over this evening's parties
    debts: list[EveningPayment]  # open debts of earlier evenings carried into this one
    transfers: list[engine.Transfer]  # the fewest transfers that settle balances and debts
    payments: list[EveningPayment]  # once settled: the transfers as frozen
    held: list[HeldGame] = field(default_factory=list)  # games that hold the settle-up back

    @property
    def players(self) -> list[Player]:
        """Everybody the settle-up names: who played, then who only has a debt carried in."""
        players = {balance.player.pk: balance.player for balance in self.balances}
        for debt in self.debts:
            players.setdefault(debt.payer.pk, debt.payer)
            players.setdefault(debt.payee.pk, debt.payee)
        return list(players.values())

    @property
    def running(self) -> bool:
        return any(result.partie.is_running for result in self.results)

    @property
    def settle_text(self) -> str:
        """Who pays whom, one line each, to copy into a chat."""
        lines = self.payments or self.transfers
        return "\n".join(f"{t.payer} → {t.payee}: {number_text(t.amount)}" for t in lines)


def evening_sheet(evening: Evening) -> EveningView:
    """Every partie of an evening, each player's net, and how to settle up."""
    parties = list(
        partie_with_players(Partie.objects.filter(evening=evening))  # none deleted
        .prefetch_related(Prefetch("hands", queryset=HANDS_IN_ORDER))
        .order_by("started_at", "id")
    )
    results = [EveningPartie(partie, partie_sheet(partie)) for partie in parties]
    seated = {seat.player.name: seat.player for p in parties for seat in p.seats.all()}
    points: dict[str, int] = dict.fromkeys(seated, 0)
    money: dict[str, Decimal] = dict.fromkeys(seated, Decimal(0))
    for result in results:
        for payment in result.sheet.payments:
            for name, sign in ((payment.payer, -1), (payment.payee, 1)):
                points[name] += sign * payment.points
                money[name] += sign * payment.amount
    balances = [PlayerBalance(seated[name], points[name], money[name]) for name in sorted(seated)]
    if evening.is_settled:  # the debts it took over when it was settled
        debts = list(evening.carried_debts.select_related("payer", "payee", "evening"))
    else:
        debts = list(open_debts(evening.club_id, list(seated.values())))
    # The transfers settle this evening's balances and the debts carried in, together.
    owed = {balance.player.name: balance.amount for balance in balances}
    for debt in debts:
        owed[debt.payer.name] = owed.get(debt.payer.name, Decimal(0)) - debt.amount
        owed[debt.payee.name] = owed.get(debt.payee.name, Decimal(0)) + debt.amount
    transfers = engine.settle_up(owed)
    payments = list(evening.payments.select_related("payer", "payee", "carried_to"))
    held = [] if evening.is_settled else held_games(evening, parties)
    return EveningView(evening, results, balances, debts, transfers, payments, held)


def evening_reopened(evening: Evening) -> HandChange | None:
    """The reopening of an evening not settled again since, that can still be undone."""
    if evening.is_settled:
        return None
    change = evening.changes.select_related("user").first()  # the latest
    if change is None or change.action != HandChange.Action.REOPENED:
        return None
    return None if HandChange.objects.filter(undoes=change).exists() else change


def open_debts(club: Club | int, players: list[Player]) -> QuerySet[EveningPayment]:
    """Unpaid transfers of the club's settled evenings that involve any of these players."""
    return (
        EveningPayment.objects.filter(evening__club=club, paid_at=None, carried_to=None)
        .filter(Q(payer__in=players) | Q(payee__in=players))
        .select_related("payer", "payee", "evening")
    )


def evenings_of(user) -> QuerySet[Evening]:
    """The evenings of all the user's clubs."""
    return evenings_in(clubs_of(user))


def evenings_in(clubs: QuerySet[Club] | list[Club]) -> QuerySet[Evening]:
    return Evening.objects.filter(club__in=clubs).select_related("club")


@dataclass(frozen=True)
class Ledger:
    """What a player owes and is owed, and the parties played."""

    player: Player
    owes: list[EveningPayment]
    owed: list[EveningPayment]
    parties: list[Partie]

    @property
    def net(self) -> Decimal:
        return sum((p.amount for p in self.owed), Decimal(0)) - sum(
            (p.amount for p in self.owes), Decimal(0)
        )


def player_ledger(player: Player) -> Ledger:
    debts = list(open_debts(player.club_id, [player]))
    parties = list(
        partie_with_players(Partie.objects.filter(seats__player=player)).order_by("-started_at")
    )
    return Ledger(
        player,
        [d for d in debts if d.payer_id == player.pk],
        [d for d in debts if d.payee_id == player.pk],
        parties,
    )


def roster_names(club_id: int | None) -> list[str]:
    """The club's players' names, by name: what a name field offers as it is typed."""
    if club_id is None:
        return []
    players = Player.objects.filter(club_id=club_id).order_by("name")
    return list(players.values_list("name", flat=True))


def roster_by_link(club_id: int) -> tuple[list[str], list[str]]:
    """The club's players' names, by name: those nobody plays as, and those linked to
    an account (what someone joining may be, and may not)."""
    free, taken = [], []
    for name, user_id in (
        Player.objects.filter(club_id=club_id).order_by("name").values_list("name", "user_id")
    ):
        (free if user_id is None else taken).append(name)
    return free, taken


@dataclass(frozen=True)
class Footprint:
    """What a merge moves of a player: his parties, closed games and evening transfers."""

    player: Player
    parties: int
    games: int
    payments: int


def player_footprint(player: Player) -> Footprint:
    return Footprint(
        player,
        Partie.all_objects.filter(seats__player=player).count(),
        PlayerResult.objects.filter(player=player).count(),
        EveningPayment.objects.filter(Q(payer=player) | Q(payee=player)).count(),
    )


def player_merges(club_id: int, keep: Player | None = None, last: int = 10) -> list[PlayerMerge]:
    """The club's last merges not undone (into ``keep`` only, if given): what may be undone."""
    merges = PlayerMerge.objects.filter(club_id=club_id, undone_at=None)
    if keep is not None:
        merges = merges.filter(keep_id=keep.pk)
    return list(merges.select_related("by")[:last])


# Results confirmed by the players (services/confirmations.py)

State = ResultConfirmation.State


@dataclass(frozen=True)
class GameConfirmations:
    """A closed game with its players' results and the confirmations asked of them."""

    game: ClosedGame  # its partie and club loaded
    results: list[PlayerResult]  # best side first, their players loaded
    confirmations: list[ResultConfirmation]  # by player's name, players and ``by`` loaded

    @property
    def partie(self) -> Partie:
        return self.game.partie

    @property
    def title(self) -> str | None:
        """ "Game 2" where the kind has several games; None where a partie is one game."""
        numbered = engine.session_class(self.game.kind).numbered
        return vocabulary.game_name(self.game.number) if numbered else None

    @property
    def winners(self) -> list[str]:
        return [result.player.name for result in self.results if result.won]

    @property
    def is_locked(self) -> bool:
        """Every asked player confirmed it (or the owner decided its disputes): no change
        may alter it (the owner unlocks)."""
        settled = ResultConfirmation.SETTLED
        return bool(self.confirmations) and all(c.state in settled for c in self.confirmations)

    @property
    def is_disputed(self) -> bool:
        return any(c.state == State.DISPUTED for c in self.confirmations)

    @property
    def is_decided(self) -> bool:
        """The owner decided a dispute of it (the result stands)."""
        return any(c.state == State.DECIDED for c in self.confirmations)

    @property
    def is_pending(self) -> bool:
        """Some asked player has not confirmed it yet (his confirmation pending, or
        disputed and not decided by the owner)."""
        return any(c.state not in ResultConfirmation.SETTLED for c in self.confirmations)

    def confirmation_of(self, user) -> ResultConfirmation | None:
        """What the player linked to the user's account was asked, if anything."""
        return next((c for c in self.confirmations if c.player.user_id == user.pk), None)


def _games_with_confirmations(games: QuerySet[ClosedGame]) -> list[GameConfirmations]:
    """The games with their results and confirmations, in three queries."""
    results = Prefetch(
        "results", queryset=PlayerResult.objects.select_related("player").order_by("side", "pk")
    )
    confirmations = Prefetch(
        "confirmations",
        queryset=ResultConfirmation.objects.select_related("player", "by").order_by(
            "player__name", "pk"
        ),
    )
    rows = games.select_related("partie__club").prefetch_related(results, confirmations)
    return [
        GameConfirmations(game, list(game.results.all()), list(game.confirmations.all()))
        for game in rows
    ]


def orphaned_confirmations(game: ClosedGame) -> list[ResultConfirmation]:
    """The game's pending confirmations nobody can give, by player's name: the player
    linked to no account, or to one no longer a member of the club. Only the owner's
    decision settles them (``confirmations.game_decide``)."""
    member = Membership.objects.filter(club_id=game.club_id, user_id=OuterRef("player__user_id"))
    pending = ResultConfirmation.objects.filter(game=game, state=State.PENDING)
    orphaned = pending.filter(Q(player__user__isnull=True) | ~Exists(member))
    return list(orphaned.select_related("player").order_by("player__name", "pk"))


def partie_confirmations(partie: Partie) -> list[GameConfirmations]:
    """The partie's closed games that asked for confirmations, in order, with them."""
    asked = ResultConfirmation.objects.filter(game=OuterRef("pk"))
    games = ClosedGame.objects.filter(Exists(asked), partie=partie)
    return _games_with_confirmations(games.order_by("number"))


def game_confirmations(partie: Partie, number: int) -> GameConfirmations | None:
    """One closed game of the partie, with its results and confirmations; None: not
    closed."""
    games = _games_with_confirmations(ClosedGame.objects.filter(partie=partie, number=number))
    return games[0] if games else None


def games_to_confirm(user) -> list[GameConfirmations]:
    """The games whose results the players linked to his account are asked to confirm
    and have not confirmed yet (pending, or disputed), newest first: only those he may
    confirm (``confirmations.confirmation_refusal``), in a club he is a member of, and
    no dispute given from another account."""
    mine = ResultConfirmation.objects.filter(
        _confirmable_by(user), game=OuterRef("pk"), state__in=[State.PENDING, State.DISPUTED]
    )
    games = ClosedGame.objects.filter(Exists(mine), partie__club__deleted_at=None)
    return _games_with_confirmations(games.order_by("-started_at", "-partie_id", "-number"))


def _confirmable_by(user) -> Q:
    """A confirmation the user may give or change: his player's, in a club he is a
    member of, pending or given from his account."""
    return Q(player__user=user, game__club__in=clubs_of(user)) & (
        Q(state=State.PENDING) | Q(by=user)
    )


def disputed_games_for(user) -> list[GameConfirmations]:
    """The disputed games of the clubs where he scores: what he is to look at, newest
    first."""
    disputed = ResultConfirmation.objects.filter(game=OuterRef("pk"), state=State.DISPUTED)
    games = ClosedGame.objects.filter(
        Exists(disputed), club__in=clubs_of(user, need=Role.SCORER), club__deleted_at=None
    )
    return _games_with_confirmations(games.order_by("-started_at", "-partie_id", "-number"))


@dataclass(frozen=True)
class ConfirmationNotice:
    """What the header tells a user on every page: the games he is asked to confirm, the
    disputed games of the clubs where he scores, and (an owner) the account changes of
    players with confirmations he has not marked as seen."""

    to_confirm: int = 0
    disputed: int = 0
    accounts: int = 0


def confirmation_notice(user) -> ConfirmationNotice:
    """The header's notice, in one query: three counts, each a scalar subquery. Every
    page asks it: its SQL is written once per database and run with the user's id
    (``prepared.ForUser``)."""
    if not user.is_authenticated:
        return ConfirmationNotice()
    counts = _NOTICE.first(user)
    return ConfirmationNotice(**counts) if counts else ConfirmationNotice()


def _notice_counts(user) -> QuerySet:
    """The notice's counts, as the ORM builds them for the user: one row."""
    live = ResultConfirmation.objects.filter(game__club__deleted_at=None)
    asked = live.filter(_confirmable_by(user), state=State.PENDING)
    disputed = live.filter(state=State.DISPUTED, game__club__in=clubs_of(user, need=Role.SCORER))
    return (
        get_user_model()
        .objects.filter(pk=user.pk)
        .values(
            to_confirm=_count(asked),
            disputed=_count(disputed, "game_id"),
            accounts=_count(account_changes_for(user)),
        )
    )


_NOTICE = ForUser(_notice_counts)


def _count(rows: QuerySet, of: str = "pk") -> Subquery:
    """``SELECT COUNT(DISTINCT of)`` of the rows, as a scalar subquery (a function, not
    an aggregate, so that no GROUP BY comes with it: one row, 0 where none)."""
    count = Func(
        F(of),
        function="COUNT",
        template="%(function)s(DISTINCT %(expressions)s)",
        output_field=IntegerField(),
    )
    return Subquery(rows.order_by().annotate(n=count).values("n")[:1])


def account_changes_for(user) -> QuerySet[HandChange]:
    """The account changes of players with confirmations (``HandChange.Action.ACCOUNT``) in
    the clubs the user owns, made by someone else and after the newest he marked as
    seen (``confirmations.account_changes_seen``), newest first."""
    seen = AccountChangesSeen.objects.filter(user_id=user.pk).values("upto")
    return (
        HandChange.objects.filter(
            action=HandChange.Action.ACCOUNT,
            partie__club__in=clubs_of(user, need=Role.OWNER),
            partie__club__deleted_at=None,
            partie__deleted_at=None,
            pk__gt=Coalesce(Subquery(seen), 0),
        )
        .exclude(user_id=user.pk)
        .order_by("-pk")
    )
