"""A league night: the rounds the organiser started in a season on one day, each
round's tables (a partie each, numbered) and its byes. Imported by ``league.models``
(after the season, whose ``NightTables`` it shares)."""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .models import NightTables


class LeagueNight(NightTables):
    """The season's night on one day: its rounds are its tables and byes; its parties are
    an evening's (``evening``), settled together. What its tables play (``NightTables``)
    is the season's, or the organiser's for this night, as the last round started."""

    season = models.ForeignKey(
        "league.Season", on_delete=models.CASCADE, related_name="nights", verbose_name=_("season")
    )
    played_on = models.DateField(_("date"))
    evening = models.OneToOneField(
        "table.Evening",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_night",
        verbose_name=_("evening"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("league night")
        verbose_name_plural = _("league nights")
        ordering = ["-played_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "played_on"], name="one_night_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.played_on}"

    def get_absolute_url(self) -> str:
        return reverse("league_night", args=[self.season_id])


class NightTable(models.Model):
    """One table of a round: its number (1 first) and the partie played there."""

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField(_("round"))
    number = models.PositiveSmallIntegerField(_("table"))
    partie = models.OneToOneField(
        "table.Partie", on_delete=models.CASCADE, related_name="night_table"
    )

    class Meta:
        verbose_name = _("night table")
        verbose_name_plural = _("night tables")
        ordering = ["night", "round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "round", "number"], name="one_table_number")
        ]

    def __str__(self) -> str:
        return f"{self.night} · {self.round}.{self.number}"


class NightBye(models.Model):
    """A player who sat out a round: it counts no game and no points (RULES.md §11 is
    unchanged), only the next bye's choice (the fewest byes this season first)."""

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField(_("round"))
    player = models.ForeignKey(
        "table.Player", on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        ordering = ["night", "round", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["night", "round", "player"], name="one_bye_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.night} · {self.round}: {self.player}"
