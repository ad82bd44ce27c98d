"""Every field is drawn by the project's field template (``field.as_field_group``)."""

import re

import pytest
from django.urls import reverse

from scorekeeper.table.forms import PartieStartForm

pytestmark = pytest.mark.django_db


def test_a_radio_field_is_a_fieldset_of_choice_buttons_with_its_help():
    html = str(PartieStartForm()["kind"].as_field_group())

    assert html.startswith('<div class="field field-kind">')
    assert '<fieldset aria-describedby="id_kind_helptext">' in html
    assert "<legend>Kind</legend>" in html
    assert (
        '<label class="choice"><input type="radio" name="kind" value="two_player" '
        'id="id_kind_0" required checked><span>Two players</span></label>'
    ) in html
    assert '<small class="help" id="id_kind_helptext">' in html


def test_an_error_stands_beside_its_field_and_the_input_points_to_it():
    form = PartieStartForm({"stake": "much"})

    html = str(form["stake"].as_field_group())

    assert html.startswith('<div class="field field-stake has-error">')
    described_by = re.search(r'<input [^>]*aria-describedby="([^"]*)"', html).group(1).split()
    assert described_by == ["id_stake_helptext", "id_stake_error"]
    assert '<div class="errors" id="id_stake_error"><p class="error" role="alert">' in html


def test_a_checkbox_sits_inside_its_label():
    html = str(PartieStartForm()["tie_is_undercut"].as_field_group())

    assert re.search(r'<label class="check"><input type="checkbox" name="tie_is_undercut"', html)


def test_the_login_page_draws_its_fields_with_the_same_template(client):
    html = client.get(reverse("login")).content.decode()

    assert '<div class="field field-username">' in html
    assert '<label for="id_password">Password</label>' in html
