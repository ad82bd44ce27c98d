"""A partie the engine cannot score any more (stored before the bounds, or a hand an
older engine took) answers with its hands and the reason instead of a 500, and can be
repaired: rules changed, a hand corrected or deleted, the partie deleted.

The broken parties are written straight into the database with the ORM, as an older
version of the app left them: no form or service would save them now.
"""

import decimal
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.table import services
from scorekeeper.table.models import Evening, HandChange, Partie
from tests.clubs.conftest import join
from tests.conftest import PASSWORD
from tests.table.helpers import rules_form_data

pytestmark = pytest.mark.django_db


def poison_money(partie: Partie) -> Partie:
    """The money unit the import took before its bounds: 1e-30."""
    Partie.objects.filter(pk=partie.pk).update(rules={**partie.rules, "money_unit": "1E-30"})
    return Partie.objects.get(pk=partie.pk)


def poison_hand(partie: Partie, number: int) -> Partie:
    """A defender's deadwood no ten cards hold, as if an older engine had taken it."""
    partie.hands.filter(number=number).update(defender_deadwood=500)
    return partie


@pytest.fixture
def poisoned(closed_partie: Partie, evening: Evening) -> Partie:
    """The worked example, closed, in an open evening, with a money unit of 1e-30."""
    services.partie_evening_set(partie=closed_partie, evening=evening)
    return poison_money(closed_partie)


