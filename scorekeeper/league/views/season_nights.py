"""The season's nights: its organisers (a scorer or the owner, as on the league night
page) plan them ahead (one day, or a weekday every week), move a planned night to another
day and cancel one; the calendar feeds follow each change. Every write is a service of
``night_services``; a refusal shows beside the field it is about.

The page's lists and forms are one region (``#nights``): with HTMX each form swaps it
(a refusal answered 200, since htmx swaps no error answer in); without JavaScript each
form posts plainly, a refusal comes back as the page with a 400 and a change redirects
to the page, saying what was done."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.clubs.access import Role, object_in_club
from scorekeeper.table.views.common import HtmxHttpRequest

from .. import night_services, services
from ..models import LeagueNight, Season
from ..night_forms import NightMoveForm, NightPlanForm, WeeklyNightsForm
from ..night_services import NightStarted, NightTaken, OutsideSeason, PastDay, RoundError
from ..nights import season_nights as nights_of
from .seasons import _season

REFUSED = (RoundError, services.SeasonClosedError)


@login_required
@require_http_methods(["GET", "POST"])
def season_nights(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The page; a POST plans one night."""
    season = _season(request, pk, Role.SCORER)
    if request.method == "GET":
        return _render(request, season)
    form = NightPlanForm(request.POST)
    if form.is_valid():
        day = form.cleaned_data["played_on"]
        try:
            night_services.night_plan(season=season, played_on=day)
        except REFUSED as error:
            form.add_error("played_on", _refusal(error, season, day))
        else:
            return _done(request, season, _("A night is planned on %(day)s.") % {"day": _day(day)})
    return _render(request, season, plan=form)


