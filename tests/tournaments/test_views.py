"""The tournament pages through the client: created from the club's list, checked in
and seeded, started, the bracket a round at a time with its 304, and the correction."""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs.models import Role
from scorekeeper.tournaments import services
from scorekeeper.tournaments.models import MatchResult, Tournament, TournamentMatch
from tests.clubs.conftest import join
from tests.table.helpers import rules_form_data

from .conftest import NAMES, create, entered, win, work

pytestmark = pytest.mark.django_db


def new_tournament_data(**more) -> dict:
    return {
        "name": "Club championship",
        "played_on": "2026-11-28",
        "system": "single_elimination",
        "third_place": "on",
        "rated": "on",
        "kind": "two_player",
        "preset": "classic",
        "shown_preset": "classic",
        "stake": "0",
        **rules_form_data("classic"),
        **more,
    }


def test_a_scorer_creates_a_tournament_from_the_clubs_list(client_owner: Client, club):
    response = client_owner.post(
        reverse("tournament_list", args=[club.slug]), new_tournament_data()
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response.url == reverse(
        "tournament_entries", args=[tournament.pk]
    )
    assert (tournament.system, tournament.third_place, tournament.rated) == (
        "single_elimination",
        True,
        True,
    )
    page = client_owner.get(reverse("tournament_list", args=[club.slug])).content.decode()
    assert "Club championship" in page


def test_a_swiss_without_rounds_is_refused_and_nothing_is_saved(client_owner: Client, club):
    response = client_owner.post(
        reverse("tournament_list", args=[club.slug]),
        new_tournament_data(system="swiss", top_cut="3"),
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "A Swiss plays at least one round" in page and "The top cut is 2, 4, 8" in page
    assert not Tournament.objects.exists()


def test_check_in_seed_and_start_from_the_entries_page(client_owner: Client, club, owner, players):
    tournament = create(club, owner)
    url = reverse("tournament_entries", args=[tournament.pk])
    ticked = [players[n].pk for n in NAMES[:4]]
    assert client_owner.post(url, {"players": ticked}).status_code == 302
    seed = reverse("tournament_seed", args=[tournament.pk])
    assert client_owner.post(seed, {"method": "random", "seed": "3"}).status_code == 302
    assert sorted(tournament.entries.values_list("seed", flat=True)) == [1, 2, 3, 4]
    start = reverse("tournament_start", args=[tournament.pk])
    response = client_owner.post(start)
    assert response.status_code == 302 and response.url == tournament.get_absolute_url()
    assert TournamentMatch.objects.filter(tournament=tournament).count() == 2


def test_seeds_by_hand_must_each_be_different(client_owner: Client, club, owner, players):
    tournament = create(club, owner)
    services.entries_check_in(tournament=tournament, players=[players["Anna"], players["Ben"]])
    entries = list(tournament.entries.all())
    data = {"method": "hand", **{f"seed_{e.pk}": "1" for e in entries}}
    response = client_owner.post(reverse("tournament_seed", args=[tournament.pk]), data)
    assert response.status_code == 400
    assert "every player a different seed from 1 to 2" in response.content.decode()


def test_starting_with_one_player_says_what_to_do(client_owner: Client, club, owner, players):
    tournament = entered(create(club, owner), players, ["Anna"])
    response = client_owner.post(reverse("tournament_start", args=[tournament.pk]))
    assert response.status_code == 400
    assert "check in at least two players" in response.content.decode()


def test_the_bracket_shows_a_round_at_a_time_and_answers_304_while_nothing_changed(
    client_owner: Client, club, owner, players
):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    url = tournament.get_absolute_url()
    response = client_owner.get(url)
    page = response.content.decode()
    assert "Quarter-finals" in page and "1 of 3" in page and "Table 4" in page
    assert 'rel="next"' in page and 'rel="prev"' not in page
    etag = response["ETag"]
    assert client_owner.get(url, headers={"if-none-match": etag}).status_code == 304
    win(Tournament.objects.get(), "W1-1", "Anna", owner)
    assert client_owner.get(url, headers={"if-none-match": etag}).status_code == 200
    second = client_owner.get(url + "?round=2").content.decode()
    assert "<h2>Semi-finals" in second and "2 of 3" in second and "Final ›" in second


def test_the_bracket_region_for_htmx_is_the_same_fragment(
    client_owner: Client, club, owner, players
):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    region = client_owner.get(tournament.get_absolute_url(), headers={"hx-request": "true"})
    text = region.content.decode()
    assert text.lstrip().startswith('<section id="bracket"') and "<html" not in text


def test_a_member_reads_the_bracket_but_sees_no_correction(client_of, club, owner, member, players):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    join(club, member, Role.MEMBER)
    page = client_of("member").get(tournament.get_absolute_url()).content.decode()
    assert "Anna" in page and "Correct the result" not in page


def test_a_correction_refused_names_the_match_to_void_first(
    client_owner: Client, club, owner, players
):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    win(tournament, "W1-1", "Anna", owner)
    win(tournament, "W1-2", "Dora", owner)
    work()
    win(tournament, "W2-1", "Anna", owner)
    work()
    url = reverse("tournament_match", args=[tournament.pk, "W1-1"])
    response = client_owner.post(url, {"winner": "Hanna", "reason": "wrong"})
    assert response.status_code == 400
    assert "void W2-1 first" in response.content.decode()
    assert MatchResult.objects.count() == 3
    response = client_owner.post(
        reverse("tournament_match", args=[tournament.pk, "W2-1"]),
        {"winner": "", "reason": "replay"},
    )
    assert response.status_code == 302
    page = client_owner.get(url).content.decode()
    assert "the partie" in page  # the trail
