"""Undo at hand: after a hand is deleted, the partie page says "Hand 2 deleted" where the
hand was, with an Undo button (the undo of the Changes list), without JavaScript and with
HTMX."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.table import services
from scorekeeper.table.models import HandChange
from tests.clubs.conftest import join
from tests.conftest import PASSWORD
from tests.table.conftest import WORKED_EXAMPLE

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def body_rows(html: str) -> list[str]:
    """The sheet's rows in order, each as 'hand N' or 'notice: ...' (text only)."""
    body = html[html.index('<tbody id="sheet-body">') : html.index("</tbody>")]
    rows = []
    for attributes, row in re.findall(r"<tr([^>]*)>(.*?)</tr>", body, re.S):
        words = " ".join(re.sub(r"<[^>]+>", " ", row).split())
        if "undo-notice" in attributes:
            rows.append(f"notice: {words}")
        elif 'class="hand' in attributes:
            rows.append(f"hand {words.split()[0]}")
    return rows


@pytest.fixture
def four(partie, play):
    """The worked example's first four hands."""
    return play(partie, WORKED_EXAMPLE[:4])


def delete(client: Client, partie, number: int):
    return client.post(reverse("hand_delete", args=[partie.pk, number]))


def test_the_page_says_the_hand_was_deleted_where_it_was_with_an_undo(client_owner, four):
    response = delete(client_owner, four, 2)

    # the page, at the place of the hand
    assert response.status_code == 302
    assert response.url == four.get_absolute_url() + "#undo-notice"
    html = client_owner.get(four.get_absolute_url()).content.decode()
    assert body_rows(html) == ["hand 1", "notice: Hand 2 deleted. Undo", "hand 2", "hand 3"]
    deleted = four.changes.get(action=HandChange.Action.DELETED)
    undo = reverse("change_undo", args=[four.pk, deleted.pk])
    notice = html[html.index('id="undo-notice"') :]
    notice = notice[: notice.index("</tr>")]
    assert f'action="{undo}"' in notice and f'hx-post="{undo}"' in notice


def test_without_javascript_the_undo_puts_the_hand_back_and_says_so(client_owner, four):
    delete(client_owner, four, 2)
    deleted = four.changes.get(action=HandChange.Action.DELETED)

    response = client_owner.post(reverse("change_undo", args=[four.pk, deleted.pk]), follow=True)

    html = response.content.decode()
    assert response.redirect_chain == [(four.get_absolute_url(), 302)]
    assert "Hand 2 is back in its place." in html
    assert body_rows(html) == ["hand 1", "hand 2", "hand 3", "hand 4"]
    sheet = response.context["sheet"]
    assert [row.plays[0].hand for row in sheet.rows] == list(WORKED_EXAMPLE[:4])


def test_the_last_hand_deleted_is_noticed_at_the_end(client_owner, four):
    delete(client_owner, four, 4)
    html = client_owner.get(four.get_absolute_url()).content.decode()
    assert body_rows(html) == ["hand 1", "hand 2", "hand 3", "notice: Hand 4 deleted. Undo"]


def test_with_htmx_the_table_comes_back_in_place_with_the_hand(client_owner, four):
    delete(client_owner, four, 2)
    deleted = four.changes.get(action=HandChange.Action.DELETED)

    response = client_owner.post(reverse("change_undo", args=[four.pk, deleted.pk]), **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')
    assert "<h1>" not in html
    assert body_rows(html) == ["hand 1", "hand 2", "hand 3", "hand 4"]
    assert "Hand 2 is back in its place." in html  # the status line of the hand form
    # the change trail comes whole, out of band: the deletion is undone, its undo gone
    trail = html[html.index('<ol id="trail-list" hx-swap-oob="true">') :]
    assert "hand 2 restored" in trail and "hand 2 deleted" in trail
    assert reverse("change_undo", args=[four.pk, deleted.pk]) not in html
    assert four.hands.count() == 4


def test_a_refused_undo_says_why_in_place(client_owner, owner, partie, play):
    play(partie, WORKED_EXAMPLE[:3])
    services.hand_delete(partie=partie, number=3, user=owner)
    delete(client_owner, partie, 2)
    earlier = partie.changes.filter(action=HandChange.Action.DELETED, hand_number=3).get()

    response = client_owner.post(reverse("change_undo", args=[partie.pk, earlier.pk]), **HTMX)

    assert response.status_code == 200  # HTMX swaps a 200 only
    rows = body_rows(response.content.decode())
    assert rows[-1].startswith("notice: Hand 3 deleted. Undo Hand 3 cannot go back to its place")
    assert partie.hands.count() == 1


def test_the_notice_lasts_while_the_deletion_is_the_last_change(client_owner, owner, four):
    delete(client_owner, four, 2)
    services.hand_record(partie=four, hand=WORKED_EXAMPLE[4], user=owner)

    html = client_owner.get(four.get_absolute_url()).content.decode()

    assert "undo-notice" not in html
    assert "Undo: put the hand back" in html  # the Changes list keeps its undo


def test_a_reader_and_the_share_link_get_no_undo(client, owner, django_user_model):
    club = club_services.club_create(name="Rummy Club", owner=owner)
    partie = services.partie_start(
        owner=owner, club=club, names=["Anna", "Ben"], rules=engine.preset("classic")
    )
    for hand in WORKED_EXAMPLE[:3]:
        services.hand_record(partie=partie, hand=hand, user=owner)
    services.hand_delete(partie=partie, number=2, user=owner)
    reader = django_user_model.objects.create_user("reader", password=PASSWORD)
    join(club, reader, Role.MEMBER)
    member = Client()
    member.force_login(reader)

    html = member.get(partie.get_absolute_url()).content.decode()

    assert body_rows(html) == ["hand 1", "hand 2"] and "undo-notice" not in html
    services.partie_share(partie=partie)
    shared = client.get(reverse("shared_partie", args=[partie.share_token])).content.decode()
    assert body_rows(shared) == ["hand 1", "hand 2"] and "undo-notice" not in shared