def test_partie_page_shows_the_hands_and_why_instead_of_a_500(client_owner, poisoned):
    response = client_owner.get(reverse("partie_detail", args=[poisoned.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "This partie cannot be scored any more." in html
    assert "1E-30" in html  # the money unit at fault is named
    assert "Anna knocks 5 – 27" in html and "Ben gin – 16" in html  # every hand as entered
    assert html.count('class="row-actions"') == 6
    assert "Club night" in html  # the evening that waits for the repair
    assert reverse("partie_rules_change", args=[poisoned.pk]) in html
    assert reverse("partie_delete", args=[poisoned.pk]) in html
    assert reverse("hand_edit", args=[poisoned.pk, 3]) in html
    assert "script-src 'self'" in response["Content-Security-Policy"]  # under the policy too


@pytest.mark.parametrize("url", ["partie_pdf", "evening_detail", "evening_pdf"])
def test_what_includes_it_answers_409_with_the_repair_page(client_owner, poisoned, url):
    target = poisoned.evening.pk if url.startswith("evening") else poisoned.pk
    response = client_owner.get(reverse(url, args=[target]))
    assert response.status_code == 409
    assert response["Content-Type"].startswith("text/html")
    assert "This partie cannot be scored any more." in response.content.decode()
    assert reverse("partie_rules_change", args=[poisoned.pk]) in response.content.decode()


def test_share_link_shows_the_hands_read_only(poisoned):
    shared = Client()
    response = shared.get(reverse("shared_partie", args=[poisoned.share_token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "This partie cannot be scored any more." in html and "Anna knocks 5 – 27" in html
    assert "row-actions" not in html and reverse("partie_delete", args=[poisoned.pk]) not in html
    pdf = shared.get(reverse("shared_partie_pdf", args=[poisoned.share_token]))
    assert pdf.status_code == 409


def test_an_htmx_request_is_sent_to_load_the_page_whole(client_owner, poisoned):
    url = reverse("partie_detail", args=[poisoned.pk])
    response = client_owner.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Redirect"] == url


def test_a_member_who_only_reads_gets_no_repair_links(poisoned, owner, django_user_model):
    club = club_services.club_create(name="Rummy Club", owner=owner)
    reader = django_user_model.objects.create_user("reader", password=PASSWORD)
    join(club, reader, Role.MEMBER)
    Partie.objects.filter(pk=poisoned.pk).update(club=club, evening=None)
    client = Client()
    client.force_login(reader)
    html = client.get(reverse("partie_detail", args=[poisoned.pk])).content.decode()
    assert "This partie cannot be scored any more." in html
    assert "A scorer of its club can repair it." in html
    assert reverse("partie_rules_change", args=[poisoned.pk]) not in html


def test_an_outsider_still_finds_nothing(client_outsider, poisoned):
    assert client_outsider.get(reverse("partie_detail", args=[poisoned.pk])).status_code == 404


def test_the_rules_change_repairs_a_closed_partie(client_owner: Client, poisoned: Partie):
    url = reverse("partie_rules_change", args=[poisoned.pk])
    page = client_owner.get(url)
    assert page.status_code == 200  # a closed partie's rules change, because it needs repair
    assert page.context["form"].initial["money_unit"] == "0.01"  # the preset's, not 1E-30
    preview = client_owner.post(url, rules_form_data())
    assert preview.status_code == 200
    assert [now for _, now, _ in preview.context["totals"]] == [None, None]  # nothing "now"
    assert "cannot be scored" in preview.content.decode()
    response = client_owner.post(url, {**rules_form_data(), "confirm": "1"})
    assert response.status_code == 302
    page = client_owner.get(reverse("partie_detail", args=[poisoned.pk]))
    assert page.status_code == 200 and "cannot be scored" not in page.content.decode()
    assert page.context["sheet"].winner == "Anna"
    change = poisoned.changes.filter(action=HandChange.Action.RULES).get()
    assert change.before["money_unit"] == "1E-30" and change.after["money_unit"] == "0.01"
    evening = client_owner.get(reverse("evening_detail", args=[poisoned.evening.pk]))
    assert evening.status_code == 200  # the evening adds up again


def test_a_refused_hand_is_named_and_its_correction_repairs_the_partie(
    client_owner: Client, closed_partie: Partie
):
    poison_hand(closed_partie, 3)
    page = client_owner.get(reverse("partie_detail", args=[closed_partie.pk]))
    assert page.status_code == 200
    assert "Hand 3 is refused under the partie&#x27;s rules" in page.content.decode()
    edit = reverse("hand_edit", args=[closed_partie.pk, 3])
    assert client_owner.get(edit).status_code == 200  # the hand form is still reachable
    data = {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "7", "defender_deadwood": "7"}
    assert client_owner.post(edit, data).status_code == 302
    page = client_owner.get(reverse("partie_detail", args=[closed_partie.pk]))
    assert page.context["sheet"].winner == "Anna"  # the worked example again


def test_deleting_the_refused_hand_repairs_the_partie(client_owner, closed_partie):
    poison_hand(closed_partie, 5)  # the no game: a deadwood of 500 on it is refused
    closed_partie.hands.filter(number=5).update(kind="knock", knocker=closed_partie.first_dealer)
    response = client_owner.post(reverse("hand_delete", args=[closed_partie.pk, 5]))
    assert response.status_code == 302
    page = client_owner.get(reverse("partie_detail", args=[closed_partie.pk]))
    assert page.status_code == 200 and page.context["sheet"].winner == "Anna"


def test_a_hand_recorded_on_a_partie_that_cannot_be_scored_saves_nothing(
    client_owner: Client, partie: Partie, play: Callable[..., Partie]
):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])
    poison_money(partie)
    hand = {"kind": "knock", "knocker": "Ben", "knocker_deadwood": "2", "defender_deadwood": "9"}
    response = client_owner.post(reverse("hand_create", args=[partie.pk]), hand)
    assert response.status_code == 409  # the repair page, not a 500
    assert partie.hands.count() == 1


def test_the_partie_that_cannot_be_scored_can_be_deleted(client_owner, poisoned):
    response = client_owner.post(reverse("partie_delete", args=[poisoned.pk]))
    assert response.status_code == 302
    assert (
        client_owner.get(reverse("evening_detail", args=[poisoned.evening.pk])).status_code == 200
    )
    restored = client_owner.post(reverse("partie_restore", args=[poisoned.pk]))
    assert restored.status_code == 302  # back, to be repaired
    assert client_owner.get(reverse("partie_detail", args=[poisoned.pk])).status_code == 200


def test_renaming_a_player_of_a_partie_that_cannot_be_scored_works(owner: User, poisoned):
    player = poisoned.seats.get(position=0).player
    services.player_rename(player=player, name="Annabel", user=owner)
    player.refresh_from_db()
    assert player.name == "Annabel"


def test_any_engine_failure_in_the_money_gets_the_repair_page(
    client_owner: Client, closed_partie: Partie, monkeypatch: pytest.MonkeyPatch
):
    """Whatever the engine fails on while it scores (here its money, as a unit of 1e-30
    made it before the bounds), the page explains instead of failing."""

    def overflow(*args, **kwargs):
        raise decimal.InvalidOperation([decimal.InvalidOperation])

    monkeypatch.setattr("scorekeeper.engine.tally.money", overflow)
    response = client_owner.get(reverse("partie_detail", args=[closed_partie.pk]))
    assert response.status_code == 200
    assert "Its amounts cannot be computed under its rules" in response.content.decode()
