"""What happened at the table: players, parties and their hands as entered.

Totals are never stored as the source of truth: the engine derives them from
the hands. ``Partie.summary`` is a cache for lists, rewritten in the same
transaction as every change to the hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine, tasks

# Imported under this module's name too: the migrations name it as a field's default.
from scorekeeper.tokens import new_share_token
from scorekeeper.vocabulary import KIND_CHOICES

# What the engine raises on stored hands or rules it can no longer score (a partie saved
# before a bound existed, or under an older engine): a refusal (HandError and RulesError
# are ValueErrors), money it cannot compute (decimal.InvalidOperation, an ArithmeticError)
# or a rule or name the stored data lacks (LookupError).
SCORING_ERRORS = (ValueError, ArithmeticError, LookupError)


class Unscorable(Exception):
    """A stored partie the engine cannot score any more. Raised (by ``scoring``) where a
    partie is replayed or its rules read; ``table.middleware.UnscorableMiddleware``
    answers every request that meets one with the partie's hands, the reason and the
    ways to repair it, instead of a server error."""

    def __init__(self, partie: Partie, error: Exception):
        super().__init__(f"the partie {partie.pk} cannot be scored: {error!r}")
        self.partie = partie
        self.error = error


@contextmanager
def scoring(partie: Partie) -> Iterator[None]:
    """Turn the engine's failure on a stored partie into ``Unscorable`` naming it."""
    try:
        yield
    except SCORING_ERRORS as error:
        raise Unscorable(partie, error) from error


class Player(models.Model):
    """A person at the table, in the address book of a club; linked to a member's
    account where the person is one."""

    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="players",
        verbose_name=_("club"),
    )
    # Who entered it; what it belongs to, and who may see it, is its club's.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("entered by"),
    )
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="as_players",
        verbose_name=_("account"),
        help_text=_("The member who plays as this player."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # When his row last changed (a new name, an account): a board that shows him reads it,
    # so that its ETag changes with the name it shows (league.selectors.standings_version).
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_per_club"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_user_per_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Evening(models.Model):
    """The parties played at one table or club night, settled up together."""

    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="evenings",
        verbose_name=_("club"),
    )
    # Who entered it; what it belongs to, and who may see it, is its club's.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="evenings",
        verbose_name=_("started by"),
    )
    name = models.CharField(_("name"), max_length=80)
    played_on = models.DateField(_("date"))
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)
    # A game some player has not confirmed holds the settle-up back here (a disputed one
    # always does): a league night's evening in a season of confirmed games only.
    confirmed_games_only = models.BooleanField(_("only confirmed games settle"), default=False)
    # The board's read-only link, made by a scorer when the evening is to be followed
    # from outside the club; None: no link.
    share_token = models.CharField(
        _("share token"), max_length=64, unique=True, null=True, blank=True
    )

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-played_on", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.played_on})"

    def get_absolute_url(self) -> str:
        return reverse("evening_detail", args=[self.pk])

    @property
    def is_settled(self) -> bool:
        return self.settled_at is not None


class LivePartieManager(models.Manager):
    """The parties not deleted: what every page, list and standing reads (``Partie.objects``).

    A deleted partie stays in the database, with its hands and audit trail, until it is
    restored (``services.partie_restore``); ``Partie.all_objects`` (the default manager,
    so that related managers, the admin and ``dumpdata`` see every row) reads it too.
    """

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(deleted_at=None)


