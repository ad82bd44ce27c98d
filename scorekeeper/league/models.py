"""Club leagues: seasons, which parties they count, and the ratings of their games.

What a partie's closed games give a league is stored by the table app with every change
to the partie (``table.ClosedGame``, ``PlayerResult``, ``SettlementLine``); a season's
standings are counted from those rows by the database. Only the OpenSkill ratings,
which are sequential and do not add up, are stored here, game by game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.formats import number_text
from scorekeeper.tokens import new_share_token  # noqa: F401 (its migrations name it here)
from scorekeeper.vocabulary import KIND_CHOICES

POINTS = [MinValueValidator(-99), MaxValueValidator(99)]  # league points per game

# A season's dates (engine/bounds.py): the first and last day any season may have.
FIRST_SEASON_DAY = date(bounds.SEASON_YEARS[0], 1, 1)
LAST_SEASON_DAY = date(bounds.SEASON_YEARS[1], 12, 31)
SEASON_DATE_MESSAGES = {
    "season_out_of_range": _(
        "A season's days lie in the years %(first)s to %(last)s: choose dates within them."
    ),
    "season_backwards": _("The last day cannot come before the first."),
    "season_too_long": _(
        "A season lasts at most %(days)s days (five years): choose an earlier last day."
    ),
}


def season_dates_message(trouble: str) -> str:
    """What ``bounds.season_dates_trouble`` found, in the reader's language."""
    first, last = bounds.SEASON_YEARS
    params = {"first": first, "last": last, "days": bounds.MAX_SEASON_DAYS}
    return SEASON_DATE_MESSAGES[trouble] % params


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


# The kinds a night's table of two may play (a table of three plays the three-player kind).
NIGHT_KINDS = tuple(kind for kind, cls in engine.SESSION_KINDS.items() if 2 in cls.seats)
# Presets of one kind alone (Hollywood's, a partnership's): not for a table of another kind.
OWN_PRESETS = {cls.preset for cls in engine.SESSION_KINDS.values()} - {"classic"}


@dataclass(frozen=True)
class NightSettings:
    """What a league night's tables play: the kind of a table of two, the rules and the
    stake per point (``Partie.stake``)."""

    kind: str
    rules: engine.Ruleset
    stake: Decimal

    def for_table(self, seats: int) -> tuple[str, engine.Ruleset]:
        """The kind and rules of a table of ``seats``: a table of three plays the
        three-player kind, under the night's rules unless they are another kind's own."""
        if seats == 2:
            return self.kind, self.rules
        kind = "three_player"
        rules = self.rules
        if rules.preset in OWN_PRESETS:
            rules = engine.preset(engine.session_class(kind).preset)
        return kind, rules


class NightTables(models.Model):
    """The settings of a night's tables: a season's for each of its nights, a night's
    own (the organiser's for that night). Empty rules: the kind's preset."""

    night_kind = models.CharField(
        _("kind of a night's tables"),
        max_length=20,
        choices=[(kind, KIND_CHOICES[kind]) for kind in NIGHT_KINDS],
        default="two_player",
    )
    night_rules = models.JSONField(
        _("rules of a night's tables"),
        default=dict,
        blank=True,
        help_text=_("Every rule parameter; empty: the preset of the kind."),
    )
    night_stake = models.DecimalField(
        _("stake per point at a night's tables"), max_digits=10, decimal_places=4, default=0
    )

    class Meta:
        abstract = True

    @property
    def night_settings(self) -> NightSettings:
        cls = engine.session_class(self.night_kind)
        rules = engine.Ruleset.from_dict(self.night_rules) if self.night_rules else None
        return NightSettings(
            self.night_kind, rules or engine.preset(cls.preset), Decimal(self.night_stake)
        )

    def set_night_settings(self, settings: NightSettings) -> None:
        self.night_kind = settings.kind
        self.night_rules = settings.rules.to_dict()
        self.night_stake = settings.stake

    def night_fields(self) -> dict[str, object]:
        """The settings as stored, by field: for another row of ``NightTables`` to take."""
        fields = ("night_kind", "night_rules", "night_stake")
        return {field: getattr(self, field) for field in fields}


