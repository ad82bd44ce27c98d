"""*New partie* in the header starts in the user's club: the only club where he scores,
else the one he last started a partie in, else the one he joined last; his personal club
only when he scores in no other."""

import re

import pytest
from django.urls import reverse

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.table.models import Partie
from tests.clubs.conftest import join, start
from tests.table.helpers import start_form_data

pytestmark = pytest.mark.django_db


def header_link(client) -> str:
    """Where the header's *New partie* goes."""
    page = client.get(reverse("home")).content.decode()
    nav = page[page.index('<nav id="site-nav">') :]
    return re.search(r'<a href="([^"]+)">New partie</a>', nav).group(1)


def preselected(client) -> int | None:
    """The club the start form, opened from the header, has chosen (None: no choice)."""
    form = client.get(header_link(client)).context["club_form"]
    return int(form["club"].value()) if form.has_choice else None


def test_the_header_starts_a_partie_in_his_only_club(client_of, club):
    client = client_of("scorer")

    assert header_link(client) == reverse("partie_new")
    assert preselected(client) == club.pk
    response = client.post(reverse("partie_new"), start_form_data() | {"club": club.pk})
    assert Partie.objects.get(pk=response.url.split("/")[-2]).club == club


def test_with_several_clubs_the_last_one_he_started_a_partie_in_is_chosen(
    client_of, club, owner, scorer
):
    other = club_services.club_create(name="Rummy Friends", owner=owner)
    join(other, scorer, Role.SCORER)  # joined last
    client = client_of("scorer")
    assert preselected(client) == other.pk

    start(club, scorer)
    assert preselected(client) == club.pk

    start(other, scorer)
    assert preselected(client) == other.pk


def test_a_partie_someone_else_started_does_not_count(client_of, club, owner, scorer):
    other = club_services.club_create(name="Rummy Friends", owner=owner)
    join(other, scorer, Role.SCORER)
    start(club, owner)  # the owner's, not the scorer's

    assert preselected(client_of("scorer")) == other.pk


def test_without_another_club_it_is_his_personal_club(client_of, outsider):
    client = client_of("outsider")

    assert preselected(client) is None  # the only choice: no choice is shown
    response = client.post(reverse("partie_new"), start_form_data())
    assert Partie.objects.get(pk=response.url.split("/")[-2]).club.personal


def test_a_club_where_he_only_reads_is_not_his_starting_club(client_of, club):
    assert preselected(client_of("member")) is None


def test_a_deleted_club_is_not_chosen(client_of, club, owner, scorer):
    other = club_services.club_create(name="Rummy Friends", owner=owner)
    join(other, scorer, Role.SCORER)
    club_services.club_delete(club=other)

    assert preselected(client_of("scorer")) == club.pk


def test_a_club_pages_link_still_names_its_club(client_of, club, owner, scorer):
    other = club_services.club_create(name="Rummy Friends", owner=owner)
    join(other, scorer, Role.SCORER)

    form = client_of("scorer").get(f"{reverse('partie_new')}?club={club.pk}").context["club_form"]

    assert form["club"].value() == club.pk  # read as a number


def test_a_new_evening_starts_in_his_club_too(client_of, club):
    form = client_of("scorer").get(reverse("evening_list")).context["club_form"]

    assert form["club"].value() == club.pk
