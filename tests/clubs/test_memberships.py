"""The owner gives roles and takes members out; a club always keeps an owner."""

import pytest
from django.urls import reverse

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Membership, Role
from scorekeeper.clubs.services import ClubError
from tests.clubs.conftest import join
from tests.table.helpers import wins

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def membership(club, user):
    return Membership.objects.get(club=club, user=user)


def role_url(club, user):
    return reverse("membership_role", args=[club.slug, membership(club, user).pk])


def remove_url(club, user):
    return reverse("membership_remove", args=[club.slug, membership(club, user).pk])


def test_the_club_page_lists_the_members_with_their_roles(client_of, club):
    page = client_of("member").get(reverse("club_detail", args=[club.slug]))

    members = [(m.user.username, m.role) for m in page.context["members"]]
    assert members == [("owner", "owner"), ("scorer", "scorer"), ("member", "member")]


def test_a_member_made_scorer_may_then_record_hands(client_of, club, things, member):
    client = client_of("member")
    hand_url = reverse("hand_create", args=[things.partie.pk])
    assert client.post(hand_url, wins("Ben", 10)).status_code == 403

    response = client_of("owner").post(role_url(club, member), {"role": "scorer"})

    assert response.status_code == 302
    assert membership(club, member).role == Role.SCORER
    assert client.post(hand_url, wins("Ben", 10)).status_code == 302


def test_a_removed_member_sees_nothing_of_the_club_any_more(client_of, club, things, member):
    response = client_of("owner").post(remove_url(club, member))

    assert response.status_code == 302
    assert not Membership.objects.filter(club=club, user=member).exists()
    client = client_of("member")
    assert client.get(reverse("partie_detail", args=[things.partie.pk])).status_code == 404
    assert client.get(reverse("club_detail", args=[club.slug])).status_code == 404


def test_by_htmx_a_role_change_answers_with_the_members_only(client_of, club, member):
    response = client_of("owner").post(role_url(club, member), {"role": "scorer"}, **HTMX)

    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<section id="members"')
    assert '<option value="scorer" selected>' in content


def test_an_unknown_role_is_refused(client_of, club, member):
    response = client_of("owner").post(role_url(club, member), {"role": "king"})

    assert response.status_code == 400
    assert membership(club, member).role == Role.MEMBER


def test_the_last_owner_cannot_step_down(client_of, club, owner):
    response = client_of("owner").post(role_url(club, owner), {"role": "member"})

    assert response.status_code == 400
    assert "A club needs an owner: make another member an owner first." in (
        response.content.decode()
    )
    assert membership(club, owner).role == Role.OWNER


def test_the_last_owner_cannot_be_removed_nor_leave(client_of, club, owner):
    client = client_of("owner")

    removed = client.post(remove_url(club, owner))
    left = client.post(reverse("club_leave", args=[club.slug]))

    assert removed.status_code == left.status_code == 400
    assert membership(club, owner).role == Role.OWNER


def test_with_a_second_owner_the_first_may_step_down_and_then_manages_nothing(
    client_of, club, owner, scorer
):
    client = client_of("owner")
    client.post(role_url(club, scorer), {"role": "owner"})

    response = client.post(role_url(club, owner), {"role": "scorer"})

    assert response.status_code == 302
    assert membership(club, owner).role == Role.SCORER
    assert client.post(role_url(club, scorer), {"role": "member"}).status_code == 403


def test_two_owners_cannot_demote_each_other_to_leave_none(club, owner, scorer):
    services.membership_set_role(membership=membership(club, scorer), role=Role.OWNER)
    services.membership_set_role(membership=membership(club, owner), role=Role.MEMBER)

    with pytest.raises(ClubError) as refusal:
        services.membership_set_role(membership=membership(club, scorer), role=Role.MEMBER)

    assert refusal.value.code == "last_owner"
    assert list(club.memberships.filter(role=Role.OWNER).values_list("user", flat=True)) == [
        scorer.pk
    ]


def test_the_last_owner_cannot_be_removed_by_the_service(club, owner):
    with pytest.raises(ClubError) as refusal:
        services.membership_remove(membership=membership(club, owner))

    assert refusal.value.code == "last_owner"
    assert membership(club, owner).role == Role.OWNER


def test_a_member_leaves_and_is_sent_to_his_clubs(client_of, club, member):
    response = client_of("member").post(reverse("club_leave", args=[club.slug]))

    assert response.status_code == 302
    assert response.url == reverse("club_list")
    assert not Membership.objects.filter(club=club, user=member).exists()


def test_by_htmx_leaving_sends_the_page_to_the_clubs(client_of, club):
    response = client_of("member").post(reverse("club_leave", args=[club.slug]), **HTMX)

    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("club_list")


def test_a_member_of_another_club_is_no_member_here(client_of, club, owner, outsider):
    theirs = services.club_create(name="Other club", owner=outsider)
    join(theirs, owner, Role.MEMBER)
    other = membership(theirs, owner)

    response = client_of("owner").post(reverse("membership_remove", args=[club.slug, other.pk]))

    assert response.status_code == 404
    assert Membership.objects.filter(pk=other.pk).exists()


def test_by_htmx_a_refusal_comes_back_in_the_members_region(client_of, club, owner):
    response = client_of("owner").post(role_url(club, owner), {"role": "member"}, **HTMX)

    content = response.content.decode()
    assert response.status_code == 200  # htmx swaps no 4xx answer in
    assert content.lstrip().startswith('<section id="members"')
    assert "A club needs an owner" in content
    assert membership(club, owner).role == Role.OWNER
