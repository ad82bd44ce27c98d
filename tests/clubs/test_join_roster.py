"""Joining puts you on the roster: accepting an invitation links the account to the
club's player of the same name whom nobody plays as yet, or adds a new player linked to
it; where the name is only near a player's (a slip, another case, letters of another
script) the person is asked whether he is that player or a new one. A player linked to
another account is never taken, and the link is in the Changes list of the player's
parties with confirmations, written in the transaction that makes the membership."""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Invitation, Membership, Role
from scorekeeper.table import services
from scorekeeper.table.models import HandChange, Player
from scorekeeper.table.services import PlayerChangeError
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation(club: Club, owner: User) -> Invitation:
    return club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)


@pytest.fixture
def anna_weber(club: Club, owner: User) -> Player:
    """Anna Weber, entered on the roster by the owner; nobody plays as her."""
    return services.player_add(club=club, name="Anna Weber", owner=owner)


def person(django_user_model: type[User], username: str, first="", last="") -> Client:
    """A client logged in as a new account of that username (and full name)."""
    user = django_user_model.objects.create_user(
        username, password=PASSWORD, first_name=first, last_name=last
    )
    client = Client()
    client.force_login(user)
    return client


def url(invitation: Invitation) -> str:
    return reverse("invitation_accept", args=[invitation.token])


def joined(club: Club, username: str) -> Player | None:
    """The player the account plays as in the club, once it is a member; else None."""
    if not Membership.objects.filter(club=club, user__username=username).exists():
        return None
    return Player.objects.get(club=club, user__username=username)


def test_the_join_step_offers_the_account_name(django_user_model, invitation):
    client = person(django_user_model, "anna.w", "Anna", "Weber")

    page = client.get(url(invitation)).content.decode()

    assert 'name="name" value="Anna Weber"' in page
    assert "Your name in the club" in page


def test_joining_links_the_account_to_the_free_roster_player_of_its_name(
    django_user_model, club, invitation, anna_weber
):
    client = person(django_user_model, "anna.w", "Anna", "Weber")

    response = client.post(url(invitation), follow=True)

    assert response.redirect_chain[-1][0] == club.get_absolute_url()
    assert joined(club, "anna.w") == anna_weber
    assert "You joined Skat Club. You play as Anna Weber on its roster." in (
        response.content.decode()
    )
    assert Player.objects.filter(club=club).count() == 1


def test_an_account_name_is_read_as_a_typed_name_is(
    django_user_model, club, invitation, anna_weber
):
    client = person(django_user_model, "anna.w", "\u2066Anna", "Weber\u200b")  # pasted

    assert client.post(url(invitation)).status_code == 302

    assert joined(club, "anna.w") == anna_weber


def test_a_name_he_types_is_the_name_he_is_taken_by(
    django_user_model, club, invitation, anna_weber
):
    client = person(django_user_model, "aw")

    assert client.post(url(invitation), {"name": "  Anna Weber "}).status_code == 302

    assert joined(club, "aw") == anna_weber


def test_joining_with_a_name_the_roster_has_nothing_near_adds_him_linked(
    django_user_model, club, invitation, anna_weber
):
    client = person(django_user_model, "newcomer")

    assert client.post(url(invitation)).status_code == 302

    player = joined(club, "newcomer")
    assert (player.name, player.owner.username) == ("newcomer", "newcomer")
    assert anna_weber.user is None


def test_a_near_name_is_asked_about_and_nothing_is_saved_until_he_answers(
    django_user_model, club, invitation, anna_weber
):
    client = person(django_user_model, "anna.weber")

    asked = client.post(url(invitation))

    assert asked.status_code == 400
    page = asked.content.decode()
    assert "Are you Anna Weber of the roster?" in page
    assert 'name="name_is" value="Anna Weber"' in page
    assert 'name="name_is" value="anna.weber"' in page
    assert "No: add me as a new player, anna.weber" in page
    assert joined(club, "anna.weber") is None
    invitation.refresh_from_db()
    assert invitation.is_open

    answered = client.post(url(invitation), {"name": "anna.weber", "name_is": "Anna Weber"})

    assert answered.status_code == 302
    assert joined(club, "anna.weber") == anna_weber
    assert not Player.objects.filter(name="anna.weber").exists()


