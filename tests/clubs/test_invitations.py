"""Invitation links: a random token, good for one person within a week, withdrawn at will
by the owner. A link that is no longer good says why and changes nothing."""

import re
import threading
from datetime import timedelta
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Invitation, Membership, Role
from scorekeeper.clubs.services import ClubError
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def invitation(club, owner):
    return services.invitation_create(club=club, role=Role.SCORER, created_by=owner)


def accept_url(invitation):
    return reverse("invitation_accept", args=[invitation.token])


def test_a_new_link_has_a_long_random_token_and_expires_in_seven_days(club, owner):
    first = services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    second = services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)

    assert len(first.token) >= 32
    assert first.token != second.token
    assert timedelta(days=6, hours=23) < first.expires_at - timezone.now() <= timedelta(days=7)
    assert first.is_open


def test_the_owner_creates_a_link_on_the_club_page_and_sees_it_there(client_of, club):
    client = client_of("owner")

    response = client.post(reverse("invitation_create", args=[club.slug]), {"role": "scorer"})

    invitation = Invitation.objects.get(accepted_at=None)
    assert response.status_code == 302
    assert invitation.role == Role.SCORER
    page = client.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert f"http://testserver{accept_url(invitation)}" in page


def test_by_htmx_creating_a_link_answers_with_the_invitations_only(client_of, club):
    response = client_of("owner").post(
        reverse("invitation_create", args=[club.slug]), {"role": "member"}, **HTMX
    )

    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<section id="invitations"')
    assert Invitation.objects.get(accepted_at=None).token in content


@pytest.mark.parametrize("who", ["scorer", "member"])
def test_only_the_owner_sees_the_links(client_of, club, invitation, who):
    page = client_of(who).get(reverse("club_detail", args=[club.slug])).content.decode()

    assert invitation.token not in page
    assert 'id="invitations"' not in page


def test_the_link_shows_what_it_offers_and_joining_makes_a_member_in_that_role(
    client_of, club, invitation, outsider
):
    client = client_of("outsider")

    page = client.get(accept_url(invitation))
    response = client.post(accept_url(invitation))

    assert page.status_code == 200
    assert "You are invited to join Skat Club as scorer." in page.content.decode()
    assert response.status_code == 302
    assert response.url == club.get_absolute_url()
    assert Membership.objects.get(club=club, user=outsider).role == Role.SCORER
    invitation.refresh_from_db()
    assert (invitation.accepted_by, invitation.is_open) == (outsider, False)
    assert client.get(response.url).status_code == 200


def test_showing_the_link_changes_nothing(client_of, club, invitation, outsider):
    client_of("outsider").get(accept_url(invitation))

    assert not Membership.objects.filter(user=outsider, club=club).exists()
    invitation.refresh_from_db()
    assert invitation.is_open


def test_a_link_used_once_does_not_let_a_second_person_in(
    client_of, club, invitation, django_user_model
):
    client_of("outsider").post(accept_url(invitation))
    second = django_user_model.objects.create_user("second", password=PASSWORD)
    client = client_of("anonymous")
    client.force_login(second)

    page = client.get(accept_url(invitation))
    response = client.post(accept_url(invitation))

    for answer in (page, response):
        assert answer.status_code == 410
        assert "This invitation has been used already." in answer.content.decode()
    assert not Membership.objects.filter(user=second).exclude(club__personal=True).exists()


def test_the_same_person_cannot_use_a_link_twice_and_is_told_he_is_a_member(
    client_of, club, invitation, outsider
):
    client = client_of("outsider")
    client.post(accept_url(invitation))

    page = client.get(accept_url(invitation))
    response = client.post(accept_url(invitation))

    for answer in (page, response):
        assert answer.status_code == 200
        content = answer.content.decode()
        assert "You are a member of this club already." in content
        assert "used already" not in content
        assert f'href="{club.get_absolute_url()}"' in content
    assert Membership.objects.filter(club=club, user=outsider).count() == 1


def test_an_expired_link_says_so_and_changes_nothing(client_of, club, invitation, outsider):
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())
    client = client_of("outsider")

    page = client.get(accept_url(invitation))
    response = client.post(accept_url(invitation))

    for answer in (page, response):
        assert answer.status_code == 410
        assert "This invitation has expired." in answer.content.decode()
    assert not Membership.objects.filter(club=club, user=outsider).exists()
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


def test_the_owner_withdraws_a_link_and_it_then_lets_nobody_in(
    client_of, club, invitation, outsider
):
    withdrawn = client_of("owner").post(
        reverse("invitation_revoke", args=[club.slug, invitation.pk])
    )
    client = client_of("outsider")

    response = client.post(accept_url(invitation))

    assert withdrawn.status_code == 302
    assert response.status_code == 410
    assert "This invitation was withdrawn." in response.content.decode()
    assert not Membership.objects.filter(club=club, user=outsider).exists()
    page = client_of("owner").get(reverse("club_detail", args=[club.slug])).content.decode()
    assert invitation.token not in page


def test_a_used_link_cannot_be_withdrawn(client_of, club, invitation, outsider):
    client_of("outsider").post(accept_url(invitation))

    response = client_of("owner").post(
        reverse("invitation_revoke", args=[club.slug, invitation.pk])
    )

    assert response.status_code == 400
    assert "This invitation has been used already." in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
    assert Membership.objects.filter(club=club, user=outsider).exists()


def test_a_member_opening_a_link_is_told_he_is_one_already_and_it_stays_good(
    client_of, club, invitation, member
):
    response = client_of("member").post(accept_url(invitation))

    assert response.status_code == 200
    assert "You are a member of this club already." in response.content.decode()
    assert Membership.objects.get(club=club, user=member).role == Role.MEMBER  # not scorer
    invitation.refresh_from_db()
    assert invitation.is_open


@pytest.mark.parametrize("gone", ["revoked", "expired"])
def test_a_member_opening_a_link_no_longer_good_is_told_he_is_one_all_the_same(
    client_of, club, invitation, gone
):
    change = {"revoked": {"revoked_at": timezone.now()}, "expired": {"expires_at": timezone.now()}}
    Invitation.objects.filter(pk=invitation.pk).update(**change[gone])

    response = client_of("member").get(accept_url(invitation))

    assert response.status_code == 200
    content = response.content.decode()
    assert "You are a member of this club already." in content
    assert f'href="{club.get_absolute_url()}"' in content
    assert "Ask the club's owner for a new link." not in content


def test_a_link_to_a_deleted_club_leads_nowhere(client_of, club, invitation, outsider):
    services.club_delete(club=club)

    for method in ("get", "post"):
        response = getattr(client_of("outsider"), method)(accept_url(invitation))
        assert response.status_code == 404
    assert not Membership.objects.filter(club=club, user=outsider).exists()


def test_joining_a_club_deleted_meanwhile_is_refused(club, invitation, outsider):
    services.club_delete(club=club)

    with pytest.raises(ClubError) as refusal:
        services.invitation_accept(invitation=invitation, user=outsider)

    assert refusal.value.code == "deleted"
    assert not Membership.objects.filter(club=club, user=outsider).exists()


def test_a_visitor_sees_the_club_who_invites_and_the_role_with_sign_up_and_log_in(
    client, invitation
):
    response = client.get(accept_url(invitation))

    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Invitation to Skat Club</h1>" in page
    assert "Invited by owner" in page
    assert "You are invited to join Skat Club as scorer." in page
    back = f"?next={quote(accept_url(invitation))}"
    assert f'href="{reverse("signup")}{back}"' in page
    assert f'href="{reverse("login")}{back}"' in page
    assert "Join the club" not in page  # that comes once he is logged in


def test_the_inviter_is_named_by_his_full_name_and_not_at_all_once_his_account_is_gone(
    client, invitation, owner
):
    owner.first_name, owner.last_name = "Maximiliane", "Hohenzollern-Sigmaringen"
    owner.save()
    named = client.get(accept_url(invitation)).content.decode()
    Invitation.objects.filter(pk=invitation.pk).update(created_by=None)
    unnamed = client.get(accept_url(invitation)).content.decode()

    assert "Invited by Maximiliane Hohenzollern-Sigmaringen" in named
    assert "Invited by" not in unnamed
    assert "You are invited to join Skat Club as scorer." in unnamed


def test_a_visitor_who_posts_is_sent_to_log_in_and_back_and_nothing_changes(client, invitation):
    response = client.post(accept_url(invitation))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={accept_url(invitation)}"
    invitation.refresh_from_db()
    assert invitation.is_open


def test_a_visitor_logs_in_from_the_link_and_comes_back_to_it(client, invitation, outsider):
    response = client.post(
        reverse("login"),
        {"username": "outsider", "password": PASSWORD, "next": accept_url(invitation)},
    )

    assert response.status_code == 302
    assert response.url == accept_url(invitation)
    assert "Join the club" in client.get(response.url).content.decode()


def test_a_newcomer_signs_up_from_the_link_and_lands_back_on_it(client, club, invitation):
    login_page = client.get(f"{reverse('login')}?next={accept_url(invitation)}").content.decode()
    assert f"{reverse('signup')}?next={accept_url(invitation)}" in login_page

    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": accept_url(invitation),
        },
    )

    assert response.status_code == 302
    assert response.url == accept_url(invitation)
    assert client.post(accept_url(invitation)).status_code == 302
    assert Membership.objects.filter(club=club, user__username="newcomer").exists()


def test_signing_up_never_sends_one_to_another_site(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )

    assert response.url == reverse("home")


def test_an_unknown_token_is_a_404(client_of):
    assert client_of("outsider").get("/invite/no-such-token/").status_code == 404


def test_nobody_is_invited_into_a_personal_club(owner):
    personal = services.personal_club(owner)

    with pytest.raises(ClubError) as refusal:
        services.invitation_create(club=personal, role=Role.MEMBER, created_by=owner)

    assert refusal.value.code == "personal"
    assert not Invitation.objects.exists()


def test_an_invitation_refusal_is_said_in_german(client_of, invitation):
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())

    response = client_of("outsider").get(accept_url(invitation), HTTP_ACCEPT_LANGUAGE="de")

    assert "Diese Einladung ist abgelaufen." in response.content.decode()


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite writes one transaction at a time: two requests cannot race",
)
@pytest.mark.django_db(transaction=True)
def test_two_links_accepted_at_the_same_moment_make_one_membership(club, owner, django_user_model):
    """One person, two links to one club, both confirmed at once (two tabs, two app
    servers): he joins once, and the other request says he is a member already. Five
    people try it, as one race can go either way."""
    for n in range(5):
        user = django_user_model.objects.create_user(f"twice{n}", password=PASSWORD)
        links = [
            services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
            for _ in range(2)
        ]

        answers = accept_at_once(user, links)

        assert sorted(answers, key=str) == [200, 302]
        assert Membership.objects.filter(club=club, user=user).count() == 1
        assert Invitation.objects.filter(accepted_by=user).count() == 1


def accept_at_once(user, links: list[Invitation]) -> list[object]:
    """POST each link in a thread of its own (a connection of its own), released together;
    each answer's status, or the exception a server error raised."""
    start = threading.Barrier(len(links))
    answers: list[object] = []

    def accept(invitation: Invitation) -> None:
        client = Client()
        try:
            client.force_login(user)
            start.wait()
            answers.append(client.post(accept_url(invitation)).status_code)
        except Exception as error:  # noqa: BLE001 (reported by the caller's assertion)
            answers.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(invitation,)) for invitation in links]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_the_link_has_a_copy_button_shown_by_the_script_beside_a_read_only_field(
    client_of, club, invitation
):
    page = client_of("owner").get(reverse("club_detail", args=[club.slug])).content.decode()

    field = f'id="invitation-link-{invitation.pk}"'
    assert field in page
    assert re.search(rf'<input type="text" readonly value="[^"]+{invitation.token}/"', page)
    button = re.search(r"<button [^>]*data-copy=\"([^\"]+)\"[^>]*>([^<]+)</button>", page)
    assert button.group(1) == f"invitation-link-{invitation.pk}"
    assert button.group(2) == "Copy the link"
    assert " hidden " in button.group(0)  # without JavaScript the field alone is there
    assert '<script src="/static/js/copy.js" defer></script>' in page
