"""The admin opens every model of the table app, and leaves what the services write alone."""

import pytest
from django.urls import reverse

from scorekeeper.clubs.services import personal_club
from scorekeeper.table.models import Hand, HandChange, Partie, Player, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_superuser(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("official", "o@example.org"))
    return client


@pytest.mark.parametrize("model", [Player, Partie, Seat, Hand, HandChange])
def test_a_superuser_opens_the_changelist_and_change_page_of(
    client_superuser, closed_partie, model
):
    name = model._meta.model_name
    obj = model.objects.order_by("pk").first()
    assert obj is not None

    changelist = client_superuser.get(reverse(f"admin:table_{name}_changelist"))
    change = client_superuser.get(reverse(f"admin:table_{name}_change", args=[obj.pk]))

    assert changelist.status_code == 200
    assert changelist.context["cl"].result_count == model.objects.count()
    assert change.status_code == 200
    assert change.context["original"] == obj


def test_the_admin_lists_the_parties_of_every_owner(client_superuser, closed_partie, outsider):
    closed_partie.__class__.objects.create(
        club=personal_club(outsider),
        owner=outsider,
        rules=closed_partie.rules,
        first_dealer=closed_partie.first_dealer,
    )

    response = client_superuser.get(reverse("admin:table_partie_changelist"))

    assert response.context["cl"].result_count == 2


def test_the_audit_trail_cannot_be_added_to_by_hand_in_the_admin(client_superuser):
    assert client_superuser.get(reverse("admin:table_handchange_add")).status_code == 403


# Hands, seats and what a partie is played under change through the services only.


def change_form_data(response) -> dict[str, str]:
    """What the admin change page would post back unchanged: its form and inline formsets."""
    data: dict[str, str] = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        forms += [formset.management_form, *formset.forms]
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is None or value is False:
                continue
            data[bound.html_name] = "on" if value is True else str(getattr(value, "pk", value))
    return data


def test_a_hand_cannot_be_edited_in_the_admin(client_superuser, closed_partie):
    hand = closed_partie.hands.get(number=1)
    url = reverse("admin:table_hand_change", args=[hand.pk])

    page = client_superuser.get(url)
    response = client_superuser.post(
        url,
        {
            "partie": closed_partie.pk,
            "number": 1,
            "table": 1,
            "kind": "gin",
            "knocker": hand.knocker_id,
            "defender_deadwood": 99,
        },
    )

    assert page.status_code == 200
    assert page.context["has_change_permission"] is False  # shown read-only
    assert response.status_code == 403
    unchanged = Hand.objects.values_list("kind", "knocker_deadwood", "defender_deadwood")
    assert unchanged.get(pk=hand.pk) == ("knock", 5, 27)


def test_a_hand_cannot_be_added_or_deleted_in_the_admin(client_superuser, closed_partie):
    hand = closed_partie.hands.get(number=1)

    add = client_superuser.get(reverse("admin:table_hand_add"))
    delete = client_superuser.post(
        reverse("admin:table_hand_delete", args=[hand.pk]), {"post": "yes"}
    )
    bulk = client_superuser.post(
        reverse("admin:table_hand_changelist"),
        {"action": "delete_selected", "_selected_action": [hand.pk], "post": "yes"},
    )

    assert add.status_code == 403
    assert delete.status_code == 403
    assert bulk.context["action_form"] is None  # no actions at all, so no bulk delete
    assert closed_partie.hands.count() == 6


def test_the_rules_kind_and_state_of_a_partie_cannot_change_in_the_admin(client_superuser, partie):
    url = reverse("admin:table_partie_change", args=[partie.pk])
    data = change_form_data(client_superuser.get(url))
    rules = partie.rules

    response = client_superuser.post(
        url,
        data
        | {
            "rules": '{"preset": "hollywood", "target": 1}',
            "kind": "chouette",
            "state": "closed",
            "first_dealer": partie.seats.get(position=0).player_id,
            "stake": "0.10",  # an ordinary field still saves
        },
    )

    assert response.status_code == 302
    partie.refresh_from_db()
    assert (partie.rules, partie.kind, partie.state) == (rules, "two_player", "running")
    assert partie.first_dealer.name == "Ben"
    assert str(partie.stake) == "0.1000"


def test_the_partie_change_form_neither_adds_nor_deletes_hands_or_seats(
    client_superuser, closed_partie
):
    url = reverse("admin:table_partie_change", args=[closed_partie.pk])
    page = client_superuser.get(url)
    data = change_form_data(page)
    first = closed_partie.hands.get(number=1)

    response = client_superuser.post(
        url,
        data
        | {
            "hands-0-DELETE": "on",
            "seats-0-DELETE": "on",
            "hands-TOTAL_FORMS": "7",
            "hands-6-number": "7",
            "hands-6-table": "1",
            "hands-6-kind": "gin",
            "hands-6-defender_deadwood": "12",
            "hands-6-partie": str(closed_partie.pk),
            "hands-0-kind": "gin",
        },
    )

    assert page.status_code == 200
    assert all(
        not inline.has_add_permission and not inline.has_change_permission
        for inline in page.context["inline_admin_formsets"]
    )
    assert response.status_code == 302
    assert closed_partie.hands.count() == 6
    assert closed_partie.seats.count() == 2
    assert Hand.objects.get(pk=first.pk).kind == "knock"


def test_a_partie_cannot_be_started_in_the_admin(client_superuser):
    assert client_superuser.get(reverse("admin:table_partie_add")).status_code == 403


def test_a_partie_is_deleted_in_the_admin_with_its_seats_hands_and_trail(
    client_superuser, closed_partie
):
    url = reverse("admin:table_partie_delete", args=[closed_partie.pk])

    confirm = client_superuser.get(url)
    response = client_superuser.post(url, {"post": "yes"})

    assert confirm.context["perms_lacking"] == set()
    assert response.status_code == 302
    assert not Partie.objects.filter(pk=closed_partie.pk).exists()
    assert not Hand.objects.filter(partie_id=closed_partie.pk).exists()
    assert not HandChange.objects.filter(partie_id=closed_partie.pk).exists()


@pytest.mark.parametrize("model", [Seat, HandChange])
def test_seats_and_the_audit_trail_are_read_only_in_the_admin(
    client_superuser, closed_partie, model
):
    obj = model.objects.order_by("pk").first()
    name = model._meta.model_name

    change = client_superuser.post(reverse(f"admin:table_{name}_change", args=[obj.pk]), {})
    delete = client_superuser.post(
        reverse(f"admin:table_{name}_delete", args=[obj.pk]), {"post": "yes"}
    )

    assert change.status_code == 403
    assert delete.status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()
