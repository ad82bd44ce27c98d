"""The pages of results both players confirm, for the cast: the two players (Anna and Ben,
members linked to their players), the club's owner (its scorer), a member who did not
play, an outsider. A game's page shows its result, the confirmations and its hands; *My
games* lists the games to confirm; every page's header says how many there are."""

# ruff: noqa: F811 (the fixtures of test_confirmations.py, imported, are named as arguments)

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs.models import Role
from scorekeeper.table.models import ClosedGame, HandChange, Partie, ResultConfirmation
from tests.clubs.conftest import join
from tests.table.test_confirmations import anna, ben, club, game_of, locked, play  # noqa: F401

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin
HTMX = {"HTTP_HX_REQUEST": "true"}
State = ResultConfirmation.State


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def game_url(partie: Partie, number: int = 1, what: str = "game_detail") -> str:
    return reverse(what, args=[partie.pk, number])


def post_confirmation(client: Client, partie: Partie, confirmation="confirm", note="", **extra):
    data = {"game": game_of(partie).pk, "confirmation": confirmation, "note": note, **extra}
    return client.post(game_url(partie, what="game_confirmation"), data, **extra.pop("headers", {}))


def state(partie: Partie, name: str) -> str:
    return ResultConfirmation.objects.get(game__partie=partie, player__name=name).state


# A game's page


def test_a_player_sees_the_result_the_hands_and_his_buttons(play, anna):
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])

    page = logged_in(anna).get(game_url(partie)).content.decode()

    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Anna won. Anna +372 · Ben −372" in text
    assert "Anna 5 v 27" in page and "Anna v 90" in page  # the hands
    assert "Confirm the result" in page and "Dispute the result" in page
    assert "not answered yet" in page


def test_a_member_who_did_not_play_reads_the_game_without_buttons(play, club, member_of):
    partie = play()

    page = logged_in(member_of(club)).get(game_url(partie)).content.decode()

    assert "Anna won." in page
    assert "Confirm the result" not in page


def test_an_outsider_finds_no_game_and_a_running_partie_has_none(play, client_outsider, anna):
    partie = play()
    running = play(hands=[K(5, 27, knocker="Anna")])

    assert client_outsider.get(game_url(partie)).status_code == 404
    assert logged_in(anna).get(game_url(running)).status_code == 404
    assert logged_in(anna).get(game_url(partie, 2)).status_code == 404


def test_confirming_on_the_games_page_comes_back_to_it_with_a_thank_you(play, anna):
    partie = play()

    response = post_confirmation(logged_in(anna), partie)

    assert response.status_code == 302 and response.url == game_url(partie)
    assert state(partie, "Anna") == State.CONFIRMED
    page = logged_in(anna).get(response.url).content.decode()
    assert "You have confirmed this result." in page


def test_a_dispute_needs_a_note_and_the_scorer_reads_it_beside_the_hands(play, ben, client_owner):
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])

    empty = post_confirmation(logged_in(ben), partie, "dispute", "  ")
    assert empty.status_code == 400
    assert "Say what is wrong with the result" in empty.content.decode()
    assert state(partie, "Ben") == State.PENDING

    post_confirmation(logged_in(ben), partie, "dispute", "Hand 1 was 5 against 17")

    page = client_owner.get(game_url(partie)).content.decode()
    assert state(partie, "Ben") == State.DISPUTED
    assert "Hand 1 was 5 against 17" in page and "Anna 5 v 27" in page
    assert "correct it on the partie" in page
    partie_page = client_owner.get(partie.get_absolute_url()).content.decode()
    assert "Results confirmed by the players" in partie_page
    assert "Hand 1 was 5 against 17" in partie_page  # the confirmations and the trail


def test_only_the_player_himself_confirms_by_the_page(play, client_owner, club, member_of):
    partie = play()

    for client in (client_owner, logged_in(member_of(club))):
        assert post_confirmation(client, partie).status_code == 403

    assert state(partie, "Anna") == State.PENDING
    assert state(partie, "Ben") == State.PENDING