class Partie(models.Model):
    """One game of hands played to the target, under the rules fixed at its start."""

    class Kind(models.TextChoices):  # the session kinds of the engine
        TWO_PLAYER = "two_player", KIND_CHOICES["two_player"]
        HOLLYWOOD = "hollywood", KIND_CHOICES["hollywood"]
        MATCH = "match", KIND_CHOICES["match"]
        PARTNERSHIP = "partnership", KIND_CHOICES["partnership"]
        CHOUETTE = "chouette", KIND_CHOICES["chouette"]
        THREE_PLAYER = "three_player", KIND_CHOICES["three_player"]

    class State(models.TextChoices):
        RUNNING = "running", _("running")
        CLOSED = "closed", _("over")

    class EarlyEnd(models.TextChoices):
        """Why a partie is over before its games were played out (``partie_end_early``)."""

        TIME = "time", _("time was called")
        WITHDRAWAL = "withdrawal", _("a player withdrew")

    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="parties",
        verbose_name=_("club"),
    )
    # Who entered it; what it belongs to, and who may see it, is its club's.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="parties",
        verbose_name=_("started by"),
    )
    evening = models.ForeignKey(
        Evening,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="parties",
        verbose_name=_("evening"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.TWO_PLAYER)
    rules = models.JSONField(
        _("rules"), help_text=_("Every rule parameter, fixed when the partie starts.")
    )
    stake = models.DecimalField(_("stake per point"), max_digits=10, decimal_places=4, default=0)
    first_dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first dealer")
    )
    # The app cut for the deal (``services.partie_start(cut=True)``), and the players have
    # not named another first dealer since: the partie's page says so before the first hand.
    dealer_cut = models.BooleanField(_("first dealer cut for"), default=False)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.RUNNING
    )
    # Closed before its games were played out, and why (blank: played to its end, or
    # still running); it takes no more hands, and a game left open counts for nothing.
    ended_early = models.CharField(
        _("ended early"), max_length=10, choices=EarlyEnd.choices, blank=True, default=""
    )
    # Time called on it with one more hand to play (``partie_time_call``): the number of
    # that hand. The hand that reaches it ends the partie (``partie_end_early``, time)
    # unless its players are level then; they play on until a hand puts one ahead.
    last_hand = models.PositiveIntegerField(_("last hand, time called"), null=True, blank=True)
    summary = models.JSONField(
        _("summary"),
        default=dict,
        editable=False,
        help_text=_("Cached totals for lists; derived from the hands."),
    )
    # The read-only link: every new partie has one; its scorers can withdraw it (None)
    # or replace it, which ends the old link.
    share_token = models.CharField(
        _("share token"),
        max_length=64,
        unique=True,
        null=True,
        blank=True,
        default=new_share_token,
    )
    # Bumped by every write that changes what the sheet shows (hands, rules, names): the
    # live view's ETag, so that "unchanged" is answered without replaying the hands.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # Hidden from the home list (not from the evening, the league or the player's page).
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    # Deleted, and restorable: gone from every page, list and standing (LivePartieManager).
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)

    all_objects = models.Manager()
    objects = LivePartieManager()

    class Meta:
        verbose_name = _("partie")
        verbose_name_plural = _("parties")
        ordering = ["-started_at", "-id"]
        default_manager_name = "all_objects"
        indexes = [
            # The parties still running (not deleted), by club and start, with their keys:
            # the players a season lists before their first closed game are read from
            # this index alone.
            models.Index(
                fields=["club", "started_at"],
                include=["id"],
                condition=models.Q(state="running", deleted_at=None),
                name="partie_running",
            )
        ]

    def __str__(self) -> str:
        names = self.summary.get("players") or []
        return " – ".join(names) or f"#{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("partie_detail", args=[self.pk])

    @property
    def session_class(self) -> type[engine.Session]:
        """The engine's session of its kind: where a partie's kind is read, so that the
        rest of the app asks the engine, not the kind."""
        return engine.session_class(self.kind)

    @property
    def numbered(self) -> bool:
        """Whether its games are named "Game N" (a template cannot ask the session's
        class: it would call it)."""
        return self.session_class.numbered

    def new_session(
        self, names: Sequence[str] | None = None, rules: engine.Ruleset | None = None
    ) -> engine.Session:
        """A session of its kind with its seats and first dealer, no hand recorded yet."""
        return self.session_class(
            names or self.player_names, rules or self.ruleset, self.first_dealer.name
        )

    def entries_of(self, hands: Iterable[Hand]) -> list[Entry]:
        """The engine's entries of its hands (given in playing order)."""
        return entries_to_engine(self.kind, list(hands))

    def rows_of(self, entry: Entry, players: dict[str, Player]) -> list[dict]:
        """The Hand rows (field values) that store one of its entries."""
        return entry_rows(self.kind, entry, players)

    @property
    def game_totals(self) -> list[list[tuple[str, int]]]:
        """Each game's totals from the summary, in the sheet's column order: kept as pairs,
        since PostgreSQL gives a JSON object's keys back in an order of its own (a summary
        written before keeps its object)."""
        return [
            list(game.items())
            if isinstance(game, dict)
            else [(name, total) for name, total in game]
            for game in self.summary.get("games", [])
        ]

    @property
    def ruleset(self) -> engine.Ruleset:
        with scoring(self):  # rules stored before a bound the engine now enforces
            return engine.Ruleset.from_dict(self.rules)

    @property
    def player_names(self) -> list[str]:
        """The seated players' names, left column first (prefetch ``seats__player``)."""
        return [seat.player.name for seat in self.seats.all()]

    @property
    def own_stakes(self) -> dict[str, Decimal]:
        """A chouette member's own stake against the box, where he plays one."""
        return {s.player.name: Decimal(s.stake) for s in self.seats.all() if s.stake is not None}

    @property
    def is_running(self) -> bool:
        return self.state == self.State.RUNNING

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Seat(models.Model):
    """Where a player sits in a partie; position 0 is the left column."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("position"))  # the cut order, highest first
    # A chouette team member may play for another stake than the partie's.
    stake = models.DecimalField(
        _("own stake per point"), max_digits=10, decimal_places=4, null=True, blank=True
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["partie", "position"], name="seat_position_per_partie"),
            models.UniqueConstraint(fields=["partie", "player"], name="seat_player_per_partie"),
        ]

    def __str__(self) -> str:
        return f"{self.partie_id}: {self.position} {self.player}"


class Hand(models.Model):
    """One hand exactly as the players reported it, in playing order."""

    class Kind(models.TextChoices):  # the values of engine.HandKind
        KNOCK = "knock", _("Knock")
        GIN = "gin", _("Gin")
        BIG_GIN = "big_gin", _("Big gin")
        NO_GAME = "no_game", _("No game")

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(_("number"))
    # A partnership round is two hands with one number, one per table.
    table = models.PositiveSmallIntegerField(_("table"), default=1)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    knocker = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("knocker"),
    )
    knocker_deadwood = models.PositiveSmallIntegerField(
        _("knocker's deadwood"), null=True, blank=True
    )
    defender_deadwood = models.PositiveSmallIntegerField(
        _("defender's deadwood"), null=True, blank=True
    )
    upcard = models.CharField(_("upcard"), max_length=2, blank=True)
    entered_at = models.DateTimeField(_("entered"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["partie", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["partie", "number", "table"], name="hand_number_per_partie"
            )
        ]

    def __str__(self) -> str:
        return f"{self.partie_id} #{self.number}"


class HandChange(models.Model):
    """The audit trail: who changed which hand when, and what it was before and after;
    also a partie deleted, restored or archived, and an evening reopened (``evening``
    set, ``partie`` None). A change that undoes another names it (``undoes``)."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        EDITED = "edited", _("edited")
        DELETED = "deleted", _("deleted")
        IMPORTED = "imported", _("imported")
        RULES = "rules", _("rules changed")
        # Before the first hand (``before``/``after``: {"first_dealer": name}).
        DEALER = "dealer", _("first dealer changed")
        # A seated player renamed, or merged into another: the summary names him anew.
        PLAYER = "player", _("player renamed/merged")
        # Undone deletes and the whole partie or evening: max_length 10 holds them.
        RESTORED = "restored", _("restored")
        REMOVED = "removed", _("partie deleted")
        UNREMOVED = "unremoved", _("partie restored")
        ARCHIVED = "archived", _("partie archived")
        UNARCHIVED = "unarchived", _("partie taken out of the archive")
        REOPENED = "reopened", _("evening reopened")
        # A closed game's result confirmed or disputed by one of its players, or unlocked
        # by the owner (``after`` names the game, the player and a dispute's note).
        CONFIRMED = "confirmed", _("result confirmed")
        DISPUTED = "disputed", _("result disputed")
        # A confirmation taken back before anyone else gave theirs (``before``: when it was
        # given): the player is asked again.
        WITHDRAWN = "withdrawn", _("confirmation taken back")
        UNLOCKED = "unlocked", _("game unlocked")
        # The owner settled a game's disputes (``before``: who disputed, from which
        # account, and the note; ``after``: the game and the owner's reason).
        DECIDED = "decided", _("dispute decided by the owner")
        # A player with confirmations linked to another account, or to none (``before`` and
        # ``after``: the player and the account's name, None for nobody).
        ACCOUNT = "account", _("player's account changed")
        # Ended before its games were played out (``after``: {"why": Partie.EarlyEnd}).
        ENDED = "ended", _("partie ended early")
        # Time called with one more hand to play (``after``: {"last_hand": its number}).
        TIME = "time", _("time called: one more hand")

    partie = models.ForeignKey(
        Partie, on_delete=models.CASCADE, null=True, blank=True, related_name="changes"
    )
    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, null=True, blank=True, related_name="changes"
    )
    undoes = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="undone_by",
        verbose_name=_("undoes"),
    )
    hand_number = models.PositiveIntegerField(_("hand"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand change")
        verbose_name_plural = _("hand changes")
        ordering = ["-at", "-id"]
        indexes = [
            # The owner's notice counts these on every page: a small index of them alone.
            models.Index(
                fields=["partie", "id"],
                name="hand_change_account",
                condition=models.Q(action="account"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.partie_id} #{self.hand_number} {self.action}"


class AccountChangesSeen(models.Model):
    """How far a club owner has looked at the account changes of his clubs' players with
    answers (``HandChange.Action.ACCOUNT``): the newest such entry he marked as seen.
    His header counts the entries after it. Marked by a POST, never by opening the
    list (a read never writes)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("user"),
    )
    upto = models.PositiveBigIntegerField(_("seen up to change"), default=0)
    at = models.DateTimeField(_("seen"), auto_now=True)

    class Meta:
        verbose_name = _("account changes seen")
        verbose_name_plural = _("account changes seen")

    def __str__(self) -> str:
        return f"{self.user_id} ≤ {self.upto}"


class EveningPayment(models.Model):
    """One transfer of an evening's settle-up; unpaid, it is an open debt that the
    players' next settled evening takes over (``carried_to``)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="payments")
    payer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="debts", verbose_name=_("payer")
    )
    payee = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="claims", verbose_name=_("payee")
    )
    # Room for the largest evening the bounds allow (engine/bounds.py,
    # largest_evening_amount: 9.9e10); 15 digits is as many as SQLite keeps exactly.
    amount = models.DecimalField(_("amount"), max_digits=15, decimal_places=4)
    paid_at = models.DateTimeField(_("paid"), null=True, blank=True)
    carried_to = models.ForeignKey(
        Evening,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="carried_debts",
        verbose_name=_("carried to"),
    )

    class Meta:
        verbose_name = _("evening payment")
        verbose_name_plural = _("evening payments")
        ordering = ["evening", "id"]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee}: {self.amount}"

    @property
    def is_open(self) -> bool:
        return self.paid_at is None and self.carried_to_id is None


class EntryKey(models.Model):
    """The idempotency key of a hand form: each rendered form carries a random key, and
    the entry it recorded is kept under it, so that a double tap or a retry after a lost
    answer records the hand once. The unique pair is the last guard; the partie's row
    lock (services.hand_record) makes the second request find the first's key."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="entry_keys")
    key = models.UUIDField(_("key"))
    number = models.PositiveIntegerField(_("number"))  # the entry recorded under it
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry key")
        verbose_name_plural = _("entry keys")
        constraints = [models.UniqueConstraint(fields=["partie", "key"], name="entry_key_once")]

    def __str__(self) -> str:
        return f"{self.partie_id} #{self.number}: {self.key}"


def hand_from_engine(hand: engine.Hand, players: dict[str, Player]) -> dict:
    """Model field values for an engine hand; ``players`` maps names to seated players."""
    return {
        "kind": hand.kind.value,
        "knocker": players[hand.knocker] if hand.knocker else None,
        "knocker_deadwood": hand.knocker_deadwood if hand.kind == engine.HandKind.KNOCK else None,
        "defender_deadwood": hand.defender_deadwood
        if hand.kind != engine.HandKind.NO_GAME
        else None,
        "upcard": hand.upcard.code if hand.upcard else "",
    }


def hand_to_engine(hand: Hand) -> engine.Hand:
    return engine.Hand(
        kind=engine.HandKind(hand.kind),
        knocker=hand.knocker.name if hand.knocker_id else None,
        knocker_deadwood=hand.knocker_deadwood,
        defender_deadwood=hand.defender_deadwood,
        upcard=engine.Card.parse(hand.upcard) if hand.upcard else None,
    )


Entry = engine.Hand | engine.Round  # what one number of a partie holds


def entries_to_engine(kind: str, hands: list[Hand]) -> list[Entry]:
    """The partie's entries in order, from its hands in playing order: each number's
    hands (one per table) make one entry, as the kind says (a partnership: a round)."""
    session = engine.session_class(kind)
    numbers: dict[int, list[engine.Hand]] = {}
    for hand in hands:
        numbers.setdefault(hand.number, []).append(hand_to_engine(hand))
    return [session.entry_of(tables) for _, tables in sorted(numbers.items())]


def entry_rows(kind: str, entry: Entry, players: dict[str, Player]) -> list[dict]:
    """The Hand rows (field values) that store one entry: one per table."""
    hands = engine.session_class(kind).hands_of(entry)
    return [
        {"table": table, **hand_from_engine(hand, players)}
        for table, hand in enumerate(hands, start=1)
    ]


# What a partie's closed games give a league (RULES.md §11), as rows: written by the
# services in the transaction of every change to the partie (table/results.py), so
# that standings are counted by the database and no partie is replayed to read them.


class ClosedGame(models.Model):
    """One closed game of a partie. The partie's club, kind and start are copied onto
    it (and onto its players' rows): they say which seasons count it and its place in
    their order (started_at, partie, number)."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="closed_games")
    number = models.PositiveSmallIntegerField(_("game"))  # 1-based, in the partie
    # Read by the index that leads with it (a season's games in their order): a second
    # index on the club alone would be the planner's pick for counting them, and slower.
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    kind = models.CharField(_("kind"), max_length=20, choices=KIND_CHOICES)
    started_at = models.DateTimeField(_("started"))
    shutout = models.BooleanField(_("shutout"), default=False)

    class Meta:
        verbose_name = _("closed game")
        verbose_name_plural = _("closed games")
        ordering = ["started_at", "partie_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["partie", "number"], name="closed_game_number")
        ]
        indexes = [models.Index(fields=["club", "started_at", "partie", "number"])]

    def __str__(self) -> str:
        return f"{self.partie_id} · {self.number}"


class ResultsChange(models.Model):
    """A change of the club's closed games, from ``since`` in their playing order on
    (None: from the first): a game closed, changed or taken away, a confirmation that may
    change which games a season of confirmed games counts, a partie given to a season, a
    partie ended early (no game changed, but a tournament's match is decided by it).

    The outbox of what the league derives in that order (its ratings): written in the
    change's own transaction, claimed by one worker (``league.outbox``), which rates the
    club again once from the earliest ``since`` of its rows and marks them ``done_at``.
    Nothing is inferred: what is not done is due, and pages say so."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    since = models.DateTimeField(_("from the game started at"), null=True, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)
    done_at = models.DateTimeField(_("done"), null=True, blank=True)

    class Meta:
        verbose_name = _("change of results")
        verbose_name_plural = _("changes of results")
        ordering = ["pk"]
        indexes = [
            # What is due: the worker's claim and each page's note read it alone.
            models.Index(fields=["club"], condition=models.Q(done_at=None), name="results_due"),
            models.Index(fields=["club", "-id"], name="results_change_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id} · {self.since or '-'}"

    @classmethod
    def record(cls, club_id: int, since=None) -> ResultsChange:
        """The row a change writes, in its own transaction, and the worker's task that
        does it (enqueued in the same transaction: both or neither)."""
        row = cls.objects.create(club_id=club_id, since=since)
        tasks.results_changed.enqueue(club_id)
        return row

    @classmethod
    def due(cls) -> models.QuerySet[ResultsChange]:
        """The rows the worker has not done yet (read by the partial index)."""
        return cls.objects.filter(done_at=None)


MONEY_SCALE = Decimal("0.0001")


# What a season's standings read of each result (and which games are pending):
# held by the index they are read from, so that no row is read (PostgreSQL).
STANDINGS_COLUMNS = ["player", "won", "shutout", "net_points", "money_e4", "kind", "partie", "game"]


class PlayerResult(models.Model):
    """A player's result in one closed game: won or lost, a shutout win, the settlement
    points and money he received less those he paid; his side in the game's ranking
    (0: the winners) and its rank, OpenSkill's input."""

    game = models.ForeignKey(ClosedGame, on_delete=models.CASCADE, related_name="results")
    # Read by the indexes that lead with it (Meta): see ClosedGame.club.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="results", db_index=False
    )
    won = models.BooleanField(_("won"))
    shutout = models.BooleanField(_("shutout win"))
    net_points = models.IntegerField(_("net points"))
    # In ten-thousandths of the money unit: sums are exact on every database (SQLite sums
    # decimals as floats); MONEY_SCALE turns it back into an amount.
    money_e4 = models.BigIntegerField(_("money (ten-thousandths)"))
    side = models.PositiveSmallIntegerField(_("side"))
    rank = models.PositiveSmallIntegerField(_("rank"))
    # The game's, for counting a season in one scan of an index, and its place in the
    # season's order (started_at, partie, number) without a join.
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    kind = models.CharField(_("kind"), max_length=20, choices=KIND_CHOICES)
    started_at = models.DateTimeField(_("started"))
    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField(_("game"))

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["game_id", "side", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_player_result_per_game")
        ]
        indexes = [
            # Covering: a season's standings are one scan of this index.
            models.Index(
                fields=["club", "started_at"],
                include=STANDINGS_COLUMNS,
                name="result_covering",
            ),
            models.Index(fields=["player", "started_at"], name="result_player_started"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.player} {'+' if self.won else '−'}"


class ResultConfirmation(models.Model):
    """A player's confirmation of a closed game's result: asked of every player linked to an
    account when the game's rows are written (``results.games_save``), then confirmed or
    disputed by that player alone (``services.confirmations``).

    The confirmation is the player's, and ``by`` the account that gave it: a change of the
    player's account link leaves it as it is (a pending one is given by whoever is linked
    now; a given one is changed only from the account that gave it, and a dispute is
    ended by that account or by the owner's decision).

    A game whose rows change gets new rows and is asked anew (the old confirmations go
    with the old game); a game every asked player confirmed (or whose disputes the owner
    decided, ``SETTLED``) is *locked*: no change may alter it until the club's owner
    unlocks it. A player's one row is changed in place; each change writes a
    ``ResultsChange``, which the club board's ETag reads
    (``league.selectors.standings_version``)."""

    class State(models.TextChoices):
        PENDING = "pending", _("not answered yet")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        # A dispute the club's owner decided: the result stands, the player's note and
        # account stay on the row, the owner's reason is in the partie's trail.
        DECIDED = "decided", _("decided by the owner")

    # The states that let a game count and lock: confirmed, or an owner's decision.
    SETTLED = (State.CONFIRMED, State.DECIDED)

    game = models.ForeignKey(ClosedGame, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("player")
    )
    state = models.CharField(
        _("answer"), max_length=10, choices=State.choices, default=State.PENDING
    )
    note = models.CharField(_("note"), max_length=500, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )
    asked_at = models.DateTimeField(_("asked"), default=timezone.now)
    at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("result confirmation")
        verbose_name_plural = _("result confirmations")
        ordering = ["game_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_answer_per_game_player")
        ]
        indexes = [models.Index(fields=["state", "game"], name="confirmation_state_game")]

    def __str__(self) -> str:
        return f"{self.game}: {self.player} {self.state}"

    @classmethod
    def pending_games(cls) -> models.QuerySet:
        """The keys of the pending games: some asked player has not confirmed them (not yet, or
        disputed and not decided by the owner): ``game_id__in`` it, uncorrelated, so that
        the database reads it once."""
        return cls.objects.exclude(state__in=cls.SETTLED).values("game_id")


class SettlementLine(models.Model):
    """One settlement line of a closed game: points and money, as the tally settles."""

    game = models.ForeignKey(ClosedGame, on_delete=models.CASCADE, related_name="lines")
    payer = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    points = models.IntegerField(_("points"))
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=4)

    class Meta:
        verbose_name = _("settlement line")
        verbose_name_plural = _("settlement lines")
        ordering = ["game_id", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.payer} → {self.payee} {self.points}"


class PartieStats(models.Model):
    """A player's hands in a partie, as of its last closed game: played, won, gins,
    undercuts, points won."""

    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="hand_stats")
    # Its index is stats_player_started's (which leads with the player).
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    hands = models.PositiveIntegerField(_("hands played"), default=0)
    won = models.PositiveIntegerField(_("hands won"), default=0)
    gins = models.PositiveIntegerField(_("gins"), default=0)
    undercuts = models.PositiveIntegerField(_("undercuts"), default=0)
    points = models.PositiveIntegerField(_("points won"), default=0)
    # The partie's, for counting a season in one scan of an index (as PlayerResult).
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=20, choices=KIND_CHOICES)
    started_at = models.DateTimeField(_("started"))

    class Meta:
        verbose_name = _("hand statistics")
        verbose_name_plural = _("hand statistics")
        constraints = [
            models.UniqueConstraint(fields=["partie", "player"], name="one_partie_stats_per_player")
        ]
        indexes = [
            # Covering: a season's hands are one scan of this index (PostgreSQL).
            models.Index(
                fields=["club", "started_at"],
                include=["player", "hands", "won", "gins", "undercuts", "points", "kind", "partie"],
                name="stats_club_started",
            ),
            # Covering: a page's players' hands (the standings' hundred lines, a player's
            # page) are read from the index alone, not from the season's every row.
            models.Index(
                fields=["player", "started_at"],
                include=["hands", "won", "gins", "undercuts", "points", "club", "kind", "partie"],
                name="stats_player_started",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.partie}: {self.player} {self.hands}"


class PlayerMerge(models.Model):
    """Two entries of a club's roster made one (services.player_merge), kept so that it
    can be read and undone: who stayed, who went and what moved from him. ``moved``
    holds what the undo puts back (services.player_merge_undo): the gone player's
    parties (everything of the kept player's there was his: the two never sat
    together), the seats, knocks, first deals and evening transfers by id, and the
    transfers between the two that the merge dropped."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="player_merges", verbose_name=_("club")
    )
    # Ids, not foreign keys: either player may be gone and back again (an undo gives
    # the gone player his id again), and the record of the merge stays.
    keep_id = models.PositiveBigIntegerField(_("kept player"))
    keep_name = models.CharField(_("kept name"), max_length=60)
    gone_id = models.PositiveBigIntegerField(_("merged player"))
    gone_name = models.CharField(_("merged name"), max_length=60)
    gone_owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    gone_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    gone_created_at = models.DateTimeField(_("merged player entered"))
    # The kept player had no account link and took the gone one's.
    took_account = models.BooleanField(_("took the account link"), default=False)
    moved = models.JSONField(_("moved"), default=dict)
    parties = models.PositiveIntegerField(_("parties"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    payments = models.PositiveIntegerField(_("evening payments"), default=0)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("merged by"),
    )
    at = models.DateTimeField(_("merged"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )

    class Meta:
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.gone_name} → {self.keep_name}"

    @property
    def is_undone(self) -> bool:
        return self.undone_at is not None