class Season(NightTables):
    """A season of a league: its dates, the kinds it counts, its points formula and its
    players (everyone who played, or a list chosen from the club's roster); and what the
    tables of its nights play (``NightTables``)."""

    class Players(models.TextChoices):
        PLAYED = "played", _("Everyone who played")
        ROSTER = "roster", _("Players chosen from the roster")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    kinds = models.JSONField(
        _("kinds counted"), default=list, blank=True, help_text=_("Empty: every kind counts.")
    )
    # Whole numbers from −99 to 99 (RULES.md §11): a loss may cost points.
    points_win = models.SmallIntegerField(_("points for a win"), default=2, validators=POINTS)
    points_shutout_win = models.SmallIntegerField(
        _("points for a shutout win"), default=3, validators=POINTS
    )
    points_loss = models.SmallIntegerField(_("points for a loss"), default=0, validators=POINTS)
    min_games = models.PositiveIntegerField(
        _("games to be ranked"), default=0, help_text=_("Fewer counted games: listed unranked.")
    )
    # Who the season lists. Its standings count every game of its parties either way
    # (RULES.md §11); a list adds its players without a game to the line under the
    # table, and marks those who played but are not on it. The list is kept when the
    # season goes back to everyone who played: nothing chosen is lost.
    players_from = models.CharField(
        _("players"), max_length=10, choices=Players.choices, default=Players.PLAYED
    )
    players = models.ManyToManyField(
        "table.Player", blank=True, related_name="+", verbose_name=_("players chosen")
    )
    # A game counts once every player asked (those linked to an account) has confirmed it
    # (table.ResultConfirmation); a game that asked nobody counts.
    confirmed_games_only = models.BooleanField(
        _("only confirmed games count"),
        default=False,
        help_text=_(
            "A game counts once each of its players linked to an account has confirmed its "
            "result; until then the standings show it as pending."
        ),
    )
    share_token = models.CharField(
        _("public link"), max_length=64, unique=True, null=True, blank=True
    )
    # Set and cleared with its SeasonClose, in one transaction (league.services): every
    # query of a season knows without a join whether it shows its final standings, and
    # the parties it counts end here (a partie started after the close does not count).
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start"
            ),
            # A day beyond these broke every page of the club (a season ending in 9999:
            # the day after it is no date). The length (at most five years) is checked
            # by clean() and the services: a difference of dates is no portable check.
            models.CheckConstraint(
                condition=Q(starts_on__gte=FIRST_SEASON_DAY, ends_on__lte=LAST_SEASON_DAY),
                name="season_dates_in_range",
                violation_error_message=SEASON_DATE_MESSAGES["season_out_of_range"]
                % {"first": bounds.SEASON_YEARS[0], "last": bounds.SEASON_YEARS[1]},
            ),
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{field}__gte": -99, f"{field}__lte": 99}),
                    name=f"season_{field}_bounded",
                )
                for field in ("points_win", "points_shutout_win", "points_loss")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} · {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("season_detail", args=[self.pk])

    def clean(self) -> None:
        # Given to the last day: full_clean() then skips the constraints on it, which
        # would say the same again.
        if isinstance(self.starts_on, date) and isinstance(self.ends_on, date):
            trouble = bounds.season_dates_trouble(self.starts_on, self.ends_on)
            if trouble:
                raise ValidationError({"ends_on": season_dates_message(trouble)})

    @property
    def points(self) -> engine.LeaguePoints:
        return engine.LeaguePoints(self.points_win, self.points_shutout_win, self.points_loss)

    @property
    def has_list(self) -> bool:
        """Whether the season lists players chosen from the roster."""
        return self.players_from == self.Players.ROSTER


class SeasonClose(models.Model):
    """A season closed by its owner: its final standings as they stood then, which its
    page, PDF and public link show from then on, whatever later happens to its parties.

    ``final_standings`` is FORMAT.md's standings JSON (``engine.season.standings_json``);
    ``players`` adds, by name, what the page shows beside it: the player's id, his hands
    (``engine.HandStats``' fields) and his last results (True a win); ``listed``, the
    season's list of players as it was. A reopen leaves the
    close in place, stamped with who reopened it and when: the seasons' audit trail. At
    most one close of a season is not reopened: the one its pages show."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="closes", verbose_name=_("season")
    )
    closed_at = models.DateTimeField(_("closed"))
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    final_standings = models.JSONField(_("final standings"))
    players = models.JSONField(_("players"), default=dict)
    winners = models.JSONField(_("winners"), default=list)  # the players ranked first
    # The season's chosen players by name at the close; None: everyone who played.
    listed = models.JSONField(_("players chosen"), null=True, blank=True)
    reopened_at = models.DateTimeField(_("reopened"), null=True, blank=True)
    reopened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reopened by"),
    )

    class Meta:
        verbose_name = _("season's close")
        verbose_name_plural = _("seasons' closes")
        ordering = ["-closed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season"],
                condition=Q(reopened_at__isnull=True),
                name="season_closed_once_at_a_time",
            )
        ]

    def __str__(self) -> str:
        return f"{self.season} closed {self.closed_at:%Y-%m-%d}"


class SeasonChange(models.Model):
    """A change of an open season's settings by its owner (``services.season_settings_change``):
    who, when, and each setting that changed, by its field's name, ``before`` and ``after``
    as JSON (a date as ``"2026-11-01"``). The season's page shows them to its owner with
    its closes and reopenings: the season's audit trail."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="changes", verbose_name=_("season")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        verbose_name = _("season's settings changed")
        verbose_name_plural = _("seasons' settings changed")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.season} {', '.join(self.after)}"


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


