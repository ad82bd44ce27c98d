"""Odd input at the door gets a clear answer, never a 500: numbers of the query string,
NUL in text, long usernames at sign-up and log-in, look-alike usernames, and the ids the
commands take (issue 27, finding 7)."""

from __future__ import annotations

import io
from datetime import date
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.inputs import MAX_ID, whole_number
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.conftest import PASSWORD
from tests.table.helpers import start_form_data

SUPERSCRIPT_TWO = "²"  # str.isdigit() says yes, int() says no
HUGE = "9" * 5000  # int() refuses more than 4,300 digits


# The one reader of numbers


def test_a_number_is_ascii_digits_from_one_to_the_largest_id():
    assert whole_number("1") == 1
    assert whole_number(str(MAX_ID)) == MAX_ID
    for text in (SUPERSCRIPT_TWO, "٣", HUGE, str(MAX_ID + 1), "0", "-1", " 1", "1.0", "", None):
        assert whole_number(text) is None


# Pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(owner: User):
    evening = services.evening_start(owner=owner, name="Club night", played_on=date(2026, 11, 20))
    services.evening_share(evening=evening)
    return evening


def test_a_page_that_is_no_number_shows_the_boards_as_without_one(client_owner, owner, evening):
    club = club_services.personal_club(owner)
    shared = reverse("shared_evening_board", args=[evening.share_token])
    for url in (shared, reverse("club_board", args=[club.slug])):
        for page in (SUPERSCRIPT_TWO, HUGE, "0"):
            response = client_owner.get(url, {"page": page})
            assert response.status_code == 200, (url, page)
    assert Client().get(shared, {"page": SUPERSCRIPT_TWO}).status_code == 200


def test_a_club_that_is_no_number_starts_in_the_usual_club(client_owner):
    response = client_owner.get(reverse("partie_new"), {"club": SUPERSCRIPT_TWO})
    assert response.status_code == 200
    assert client_owner.get(reverse("partie_new"), {"club": HUGE}).status_code == 200


def test_an_evening_that_is_no_number_is_a_bad_request(client_owner):
    url = reverse("partie_new")
    assert client_owner.get(url, {"evening": SUPERSCRIPT_TWO}).status_code == 400
    response = client_owner.post(url, start_form_data() | {"evening": HUGE})
    assert response.status_code == 400
    assert not Partie.objects.exists()


def test_an_evening_beyond_any_id_is_no_evening(client_owner):
    url = reverse("partie_new")
    assert client_owner.get(url, {"evening": str(MAX_ID)}).status_code == 404


def test_a_roster_search_with_a_nul_is_a_bad_request(client_owner, owner):
    club = club_services.personal_club(owner)
    url = reverse("player_list", args=[club.slug])
    assert client_owner.get(url, {"q": "An\x00na"}).status_code == 400
    assert client_owner.get(url, {"q": "Anna"}).status_code == 200


def test_a_page_of_the_standings_or_of_my_games_that_is_no_number_is_the_first(client_owner):
    response = client_owner.get(reverse("my_games"), {"page": SUPERSCRIPT_TWO})
    assert response.status_code == 200


# Sign-up and log-in


def signup(client: Client, username: str) -> object:
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), data)


def test_a_username_longer_than_a_clubs_name_is_refused_and_no_account_made(client):
    response = signup(client, "a" * 81)
    assert response.status_code == 200
    assert "at most 80 characters" in response.content.decode()
    assert not User.objects.exists()


def test_the_sign_up_form_tells_the_username_limit_it_enforces(client):
    html = client.get(reverse("signup")).content.decode()
    assert 'maxlength="80"' in html
    assert "Required. 80 characters or fewer" in html and "150" not in html


def test_a_username_as_long_as_a_clubs_name_signs_up_with_its_personal_club(client):
    response = signup(client, "a" * 80)
    assert response.status_code == 302
    user = User.objects.get()
    assert Club.objects.get(personal=True, memberships__user=user).name == "a" * 80
    assert client.get(reverse("club_list")).status_code == 200


def test_an_account_is_not_left_without_its_personal_club(client):
    with (
        mock.patch("scorekeeper.accounts.views.personal_club", side_effect=RuntimeError("no club")),
        pytest.raises(RuntimeError),
    ):
        signup(client, "dora")
    assert not User.objects.filter(username="dora").exists()


def test_an_account_made_with_a_long_username_gets_its_personal_club_all_the_same(
    django_user_model,
):
    user = django_user_model.objects.create_user("b" * 150, password=PASSWORD)
    client = Client()
    client.force_login(user)
    for name in ("club_list", "partie_new", "evening_list", "partie_import"):
        assert client.get(reverse(name)).status_code == 200, name
    assert club_services.personal_club(user).name == "b" * 80


def test_a_username_that_looks_like_an_existing_one_is_refused(client, django_user_model):
    django_user_model.objects.create_user("Anna", password=PASSWORD)
    response = signup(client, "\u0410nna")  # a Cyrillic А
    assert "That name looks like an existing one" in response.content.decode()
    assert User.objects.count() == 1


def test_a_username_in_another_script_is_welcome_when_it_looks_like_no_other(client):
    assert signup(client, "Дмитрий").status_code == 302


def test_a_login_with_a_username_longer_than_any_is_refused_as_a_form_error(client):
    for length in (151, 256, 5000):
        response = client.post(reverse("login"), {"username": "x" * length, "password": "p"})
        assert response.status_code == 200
        assert "at most 150 characters" in response.content.decode()


def test_a_login_still_logs_in(client, owner):
    response = client.post(reverse("login"), {"username": "owner", "password": PASSWORD})
    assert response.status_code == 302


# Commands


def pairings(season: str) -> tuple[int, str]:
    stderr = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("pairings", season=season, present="Anna,Ben", method="swiss", stderr=stderr)
    return exit.value.code, stderr.getvalue()


@pytest.mark.parametrize("season", [SUPERSCRIPT_TWO, HUGE, str(MAX_ID + 1), "-3"])
def test_pairings_refuses_a_season_that_is_no_id_with_an_error_line(season):
    code, stderr = pairings(season)
    assert code == 2
    assert stderr.startswith("error: there is no season ")
    assert len(stderr) < 200


@pytest.mark.parametrize("season", [SUPERSCRIPT_TWO, HUGE])
def test_standings_refuses_a_season_that_is_no_id_with_an_error_line(season):
    stderr = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("standings", season=season, stderr=stderr)
    assert exit.value.code == 2
    assert stderr.getvalue().startswith("error: there is no season ")
