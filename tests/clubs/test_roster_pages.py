"""The roster in the pages: the start form offers it and asks about a name near one of
its names; the roster page adds a player the same way; a merge asks which name stays,
shows what moves, and is undone from the roster. Who may open these addresses is in
test_permissions.py."""

# ruff: noqa: F811 (the fixtures of test_players.py, imported, are named as arguments)

import pytest
from django.urls import reverse

from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player, PlayerMerge
from tests.clubs.test_players import games, player, season  # noqa: F401
from tests.table.helpers import start_form_data

pytestmark = pytest.mark.django_db


def start(client, club, **names):
    return client.post(reverse("partie_new"), start_form_data() | names | {"club": club.pk})


def test_the_start_form_offers_the_club_roster_as_names_are_typed(client_of, games, club):
    response = client_of("scorer").get(reverse("partie_new"), {"club": club.pk})

    html = response.content.decode()
    assert 'list="roster-names"' in html and 'id="id_player_1"' in html
    assert '<datalist id="roster-names"><option value="Ann"><option value="Anna">' in html
    assert response.context["roster"] == ["Ann", "Anna", "Ben", "Carl"]


def test_a_name_in_another_case_asks_and_the_answer_seats_the_roster_player(client_of, games, club):
    client = client_of("scorer")
    parties = Partie.objects.count()

    asked = start(client, club, player_1="Carl", player_2="ben")

    assert asked.status_code == 200 and Partie.objects.count() == parties
    html = asked.content.decode()
    assert "“ben” is on the roster as Ben: choose the name." in html
    assert 'name="player_2_is" value="Ben"' in html
    assert 'value="ben"' not in html.split('name="player_2_is"', 1)[1].split("</fieldset>")[0]

    done = start(client, club, player_1="Carl", player_2="ben", player_2_is="Ben")

    assert done.status_code == 302
    partie = Partie.objects.latest("pk")
    assert partie.player_names == ["Carl", "Ben"] and partie.first_dealer.name == "Ben"
    assert not Player.objects.filter(name="ben").exists()


def test_a_one_letter_slip_asks_and_a_confirmed_new_name_is_a_new_player(client_of, games, club):
    client = client_of("scorer")

    asked = start(client, club, player_1="Anna", player_2="Bem")

    assert "New player “Bem” — or did you mean Ben?" in asked.content.decode()
    assert not Player.objects.filter(name="Bem").exists()

    stale = start(client, club, player_1="Anna", player_2="Bex", player_2_is="Bem")
    assert "New player “Bex” — or did you mean Ben?" in stale.content.decode()

    done = start(client, club, player_1="Anna", player_2="Bem", player_2_is="Bem")

    assert done.status_code == 302
    assert Partie.objects.latest("pk").player_names == ["Anna", "Bem"]
    assert Player.objects.get(name="Bem").club == club


def test_a_suggestion_already_seated_is_not_offered_again(client_of, games, club):
    response = start(client_of("scorer"), club, player_1="Ann", player_2="Anne")

    html = response.content.decode()  # Anne is one letter from Ann (seated) and from Anna
    assert "New player “Anne” — or did you mean Anna?" in html
    assert 'name="player_2_is" value="Ann"' not in html


def test_a_new_name_with_nothing_near_it_is_entered_without_a_question(client_of, games, club):
    response = start(client_of("scorer"), club, player_1="Dora", player_2="Ben")

    assert response.status_code == 302
    assert Player.objects.filter(name="Dora", club=club).exists()


# The roster page


def test_the_roster_page_adds_a_player_once_the_near_name_question_is_answered(
    client_of, games, club
):
    client = client_of("scorer")
    url = reverse("player_list", args=[club.slug])

    asked = client.post(url, {"name": "Karl"})

    assert asked.status_code == 400
    html = asked.content.decode()
    assert "New player “Karl” — or did you mean Carl?" in html
    assert 'name="name_is" value="Karl"' in html
    assert not Player.objects.filter(name="Karl").exists()

    done = client.post(url, {"name": "Karl", "name_is": "Karl"}, follow=True)

    assert Player.objects.get(name="Karl").owner.username == "scorer"
    assert "Karl is on the roster now." in done.content.decode()


