"""Clubs own the players, evenings and parties: a personal club for each user's own games,
shared clubs whose members see their games as far as their role goes."""

from datetime import date

import pytest
from django.db import IntegrityError
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs import services
from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Evening, Partie, Player
from tests.clubs.conftest import start
from tests.conftest import PASSWORD
from tests.table.helpers import start_form_data

pytestmark = pytest.mark.django_db


# The personal club


def test_signing_up_makes_the_personal_club_its_owner_alone(client):
    client.post(
        reverse("signup"),
        {"username": "newcomer", "password1": PASSWORD, "password2": PASSWORD},
    )

    (membership,) = Membership.objects.filter(user__username="newcomer")
    assert membership.role == Role.OWNER
    assert membership.club.personal
    assert membership.club.name == "newcomer"
    assert membership.club.memberships.count() == 1


def test_a_user_made_without_one_gets_his_personal_club_once(owner):
    assert not Club.objects.exists()

    first, second = services.personal_club(owner), services.personal_club(owner)

    assert first == second
    assert Club.objects.filter(personal=True).count() == 1


def test_a_users_own_partie_goes_to_his_personal_club_and_its_players_too(owner, client_owner):
    response = client_owner.post(reverse("partie_new"), start_form_data())

    partie = Partie.objects.get()
    assert response.status_code == 302
    assert partie.club == services.personal_club(owner)
    assert {seat.player.club for seat in partie.seats.all()} == {partie.club}


def test_with_only_his_personal_club_the_start_form_asks_no_club(client_owner):
    page = client_owner.get(reverse("partie_new")).content.decode()

    assert 'name="club"' not in page


def test_another_clubs_personal_club_is_not_the_users(owner, outsider):
    assert services.personal_club(owner) != services.personal_club(outsider)


# Shared clubs


def test_a_new_club_is_owned_by_its_founder_and_named_for_addresses(client_of, owner):
    response = client_of("owner").post(reverse("club_list"), {"name": "  Skat Club Süd "})

    club = Club.objects.get(personal=False)
    assert (club.name, club.slug, club.personal) == ("Skat Club Süd", "skat-club-sud", False)
    assert response.url == reverse("club_detail", args=["skat-club-sud"])
    assert Membership.objects.get(club=club).user == owner


def test_a_taken_short_name_is_numbered(owner, outsider):
    first = services.club_create(name="Rummy", owner=owner)
    second = services.club_create(name="rummy!", owner=outsider)
    third = services.club_create(name="♠", owner=outsider)

    assert (first.slug, second.slug, third.slug) == ("rummy", "rummy-2", "club")


def test_the_club_list_shows_every_club_of_the_user_with_his_role(client_of, club):
    page = client_of("scorer").get(reverse("club_list"))

    clubs = [(m.club.name, m.club.personal, m.role) for m in page.context["memberships"]]
    assert clubs == [("scorer", True, "owner"), ("Skat Club", False, "scorer")]


def test_a_scorer_chooses_the_club_of_a_new_partie(client_of, club, scorer):
    client = client_of("scorer")
    form = client.get(reverse("partie_new")).context["club_form"]
    assert [c.name for c in form.fields["club"].queryset] == ["scorer", "Skat Club"]
    assert form["club"].value() == club.pk  # his club, not his personal one

    response = client.post(reverse("partie_new"), start_form_data() | {"club": club.pk})

    partie = Partie.objects.get(pk=response.url.split("/")[-2])
    assert (partie.club, partie.owner) == (club, scorer)


def test_a_club_page_starts_a_partie_in_that_club(client_of, club):
    page = client_of("scorer").get(f"{reverse('partie_new')}?club={club.pk}")

    assert page.context["club_form"]["club"].value() == club.pk  # read as a number


def test_a_member_is_not_offered_a_club_where_he_only_reads(client_of, club):
    form = client_of("member").get(reverse("partie_new")).context["club_form"]

    assert list(form.fields["club"].queryset) == [Club.objects.get(personal=True, name="member")]
    assert not form.has_choice


def test_every_member_sees_the_clubs_parties_on_his_home_page(client_of, things):
    url = things.partie.get_absolute_url()

    for who in ("owner", "scorer", "member"):
        assert url in client_of(who).get(reverse("home")).content.decode(), who
    assert url not in client_of("outsider").get(reverse("home")).content.decode()


def test_a_member_reads_the_sheet_without_the_hand_form_or_edit_links(client_of, things):
    member = client_of("member").get(things.partie.get_absolute_url()).content.decode()
    scorer = client_of("scorer").get(things.partie.get_absolute_url()).content.decode()

    assert 'id="hand-form"' in scorer
    assert reverse("hand_edit", args=[things.partie.pk, 1]) in scorer
    assert 'id="hand-form"' not in member
    assert reverse("hand_edit", args=[things.partie.pk, 1]) not in member
    assert reverse("partie_rules_change", args=[things.partie.pk]) not in member
    assert reverse("partie_pdf", args=[things.partie.pk]) in member


