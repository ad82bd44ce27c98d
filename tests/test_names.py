"""Names at the door (issue 27, finding 8): control characters are refused with a message;
invisible formatting characters (direction overrides and isolates, zero-width characters,
byte-order marks) are removed; a name that looks like one of the roster's, in letters of
another script, is that player: the form asks which is meant and adds no new one."""

from datetime import date

import pytest
from django.urls import reverse

from scorekeeper.clubs.forms import ClubForm
from scorekeeper.clubs.services import club_create
from scorekeeper.league.forms import LeagueForm, SeasonDatesForm
from scorekeeper.league.services import league_create
from scorekeeper.table.forms.evenings import EveningForm
from scorekeeper.table.forms.parties import PartieStartForm
from scorekeeper.table.forms.players import PlayerAddForm, PlayerRenameForm
from scorekeeper.table.models import Partie, Player
from scorekeeper.table.services.evenings import evening_start
from scorekeeper.table.services.players import player_add
from tests.table.helpers import start_form_data

CONTROLS = ["Gin\tClub", "Gin\nClub", "Gin\x01Club", "Gin\x7fClub"]
# Each hides in "Anna" and is removed: what is stored is "Anna".
INVISIBLES = [
    "\u202eAnna",  # RIGHT-TO-LEFT OVERRIDE
    "An\u202dna\u202c",  # LEFT-TO-RIGHT OVERRIDE ... POP DIRECTIONAL FORMATTING
    "\u2067Anna\u2069",  # RIGHT-TO-LEFT ISOLATE ... POP DIRECTIONAL ISOLATE
    "An\u200bna",  # ZERO WIDTH SPACE
    "\ufeffAnna",  # BYTE ORDER MARK
    "Anna\u2060",  # WORD JOINER
    "\u200dAnna\u200c",  # a joiner and a non-joiner beside no letter
    "\u200e Anna",  # LEFT-TO-RIGHT MARK, then a space
]


def season_data(name: str) -> dict:
    return {"name": name, "starts_on": "2026-11-01", "ends_on": "2026-12-01"}


def name_forms(name: str) -> list:
    return [
        ClubForm({"name": name}),
        LeagueForm({"name": name}),
        SeasonDatesForm(season_data(name)),
        EveningForm({"name": name, "played_on": "2026-11-20"}),
        PlayerAddForm({"name": name}, roster=[]),
        PlayerRenameForm({"name": name}),
    ]


@pytest.mark.parametrize("name", CONTROLS)
def test_every_name_refuses_control_characters_and_says_so(name):
    for form in name_forms(name):
        assert not form.is_valid(), type(form).__name__
        assert form.errors["name"] == [
            "A name may not hold control characters such as tabs or line breaks."
        ]


@pytest.mark.parametrize("name", INVISIBLES)
def test_every_name_loses_invisible_formatting_characters(name):
    for form in name_forms(name):
        assert form.is_valid(), (type(form).__name__, form.errors)
        assert form.cleaned_data["name"] == "Anna"


@pytest.mark.django_db
def test_the_services_store_names_without_them_whoever_calls(owner):
    """The admin and scripts reach the services without the forms: they clean too."""
    club = club_create(name="\u202eGin Club", owner=owner)
    league = league_create(club=club, name="\ufeffWinter League")
    player = player_add(club=club, name="An\u200bna", owner=owner)
    evening = evening_start(owner=owner, name="\u2066Friday\u2069", played_on=date(2026, 11, 20))
    stored = [club.name, league.name, player.name, evening.name]
    assert stored == ["Gin Club", "Winter League", "Anna", "Friday"]


def test_a_players_name_in_the_start_form_loses_them_too():
    form = PartieStartForm(start_form_data() | {"player_1": "\u202eAnna", "player_2": "B\u200ben"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["names"] == ["Anna", "Ben"]


def test_a_joiner_between_letters_stays_where_a_script_needs_it():
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # ZWNJ inside the word
    sinhala = "\u0dc1\u0dca\u200d\u0dbb\u0dd3"  # ZWJ after the virama: "shrī"
    for name in (persian, sinhala):
        form = PlayerAddForm({"name": name}, roster=[])
        assert form.is_valid(), form.errors
        assert form.cleaned_data["name"] == name


def test_a_name_of_only_invisible_characters_is_no_name():
    form = ClubForm({"name": "\u200b\u202e"})
    assert not form.is_valid()
    assert form.errors["name"] == ["This field is required."]


# Look-alikes on the roster

CYRILLIC_A, CYRILLIC_SMALL_A = "\u0410", "\u0430"


def test_a_cyrillic_look_alike_of_a_roster_name_asks_and_offers_no_new_player():
    form = PlayerAddForm({"name": f"{CYRILLIC_A}nna"}, roster=["Anna", "Ben"])
    assert not form.is_valid()
    assert form.question is not None
    assert form.question.suggestions == ("Anna",)
    assert not form.question.new_allowed
    assert form.errors["name"] == [
        f"“{CYRILLIC_A}nna” looks like Anna of the roster but is written with a letter of "
        "another alphabet (Cyrillic or Greek, say): choose the name."
    ]


def test_a_look_alike_two_letters_away_is_asked_about_too():
    typed = f"{CYRILLIC_A}nn{CYRILLIC_SMALL_A}"  # two letters differ: no one-letter slip
    form = PlayerAddForm({"name": typed}, roster=["Anna"])
    assert not form.is_valid()
    assert form.question.suggestions == ("Anna",)


def test_answering_new_player_for_a_look_alike_is_refused():
    typed = f"{CYRILLIC_A}nna"
    form = PlayerAddForm({"name": typed, "name_is": typed}, roster=["Anna"])
    assert not form.is_valid()
    assert PlayerAddForm({"name": typed, "name_is": "Anna"}, roster=["Anna"]).errors["name"] == [
        "Anna is on the roster already."
    ]


@pytest.mark.django_db
def test_the_roster_page_does_not_take_a_cyrillic_anna_beside_anna(client_owner, owner):
    from scorekeeper.clubs.services import personal_club
    from scorekeeper.table import services

    club = personal_club(owner)
    services.player_add(club=club, name="Anna", owner=owner)
    url = reverse("player_list", args=[club.slug])
    typed = f"{CYRILLIC_A}nn{CYRILLIC_SMALL_A}"

    for data in ({"name": typed}, {"name": typed, "name_is": typed}):
        response = client_owner.post(url, data)
        assert response.status_code == 400
        html = response.content.decode()
        assert "looks like Anna of the roster but is written with a letter" in html
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Anna"]


@pytest.mark.django_db
def test_a_new_partie_does_not_seat_a_cyrillic_anna_beside_anna(client_owner, owner):
    from scorekeeper.clubs.services import personal_club
    from scorekeeper.table import services

    club = personal_club(owner)
    services.player_add(club=club, name="Anna", owner=owner)
    typed = f"{CYRILLIC_A}nn{CYRILLIC_SMALL_A}"
    data = start_form_data() | {"player_1": typed, "player_1_is": typed, "club": club.pk}
    response = client_owner.post(reverse("partie_new"), data)
    assert response.status_code == 200  # the form again (the page answers 200 with errors)
    assert "looks like Anna of the roster but is written with a letter" in response.content.decode()
    assert not Player.objects.filter(name=typed).exists()
    assert not Partie.objects.exists()
