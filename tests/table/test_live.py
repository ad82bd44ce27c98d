"""The live view: the shared sheet and the club-night boards answer a polling page with
304 while nothing changed (one query, no replay), with the new region when a hand was
recorded, and with 286 once nothing can change any more.

A polling page sends the ETag of what it shows in If-None-Match itself (its region's
hx-headers); these tests send it the same way."""

import json
import re
from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.table import selectors, services
from scorekeeper.table.models import Partie
from tests.clubs.conftest import join
from tests.table.conftest import WORKED_EXAMPLE

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def no_replay_after(monkeypatch):
    """Call it to fail the test at any replay of a partie from then on: "unchanged" is
    answered from the versions alone."""

    def refuse(*args, **kwargs):
        raise AssertionError("a partie was replayed")

    def forbid():
        monkeypatch.setattr(selectors, "partie_session", refuse)
        monkeypatch.setattr(engine.Session, "replay", classmethod(refuse))

    return forbid


@pytest.fixture
def no_replay(no_replay_after):
    """No replay in the test itself (the fixtures it names before this one may replay)."""
    no_replay_after()


def polled_headers(html: str) -> dict[str, str]:
    """The hx-headers that the page's polling region sends (the ETag it shows)."""
    match = re.search(r'hx-trigger="every 2s"[^>]*hx-headers="([^"]*)"', html)
    assert match, "the region does not poll"
    return json.loads(match.group(1).replace("&quot;", '"'))


def poll(client: Client, url: str, headers: dict[str, str]):
    """What htmx sends every 2 seconds: its region's request, with the ETag it shows."""
    return client.get(url, headers=headers, **HTMX)


def shared_url(partie: Partie) -> str:
    return reverse("shared_partie", args=[partie.share_token])


# The shared sheet


def test_the_shared_sheet_polls_every_two_seconds_with_the_etag_of_its_region(client, partie):
    response = client.get(shared_url(partie))

    assert response.status_code == 200
    html = response.content.decode()
    headers = polled_headers(html)
    assert f'hx-get="{shared_url(partie)}"' in html
    assert 'hx-swap="outerHTML"' in html
    # The page has an ETag of its own: page and region are two bodies at one address.
    assert response["ETag"] != headers["If-None-Match"]
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert "HX-Request" in response["Vary"]


def test_an_unchanged_partie_answers_304_without_a_body_in_one_query_and_no_replay(
    client, partie, play, django_assert_num_queries, no_replay_after
):
    play(partie, [K(5, 27, knocker="Anna")])
    headers = polled_headers(client.get(shared_url(partie)).content.decode())
    no_replay_after()

    with django_assert_num_queries(1):
        response = poll(client, shared_url(partie), headers)

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == headers["If-None-Match"]


def test_a_hand_recorded_elsewhere_comes_back_as_the_new_region(client, partie, play):
    headers = polled_headers(client.get(shared_url(partie)).content.decode())
    play(partie, [K(5, 27, knocker="Anna")])

    response = poll(client, shared_url(partie), headers)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')  # the region, not the page
    assert '<span class="total">22</span>' in html
    new = polled_headers(html)
    assert new != headers and response["ETag"] == new["If-None-Match"]
    assert poll(client, shared_url(partie), new).status_code == 304


@pytest.mark.parametrize(
    "write",
    [
        lambda p, u: services.hand_record(partie=p, hand=G(10, knocker="Ben"), user=u),
        lambda p, u: services.hand_edit(partie=p, number=1, hand=G(10, knocker="Ben"), user=u),
        lambda p, u: services.hand_delete(partie=p, number=1, user=u),
        lambda p, u: services.partie_rules_change(partie=p, rules=engine.preset("modern"), user=u),
        lambda p, u: services.player_rename(
            player=p.seats.get(position=0).player, name="Annabel", user=u
        ),
    ],
    ids=["record", "edit", "delete", "rules", "rename"],
)
def test_every_write_that_changes_the_sheet_changes_its_etag(client, owner, partie, play, write):
    play(partie, [K(5, 27, knocker="Anna")])
    headers = polled_headers(client.get(shared_url(partie)).content.decode())
    version = partie.version

    write(Partie.objects.get(pk=partie.pk), owner)

    partie.refresh_from_db()
    assert partie.version > version
    assert poll(client, shared_url(partie), headers).status_code == 200


