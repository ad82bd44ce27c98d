"""The season's nights planned ahead, moved and cancelled through the services: what they
write, what they refuse (with nothing written), and how a planned night meets its first
round."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs.models import CalendarMove
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import CancelledNight, LeagueNight, NightSettings
from scorekeeper.league.night_services import (
    NightStarted,
    NightTaken,
    OutsideSeason,
    PastDay,
    night_cancel,
    night_move,
    night_plan,
    night_round_start,
    nights_plan,
    weekly,
)
from scorekeeper.league.nights import last_night, season_nights
from scorekeeper.table.models import Evening, Player

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


@pytest.fixture
def roster(club) -> list[str]:
    names = ["Anna", "Ben", "Carl", "Dora"]
    for name in names:
        Player.objects.create(club=club, name=name)
    return names


def first_round(season, owner, day=TODAY, byes=("Carl",)) -> LeagueNight:
    seating = Pairing((Table(1, ("Anna", "Ben")),), byes)
    return night_round_start(season=season, owner=owner, seating=seating, played_on=day, round=1)


def days_of(season) -> list[date]:
    return list(
        LeagueNight.objects.filter(season=season)
        .order_by("played_on")
        .values_list("played_on", flat=True)
    )


def test_a_night_planned_waits_for_its_first_round_with_the_season_settings(season):
    night = night_plan(season=season, played_on=TODAY + timedelta(days=3))

    night.refresh_from_db()
    assert night.played_on == TODAY + timedelta(days=3)
    assert night.evening is None  # its evening comes with its first round
    assert night.night_settings == season.night_settings
    nights = season_nights(season)
    assert [line.night.pk for line in nights.planned] == [night.pk]
    assert nights.planned[0].rounds == 0 and not nights.planned[0].started
    assert nights.started == []


def test_a_night_every_week_skips_the_days_that_have_one(season):
    thursdays = weekly(TODAY, TODAY + timedelta(days=27), 3)
    assert len(thursdays) == 4 and {day.weekday() for day in thursdays} == {3}
    taken = night_plan(season=season, played_on=thursdays[1])

    planned = nights_plan(season=season, days=thursdays)

    assert [night.played_on for night in planned.nights] == [thursdays[0], *thursdays[2:]]
    assert planned.skipped == [thursdays[1]]
    assert days_of(season) == thursdays
    assert LeagueNight.objects.get(played_on=thursdays[1]).pk == taken.pk  # left alone
    assert all(night.pk for night in planned.nights)


def test_planning_is_refused_outside_the_season_and_before_today(season):
    inside = TODAY + timedelta(days=1)
    for day, refusal in (
        (season.ends_on + timedelta(days=1), OutsideSeason),
        (season.starts_on - timedelta(days=1), OutsideSeason),
        (TODAY - timedelta(days=1), PastDay),
    ):
        with pytest.raises(refusal):
            nights_plan(season=season, days=[inside, day])
    night_plan(season=season, played_on=inside)
    with pytest.raises(NightTaken):
        night_plan(season=season, played_on=inside)

    assert days_of(season) == [inside]  # a refused series plans none of its days


def test_a_planned_night_moves_and_the_calendar_notes_it(club, season):
    night = night_plan(season=season, played_on=TODAY + timedelta(days=2))

    night_move(night=night, played_on=TODAY + timedelta(days=5))

    assert LeagueNight.objects.get(pk=night.pk).played_on == TODAY + timedelta(days=5)
    move = CalendarMove.objects.get()
    assert (move.club_id, move.event) == (club.pk, f"night-{night.pk}")
    assert (move.before, move.after) == (TODAY + timedelta(days=2), TODAY + timedelta(days=5))


def test_a_move_is_refused_to_a_day_taken_gone_or_outside_the_season(season):
    night = night_plan(season=season, played_on=TODAY + timedelta(days=2))
    other = night_plan(season=season, played_on=TODAY + timedelta(days=4))

    for day, refusal in (
        (other.played_on, NightTaken),
        (TODAY - timedelta(days=1), PastDay),
        (season.ends_on + timedelta(days=1), OutsideSeason),
    ):
        with pytest.raises(refusal):
            night_move(night=night, played_on=day)
    night_move(night=night, played_on=night.played_on)  # its own day: nothing to move

    assert not CalendarMove.objects.exists()
    assert days_of(season) == [night.played_on, other.played_on]


def test_a_started_night_is_neither_moved_nor_cancelled(season, owner, roster):
    night = first_round(season, owner)

    with pytest.raises(NightStarted):
        night_move(night=night, played_on=TODAY + timedelta(days=1))
    with pytest.raises(NightStarted):
        night_cancel(night=night, user=owner)

    assert LeagueNight.objects.get(pk=night.pk).played_on == TODAY
    assert not CalendarMove.objects.exists() and not CancelledNight.objects.exists()
    assert [line.night.pk for line in season_nights(season).started] == [night.pk]


def test_a_night_of_byes_alone_has_started_too(season, owner, roster):
    """A round is at least one table, but a night's byes alone already say it began."""
    night = night_plan(season=season, played_on=TODAY)
    night.byes.create(round=1, player=Player.objects.get(name="Anna"))

    with pytest.raises(NightStarted):
        night_cancel(night=night, user=owner)


