"""A dead invitation link (withdrawn, used or expired: 410) says why it no longer works
and names nothing: whoever holds it learns not even which club it was for."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Invitation, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation(club, owner):
    return services.invitation_create(club=club, role=Role.SCORER, created_by=owner)


def kill(invitation: Invitation, how: str, someone: User) -> str:
    """Makes the link dead; returns the words of the page that says why."""
    if how == "revoked":
        services.invitation_revoke(invitation=invitation)
    elif how == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())
    else:
        services.invitation_accept(invitation=invitation, user=someone)
    return {"revoked": "withdrawn", "expired": "expired", "used": "used already"}[how]


@pytest.mark.parametrize("how", ["revoked", "expired", "used"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_dead_link_names_no_club(client_of, club, invitation, django_user_model, how, method):
    reason = kill(invitation, how, django_user_model.objects.create_user("stranger"))

    response = getattr(client_of("outsider"), method)(
        reverse("invitation_accept", args=[invitation.token])
    )

    assert response.status_code == 410
    page = response.content.decode()
    assert reason in page
    assert "<h1>Invitation</h1>" in page
    assert "Skat Club" not in page and club.slug not in page


def test_a_good_link_names_its_club(client_of, club, invitation):
    response = client_of("outsider").get(reverse("invitation_accept", args=[invitation.token]))

    assert response.status_code == 200
    assert "<h1>Invitation to Skat Club</h1>" in response.content.decode()


@pytest.mark.parametrize("how", ["revoked", "expired", "used"])
def test_a_dead_link_names_no_club_nor_inviter_to_someone_logged_out(
    client, club, invitation, django_user_model, how
):
    reason = kill(invitation, how, django_user_model.objects.create_user("stranger"))

    response = client.get(reverse("invitation_accept", args=[invitation.token]))

    assert response.status_code == 410
    page = response.content.decode()
    assert reason in page
    assert "<h1>Invitation</h1>" in page
    assert "Skat Club" not in page and club.slug not in page
    assert "Invited by" not in page and "?next=" not in page