def test_a_page_reload_that_the_browser_revalidates_gets_304_too(client, partie):
    page = client.get(shared_url(partie))

    again = client.get(shared_url(partie), headers={"If-None-Match": page["ETag"]})

    assert again.status_code == 304 and again.content == b""
    # The region's ETag does not stand for the page, nor the page's for the region.
    region = polled_headers(page.content.decode())
    assert client.get(shared_url(partie), headers=region).status_code == 200
    assert poll(client, shared_url(partie), {"If-None-Match": page["ETag"]}).status_code == 200


def test_a_page_in_german_is_not_confirmed_to_an_english_poll(client, partie):
    headers = polled_headers(client.get(shared_url(partie)).content.decode())

    german = poll(client, shared_url(partie), headers | {"Accept-Language": "de"})

    assert german.status_code == 200
    assert german["ETag"].endswith('-de-r"') and headers["If-None-Match"].endswith('-en-r"')


def test_the_hand_that_ends_the_partie_comes_with_286_and_the_region_stops_polling(
    client, partie, play
):
    play(partie, WORKED_EXAMPLE[:-1])
    headers = polled_headers(client.get(shared_url(partie)).content.decode())
    play(partie, WORKED_EXAMPLE[-1:])

    response = poll(client, shared_url(partie), headers)

    assert response.status_code == 286  # htmx swaps it in, then stops polling
    html = response.content.decode()
    assert "The partie is over: Anna won." in html
    assert "hx-trigger" not in html


def test_an_ended_unchanged_region_gets_an_empty_286_that_swaps_nothing(
    client, closed_partie, django_assert_num_queries, no_replay_after
):
    ended = poll(client, shared_url(closed_partie), {})
    assert ended.status_code == 286
    no_replay_after()

    with django_assert_num_queries(1):
        again = poll(client, shared_url(closed_partie), {"If-None-Match": ended["ETag"]})

    assert again.status_code == 286
    assert again.content == b""
    assert again["HX-Reswap"] == "none"


def test_the_page_of_an_ended_partie_does_not_poll(client, closed_partie):
    html = client.get(shared_url(closed_partie)).content.decode()

    assert "hx-trigger" not in html
    assert "The partie is over: Anna won." in html


def test_the_scorers_page_does_not_poll(client_owner, partie):
    html = client_owner.get(reverse("partie_detail", args=[partie.pk])).content.decode()

    assert 'hx-trigger="every 2s"' not in html


# The share link: GET and HEAD only, withdrawn and renewed by those who score


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
def test_a_share_link_answers_only_get_and_head(client, partie, method):
    for url in (shared_url(partie), reverse("shared_partie_pdf", args=[partie.share_token])):
        response = getattr(client, method)(url)

        assert response.status_code == 405, url
        assert response["Allow"] == "GET, HEAD"
    assert client.head(shared_url(partie)).status_code == 200


def test_a_share_link_keeps_working_as_the_partie_is_played_and_its_rules_change(
    client, owner, partie, play
):
    token = partie.share_token
    play(partie, [K(5, 27, knocker="Anna")])
    services.partie_rules_change(partie=partie, rules=engine.preset("modern"), user=owner)

    partie.refresh_from_db()
    assert partie.share_token == token
    assert client.get(reverse("shared_partie", args=[token])).status_code == 200


