"""What a role may do, said in words where people are invited and where they read their
role: the invitation form, the invitation page and the club page."""

import pytest
from django.urls import reverse

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Role

pytestmark = pytest.mark.django_db

MEMBER = "A member sees the club&#x27;s games and standings, scores the parties he plays in"
SCORER = "A scorer does what a member does, and also records and corrects every partie"
OWNER = "An owner does what a scorer does, and also invites and removes members"


def test_the_invitation_form_says_what_each_role_may_do(client_of, club):
    page = client_of("owner").get(reverse("club_detail", args=[club.slug])).content.decode()

    form = page[page.index('id="invitations"') :]
    assert MEMBER in form and SCORER in form and OWNER in form


@pytest.mark.parametrize(("role", "words"), [(Role.MEMBER, MEMBER), (Role.SCORER, SCORER)])
def test_the_invitation_says_what_the_guest_may_do_in_his_role(client_of, club, owner, role, words):
    invitation = services.invitation_create(club=club, role=role, created_by=owner)

    page = client_of("outsider").get(reverse("invitation_accept", args=[invitation.token]))

    assert words in page.content.decode()


def test_a_member_reads_on_the_club_page_that_he_scores_the_parties_he_plays_in(client_of, club):
    page = client_of("member").get(reverse("club_detail", args=[club.slug])).content.decode()

    assert "Your role here: member. " + MEMBER in page