def test_a_member_reads_the_evening_without_its_buttons(client_of, things):
    page = client_of("member").get(things.settled.get_absolute_url()).content.decode()

    assert "Mark paid" not in page
    assert "Carl" in page


def test_a_player_is_the_clubs_the_same_name_elsewhere_is_another(club, owner):
    start(club, owner)
    table_services.partie_start(owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic"))

    annas = Player.objects.filter(name="Anna")
    assert {player.club for player in annas} == {club, services.personal_club(owner)}
    with pytest.raises(IntegrityError):
        Player.objects.create(club=club, name="Anna", owner=owner)


def test_a_players_account_is_linked_once_per_club(club, owner, member):
    start(club, owner)
    Player.objects.filter(club=club, name="Anna").update(user=member)

    with pytest.raises(IntegrityError):
        Player.objects.filter(club=club, name="Ben").update(user=member)


def test_an_evening_offers_only_its_clubs_parties(client_of, club, owner, scorer):
    evening = table_services.evening_start(
        owner=scorer, club=club, name="Friday", played_on=date(2026, 11, 27)
    )
    ours = start(club, scorer)
    theirs = table_services.partie_start(
        owner=scorer, names=["Anna", "Ben"], rules=engine.preset("classic")
    )  # his personal club's
    client = client_of("scorer")

    offered = client.get(evening.get_absolute_url()).context["form"].fields["partie"].queryset
    refused = client.post(evening.get_absolute_url(), {"partie": theirs.pk})

    assert list(offered) == [ours]
    assert refused.status_code == 400
    assert Partie.objects.get(pk=theirs.pk).evening is None


def test_a_partie_cannot_join_another_clubs_evening(club, owner):
    evening = table_services.evening_start(
        owner=owner, club=club, name="Friday", played_on=date(2026, 11, 27)
    )
    own = table_services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic")
    )

    with pytest.raises(ValueError, match="not of the club"):
        table_services.partie_evening_set(partie=own, evening=evening)
    with pytest.raises(ValueError, match="another club"):
        start(services.personal_club(owner), owner, evening=evening)


def test_a_partie_started_in_an_evening_is_the_evenings_clubs(client_of, club, scorer):
    evening = table_services.evening_start(
        owner=scorer, club=club, name="Friday", played_on=date(2026, 11, 27)
    )

    client_of("scorer").post(reverse("partie_new"), start_form_data() | {"evening": evening.pk})

    assert Partie.objects.get().club == club


def test_the_evenings_of_all_the_users_clubs_are_listed(client_of, club, scorer):
    own = table_services.evening_start(owner=scorer, name="Home", played_on=date(2026, 11, 1))
    shared = table_services.evening_start(
        owner=scorer, club=club, name="Club", played_on=date(2026, 11, 2)
    )

    evenings = client_of("member").get(reverse("evening_list")).context["evenings"]

    assert list(evenings) == [shared]
    assert own.club.personal
    assert set(Evening.objects.all()) == {own, shared}


# "My games": a player linked to a member's account


def test_a_scorer_links_a_player_to_a_members_account(client_of, things, member):
    client = client_of("scorer")
    url = reverse("player_detail", args=[things.player.pk])
    assert client.get(url).context["account_form"] is not None

    response = client.post(reverse("player_account", args=[things.player.pk]), {"user": member.pk})

    assert response.url == url
    things.player.refresh_from_db()
    assert things.player.user == member
    assert "Plays as the member member." in client.get(url).content.decode()


def test_the_link_moves_when_the_member_is_linked_to_another_player(client_of, things, member):
    ben = Player.objects.get(club=things.club, name="Ben")
    table_services.player_link(player=things.player, user=member)

    table_services.player_link(player=ben, user=member)

    assert list(Player.objects.filter(user=member)) == [ben]


def test_only_a_member_of_the_players_club_can_be_linked(client_of, things, outsider):
    response = client_of("owner").post(
        reverse("player_account", args=[things.player.pk]), {"user": outsider.pk}
    )

    assert response.status_code == 400
    assert Player.objects.get(pk=things.player.pk).user is None
    with pytest.raises(ValueError, match="not a member"):
        table_services.player_link(player=things.player, user=outsider)


def test_a_member_sees_no_link_form(client_of, things):
    page = client_of("member").get(reverse("player_detail", args=[things.player.pk]))

    assert page.context["account_form"] is None
