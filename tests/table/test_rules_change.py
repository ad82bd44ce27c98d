"""Changing a running partie's rules: a preview of the totals first, then an audited change."""

import re

import pytest
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Hand, HandChange
from tests.table.helpers import state_of

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin

# Anna 22, then Ben's gin: 16 + 20 = 36 under classic rules, 46 with a gin bonus of 30.
TWO_HANDS = (K(5, 27, knocker="Anna"), G(16, knocker="Ben"))


def url_of(partie):
    return reverse("partie_rules_change", args=[partie.pk])


def compare_rows(html):
    """The preview's rows: (label, now, with the new rules)."""
    table = html[html.index('<table class="compare">') : html.index("</table>")]
    cell = r"\s*<td>\s*([^<]*?)\s*</td>"
    return re.findall(rf'<tr><th scope="row">([^<]*)</th>{cell}{cell}</tr>', table)


@pytest.fixture
def running(partie, play):
    """Anna 22, Ben 36 under classic rules."""
    return play(partie, TWO_HANDS)


# Who may change the rules


def test_anonymous_user_is_sent_to_log_in_and_nothing_changes(client, running, rules_data):
    before = state_of(running)
    url = url_of(running)

    for response in (
        client.get(url),
        client.post(url, rules_data(gin_bonus=30) | {"confirm": "1"}),
    ):
        assert response.status_code == 302
        assert response.url == f"{reverse('login')}?next={url}"

    assert state_of(running) == before


def test_outsider_gets_404_and_nothing_changes(client_outsider, running, rules_data):
    before = state_of(running)
    url = url_of(running)

    assert client_outsider.get(url).status_code == 404
    response = client_outsider.post(url, rules_data(gin_bonus=30) | {"confirm": "1"})

    assert response.status_code == 404
    assert state_of(running) == before


# The form and the preview


def test_the_page_shows_the_partie_s_current_rules(client_owner, start_partie):
    partie = start_partie(rules=engine.preset("modern", gin_bonus=30, target=150))

    response = client_owner.get(url_of(partie))

    assert response.status_code == 200
    form = response.context["form"]
    assert not form.is_bound
    assert form["preset"].value() == "modern"
    assert form["shown_preset"].value() == "modern"
    assert (form["gin_bonus"].value(), form["target"].value()) == (30, 150)
    assert form["undercut_bonus"].value() == 25
    html = response.content.decode()
    assert '<option value="modern" selected>' in html
    assert 'name="gin_bonus" value="30"' in html
    assert 'name="target" value="150"' in html
    assert 'name="big_gin_bonus" value="31"' in html
    assert '<button type="submit">Show the effect</button>' in html
    assert 'name="confirm"' not in html  # no change without a preview first


def test_the_partie_page_links_to_the_rules_page_while_it_runs(client_owner, running, play):
    html = client_owner.get(reverse("partie_detail", args=[running.pk])).content.decode()
    assert f'<a href="{url_of(running)}">Change the rules</a>' in html


def test_a_post_without_confirm_shows_the_totals_now_and_after_and_saves_nothing(
    client_owner, running, rules_data
):
    before = state_of(running)

    response = client_owner.post(url_of(running), rules_data(gin_bonus=30))

    assert response.status_code == 200
    assert response.context["after"].column_totals[1] == ("Ben", 46)
    html = response.content.decode()
    assert compare_rows(html) == [
        ("Anna", "22", "22"),
        ("Ben", "36", "46"),
        ("State", "running", "running"),
    ]
    assert '<button type="submit" name="confirm" value="1">Apply the new rules</button>' in html
    assert 'name="gin_bonus" value="30"' in html  # the new value stays in the form
    assert state_of(running) == before
    assert not HandChange.objects.filter(action="rules").exists()


def test_confirming_saves_the_rules_scores_every_hand_again_and_keeps_the_change(
    client_owner, owner, running, rules_data
):
    old_rules = running.rules

    response = client_owner.post(url_of(running), rules_data(gin_bonus=30) | {"confirm": "1"})

    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[running.pk])
    running.refresh_from_db()
    new_rules = engine.preset("classic", gin_bonus=30).to_dict()
    assert running.rules == new_rules
    assert running.summary["totals"] == {"Anna": 22, "Ben": 46}
    assert running.state == "running"
    # the hands themselves are as they were entered
    assert Hand.objects.filter(partie=running).count() == 2
    change = HandChange.objects.get(partie=running, action="rules")
    assert change.hand_number is None
    assert change.user == owner
    assert change.before == old_rules
    assert change.after == new_rules

    html = client_owner.get(response.url).content.decode()
    assert '<span class="gain">+46</span><span class="total">46</span>' in html
    rules_line = html[html.index('<p class="rules-line">') :]
    assert "(Gin bonus 30)" in rules_line[: rules_line.index("</p>")]
    trail = html[html.index('<details class="trail">') :]
    assert "owner: rules changed" in trail
    assert "<ins>Gin bonus 20 → 30</ins>" in trail
    assert trail.index("rules changed") < trail.index("hand 2 recorded")  # newest first


def test_a_change_to_another_preset_is_named_in_the_trail(client_owner, running, rules_data):
    response = client_owner.post(url_of(running), rules_data("modern") | {"confirm": "1"})

    assert response.status_code == 302
    running.refresh_from_db()
    assert running.rules == engine.preset("modern").to_dict()
    # Ben's gin: 16 + 25
    assert running.summary["totals"] == {"Anna": 22, "Ben": 41}
    html = client_owner.get(response.url).content.decode()
    trail = html[html.index('<details class="trail">') :]
    assert "Classic → Modern" in trail
    assert "Gin bonus 20 → 25" in trail