@login_required
@require_POST
def season_nights_weekly(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A night every week on a weekday, from a day to a day; the days that have a night
    already are left alone."""
    season = _season(request, pk, Role.SCORER)
    form = WeeklyNightsForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        days = night_services.weekly(data["first"], data["last"], data["weekday"])
        if not days:
            form.add_error("weekday", _no_weekday(data))
            return _render(request, season, weekly=form)
        try:
            planned = night_services.nights_plan(season=season, days=days)
        except REFUSED as error:
            form.add_error(None, _refusal(error, season, None))
        else:
            return _done(request, season, _planned_text(planned))
    return _render(request, season, weekly=form)


@login_required
@require_POST
def night_move(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A planned night moved to another day of its season."""
    night = _night(request, pk)
    season = night.season
    form = NightMoveForm(request.POST, prefix=_prefix(night))
    if form.is_valid():
        day = form.cleaned_data["played_on"]
        before = night.played_on
        try:
            night_services.night_move(night=night, played_on=day)
        except REFUSED as error:
            form.add_error("played_on", _refusal(error, season, day))
        else:
            text = _("The night of %(before)s is now on %(after)s.")
            return _done(request, season, text % {"before": _day(before), "after": _day(day)})
    return _render(request, season, moving=(night.pk, form))


@login_required
@require_POST
def night_cancel(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A planned night cancelled: gone from the season, cancelled in the calendars."""
    night = _night(request, pk)
    season = night.season
    try:
        night_services.night_cancel(night=night, user=request.user)
    except REFUSED as error:
        return _render(request, season, error=_refusal(error, season, None))
    text = _("The night of %(day)s is cancelled.") % {"day": _day(night.played_on)}
    return _done(request, season, text)


def _night(request: HtmxHttpRequest, pk: int) -> LeagueNight:
    """A night of a season of one of the user's clubs, for its organisers; else 404 or
    403, as the season's."""
    nights = LeagueNight.objects.select_related("season__league__club")
    return object_in_club(request, nights, pk, Role.SCORER, club="season__league__club")


def _prefix(night: LeagueNight) -> str:
    return f"night-{night.pk}"


def _done(request: HtmxHttpRequest, season: Season, text: str) -> HttpResponse:
    """After a change: by HTMX the region read afresh, saying what was done; else the
    page again (the message rides along)."""
    if request.htmx:
        return _render(request, season, done=text)
    messages.success(request, text)
    return redirect(reverse("season_nights", args=[season.pk]))


def _render(
    request: HtmxHttpRequest,
    season: Season,
    *,
    plan: NightPlanForm | None = None,
    weekly: WeeklyNightsForm | None = None,
    moving: tuple[int, NightMoveForm] | None = None,
    error: str | None = None,
    done: str | None = None,
) -> HttpResponse:
    """The page, or by HTMX its region; with a refusal a 400 (by HTMX a 200)."""
    today = timezone.localdate()
    nights = nights_of(season)
    moved, move_form = moving or (None, None)
    planned = []
    for line in nights.planned:
        if line.night.pk == moved:
            form = move_form
        else:
            initial = {"played_on": line.night.played_on}
            form = NightMoveForm(prefix=_prefix(line.night), initial=initial)
        planned.append((line, form))
    if move_form is not None and moved not in {line.night.pk for line in nights.planned}:
        # The night started (or went) meanwhile: its form is not shown, its refusal is.
        error = error or " ".join(move_form.errors.get("played_on", []))
    first = max(today, season.starts_on)
    context = {
        "season": season,
        "today": today,
        "planned": planned,
        "started": nights.started,
        "closed": season.closed_at is not None,
        "plan": plan or NightPlanForm(initial={"played_on": first}),
        "weekly": weekly
        or WeeklyNightsForm(
            initial={"weekday": first.weekday(), "first": first, "last": season.ends_on}
        ),
        "error": error,
        "done": done,
    }
    refused = bool(error) or any(
        form is not None and form.errors for form in (plan, weekly, move_form)
    )
    template = "league/season_nights.html"
    if request.htmx:
        template += "#nights"
    return render(request, template, context, status=400 if refused and not request.htmx else 200)


def _day(day: date) -> str:
    """A night's day as the page says it: "Thursday, 3 December 2026"."""
    return _("%(weekday)s, %(date)s") % {
        "weekday": date_format(day, "l"),
        "date": date_format(day, "DATE_FORMAT"),
    }


def _refusal(error: Exception, season: Season, day: date | None) -> str:
    """What the page says when a night cannot be planned, moved or cancelled."""
    if isinstance(error, services.SeasonClosedError):
        return _("The season is closed: reopen it to plan, move or cancel its nights.")
    if isinstance(error, NightStarted):
        return _(
            "This night has started (its first round is out): it stays on its day and "
            "cannot be cancelled."
        )
    if isinstance(error, OutsideSeason):
        return _("%(season)s runs from %(first)s to %(last)s: choose one of its days.") % {
            "season": season.name,
            "first": date_format(season.starts_on, "SHORT_DATE_FORMAT"),
            "last": date_format(season.ends_on, "SHORT_DATE_FORMAT"),
        }
    if isinstance(error, PastDay):
        return _("%(day)s is gone: choose today or a later day.") % {"day": _day(error.day)}
    if isinstance(error, NightTaken) and day is not None:
        return _("The season has a night on %(day)s already: choose another day.") % {
            "day": _day(day)
        }
    return str(error)


def _no_weekday(data: dict) -> str:
    return _("There is no %(weekday)s from %(first)s to %(last)s: choose other days.") % {
        "weekday": WEEKDAYS[data["weekday"]],
        "first": _day(data["first"]),
        "last": _day(data["last"]),
    }


def _planned_text(planned: night_services.Planned) -> str:
    """What a week's nights planned did: how many, and the days left alone."""
    count = len(planned.nights)
    if count:
        text = ngettext(
            "%(count)s night planned, from %(first)s to %(last)s.",
            "%(count)s nights planned, from %(first)s to %(last)s.",
            count,
        ) % {
            "count": count,
            "first": _day(planned.nights[0].played_on),
            "last": _day(planned.nights[-1].played_on),
        }
    else:
        text = _("No night planned.")
    if planned.skipped:
        days = ", ".join(_day(day) for day in planned.skipped)
        text += " " + ngettext(
            "Left alone, as the season has a night on it already: %(days)s.",
            "Left alone, as the season has a night on them already: %(days)s.",
            len(planned.skipped),
        ) % {"days": days}
    return text