def test_a_confirmation_of_the_game_as_it_was_before_a_correction_is_refused(play, anna, owner):
    partie = play(hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    seen = game_of(partie).pk
    from scorekeeper.table import services

    services.hand_edit(partie=partie, number=1, hand=K(5, 17, knocker="Anna"), user=owner)
    response = logged_in(anna).post(
        game_url(partie, what="game_confirmation"), {"game": seen, "confirmation": "confirm"}
    )

    assert response.status_code == 400
    assert "corrected since you opened it" in response.content.decode()
    assert state(partie, "Anna") == State.PENDING


# A confirmation taken back


def test_a_player_takes_back_his_confirmation_on_the_games_page(play, anna):
    partie = play()
    client = logged_in(anna)
    post_confirmation(client, partie)

    page = client.get(game_url(partie)).content.decode()
    response = post_confirmation(client, partie, "withdraw")

    assert "Take back my confirmation" in page
    assert response.status_code == 302 and response.url == game_url(partie)
    assert state(partie, "Anna") == State.PENDING
    again = client.get(response.url).content.decode()
    assert "Your confirmation is taken back" in again
    assert "Confirm the result" in again and "Take back my confirmation" not in again
    trail = client.get(partie.get_absolute_url()).content.decode()
    assert "confirmation taken back" in trail


def test_once_the_other_player_disputed_the_confirmation_stands(play, anna, ben):
    partie = play()
    post_confirmation(logged_in(anna), partie)
    post_confirmation(logged_in(ben), partie, "dispute", "I won hand 1")
    client = logged_in(anna)

    page = client.get(game_url(partie)).content.decode()
    refused = post_confirmation(client, partie, "withdraw")

    assert "Take back my confirmation" not in page
    assert refused.status_code == 400
    assert "Ben answered since, so your confirmation stands" in refused.content.decode()
    assert state(partie, "Anna") == State.CONFIRMED


def test_a_confirmation_given_from_my_games_is_taken_back_there(play, anna):
    partie = play()
    client = logged_in(anna)

    confirmed = post_confirmation(client, partie, next="list", headers=HTMX).content.decode()
    assert "Take back my confirmation" in confirmed
    taken_back = post_confirmation(
        client, partie, "withdraw", next="list", headers=HTMX
    ).content.decode()

    assert "Your confirmation is taken back" in taken_back
    assert "Confirm the result" in taken_back  # the game's confirmation is pending again
    assert state(partie, "Anna") == State.PENDING


# Locked and unlocked


def test_a_locked_games_hands_refuse_a_correction_with_the_reason(play, anna, ben, client_owner):
    partie = locked(play, anna, ben)

    edit = client_owner.post(
        reverse("hand_edit", args=[partie.pk, 1]),
        {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "5", "defender_deadwood": "17"},
    )
    delete = client_owner.post(reverse("hand_delete", args=[partie.pk, 1]))
    remove = client_owner.post(reverse("partie_delete", args=[partie.pk]))

    # Refused before the form: the locked page says so (the service refuses it all the same).
    assert edit.status_code == delete.status_code == 409
    assert "is locked" in edit.content.decode() and "you can unlock" in delete.content.decode()
    assert remove.status_code == 400 and "unlock the confirmed games" in remove.content.decode()
    assert partie.hands.count() == 2


def test_only_the_owner_unlocks_and_the_changes_say_so(
    play, anna, ben, club, client_owner, scorer_of
):
    partie = locked(play, anna, ben)
    page = client_owner.get(game_url(partie)).content.decode()
    assert "the game is locked" in page and "Unlock the game" in page

    refused = logged_in(scorer_of(club)).post(game_url(partie, what="game_unlock"))
    assert refused.status_code == 403
    assert "Unlock the game" not in logged_in(anna).get(game_url(partie)).content.decode()

    response = client_owner.post(game_url(partie, what="game_unlock"))

    assert response.status_code == 302
    assert state(partie, "Anna") == state(partie, "Ben") == State.PENDING
    trail = client_owner.get(partie.get_absolute_url()).content.decode()
    assert "game unlocked" in trail
    assert HandChange.objects.filter(partie=partie, action="unlocked").count() == 1


# My games and the notice on every page


def test_my_games_lists_the_games_to_confirm_and_confirms_one_in_place(play, anna):
    first = play()
    second = play(hands=[G(90, knocker="Ben")])
    client = logged_in(anna)

    page = client.get(reverse("my_games")).content.decode()
    assert "Results to confirm" in page
    assert page.count("Confirm the result") == 2

    response = post_confirmation(client, first, next="list", headers=HTMX)

    region = response.content.decode()
    assert response.status_code == 200 and region.startswith('\n<section id="to-confirm"')
    assert "Result confirmed: thank you." in region
    assert region.count("Confirm the result") == 1 and "Ben won." in region
    assert state(first, "Anna") == State.CONFIRMED and state(second, "Anna") == State.PENDING


def test_confirming_the_last_one_from_the_list_without_javascript(play, anna):
    partie = play()
    client = logged_in(anna)

    response = post_confirmation(client, partie, next="list")

    assert response.status_code == 302 and response.url == reverse("my_games") + "#to-confirm"
    page = client.get(response.url).content.decode()
    assert "Result confirmed: thank you." in page
    assert "Results to confirm" not in page


def test_every_page_tells_the_player_how_many_games_wait_for_him(play, anna):
    play()
    play(hands=[G(90, knocker="Ben")])
    client = logged_in(anna)

    home = client.get(reverse("home")).content.decode()
    assert "2 games to confirm" in home
    assert f'href="{reverse("my_games")}#to-confirm"' in home
    assert "games to confirm" not in client.get(reverse("my_games")).content.decode()

    for partie in Partie.objects.all():
        post_confirmation(client, partie)
    assert "to confirm" not in client.get(reverse("home")).content.decode()


def test_the_scorers_are_told_of_a_dispute_and_find_it_on_my_games(play, ben, client_owner):
    partie = play()
    assert "disputed" not in client_owner.get(reverse("home")).content.decode()

    post_confirmation(logged_in(ben), partie, "dispute", "I had gin")

    home = client_owner.get(reverse("home")).content.decode()
    assert "1 disputed game to look at" in home
    page = client_owner.get(reverse("my_games")).content.decode()
    assert "Disputed results in your clubs" in page and "I had gin" in page
    assert game_url(partie) in page


def test_the_notice_is_one_query_and_only_on_a_full_page(play, anna, django_assert_num_queries):
    from scorekeeper.table.selectors import confirmation_notice

    partie = play()
    with django_assert_num_queries(1):
        notice = confirmation_notice(anna)

    assert (notice.to_confirm, notice.disputed) == (1, 0)
    region = logged_in(anna).get(partie.get_absolute_url(), **HTMX)
    assert region.status_code == 200 and "to confirm" not in region.content.decode()


def test_the_notice_speaks_german(play, anna):
    play()
    client = logged_in(anna)
    client.cookies.load({"django_language": "de"})

    page = client.get(reverse("home")).content.decode()

    assert "1 Partie zu bestätigen" in page


# Fixtures of the cast beyond the players


@pytest.fixture
def member_of(django_user_model):
    def member_of(club, role=Role.MEMBER, name="member"):
        user = django_user_model.objects.create_user(name)
        join(club, user, role)
        return user

    return member_of


@pytest.fixture
def scorer_of(member_of):
    return lambda club: member_of(club, Role.SCORER, "scorer")


def test_the_games_of_a_deleted_club_wait_no_more(play, anna, club, owner):
    from scorekeeper.clubs import services as club_services

    play()
    club_services.club_delete(club=club)

    assert "to confirm" not in logged_in(anna).get(reverse("home")).content.decode()
    assert ClosedGame.objects.count() == 1  # restorable, with its confirmations


def test_the_changes_of_a_match_name_the_game_a_player_confirmed(play, anna):
    partie = play(hands=[G(90, knocker="Anna")], kind="match")  # game 1 of a best of three

    post_confirmation(logged_in(anna), partie)

    page = logged_in(anna).get(partie.get_absolute_url()).content.decode()
    trail = page[page.index('id="trail-list"') :]
    assert re.search(r"<ins>Anna · Game 1</ins>", trail)
