"""A league night: the rounds the organiser started in a season on one day, each
round's tables (a partie each, numbered) and its byes; a night planned ahead is one
without a round yet, and a planned night cancelled leaves a ``CancelledNight`` for the
calendar feeds. Imported by ``league.models`` (after the season, whose ``NightTables``
it shares)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .models import NightTables


class LeagueNight(NightTables):
    """The season's night on one day: its rounds are its tables and byes; its parties are
    an evening's (``evening``), settled together. What its tables play (``NightTables``)
    is the season's, or the organiser's for this night, as the last round started.

    A night without a round is planned (``night_services.nights_plan``): it may move to
    another day of its season and be cancelled; its evening comes with its first round.
    A night with a round has started: it stays on its day."""

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


def night_started() -> Q:
    """Whether a night has started: a round of it is out (a table, or a bye). A
    condition for ``filter``, ``exclude`` and ``annotate`` over nights."""
    tables = NightTable.objects.filter(night=OuterRef("pk"))
    byes = NightBye.objects.filter(night=OuterRef("pk"))
    return Q(Exists(tables)) | Q(Exists(byes))


class CancelledNight(models.Model):
    """A planned night the organiser cancelled (``night_services.night_cancel``): the
    night is gone from its season, and this keeps what the calendar feeds need to take
    it out of the calendars that hold it. A feed goes on publishing it, for as long as it
    shows the season, under the night's UID (``night``: the key the night had; the
    database gives no key twice) with STATUS:CANCELLED, a SEQUENCE one above its moves
    and its cancellation as its newest change (RFC 5545, 3.8.1.11 and 3.8.7.4)."""

    season = models.ForeignKey(
        "league.Season",
        on_delete=models.CASCADE,
        related_name="cancelled_nights",
        verbose_name=_("season"),
    )
    night = models.PositiveBigIntegerField(_("night"), unique=True)
    played_on = models.DateField(_("date"))  # the day it was planned on when cancelled
    cancelled_at = models.DateTimeField(_("cancelled"), auto_now_add=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("cancelled by"),
    )

    class Meta:
        verbose_name = _("cancelled night")
        verbose_name_plural = _("cancelled nights")
        ordering = ["season", "played_on", "night"]

    def __str__(self) -> str:
        return f"{self.season} · {self.played_on} ({self.night})"