def test_a_near_name_answered_as_a_new_player_adds_one(
    django_user_model, club, invitation, anna_weber
):
    client = person(django_user_model, "anna.weber")

    client.post(url(invitation), {"name": "anna.weber", "name_is": "anna.weber"})

    assert joined(club, "anna.weber").name == "anna.weber"
    assert Player.objects.get(pk=anna_weber.pk).user is None


def test_an_answer_to_another_name_asks_again(django_user_model, club, invitation, anna_weber):
    client = person(django_user_model, "anna.weber")

    stale = client.post(url(invitation), {"name": "Anna Webber", "name_is": "anna.weber"})

    assert stale.status_code == 400
    assert "Are you Anna Weber of the roster?" in stale.content.decode()
    assert joined(club, "anna.weber") is None


def test_his_name_in_another_case_is_that_player_or_he_enters_another(
    django_user_model, club, owner, invitation
):
    anna = services.player_add(club=club, name="Anna", owner=owner)
    client = person(django_user_model, "anna")

    asked = client.post(url(invitation), {"name_is": "anna"})  # no new "anna" beside Anna

    page = asked.content.decode()
    assert asked.status_code == 400
    assert "“anna” is Anna of the roster, or looks the same" in page
    assert 'value="anna"' not in page.split('class="name-question"', 1)[1]
    assert client.post(url(invitation), {"name_is": "Anna"}).status_code == 302
    assert joined(club, "anna") == anna


def test_a_name_in_letters_of_another_script_is_asked_about(
    django_user_model, club, owner, invitation
):
    anna = services.player_add(club=club, name="Anna", owner=owner)
    client = person(django_user_model, "cyrillic")

    asked = client.post(url(invitation), {"name": "\u0410nna"})

    assert asked.status_code == 400
    assert "No: add me as a new player" not in asked.content.decode()
    assert joined(club, "cyrillic") is None
    client.post(url(invitation), {"name": "\u0410nna", "name_is": "Anna"})
    assert joined(club, "cyrillic") == anna


def test_a_player_linked_to_another_account_is_never_taken(
    django_user_model, club, scorer, invitation, anna_weber
):
    services.player_link(player=anna_weber, user=scorer)
    client = person(django_user_model, "anna.w", "Anna", "Weber")

    refused = client.post(url(invitation))

    assert refused.status_code == 400
    assert "Anna Weber of the roster plays as another member" in refused.content.decode()
    assert joined(club, "anna.w") is None
    assert Player.objects.get(pk=anna_weber.pk).user == scorer
    invitation.refresh_from_db()
    assert invitation.is_open


def test_a_linked_player_near_his_name_is_not_offered(
    django_user_model, club, scorer, invitation, anna_weber
):
    services.player_link(player=anna_weber, user=scorer)
    client = person(django_user_model, "anna.weber")

    assert client.post(url(invitation)).status_code == 302  # no question: she is another

    assert joined(club, "anna.weber").name == "anna.weber"


def test_someone_back_in_the_club_keeps_the_player_he_played_as(
    django_user_model, club, owner, invitation, anna_weber
):
    client = person(django_user_model, "anna.w")
    client.post(url(invitation), {"name": "Anna Weber"})
    club_services.membership_remove(membership=Membership.objects.get(user__username="anna.w"))
    again = club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)

    page = client.get(url(again)).content.decode()
    response = client.post(url(again), {"name": "Somebody Else"})

    assert "You are on the club's roster as Anna Weber." in page
    assert response.status_code == 302
    assert joined(club, "anna.w") == anna_weber
    assert not Player.objects.filter(name="Somebody Else").exists()


# The record of the link, in the membership's transaction