def test_the_owner_renews_the_link_and_the_old_one_stops_working(client_owner, partie):
    old = partie.share_token

    response = client_owner.post(reverse("partie_share", args=[partie.pk]), {"shared": "1"})

    assert response.status_code == 302
    partie.refresh_from_db()
    assert partie.share_token and partie.share_token != old
    anyone = Client()
    assert anyone.get(reverse("shared_partie", args=[old])).status_code == 404
    assert anyone.get(reverse("shared_partie_pdf", args=[old])).status_code == 404
    assert anyone.get(shared_url(partie)).status_code == 200
    html = client_owner.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert shared_url(partie) in html and old not in html


def test_the_owner_withdraws_the_link_and_no_link_works(client_owner, partie):
    old = partie.share_token

    client_owner.post(reverse("partie_share", args=[partie.pk]), {"shared": "0"})

    partie.refresh_from_db()
    assert partie.share_token is None
    assert Client().get(reverse("shared_partie", args=[old])).status_code == 404
    assert Client().get(reverse("shared_partie_pdf", args=[old])).status_code == 404
    html = client_owner.get(reverse("partie_detail", args=[partie.pk])).content.decode()
    assert "Make a read-only link" in html
    assert "/shared/" not in html
    # and a new one can be made
    client_owner.post(reverse("partie_share", args=[partie.pk]), {"shared": "1"})
    partie.refresh_from_db()
    assert Client().get(shared_url(partie)).status_code == 200


def test_a_page_that_polls_a_withdrawn_link_is_told_so_and_stops(client, owner, partie):
    headers = polled_headers(client.get(shared_url(partie)).content.decode())
    url = shared_url(partie)
    services.partie_share(partie=partie, shared=False)

    response = poll(client, url, headers)

    assert response.status_code == 286
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')
    assert "This link does not work any more" in html


def test_the_share_form_is_a_post_and_a_get_changes_nothing(client_owner, partie):
    token = partie.share_token

    response = client_owner.get(reverse("partie_share", args=[partie.pk]))

    assert response.status_code == 405
    partie.refresh_from_db()
    assert partie.share_token == token


# The boards of a club night


@pytest.fixture
def evening(owner):
    """An open evening of the Skat Club, which the owner founded."""
    club = club_services.club_create(name="Skat Club", owner=owner)
    return services.evening_start(
        owner=owner, club=club, name="Club night", played_on=date(2026, 11, 20)
    )


@pytest.fixture
def night(owner, evening, play):
    """Two tables of the evening: Anna v Ben with one hand, Carl v Dora just started."""
    first = services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic"), evening=evening
    )
    play(first, [K(5, 27, knocker="Anna")])
    second = services.partie_start(
        owner=owner, names=["Carl", "Dora"], rules=engine.preset("classic"), evening=evening
    )
    return first, second


