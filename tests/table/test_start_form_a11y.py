"""The new-partie form shown again names the first dealers; /favicon.ico answers."""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.table.forms import PartieStartForm

pytestmark = pytest.mark.django_db


def test_a_form_shown_again_offers_the_first_dealer_by_the_names_typed():
    form = PartieStartForm({"kind": "two_player", "player_1": " Anna ", "player_2": "Ben"})

    labels = [label for _, label in form.fields["first_dealer"].choices]

    assert labels[:2] == ["Anna", "Ben"]
    assert labels[2:] == ["Player 3", "Player 4"]  # no name typed: the seat's label


def test_the_member_stake_help_is_said_once(client_owner: Client):
    html = client_owner.get(reverse("partie_new")).content.decode()

    assert html.count("this member&#x27;s stake against the box") == 1


def test_the_favicon_address_sends_the_browser_to_the_icon(client: Client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"
    assert "<svg" in client.get(response["Location"]).getvalue().decode()
