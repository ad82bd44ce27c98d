"""Club leagues: seasons, and the results of closed games stored for their standings.

The hands stay the source of truth. When a partie changes, the services store what
each of its closed games gives a league (``Game``, ``GamePlayer``, ``GamePayment``)
and each player's hands (``PartieStats``) in the same transaction, so that a
standings page reads stored rows and never replays a partie.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class League(models.Model):
    """A club's league: the seasons it plays, one after another."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="leagues", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A season of a league: its dates, the kinds it counts and its points formula."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    kinds = models.JSONField(
        _("kinds counted"), default=list, blank=True, help_text=_("Empty: every kind counts.")
    )
    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    points_shutout_win = models.PositiveSmallIntegerField(_("points for a shutout win"), default=3)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    min_games = models.PositiveIntegerField(
        _("games to be ranked"), default=0, help_text=_("Fewer counted games: listed unranked.")
    )
    share_token = models.CharField(
        _("public link"), max_length=64, unique=True, null=True, blank=True
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"{self.league} · {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("season_detail", args=[self.pk])

    @property
    def points(self) -> engine.LeaguePoints:
        return engine.LeaguePoints(self.points_win, self.points_shutout_win, self.points_loss)


class Assignment(models.Model):
    """A partie counted for a season explicitly, whatever its date."""

    partie = models.OneToOneField(
        "table.Partie", on_delete=models.CASCADE, related_name="season_assignment"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="assignments")

    class Meta:
        verbose_name = _("season assignment")
        verbose_name_plural = _("season assignments")

    def __str__(self) -> str:
        return f"{self.partie} → {self.season}"


class Game(models.Model):
    """One closed game of a partie, as a league counts it (RULES.md §11)."""

    partie = models.ForeignKey(
        "table.Partie", on_delete=models.CASCADE, related_name="league_games"
    )
    number = models.PositiveSmallIntegerField(_("game"))  # 1-based, in the partie
    shutout = models.BooleanField(_("shutout"), default=False)
    # The sides best first, as player ids, and each side's rank: OpenSkill's input.
    ranking = models.JSONField(_("ranking"))
    ranks = models.JSONField(_("ranks"))

    class Meta:
        verbose_name = _("league game")
        verbose_name_plural = _("league games")
        ordering = ["partie__started_at", "partie_id", "number"]
        constraints = [models.UniqueConstraint(fields=["partie", "number"], name="one_game_number")]

    def __str__(self) -> str:
        return f"{self.partie} · {self.number}"


class GamePlayer(models.Model):
    """A player's result in one league game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey("table.Player", on_delete=models.CASCADE, related_name="+")
    won = models.BooleanField(_("won"))

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_result_per_player")
        ]
        indexes = [models.Index(fields=["player", "game"])]

    def __str__(self) -> str:
        return f"{self.game}: {self.player} {'+' if self.won else '−'}"


class GamePayment(models.Model):
    """One settlement line of a league game: points and money, as the tally settles."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="payments")
    payer = models.ForeignKey("table.Player", on_delete=models.CASCADE, related_name="+")
    payee = models.ForeignKey("table.Player", on_delete=models.CASCADE, related_name="+")
    points = models.IntegerField(_("points"))
    amount = models.DecimalField(_("amount"), max_digits=14, decimal_places=4)

    class Meta:
        verbose_name = _("settlement line")
        verbose_name_plural = _("settlement lines")

    def __str__(self) -> str:
        return f"{self.game}: {self.payer} → {self.payee} {self.points}"


class PartieStats(models.Model):
    """A player's hands in a partie: played, won, gins, undercuts, points won."""

    partie = models.ForeignKey("table.Partie", on_delete=models.CASCADE, related_name="hand_stats")
    player = models.ForeignKey("table.Player", on_delete=models.CASCADE, related_name="+")
    hands = models.PositiveIntegerField(_("hands played"), default=0)
    won = models.PositiveIntegerField(_("hands won"), default=0)
    gins = models.PositiveIntegerField(_("gins"), default=0)
    undercuts = models.PositiveIntegerField(_("undercuts"), default=0)
    points = models.PositiveIntegerField(_("points won"), default=0)

    class Meta:
        verbose_name = _("hand statistics")
        verbose_name_plural = _("hand statistics")
        constraints = [
            models.UniqueConstraint(fields=["partie", "player"], name="one_stats_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.partie}: {self.player} {self.hands}"


class ResultsVersion(models.Model):
    """A club's count of changes to its stored league results: a season's cached
    standings are good while the count they were computed at still holds."""

    club = models.OneToOneField(
        "clubs.Club", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    version = models.PositiveBigIntegerField(default=0)
    # The version of the last change that no checkpoint survives (a player renamed or
    # merged, a partie assigned to a season): standings are then counted from the start.
    full_version = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("results version")
        verbose_name_plural = _("results versions")

    def __str__(self) -> str:
        return f"{self.club}: {self.version}"


class SeasonCache(models.Model):
    """A season's standings as last computed from the stored results, and the key (the
    club's results version and the season's own settings) they were computed for."""

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, primary_key=True, related_name="cache"
    )
    key = models.CharField(max_length=200)
    lines = models.JSONField()  # each player's line, stats and trend, in standings order
    head_to_head = models.JSONField()
    matrix = models.JSONField(default=list)  # the top players' meetings, for the page
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("cached standings")
        verbose_name_plural = _("cached standings")

    def __str__(self) -> str:
        return f"{self.season} @ {self.key}"


class BookCheckpoint(models.Model):
    """A league book (a season's, or a club's all time) as counted up to one game
    (``upto``: the partie's start, its id and the game's number), so that it is counted
    again from there with the games after it (``league.books``). It holds while ``key``
    (the club's ``full_version``, and a season's settings) is the owner's and the parties
    up to that game are as they were."""

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="checkpoint"
    )
    club = models.OneToOneField(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    key = models.CharField(max_length=200)
    upto = models.JSONField()  # [started_at ISO, partie id, game number]
    parties = models.JSONField()  # [count, sum of keys, sum of versions] of those up to it
    names = models.JSONField()  # {player id: name} seated in those parties (a season's)
    state = models.JSONField()  # engine.LeagueBook.state()

    class Meta:
        verbose_name = _("standings checkpoint")
        verbose_name_plural = _("standings checkpoints")
        constraints = [
            models.CheckConstraint(
                condition=Q(season__isnull=True) ^ Q(club__isnull=True),
                name="checkpoint_of_a_season_or_a_club",
            )
        ]

    def __str__(self) -> str:
        return f"{self.season or self.club_id} @ {self.upto}"


class PlayerCache(models.Model):
    """A player's all-time record in his club as last computed from the stored results
    (his line, each result with his rating after it, his opponents), and the club's
    results version it was computed at."""

    player = models.OneToOneField(
        "table.Player", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    key = models.CharField(max_length=40)
    line = models.JSONField()
    results = models.JSONField()  # [partie id, game number, won, net points, mu, sigma]
    opponents = models.JSONField()  # [player id, won, lost, net points]

    class Meta:
        verbose_name = _("cached player record")
        verbose_name_plural = _("cached player records")

    def __str__(self) -> str:
        return f"{self.player} @ {self.key}"


from .night_models import LeagueNight, NightBye, NightTable  # noqa: E402, F401 (league nights)
