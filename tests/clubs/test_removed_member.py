"""A member removed from a club keeps reading what is his own: the parties he played, the
evenings he played in or owes money from, his player's page and his open debts. He
changes none of it (403), and the rest of the club stays hidden from him (404)."""

from datetime import date

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.table import services
from scorekeeper.table.access import evening_for, partie_for, player_for
from scorekeeper.table.models import Evening, EveningPayment, Partie, Player
from tests.clubs.conftest import ClubThings, G, join, start
from tests.table.helpers import wins

pytestmark = pytest.mark.django_db


@pytest.fixture
def owed(things: ClubThings, scorer, former):
    """A settled evening where Anna (the former member) lost to Ben: she owes him."""
    evening = services.evening_start(
        owner=scorer, club=things.club, name="Gin night", played_on=date(2026, 11, 6)
    )
    partie = start(things.club, scorer, names=("Anna", "Ben"), evening=evening)
    services.hand_record(partie=partie, hand=G(80, knocker="Ben"), user=scorer)
    (payment,) = services.evening_settle(evening=evening)
    assert (payment.payer.name, payment.payee.name) == ("Anna", "Ben")
    return payment


@pytest.fixture
def client_former(former) -> Client:
    client = Client()
    client.force_login(former)
    return client


def test_he_reads_the_settled_evening_he_owes_money_from(client_former, owed):
    evening = owed.evening

    page = client_former.get(evening.get_absolute_url())
    pdf = client_former.get(reverse("evening_pdf", args=[evening.pk]))

    assert page.status_code == 200
    content = page.content.decode()
    assert "Anna pays Ben 16.00" in content
    assert "Mark paid" not in content  # nothing to change
    assert f'href="{evening.club.get_absolute_url()}"' not in content  # the club is hidden
    assert evening.club.name in content
    anna, ben = owed.payer, owed.payee
    assert f'href="{reverse("player_detail", args=[anna.pk])}"' in content  # his own
    assert f'href="{reverse("player_detail", args=[ben.pk])}"' not in content
    assert (pdf.status_code, pdf["Content-Type"]) == (200, "application/pdf")


def test_he_reads_the_parties_he_played_without_the_hand_form(client_former, things, owed):
    for partie in (things.partie, things.loose, owed.evening.parties.get()):
        page = client_former.get(partie.get_absolute_url())

        assert page.status_code == 200, partie
        content = page.content.decode()
        assert 'id="hand-form"' not in content
        assert reverse("partie_delete", args=[partie.pk]) not in content
        assert f'href="{partie.club.get_absolute_url()}"' not in content


def test_he_reads_his_player_page_with_his_open_debt(client_former, things, owed):
    page = client_former.get(reverse("player_detail", args=[things.player.pk]))

    assert page.status_code == 200
    content = page.content.decode()
    assert "owes Ben 16.00 (Gin night)" in content
    assert reverse("player_list", args=[things.club.slug]) not in content
    assert 'action="/players/' not in content  # no rename, merge or account form


def test_my_games_lists_his_parties_and_his_open_debt_with_its_evening(client_former, things, owed):
    page = client_former.get(reverse("my_games")).content.decode()

    assert things.partie.get_absolute_url() in page
    assert things.loose.get_absolute_url() in page
    assert "Anna pays Ben 16.00" in page
    assert f'href="{owed.evening.get_absolute_url()}"' in page


def test_a_paid_debt_is_no_longer_listed_as_open(client_former, owed):
    services.evening_payment_paid(payment=owed, paid=True)

    page = client_former.get(reverse("my_games")).content.decode()

    assert "Anna pays Ben" not in page