def test_a_cancelled_night_leaves_its_season_and_is_kept_for_the_calendars(season, owner):
    night = night_plan(season=season, played_on=TODAY + timedelta(days=6))
    night_move(night=night, played_on=TODAY + timedelta(days=7))

    cancelled = night_cancel(night=night, user=owner)

    assert not LeagueNight.objects.filter(pk=night.pk).exists()
    assert season_nights(season).planned == []
    assert (cancelled.night, cancelled.season_id) == (night.pk, season.pk)
    assert cancelled.played_on == TODAY + timedelta(days=7)  # the day it had
    assert cancelled.cancelled_by == owner
    # The day is free again: a new night there is another event.
    again = night_plan(season=season, played_on=TODAY + timedelta(days=7))
    assert again.pk != night.pk


def test_a_cancelled_night_takes_its_empty_evening_along(season, owner, roster):
    """A night whose tables went (their parties deleted for good) is planned again; its
    evening, with no partie left, goes with it when it is cancelled."""
    night = first_round(season, owner, byes=())
    evening = night.evening
    for table in night.tables.all():
        table.partie.delete()  # the admin's delete: the night's table goes with it

    night_cancel(night=night, user=owner)

    assert not Evening.objects.filter(pk=evening.pk).exists()


def test_a_closed_season_plans_moves_and_cancels_nothing(season, owner):
    night = night_plan(season=season, played_on=TODAY + timedelta(days=1))
    league_services.season_close(season=season, user=owner)
    season.refresh_from_db()

    with pytest.raises(league_services.SeasonClosedError):
        night_plan(season=season, played_on=TODAY + timedelta(days=2))
    with pytest.raises(league_services.SeasonClosedError):
        night_move(night=night, played_on=TODAY + timedelta(days=2))
    with pytest.raises(league_services.SeasonClosedError):
        night_cancel(night=night, user=owner)

    assert days_of(season) == [TODAY + timedelta(days=1)]
    assert not CancelledNight.objects.exists() and not CalendarMove.objects.exists()


def test_the_first_round_on_a_planned_day_is_the_planned_night(season, owner, roster):
    planned = night_plan(season=season, played_on=TODAY)

    night = first_round(season, owner)

    assert night.pk == planned.pk and night.evening is not None
    assert LeagueNight.objects.count() == 1
    assert [line.night.pk for line in season_nights(season).started] == [planned.pk]


def test_planned_nights_play_the_season_settings_until_their_first_round(season, owner, roster):
    started = first_round(season, owner)
    planned = night_plan(season=season, played_on=TODAY + timedelta(days=7))
    oklahoma = NightSettings("two_player", engine.preset("oklahoma"), Decimal("0.10"))

    league_services.season_settings_change(season=season, night=oklahoma, user=owner)

    assert LeagueNight.objects.get(pk=planned.pk).night_settings == oklahoma
    assert LeagueNight.objects.get(pk=started.pk).night_settings != oklahoma


def test_last_night_passes_over_a_night_never_played(season, owner, roster):
    played = first_round(season, owner, day=TODAY - timedelta(days=7))
    LeagueNight.objects.create(season=season, played_on=TODAY - timedelta(days=2))

    assert last_night(season, TODAY) == played


def test_the_admins_delete_cancels_a_planned_night_and_keeps_a_started_one(
    season, owner, roster, django_user_model
):
    planned = night_plan(season=season, played_on=TODAY + timedelta(days=2))
    started = first_round(season, owner)
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("official", "o@example.org"))

    url = reverse("admin:league_leaguenight_delete", args=[planned.pk])
    assert client.post(url, {"post": "yes"}).status_code == 302
    assert CancelledNight.objects.get().played_on == planned.played_on  # the feeds keep it
    assert (
        client.get(reverse("admin:league_leaguenight_delete", args=[started.pk])).status_code == 403
    )

    changelist = reverse("admin:league_leaguenight_changelist")
    chosen = {"action": "delete_selected", "_selected_action": [started.pk], "post": "yes"}
    assert client.post(changelist, chosen).status_code == 403
    assert days_of(season) == [started.played_on]
