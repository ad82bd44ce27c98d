"""A club's tournament: what it plays (the system and its options, what a match is), who
entered it (``Entry``), the partie each match is played in (``TournamentMatch``) and its
results as given (``MatchResult``). The bracket is never stored: the engine derives it from
the entries in seed order and the results in the order they were given
(``selectors.tournament_state``)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.league.models import NIGHT_KINDS, NightSettings
from scorekeeper.vocabulary import KIND_CHOICES


class Tournament(models.Model):
    """A club's tournament, from its entries to its champion. ``rounds`` and ``top_cut``
    (0: none) are a Swiss's, ``third_place`` and ``consolation`` a single elimination's;
    ``seed`` breaks the engine's ties, and seeds a random draw, the same way every time.
    Each match is a partie of ``match_kind`` under ``match_rules`` (empty: the kind's
    preset) at ``match_stake`` a point. ``confirmed_only``: a winner moves on once every
    player asked confirmed the partie's games; ``rated``: its games count in the club's
    ratings and seasons. ``round_minutes`` (0: none) is a round's time limit, counted
    from the start of the round's parties; ``at_time`` what becomes of a partie still
    played when the organiser calls time."""

    class System(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")

    class AtTime(models.TextChoices):
        LEADER = "leader", _("The leader wins")
        ONE_MORE_HAND = "one_more_hand", _("One more hand, then the leader wins")

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("club")
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    name = models.CharField(_("name"), max_length=80)
    played_on = models.DateField(_("date"))
    system = models.CharField(_("system"), max_length=20, choices=System.choices)
    rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), default=0)
    top_cut = models.PositiveSmallIntegerField(_("top cut"), default=0)
    third_place = models.BooleanField(_("third-place match"), default=False)
    consolation = models.BooleanField(_("consolation bracket"), default=False)
    seed = models.PositiveIntegerField(_("seed of the draw"), default=0)
    match_kind = models.CharField(
        _("a match is"),
        max_length=20,
        choices=[(kind, KIND_CHOICES[kind]) for kind in NIGHT_KINDS],
        default="two_player",
    )
    match_rules = models.JSONField(
        _("rules of a match"),
        default=dict,
        blank=True,
        help_text=_("Every rule parameter; empty: the preset of the kind."),
    )
    match_stake = models.DecimalField(
        _("stake per point"), max_digits=10, decimal_places=4, default=0
    )
    confirmed_only = models.BooleanField(_("winners move on once confirmed"), default=False)
    rated = models.BooleanField(_("counts in the club's ratings"), default=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("time limit of a round (minutes)"), default=0
    )
    at_time = models.CharField(
        _("a partie unfinished at time"),
        max_length=16,
        choices=AtTime.choices,
        default=AtTime.LEADER,
    )
    evening = models.OneToOneField(
        "table.Evening",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament",
        verbose_name=_("evening"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    # Set and cleared with the result that ends it or reopens it (same transaction).
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-played_on", "-id"]
        indexes = [
            # The worker's look for results due reads the running tournaments alone.
            models.Index(
                fields=["id"],
                condition=models.Q(started_at__isnull=False, finished_at=None),
                name="tournament_running",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} · {self.played_on}"

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])

    @property
    def is_started(self) -> bool:
        return self.started_at is not None

    @property
    def is_over(self) -> bool:
        return self.finished_at is not None

    @property
    def settings(self) -> NightSettings:
        """What each match plays: its kind, rules and stake (the league night's shape)."""
        cls = engine.session_class(self.match_kind)
        rules = engine.Ruleset.from_dict(self.match_rules) if self.match_rules else None
        return NightSettings(
            self.match_kind, rules or engine.preset(cls.preset), Decimal(self.match_stake)
        )

    def set_settings(self, settings: NightSettings) -> None:
        self.match_kind = settings.kind
        self.match_rules = settings.rules.to_dict()
        self.match_stake = settings.stake


class Entry(models.Model):
    """A player entered: his seed (1 best; None until seeded), whether he checked in,
    and when he withdrew (his remaining matches are forfeited to his opponents; after
    the start, ``withdrawn_after``: how many results had been given, where the engine
    takes his withdrawal among them, engine.tournaments.Withdrawal)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        "table.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawn_after = models.PositiveIntegerField(
        _("withdrawn after results"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", models.F("seed").asc(nulls_last=True), "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.player}"


class TournamentMatch(models.Model):
    """Where a match of the engine's (``match``: its id, ``W1-2``) is played: the table
    number and the partie. A match whose players change (a result corrected before it)
    loses its row; the partie stays the club's."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tables", verbose_name=_("tournament")
    )
    match = models.CharField(_("match"), max_length=16)
    table = models.PositiveSmallIntegerField(_("table"))
    partie = models.OneToOneField(
        "table.Partie",
        on_delete=models.CASCADE,
        related_name="tournament_match",
        verbose_name=_("partie"),
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament match")
        verbose_name_plural = _("tournament matches")
        ordering = ["tournament", "started_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "match"], name="one_partie_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.match}"


class MatchResult(models.Model):
    """A match's winner as given, in the order given: by its partie's close, by a
    withdrawal (a forfeit), or by the organiser (a correction, ``winner`` None voiding
    it). The rows are the record and the trail at once: none is changed or deleted, a
    later row for a match corrects it, and the engine replays them all."""

    class Source(models.TextChoices):
        PARTIE = "partie", _("the partie")
        FORFEIT = "forfeit", _("a withdrawal")
        ORGANISER = "organiser", _("the organiser")
        TIME = "time", _("time called")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="results", verbose_name=_("tournament")
    )
    match = models.CharField(_("match"), max_length=16)
    winner = models.ForeignKey(
        "table.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    source = models.CharField(_("given by"), max_length=10, choices=Source.choices)
    partie = models.ForeignKey(
        "table.Partie",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("partie"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament result")
        verbose_name_plural = _("tournament results")
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.match}: {self.winner or '-'}"