def test_he_changes_nothing_of_his_own(client_former, things, owed):
    partie = things.partie
    hands = partie.hands.count()
    asks = [
        (reverse("hand_create", args=[partie.pk]), wins("Ben", 10)),
        (reverse("hand_delete", args=[partie.pk, 1]), {}),
        (reverse("partie_delete", args=[partie.pk]), {}),
        (reverse("partie_share", args=[partie.pk]), {"shared": "0"}),
        (reverse("evening_detail", args=[things.evening.pk]), {"partie": things.loose.pk}),
        (reverse("evening_settle", args=[things.evening.pk]), {}),
        (reverse("evening_payment_paid", args=[owed.evening.pk, owed.pk]), {"paid": "1"}),
        (reverse("player_rename", args=[things.player.pk]), {"name": "Annie"}),
    ]

    for url, data in asks:
        assert client_former.post(url, data).status_code == 403, url

    assert partie.hands.count() == hands
    assert Partie.objects.get(pk=partie.pk).share_token == partie.share_token
    assert EveningPayment.objects.get(pk=owed.pk).paid_at is None
    assert Player.objects.get(pk=things.player.pk).name == "Anna"
    assert Partie.objects.get(pk=things.loose.pk).evening_id is None
    assert Evening.objects.get(pk=things.evening.pk).settled_at is None


def test_the_rest_of_the_club_stays_hidden(client_former, things, owed):
    ben = Player.objects.get(club=things.club, name="Ben")
    carl_and_dora = things.settled.parties.get()
    hidden = [
        carl_and_dora.get_absolute_url(),  # a partie he did not play
        things.settled.get_absolute_url(),  # an evening he has nothing in
        reverse("evening_pdf", args=[things.settled.pk]),
        reverse("player_detail", args=[ben.pk]),  # another player
        things.club.get_absolute_url(),
        reverse("player_list", args=[things.club.slug]),
        reverse("club_board", args=[things.club.slug]),
        reverse("league_list", args=[things.club.slug]),
    ]

    for url in hidden:
        assert client_former.get(url).status_code == 404, url
    assert client_former.post(reverse("partie_delete", args=[carl_and_dora.pk])).status_code == 404


def test_a_player_no_longer_linked_to_him_is_no_longer_his(client_of, client_former, things):
    client_of("scorer").post(reverse("player_account", args=[things.player.pk]), {"user": ""})

    assert client_former.get(things.partie.get_absolute_url()).status_code == 404
    assert client_former.get(reverse("player_detail", args=[things.player.pk])).status_code == 404


def test_back_in_the_club_he_is_a_member_again(client_former, things, former):
    join(things.club, former, Role.SCORER)

    page = client_former.get(things.partie.get_absolute_url()).content.decode()

    assert 'id="hand-form"' in page
    assert f'href="{things.club.get_absolute_url()}"' in page


def test_a_deleted_club_hides_his_own_too(client_former, things, owed):
    club_services.club_delete(club=things.club)

    for url in (
        things.partie.get_absolute_url(),
        owed.evening.get_absolute_url(),
        reverse("player_detail", args=[things.player.pk]),
    ):
        assert client_former.get(url).status_code == 404, url
    page = client_former.get(reverse("my_games")).content.decode()
    assert things.partie.get_absolute_url() not in page
    assert "Anna pays Ben" not in page


# A member's check is one query; a former member's asks a second, whether the thing is
# his own to read (only for him: in the members' query it cost every page its compiling).
@pytest.mark.parametrize(("who", "extra"), [("member", 0), ("former", 1)])
def test_the_access_check_is_one_query_for_a_member_and_two_for_a_former_one(
    who, extra, things, owed, member, former, django_assert_num_queries
):
    request = RequestFactory().get("/")
    request.user = {"member": member, "former": former}[who]

    with django_assert_num_queries(1 + extra):
        evening = evening_for(request, owed.evening.pk)
    with django_assert_num_queries(1 + extra):
        player = player_for(request, things.player.pk)
    with django_assert_num_queries(2 + extra):  # the partie; its seats with their players
        partie = partie_for(request, things.partie.pk)

    assert {evening.club_role, player.club_role, partie.club_role} == {Role.MEMBER}
    assert evening.is_member is partie.is_member is (who == "member")