@pytest.fixture
def asked(club: Club, owner: User, scorer: User, anna_weber: Player):
    """Anna Weber won a game against Ben while the scorer's account was linked to her by
    mistake, since unlinked: she is asked to confirm it, and nobody can confirm for her."""
    services.player_link(player=anna_weber, user=scorer)
    partie = services.partie_start(
        owner=owner, club=club, names=["Anna Weber", "Ben"], rules=engine.preset("classic")
    )
    services.hand_record(partie=partie, hand=engine.Hand.gin(90, knocker="Anna Weber"), user=owner)
    services.player_link(player=anna_weber, user=None)
    HandChange.objects.filter(action=HandChange.Action.ACCOUNT).delete()  # that unlink's
    return partie


def test_the_link_is_in_the_changes_list_of_her_parties_with_confirmations(
    django_user_model, club, invitation, asked
):
    client = person(django_user_model, "anna.w", "Anna", "Weber")

    client.post(url(invitation))

    [entry] = asked.changes.filter(action=HandChange.Action.ACCOUNT)
    assert (entry.user.username, entry.before, entry.after) == (
        "anna.w",
        {"player": "Anna Weber", "account": None},
        {"player": "Anna Weber", "account": "anna.w"},
    )


def test_a_refused_join_leaves_no_membership_no_link_and_no_record(
    django_user_model, club, scorer, invitation, anna_weber, asked
):
    """The form found her free; the service, under the club's lock, finds her taken
    meanwhile: nothing of the join stays."""
    user = django_user_model.objects.create_user("anna.w")
    services.player_link(player=anna_weber, user=scorer)  # between his form and his join
    records = HandChange.objects.filter(action=HandChange.Action.ACCOUNT).count()

    with pytest.raises(PlayerChangeError) as refusal:
        services.roster_join(invitation=invitation, user=user, name="Anna Weber")

    assert refusal.value.code == "join_taken"
    assert not Membership.objects.filter(club=club, user=user).exists()
    assert Player.objects.get(pk=anna_weber.pk).user == scorer
    assert HandChange.objects.filter(action=HandChange.Action.ACCOUNT).count() == records
    invitation.refresh_from_db()
    assert invitation.is_open


def test_a_player_of_his_name_in_another_case_entered_meanwhile_is_not_doubled(
    django_user_model, club, owner, invitation
):
    user = django_user_model.objects.create_user("anna.w")
    services.player_add(club=club, name="ANNA WEBER", owner=owner)

    with pytest.raises(PlayerChangeError) as refusal:
        services.roster_join(invitation=invitation, user=user, name="Anna Weber")

    assert refusal.value.code == "join_name_taken"
    assert not Membership.objects.filter(club=club, user=user).exists()


# Two people joining as one name at the same moment


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite writes one transaction at a time: two requests cannot race",
)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on_roster", [True, False], ids=["on the roster", "new"])
def test_two_joining_as_one_name_at_once_one_gets_it(club, owner, django_user_model, on_roster):
    """Two accounts named Anna Weber accept two links at once: one is Anna Weber of the
    roster (found there, or entered for her), the other is refused, is no member, and
    his link stays good. Five pairs try it, as one race can go either way."""
    for n in range(5):
        name = f"Anna Weber {n}"
        if on_roster:
            services.player_add(club=club, name=name, owner=owner)
        people = [
            django_user_model.objects.create_user(f"anna{n}{side}", first_name=name)
            for side in "ab"
        ]

        answers = join_at_once(club, owner, people)

        assert sorted(answers, key=str) == [302, 400]
        player = Player.objects.get(club=club, name=name)
        members = Membership.objects.filter(club=club, user__in=people)
        assert [m.user for m in members] == [player.user]
        assert Invitation.objects.filter(accepted_by__in=people).count() == 1


def join_at_once(club: Club, owner: User, people: list[User]) -> list[object]:
    """Each person POSTs a link of his own, in a thread of its own (a connection of its
    own), released together; each answer's status, or the exception a server error
    raised."""
    links = [
        club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
        for _ in people
    ]
    start = threading.Barrier(len(people))
    answers: list[object] = []

    def join(user: User, invitation: Invitation) -> None:
        client = Client()
        try:
            client.force_login(user)
            start.wait()
            answers.append(client.post(url(invitation)).status_code)
        except Exception as error:  # noqa: BLE001 (reported by the caller's assertion)
            answers.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=pair) for pair in zip(people, links, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers
