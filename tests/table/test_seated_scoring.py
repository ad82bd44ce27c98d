"""A player scores his own table: a plain member seated at a partie through the player
linked to his account enters, corrects and deletes its hands and puts a deleted one back;
the partie's own settings stay with the club's scorers; a member who does not play there,
and a removed member who did, only read. A hand of a locked game offers no correction:
its edit page says what is locked and who unlocks it.

The cast of tests/table/test_confirmations.py: the Gin Club's owner scores, Anna and Ben
are plain members, each linked to his player."""

# ruff: noqa: F811 (the fixtures of test_confirmations.py, imported, are named as arguments)

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.pwa.account import HEADER, token_of
from scorekeeper.table import selectors
from scorekeeper.table.models import HandChange, Partie
from scorekeeper.table.services import confirmations
from tests.clubs.conftest import join
from tests.table.helpers import post_hand, rows_of, state_of, wins
from tests.table.test_confirmations import anna, ben, club, game_of, locked, play  # noqa: F401

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin
HTMX = {"HTTP_HX_REQUEST": "true"}
ONLY_PLAYERS = "Only the players seated at this partie and the club's scorers enter its hands."


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, partie: Partie, *args) -> str:
    return reverse(name, args=[partie.pk, *args])


@pytest.fixture
def dora(club: Club, django_user_model: type[User]) -> User:
    """A plain member of the Gin Club who plays in none of its parties."""
    user = django_user_model.objects.create_user("dora")
    join(club, user, Role.MEMBER)
    return user


# The seated member scores


def test_a_member_seated_at_the_partie_gets_the_hand_form_and_the_edit_links(play, anna):
    partie = play(hands=[K(5, 27, knocker="Anna")])

    page = logged_in(anna).get(url("partie_detail", partie)).content.decode()

    assert 'id="hand-form"' in page
    assert url("hand_edit", partie, 1) in page
    assert 'id="offline-queue"' in page  # a hand kept on his phone is sent later
    assert "enter its hands" not in page  # nothing to explain to him


def test_the_partie_s_own_settings_stay_with_its_scorers(play, anna):
    partie = play(hands=[K(5, 27, knocker="Anna")])
    client = logged_in(anna)

    page = client.get(url("partie_detail", partie)).content.decode()

    for name in ("partie_rules_change", "partie_season", "partie_share", "partie_delete"):
        assert url(name, partie) not in page, name
    before = state_of(partie)
    assert client.get(url("partie_rules_change", partie)).status_code == 403
    assert client.post(url("partie_delete", partie)).status_code == 403
    assert client.post(url("partie_archive", partie), {"archived": "1"}).status_code == 403
    assert client.post(url("partie_share", partie), {"shared": "1"}).status_code == 403
    assert state_of(partie) == before


def test_a_seated_member_records_corrects_deletes_and_puts_back_a_hand(play, anna):
    partie = play(hands=[K(5, 27, knocker="Anna")])
    client = logged_in(anna)

    assert post_hand(client, partie, wins("Ben", 10)).status_code == 302
    assert client.get(url("hand_edit", partie, 2)).status_code == 200
    assert client.post(url("hand_edit", partie, 2), wins("Ben", 12)).status_code == 302
    assert client.get(url("hand_delete", partie, 2)).status_code == 200
    assert client.post(url("hand_delete", partie, 2)).status_code == 302
    deleted = HandChange.objects.get(partie=partie, action=HandChange.Action.DELETED)
    assert client.post(url("change_undo", partie, deleted.pk)).status_code == 302

    assert rows_of(partie) == [(1, 1, "knock", "Anna", 5, 27), (2, 1, "knock", "Ben", 1, 13)]
    mine = HandChange.objects.filter(partie=partie, user=anna).order_by("pk")
    assert list(mine.values_list("action", flat=True)) == [
        "recorded",
        "edited",
        "deleted",
        "restored",
    ]


def test_a_seated_member_records_a_hand_by_htmx_and_from_his_phone_s_queue(play, anna):
    partie = play(hands=[K(5, 27, knocker="Anna")])
    client = logged_in(anna)
    queued = wins("Ben", 10) | {"entry_key": "6f1e9a52-3b1c-4c55-9d43-7c4b8f0d2a11"}

    row = post_hand(client, partie, wins("Anna", 8), **HTMX)
    sent = post_hand(
        client, partie, queued, **{f"HTTP_{HEADER.upper().replace('-', '_')}": token_of(anna)}
    )

    assert row.status_code == 200 and 'class="hand' in row.content.decode()
    assert sent.status_code == 302
    assert sent["Scorekeeper-Hand-Stored"] == queued["entry_key"]  # the phone forgets it now
    assert [number for number, *_ in rows_of(partie)] == [1, 2, 3]


# Everyone else reads