def test_the_evening_board_shows_every_table_from_the_summaries(
    client_owner, evening, night, no_replay
):
    response = client_owner.get(reverse("evening_board", args=[evening.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Anna – Ben" in html and "Carl – Dora" in html
    assert ">Anna</span> <strong>22</strong>" in html and ">Ben</span> <strong>0</strong>" in html
    assert "1 hand played" in html and "0 hands played" in html
    assert polled_headers(html)


def test_an_unchanged_board_answers_304_from_the_versions_alone(
    client_owner, evening, night, django_assert_num_queries, no_replay
):
    url = reverse("evening_board", args=[evening.pk])
    headers = polled_headers(client_owner.get(url).content.decode())

    # the session, the user, the evening with the member's role, the versions
    with django_assert_num_queries(4):
        response = poll(client_owner, url, headers)

    assert response.status_code == 304 and response.content == b""


def test_a_hand_recorded_at_one_table_updates_the_board(client_owner, evening, night, play):
    url = reverse("evening_board", args=[evening.pk])
    headers = polled_headers(client_owner.get(url).content.decode())
    play(night[1], [G(10, knocker="Dora")])

    response = poll(client_owner, url, headers)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="board"')
    assert ">Dora</span> <strong>30</strong>" in html


def test_a_partie_added_to_the_evening_updates_the_board(client_owner, owner, evening, night):
    url = reverse("evening_board", args=[evening.pk])
    headers = polled_headers(client_owner.get(url).content.decode())
    services.partie_start(
        owner=owner, names=["Emil", "Fay"], rules=engine.preset("classic"), evening=evening
    )

    response = poll(client_owner, url, headers)

    assert response.status_code == 200
    assert "Emil – Fay" in response.content.decode()


def test_a_settled_evening_board_stops_polling(client_owner, evening, night, play):
    url = reverse("evening_board", args=[evening.pk])
    headers = polled_headers(client_owner.get(url).content.decode())
    services.evening_settle(evening=evening)

    response = poll(client_owner, url, headers)

    assert response.status_code == 286
    assert "settled up" in response.content.decode()
    assert "hx-trigger" not in response.content.decode()


def test_the_club_board_shows_running_tables_and_those_ended_within_the_hour(
    client_owner, owner, night, play
):
    first, second = night
    club = first.club
    old = services.partie_start(
        owner=owner, club=club, names=["Gus", "Hal"], rules=engine.preset("classic")
    )
    play(old, [G(90, knocker="Gus")])
    Partie.objects.filter(pk=old.pk).update(closed_at=timezone.now() - timedelta(hours=2))
    recent = services.partie_start(
        owner=owner, club=club, names=["Ida", "Jo"], rules=engine.preset("classic")
    )
    play(recent, [G(90, knocker="Jo")])

    response = client_owner.get(reverse("club_board", args=[first.club.slug]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Anna – Ben" in html and "Carl – Dora" in html
    assert "Ida – Jo" in html and "Over: Jo won" in html
    assert "Gus – Hal" not in html
    assert "Club night" in html  # the evening a table belongs to


def test_a_board_is_for_members_only(client, client_outsider, evening, night):
    url = reverse("evening_board", args=[evening.pk])

    assert client_outsider.get(url).status_code == 404
    assert client.get(url).status_code == 302  # to log in


def test_a_scorer_opens_the_evening_board_to_anyone_and_closes_it_again(
    client_owner, evening, night
):
    client_owner.post(reverse("evening_share", args=[evening.pk]), {"shared": "1"})
    evening.refresh_from_db()
    url = reverse("shared_evening_board", args=[evening.share_token])

    anyone = Client()
    response = anyone.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Anna – Ben" in html
    # An anonymous spectator gets the tables' own share links, not the club's pages.
    assert reverse("shared_partie", args=[night[0].share_token]) in html
    assert reverse("partie_detail", args=[night[0].pk]) not in html
    headers = polled_headers(html)
    assert poll(anyone, url, headers).status_code == 304

    client_owner.post(reverse("evening_share", args=[evening.pk]), {"shared": "0"})
    assert anyone.get(url).status_code == 404
    assert poll(anyone, url, headers).status_code == 286  # told, and stops polling


@pytest.fixture
def member_client(owner, evening, django_user_model):
    """A member of the evening's club who reads, and may not score."""
    member = django_user_model.objects.create_user("member")
    join(evening.club, member, Role.MEMBER)
    client = Client()
    client.force_login(member)
    return client


def test_a_member_may_watch_the_board_but_not_share_it(member_client, client_owner, evening, night):
    url = reverse("evening_board", args=[evening.pk])

    response = member_client.get(url)

    assert response.status_code == 200
    assert "Make a read-only link" not in response.content.decode()
    assert member_client.post(reverse("evening_share", args=[evening.pk])).status_code == 403
    assert "Make a read-only link" in client_owner.get(url).content.decode()


def test_a_member_has_no_share_buttons_and_may_not_use_them(member_client, evening, night):
    partie = night[0]
    html = member_client.get(reverse("partie_detail", args=[partie.pk])).content.decode()

    assert "Withdraw the link" not in html and "/shared/" not in html
    share = reverse("partie_share", args=[partie.pk])
    assert member_client.post(share, {"shared": "0"}).status_code == 403
    partie.refresh_from_db()
    assert partie.share_token
