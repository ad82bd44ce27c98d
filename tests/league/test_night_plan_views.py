"""The season's nights page: who may use it, a GET that writes nothing, nights planned
(one day, a weekday every week), moved and cancelled through its forms, with and without
HTMX, and every refusal said beside the field it is about."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs.models import Role
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import CancelledNight, LeagueNight
from scorekeeper.league.night_services import night_move, night_plan, night_round_start, weekly
from scorekeeper.table.models import Player
from tests.clubs.conftest import join

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_as(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def page(season) -> str:
    return reverse("season_nights", args=[season.pk])


def days(season) -> list:
    nights = LeagueNight.objects.filter(season=season).order_by("played_on")
    return list(nights.values_list("played_on", flat=True))


@pytest.fixture
def scorer(club, django_user_model):
    user = django_user_model.objects.create_user("scorer")
    join(club, user, Role.SCORER)
    return user


@pytest.fixture
def planned(season) -> LeagueNight:
    return night_plan(season=season, played_on=TODAY + timedelta(days=2))


def test_the_organisers_use_the_page_a_member_is_refused_an_outsider_finds_nothing(
    season, planned, owner, scorer, member, outsider
):
    day = {"played_on": (TODAY + timedelta(days=3)).isoformat()}
    addresses = [
        ("get", page(season), None),
        ("post", page(season), day),
        ("post", reverse("season_nights_weekly", args=[season.pk]), {}),
        ("post", reverse("night_move", args=[planned.pk]), {}),
        ("post", reverse("night_cancel", args=[planned.pk]), None),
    ]
    for method, address, data in addresses:
        assert getattr(client_as(member), method)(address, data).status_code == 403
        assert getattr(client_as(outsider), method)(address, data).status_code == 404
        anonymous = getattr(client_as(None), method)(address, data)
        assert anonymous.status_code == 302 and "/login/" in anonymous.url
    assert days(season) == [planned.played_on] and not CancelledNight.objects.exists()

    assert client_as(owner).get(page(season)).status_code == 200
    assert client_as(scorer).get(page(season)).status_code == 200


def test_the_season_page_links_the_nights_for_its_organisers(season, owner, scorer, member):
    detail = reverse("season_detail", args=[season.pk])
    assert page(season) in client_as(owner).get(detail).content.decode()
    assert page(season) in client_as(scorer).get(detail).content.decode()
    assert page(season) not in client_as(member).get(detail).content.decode()
    night_page = client_as(owner).get(reverse("league_night", args=[season.pk]))
    assert page(season) in night_page.content.decode()


def test_the_page_lists_planned_and_played_nights_and_its_get_writes_nothing(
    season, planned, owner, club
):
    for name in ("Anna", "Ben"):
        Player.objects.create(club=club, name=name)
    night_round_start(
        season=season,
        owner=owner,
        seating=Pairing((Table(1, ("Anna", "Ben")),), ()),
        played_on=TODAY - timedelta(days=1),
        round=1,
    )
    client = client_as(owner)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(page(season))

    writes = [q["sql"] for q in queries if q["sql"].split(None, 1)[0] in ("INSERT", "UPDATE")]
    assert [sql for sql in writes if "django_session" not in sql] == []
    html = response.content.decode()
    assert f'id="night-{planned.pk}"' in html
    assert "1 round · 1 table" in html
    (line, form) = response.context["planned"][0]
    assert line.night == planned and form["played_on"].value() == planned.played_on
    assert len(response.context["started"]) == 1


def test_one_night_planned_without_javascript_and_by_htmx(season, owner):
    client = client_as(owner)
    first, second = TODAY + timedelta(days=4), TODAY + timedelta(days=5)

    response = client.post(page(season), {"played_on": first.isoformat()}, follow=True)

    assert response.redirect_chain == [(page(season), 302)]
    assert "A night is planned on " in response.content.decode()
    swapped = client.post(page(season), {"played_on": second.isoformat()}, **HTMX)
    html = swapped.content.decode()
    assert swapped.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="nights"')
    assert "A night is planned on " in html
    assert days(season) == [first, second]


def test_a_night_every_week_from_a_day_to_a_day(season, owner, planned):
    client = client_as(owner)
    weekday = planned.played_on.weekday()
    data = {
        "weekday": weekday,
        "first": TODAY.isoformat(),
        "last": (TODAY + timedelta(days=20)).isoformat(),
    }

    response = client.post(reverse("season_nights_weekly", args=[season.pk]), data, **HTMX)

    wanted = weekly(TODAY, TODAY + timedelta(days=20), weekday)
    assert days(season) == wanted and len(wanted) == 3
    html = response.content.decode()
    assert "2 nights planned, from " in html
    assert "Left alone, as the season has a night on it already: " in html


@pytest.mark.parametrize(
    "data, message",
    [
        ({"first": 5, "last": 1}, "The last day comes before the first: change one of them."),
        ({"first": 1, "last": 40}, "runs from"),  # past the season's last day
        ({"first": -3, "last": 5}, "is gone: choose today or a later day."),
        ({"first": 1, "last": 1, "weekday": "other"}, "There is no "),  # no such weekday
    ],
)
def test_a_week_of_nights_refused_says_why_and_plans_none(season, owner, data, message):
    first, last = (TODAY + timedelta(days=data[key]) for key in ("first", "last"))
    weekday = (first.weekday() + 1) % 7 if data.get("weekday") == "other" else first.weekday()
    form = {"weekday": weekday, "first": first.isoformat(), "last": last.isoformat()}
    address = reverse("season_nights_weekly", args=[season.pk])

    plain = client_as(owner).post(address, form)
    swapped = client_as(owner).post(address, form, **HTMX)

    assert plain.status_code == 400 and message in plain.content.decode()
    assert swapped.status_code == 200 and message in swapped.content.decode()
    assert days(season) == []


def test_a_planned_night_moved_and_a_move_refused(season, owner, planned):
    client = client_as(owner)
    address = reverse("night_move", args=[planned.pk])
    field = f"night-{planned.pk}-played_on"
    taken = night_plan(season=season, played_on=TODAY + timedelta(days=6)).played_on

    refused = client.post(address, {field: taken.isoformat()})

    assert refused.status_code == 400
    assert "already: choose another day." in refused.content.decode()
    (line, form) = next(
        (line, form) for line, form in refused.context["planned"] if line.night == planned
    )
    assert form.errors["played_on"]  # beside the night's own field
    new_day = TODAY + timedelta(days=9)
    moved = client.post(address, {field: new_day.isoformat()}, **HTMX)
    assert moved.status_code == 200 and "is now on" in moved.content.decode()
    assert LeagueNight.objects.get(pk=planned.pk).played_on == new_day


def test_a_planned_night_cancelled(season, owner, planned):
    response = client_as(owner).post(reverse("night_cancel", args=[planned.pk]), follow=True)

    assert response.redirect_chain == [(page(season), 302)]
    assert "is cancelled." in response.content.decode()
    assert days(season) == []
    assert CancelledNight.objects.get().night == planned.pk


def test_a_started_night_says_it_stays(season, owner, club, planned):
    for name in ("Anna", "Ben"):
        Player.objects.create(club=club, name=name)
    night_move(night=planned, played_on=TODAY)
    night_round_start(
        season=season,
        owner=owner,
        seating=Pairing((Table(1, ("Anna", "Ben")),), ()),
        played_on=TODAY,
        round=1,
    )
    client = client_as(owner)
    message = "This night has started (its first round is out): it stays on its day"

    cancel = client.post(reverse("night_cancel", args=[planned.pk]))
    move = client.post(
        reverse("night_move", args=[planned.pk]),
        {f"night-{planned.pk}-played_on": (TODAY + timedelta(days=1)).isoformat()},
        **HTMX,
    )

    assert cancel.status_code == 400 and message in cancel.content.decode()
    assert move.status_code == 200 and message in move.content.decode()
    assert LeagueNight.objects.get(pk=planned.pk).played_on == TODAY


def test_a_closed_season_shows_its_nights_without_the_forms(season, owner, planned):
    league_services.season_close(season=season, user=owner)
    client = client_as(owner)

    html = client.get(page(season)).content.decode()
    refused = client.post(reverse("night_cancel", args=[planned.pk]))

    assert "The season is closed: reopen it to plan, move or cancel its nights." in html
    assert "Plan the night" not in html and "Cancel the night" not in html
    assert refused.status_code == 400 and days(season) == [planned.played_on]
