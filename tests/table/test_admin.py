"""The admin opens the list and the change page of every model of the table app."""

import pytest
from django.urls import reverse

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
        owner=outsider,
        rules=closed_partie.rules,
        first_dealer=closed_partie.first_dealer,
    )

    response = client_superuser.get(reverse("admin:table_partie_changelist"))

    assert response.context["cl"].result_count == 2


def test_the_audit_trail_cannot_be_added_to_by_hand_in_the_admin(client_superuser):
    assert client_superuser.get(reverse("admin:table_handchange_add")).status_code == 403