# Changes that cannot be made


def test_a_change_that_would_refuse_a_recorded_hand_names_it_and_saves_nothing(
    client_owner, partie, play, rules_data
):
    play(partie, [K(5, 27, knocker="Anna"), K(7, 30, knocker="Ben")])
    before = state_of(partie)
    message = "Hand 2 would then be refused: A knock with 7 deadwood is over the knock limit of 5."

    for confirm in ({}, {"confirm": "1"}):
        response = client_owner.post(url_of(partie), rules_data(knock_limit=5) | confirm)

        assert response.status_code == 400
        assert response.context["form"].non_field_errors() == [message]
        assert "after" not in response.context
        html = response.content.decode()
        assert message in html
        assert '<table class="compare">' not in html
        assert 'name="confirm"' not in html
        assert state_of(partie) == before


def test_a_target_that_a_recorded_hand_would_pass_refuses_the_hands_after_it(
    client_owner, running, rules_data
):
    before = state_of(running)

    response = client_owner.post(url_of(running), rules_data(target=20) | {"confirm": "1"})

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Hand 2 would then be refused: The partie is over: it takes no more hands."
    ]
    assert state_of(running) == before


def test_a_rule_value_out_of_range_is_shown_beside_it_and_saves_nothing(
    client_owner, running, rules_data
):
    before = state_of(running)

    response = client_owner.post(url_of(running), rules_data(target=0) | {"confirm": "1"})

    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["target"]
    html = response.content.decode()
    field = html[html.index('<div class="field field-target') :]
    assert 'class="error"' in field[: field.index("</div>")]
    assert state_of(running) == before


# A change that ends the partie


def test_a_lower_target_that_a_player_has_reached_closes_the_partie(
    client_owner, running, rules_data
):
    response = client_owner.post(url_of(running), rules_data(target=30))

    # Ben's 36 now reaches the target: 36 + 20 + 100 = 156, Anna 22 + 20 = 42
    assert compare_rows(response.content.decode()) == [
        ("Anna", "22", "42"),
        ("Ben", "36", "156"),
        ("State", "running", "over"),
    ]
    running.refresh_from_db()
    assert running.state == "running"

    response = client_owner.post(url_of(running), rules_data(target=30) | {"confirm": "1"})

    assert response.status_code == 302
    running.refresh_from_db()
    assert running.state == "closed"
    assert running.closed_at is not None
    assert running.summary["winner"] == "Ben"
    assert running.summary["totals"] == {"Anna": 42, "Ben": 156}
    html = client_owner.get(response.url).content.decode()
    assert "The partie is over: Ben won." in html
    assert "Anna pays Ben 114 points" in html
    assert '<form id="hand-form"' not in html
    assert "Change the rules" not in html


# The preset menu without JavaScript


def test_changing_the_preset_without_javascript_shows_its_values_and_the_notice(
    client_owner, running, rules_data
):
    before = state_of(running)

    response = client_owner.post(
        url_of(running), rules_data("modern", shown_preset="classic") | {"confirm": "1"}
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert '<p class="notice" role="status">The rule values are now those of the preset' in html
    form = response.context["form"]
    assert form["preset"].value() == "modern"
    assert form["shown_preset"].value() == "modern"
    assert 'name="gin_bonus" value="25"' in html
    assert 'name="big_gin_bonus" value="31"' in html
    assert "The preset changed." not in html
    assert '<table class="compare">' not in html
    assert state_of(running) == before

    # posting the form as it now stands shows the effect of the modern rules
    response = client_owner.post(url_of(running), rules_data("modern"))
    assert compare_rows(response.content.decode())[1] == ("Ben", "36", "41")


# Other kinds


def test_the_preview_of_a_hollywood_partie_labels_each_game(client_owner, owner, play, rules_data):
    partie = services.partie_start(
        owner=owner, names=["You", "Opp"], rules=engine.preset("hollywood"), kind="hollywood"
    )
    play(partie, [K(1, 19, knocker="You"), G(10, knocker="Opp"), K(1, 26, knocker="You")])

    response = client_owner.post(url_of(partie), rules_data("hollywood", gin_bonus=30))

    assert response.status_code == 200
    assert compare_rows(response.content.decode()) == [
        ("Game 1 You", "43", "43"),
        ("Game 1 Opp", "30", "40"),
        ("Game 2 You", "25", "25"),
        ("Game 2 Opp", "0", "0"),
        ("Game 3 You", "0", "0"),
        ("Game 3 Opp", "0", "0"),
        ("State", "running", "running"),
    ]


def test_a_finished_partie_keeps_its_rules(client_owner, closed_partie, rules_data):
    before = closed_partie.rules

    page = client_owner.get(reverse("partie_rules_change", args=[closed_partie.pk]))
    response = client_owner.post(
        reverse("partie_rules_change", args=[closed_partie.pk]),
        rules_data(gin_bonus=30) | {"confirm": "1"},
    )

    assert page.status_code == response.status_code == 400
    assert "keeps the rules it was played under" in response.content.decode()
    closed_partie.refresh_from_db()
    assert closed_partie.rules == before
    assert not HandChange.objects.filter(partie=closed_partie, action="rules").exists()