def test_the_roster_page_refuses_a_name_it_holds_and_answers_a_chosen_suggestion(
    client_of, games, club
):
    client = client_of("scorer")
    url = reverse("player_list", args=[club.slug])

    taken = client.post(url, {"name": "Ben"})
    chosen = client.post(url, {"name": "Karl", "name_is": "Carl"})

    assert taken.status_code == chosen.status_code == 400
    assert "The club has a player named Ben already" in taken.content.decode()
    assert "Carl is on the roster already." in chosen.content.decode()
    assert Player.objects.filter(club=club).count() == 4


def test_a_member_reads_the_roster_without_the_form_to_add(client_of, games, club):
    response = client_of("member").get(reverse("player_list", args=[club.slug]))

    assert response.status_code == 200 and response.context["add_form"] is None
    assert "Add to the roster" not in response.content.decode()


# Merging from the pages


def test_the_merge_offers_both_ways_with_what_moves_and_keeps_the_one_with_more_games(
    client_of, games
):
    carl, ann = player("Carl"), player("Anna")  # Carl: 2 games, Anna: 1

    asked = client_of("scorer").post(reverse("player_merge", args=[ann.pk]), {"other": "Carl"})

    assert asked.status_code == 200
    form = asked.context["form"]
    assert form["keep"].initial == carl.pk
    assert list(form.fields["keep"].choices) == [(ann.pk, "Anna"), (carl.pk, "Carl")]
    counts = {f.player.name: (f.parties, f.games, f.payments) for f in asked.context["footprints"]}
    assert counts == {"Anna": (1, 1, 0), "Carl": (2, 2, 1)}
    html = asked.content.decode()
    assert f'name="keep" value="{carl.pk}"' in html and f'name="keep" value="{ann.pk}"' in html


def test_a_merge_confirmed_the_other_way_round_keeps_the_other_name(client_of, games):
    anna, ann = player("Anna"), player("Ann")

    done = client_of("scorer").post(
        reverse("player_merge", args=[anna.pk]),
        {"other": "Ann", "keep": ann.pk, "confirm": "1"},
        follow=True,
    )

    assert done.redirect_chain[-1][0] == reverse("player_detail", args=[ann.pk])
    assert not Player.objects.filter(name="Anna").exists()
    merge = PlayerMerge.objects.get()
    assert (merge.keep_name, merge.gone_name) == ("Ann", "Anna")
    html = done.content.decode()
    assert "Anna is merged into Ann." in html
    assert reverse("player_merge_undo", args=[merge.pk]) in html


def test_the_roster_lists_a_merge_and_undoes_it(client_of, games, club, scorer):
    ann = player("Ann")
    merge = services.player_merge(keep=player("Anna"), gone=ann, user=scorer)
    client = client_of("scorer")

    roster = client.get(reverse("player_list", args=[club.slug])).content.decode()
    assert "Ann merged into Anna" in roster and "Undo: Ann back on the roster" in roster

    undone = client.post(reverse("player_merge_undo", args=[merge.pk]), follow=True)

    assert undone.redirect_chain[-1][0] == reverse("player_detail", args=[ann.pk])
    assert "The merge is undone: Ann and Anna are two players again." in undone.content.decode()
    again = client.post(reverse("player_merge_undo", args=[merge.pk]), follow=True)
    assert "is undone already" in again.content.decode()
    roster = client.get(reverse("player_list", args=[club.slug])).content.decode()
    assert "Ann merged into Anna" not in roster


def test_the_partie_history_says_the_merge_was_undone(client_of, games, scorer):
    first, second, third, running = games
    merge = services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)
    services.player_merge_undo(merge=merge, user=scorer)

    page = client_of("member").get(reverse("partie_detail", args=[third.pk])).content.decode()

    assert "merge of Ann into Anna undone" in page
