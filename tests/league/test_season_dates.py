"""A season's dates lie in the years 2000 to 2100 and span at most five years: the form,
the model, the services and the database refuse others (issue 27, finding 6: a season
ending 9999-12-31 stopped every hand and page of its club)."""

import importlib
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.league import services as league_services
from scorekeeper.league.forms import SeasonDatesForm
from scorekeeper.league.models import Season

pytestmark = pytest.mark.django_db

FAR = date(9999, 12, 31)


def dates(starts: str, ends: str) -> dict:
    return {"name": "Winter", "starts_on": starts, "ends_on": ends}


@pytest.mark.parametrize(
    ("starts", "ends", "message"),
    [
        ("2026-11-01", "9999-12-31", "A season's days lie in the years 2000 to 2100"),
        ("2026-11-01", "9999-12-30", "A season's days lie in the years 2000 to 2100"),
        ("1999-12-31", "2000-06-30", "A season's days lie in the years 2000 to 2100"),
        ("2026-01-01", "2031-12-31", "A season lasts at most 1830 days"),
        ("2026-12-01", "2026-11-01", "The last day cannot come before the first."),
    ],
)
def test_the_form_refuses_dates_out_of_bounds_and_says_what_to_change(starts, ends, message):
    form = SeasonDatesForm(dates(starts, ends))
    assert not form.is_valid()
    assert message in form.errors["ends_on"][0]


def test_the_form_takes_the_first_and_last_days_allowed():
    assert SeasonDatesForm(dates("2000-01-01", "2004-12-31")).is_valid()
    assert SeasonDatesForm(dates("2096-01-01", "2100-12-31")).is_valid()


def test_the_owner_cannot_start_a_season_ending_in_9999(client_owner, season):
    url = reverse("season_new", args=[season.league.pk])
    data = dates("2026-11-01", "9999-12-31") | {
        "points_win": 2, "points_shutout_win": 3, "points_loss": 0, "min_games": 0,
    }  # fmt: skip
    response = client_owner.post(url, data)
    assert response.status_code == 400
    assert "lie in the years 2000 to 2100" in response.content.decode()
    assert Season.objects.count() == 1


def test_the_model_refuses_a_season_out_of_bounds(season):
    season.ends_on = FAR
    with pytest.raises(ValidationError) as refused:
        season.full_clean()
    assert list(refused.value.message_dict) == ["ends_on"]  # said once, not twice
    season.ends_on = season.starts_on.replace(year=season.starts_on.year + 6)
    with pytest.raises(ValidationError, match="at most 1830 days"):
        season.full_clean()


def test_the_database_refuses_a_season_out_of_bounds(season):
    for starts, ends in ((season.starts_on, FAR), (date(1970, 1, 1), season.ends_on)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Season.objects.filter(pk=season.pk).update(starts_on=starts, ends_on=ends)
    season.refresh_from_db()
    assert season.ends_on < FAR


def test_the_services_refuse_a_season_out_of_bounds(season):
    with pytest.raises(league_services.SeasonSettingsError, match="2000 to 2100"):
        league_services.season_create(
            league=season.league, name="Forever", starts_on=date(2026, 1, 1), ends_on=FAR
        )
    with pytest.raises(league_services.SeasonSettingsError, match="at most 1830 days"):
        league_services.season_settings_change(season=season, ends_on=date(2099, 1, 1))
    season.refresh_from_db()
    assert season.ends_on.year < 2099
    assert Season.objects.count() == 1


def test_every_page_of_a_season_ending_on_the_last_day_allowed_answers(client_owner, season):
    Season.objects.filter(pk=season.pk).update(
        starts_on=date(2096, 1, 1), ends_on=date(2100, 12, 31)
    )
    names = ("season_detail", "season_csv", "season_hands_csv", "season_pdf", "season_json",
             "season_close", "league_night", "season_next", "season_settings")  # fmt: skip
    for name in names:
        response = client_owner.get(reverse(name, args=[season.pk]))
        assert response.status_code == 200, name
    board = reverse("club_board", args=[season.league.club.slug])
    assert client_owner.get(board).status_code == 200


def test_the_next_season_after_the_last_allowed_one_is_refused_with_a_message(client_owner, season):
    Season.objects.filter(pk=season.pk).update(
        starts_on=date(2100, 1, 1), ends_on=date(2100, 12, 31)
    )
    url = reverse("season_next", args=[season.pk])
    assert client_owner.get(url).status_code == 200
    response = client_owner.post(url, dates("2101-01-01", "2101-12-31"))
    assert response.status_code == 400
    assert "lie in the years 2000 to 2100" in response.content.decode()


def test_a_hand_that_closes_a_game_is_recorded_in_a_club_whose_season_ends_late(
    play, season, django_capture_on_commit_callbacks
):
    longest = season.starts_on + timedelta(days=bounds.MAX_SEASON_DAYS - 1)
    Season.objects.filter(pk=season.pk).update(ends_on=longest)
    with django_capture_on_commit_callbacks(execute=True):
        partie = play(["Anna", "Ben"], [engine.Hand.gin(90, knocker="Anna")])
    assert partie.hands.count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="DDL in a test's transaction")
def test_the_migration_brings_a_saved_season_within_the_years_and_keeps_its_dates(season):
    """Before the constraint, a season could end in 9999: the migration moves its last
    day to 2100-12-31, and its audit trail keeps the day it had."""
    from django.apps import apps

    migration = importlib.import_module(
        "scorekeeper.league.migrations.0014_season_dates_into_range"
    )
    constraint = next(c for c in Season._meta.constraints if c.name == "season_dates_in_range")
    with connection.cursor() as cursor:  # as between two migrations: no pending triggers
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with connection.schema_editor() as editor:
        editor.remove_constraint(Season, constraint)
    Season.objects.filter(pk=season.pk).update(ends_on=FAR)

    migration.dates_into_range(apps, None)
    with connection.schema_editor() as editor:
        editor.add_constraint(Season, constraint)  # holds now

    season.refresh_from_db()
    assert season.ends_on == date(2100, 12, 31)
    change = season.changes.get()
    assert (change.user, change.before["ends_on"], change.after["ends_on"]) == (
        None, "9999-12-31", "2100-12-31",
    )  # fmt: skip