# The ratings' rows are derived, rewritten by the ten thousand when a season is rated
# again: no database constraint to check at commit (the ORM's cascade takes them with
# their season, club, game, result or player), and no index but those read by.
DERIVED = {"db_constraint": False, "db_index": False}


class RatedGame(models.Model):
    """A closed game as rated in a season (or, ``club``, in a club's all-time record):
    its place in their order (``seq``, 1-based). The ratings after it are its players'
    ``PlayerRating`` rows. A game rewritten or deleted takes its ratings with it, and
    ``league.ratings`` rates the games from the first gap on again."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="+", **DERIVED
    )
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+", **DERIVED
    )
    game = models.ForeignKey(
        "table.ClosedGame", on_delete=models.CASCADE, related_name="+", **DERIVED
    )
    seq = models.PositiveIntegerField(_("place"))

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        constraints = [
            models.CheckConstraint(
                condition=Q(season__isnull=True) ^ Q(club__isnull=True),
                name="rated_in_a_season_or_a_club",
            ),
            models.UniqueConstraint(
                fields=["season", "seq"],
                condition=Q(season__isnull=False),
                name="rated_season_place",
            ),
            models.UniqueConstraint(
                fields=["club", "seq"], condition=Q(club__isnull=False), name="rated_club_place"
            ),
        ]
        indexes = [models.Index(fields=["game"], name="rated_game")]

    def __str__(self) -> str:
        return f"{self.season or self.club_id} #{self.seq}: {self.game_id}"


class PlayerRating(models.Model):
    """A player's OpenSkill rating after a rated game, beside his result in it (and with
    it, the game's place and the player, to read a player's ratings in one scan).

    A result deleted (its game changed, its partie deleted) leaves its rating behind
    until the games are rated again from that place, which deletes every rating from
    there on: no cascade to look them up, no index to keep for it. Only ratings of
    results still there are read (``league.ratings.history`` joins the result)."""

    result = models.ForeignKey(
        "table.PlayerResult", on_delete=models.DO_NOTHING, related_name="+", **DERIVED
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="+", **DERIVED
    )
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+", **DERIVED
    )
    player = models.ForeignKey(
        "table.Player", on_delete=models.DO_NOTHING, related_name="+", **DERIVED
    )
    seq = models.PositiveIntegerField(_("place"))
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.CheckConstraint(
                condition=Q(season__isnull=True) ^ Q(club__isnull=True),
                name="rating_in_a_season_or_a_club",
            )
        ]
        indexes = [
            # A season's are written in the order of their places and read from a place
            # on; a club's all time is read player by player (his page's chart).
            models.Index(
                fields=["season", "seq"],
                condition=Q(season__isnull=False),
                name="rating_season_place",
            ),
            models.Index(
                fields=["club", "player", "seq"],
                condition=Q(club__isnull=False),
                name="rating_club_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after #{self.seq}: {_mu_sigma(self)}"


class CurrentRating(models.Model):
    """A player's rating after his last rated game of a season (or a club's all time),
    carried forward game by game: the one the standings show. ``seq`` is that game's
    place: a rating kept from a place since rated again is not carried forward."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, null=True, blank=True, related_name="+", **DERIVED
    )
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, null=True, blank=True, related_name="+", **DERIVED
    )
    player = models.ForeignKey(
        "table.Player", on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    seq = models.PositiveIntegerField(_("place"))

    class Meta:
        verbose_name = _("current rating")
        verbose_name_plural = _("current ratings")
        constraints = [
            models.CheckConstraint(
                condition=Q(season__isnull=True) ^ Q(club__isnull=True),
                name="current_in_a_season_or_a_club",
            ),
            models.UniqueConstraint(fields=["season", "player"], name="current_season_player"),
            models.UniqueConstraint(fields=["club", "player"], name="current_club_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {_mu_sigma(self)}"


def _mu_sigma(rating: PlayerRating | CurrentRating) -> str:
    """A stored rating as the admin lists it: μ/σ to two places, as every page rounds."""
    return f"{number_text(rating.mu, places=2)}/{number_text(rating.sigma, places=2)}"


from .night_models import (  # noqa: E402, F401 (league nights)
    CancelledNight,
    LeagueNight,
    NightBye,
    NightTable,
    night_started,
)
