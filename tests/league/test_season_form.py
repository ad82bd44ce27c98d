"""A season's league points: whole numbers from −99 to 99 (RULES.md §11), a loss may
cost points; the form, the model and the database refuse anything else."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from scorekeeper.engine import LeaguePoints
from scorekeeper.league.forms import SeasonForm
from scorekeeper.league.models import Season

FIELDS = ("points_win", "points_shutout_win", "points_loss")


def data(**points) -> dict:
    return {
        "name": "Winter",
        "starts_on": "2026-11-01",
        "ends_on": "2026-12-01",
        "points_win": 2,
        "points_shutout_win": 3,
        "points_loss": 0,
        "min_games": 0,
    } | points


@pytest.mark.parametrize("value", [-99, -1, 0, 99])
def test_the_form_takes_every_whole_number_from_minus_99_to_99(value):
    form = SeasonForm(data(points_win=value, points_shutout_win=value, points_loss=value))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["points"] == LeaguePoints(value, value, value)


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (-100, "Ensure this value is greater than or equal to -99."),
        (100, "Ensure this value is less than or equal to 99."),
        ("1.5", "Enter a whole number."),
        ("", "This field is required."),
    ],
)
def test_the_form_refuses_other_points_and_says_what_to_give(field, value, message):
    form = SeasonForm(data(**{field: value}))
    assert not form.is_valid()
    assert form.errors[field] == [message]
    assert "points" not in form.cleaned_data


def test_the_points_inputs_say_their_bounds():
    html = str(SeasonForm()["points_loss"])
    assert 'min="-99"' in html and 'max="99"' in html


@pytest.mark.django_db
def test_the_owner_starts_a_season_where_a_loss_costs_a_point(client_owner, club):
    response = client_owner.post(reverse("league_list", args=[club.slug]), {"name": "League"})
    response = client_owner.post(response.url, data(points_loss=-1))

    assert response.status_code == 302
    season = Season.objects.get()
    assert season.points == LeaguePoints(win=2, shutout_win=3, loss=-1)
    assert "loss −1" in client_owner.get(response.url).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("field", FIELDS)
def test_the_model_and_the_database_refuse_points_beyond_99(season, field):
    setattr(season, field, -100)
    with pytest.raises(ValidationError) as error:
        season.full_clean()
    assert field in error.value.message_dict
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(**{field: 100})