def test_a_member_who_does_not_play_there_reads_and_learns_who_scores(play, dora):
    partie = play(hands=[K(5, 27, knocker="Anna")])
    client = logged_in(dora)
    before = state_of(partie)

    page = client.get(url("partie_detail", partie)).content.decode()
    refused = post_hand(client, partie, wins("Ben", 10))

    assert 'id="hand-form"' not in page and url("hand_edit", partie, 1) not in page
    assert "The players at this table and the club's scorers enter its hands" in page
    assert refused.status_code == 403
    assert ONLY_PLAYERS.replace("'", "&#x27;") in refused.content.decode()
    assert client.get(url("hand_edit", partie, 1)).status_code == 403
    assert client.post(url("hand_delete", partie, 1)).status_code == 403
    assert state_of(partie) == before


def test_a_removed_member_who_sat_there_only_reads_it(play, club, anna):
    partie = play(hands=[K(5, 27, knocker="Anna")])
    club_services.membership_remove(membership=Membership.objects.get(club=club, user=anna))
    client = logged_in(anna)
    before = state_of(partie)

    page = client.get(url("partie_detail", partie))

    assert page.status_code == 200 and 'id="hand-form"' not in page.content.decode()
    assert post_hand(client, partie, wins("Ben", 10)).status_code == 403
    assert client.get(url("hand_edit", partie, 1)).status_code == 403
    assert state_of(partie) == before


def test_the_seated_member_s_page_costs_no_query_more_than_a_reader_s(play, anna, dora):
    partie = play(hands=[K(5, 27, knocker="Anna")])

    def queries(user: User) -> int:
        client = logged_in(user)
        client.get(url("partie_detail", partie))  # the session and the club warmed up
        with CaptureQueriesContext(connection) as context:
            assert client.get(url("partie_detail", partie)).status_code == 200
        return len(context.captured_queries)

    assert queries(anna) == queries(dora)


# A locked game offers no correction


def test_the_hands_of_a_locked_game_offer_the_way_to_the_game_instead_of_an_edit(play, anna, ben):
    partie = locked(play, anna, ben)

    page = logged_in(anna).get(url("partie_detail", partie)).content.decode()

    assert url("hand_edit", partie, 1) not in page and url("hand_edit", partie, 2) not in page
    assert page.count(f'href="{url("game_detail", partie, 1)}" class="locked-hand"') == 2


def test_the_edit_page_of_a_locked_hand_says_what_is_locked_and_who_unlocks_it(
    play, anna, ben, client_owner
):
    partie = locked(play, anna, ben)
    client = logged_in(anna)

    edit = client.get(url("hand_edit", partie, 1))
    delete = client.get(url("hand_delete", partie, 2))
    owners = client_owner.get(url("hand_edit", partie, 1)).content.decode()

    assert edit.status_code == delete.status_code == 409
    text = edit.content.decode()
    assert "Hand 1 is locked" in text
    assert "belongs to a result its players have confirmed" in text
    assert "Only the club's owner can unlock it" in text
    assert f'href="{url("partie_detail", partie)}"' in text  # back to the partie
    assert f'href="{url("game_detail", partie, 1)}"' in text
    assert 'name="knocker"' not in text and "Save the hand" not in text
    assert "Hand 2 is locked" in delete.content.decode()
    assert "Delete the hand" not in delete.content.decode()
    assert "As the club's owner, you can unlock the game" in owners


def test_a_match_locks_the_hands_of_its_confirmed_game_only(play, anna, ben):
    partie = play(hands=[G(90, knocker="Anna"), K(5, 27, knocker="Ben")], kind="match")
    for user in (anna, ben):
        confirmations.result_confirm(game=game_of(partie), user=user)
    client = logged_in(anna)

    page = client.get(url("partie_detail", partie)).content.decode()
    locked_edit = client.get(url("hand_edit", partie, 1))

    assert url("hand_edit", partie, 1) not in page and url("hand_edit", partie, 2) in page
    assert locked_edit.status_code == 409
    assert "Hand 1 belongs to game 1, whose result its players have confirmed" in (
        locked_edit.content.decode()
    )
    assert client.get(url("hand_edit", partie, 2)).status_code == 200


def test_a_hollywood_hand_belongs_to_every_game_still_open_when_it_was_played(play):
    # Anna's gin fills game 1 at once (her first win goes there only); her knock then
    # opens game 2: game 1 is closed, so the knock was not played in it.
    partie = play(hands=[G(90, knocker="Anna"), K(5, 27, knocker="Anna")], kind="hollywood")
    sheet = selectors.partie_sheet(partie)
    assert [game.tally.closed for game in sheet.games] == [True, False, False]

    assert (sheet.games_of(1), sheet.games_of(2), sheet.games_of(3)) == ((1, 2, 3), (2, 3), ())
    assert sheet.hands_in_games({1}) == {1: 1}
    assert sheet.hands_in_games({2}) == {1: 2, 2: 2}
