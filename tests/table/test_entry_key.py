"""A hand form's idempotency key: a double tap or a retry records the hand once."""

import re
import threading
import uuid

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import EntryKey, Hand, HandChange, Partie
from tests.table.conftest import WORKED_EXAMPLE

HTMX = {"HTTP_HX_REQUEST": "true"}
K = engine.Hand.knock


def knock(key: str | None = None, dk: int = 5, dd: int = 27) -> dict[str, str]:
    data = {
        "kind": "knock",
        "knocker": "Anna",
        "knocker_deadwood": str(dk),
        "defender_deadwood": str(dd),
    }
    return data | ({"entry_key": key} if key else {})


def form_keys(html: str) -> list[str]:
    return re.findall(r'name="entry_key" id="entry-key" value="([0-9a-f-]{36})"', html)


@pytest.mark.django_db
def test_each_form_shown_carries_a_key_of_its_own(client_owner: Client, partie: Partie):
    url = partie.get_absolute_url()

    first, second = (form_keys(client_owner.get(url).content.decode()) for _ in range(2))

    assert len(first) == len(second) == 1
    assert first != second


@pytest.mark.django_db
def test_the_same_key_twice_records_one_hand_and_says_it_was_saved_already(
    client_owner: Client, partie: Partie
):
    key = str(uuid.uuid4())
    url = reverse("hand_create", args=[partie.pk])

    first = client_owner.post(url, knock(key), **HTMX)
    again = client_owner.post(url, knock(key), **HTMX)

    assert first.status_code == again.status_code == 200
    assert "Hand 1 saved." in first.content.decode()
    assert Hand.objects.filter(partie=partie).count() == 1
    assert HandChange.objects.filter(partie=partie).count() == 1
    assert EntryKey.objects.get(partie=partie).number == 1
    # The retry gets the whole table back (its page may have missed the first answer),
    # with the one row, and no second entry in the change trail.
    text = again.content.decode()
    assert again.headers["HX-Retarget"] == "#table"
    assert "Hand 1 was saved already: it is recorded once." in text
    assert text.count('<tr class="hand') == 1
    assert "trail-list" not in text


@pytest.mark.django_db
def test_the_answer_to_a_recorded_hand_brings_a_new_key(client_owner: Client, partie: Partie):
    key = str(uuid.uuid4())

    response = client_owner.post(reverse("hand_create", args=[partie.pk]), knock(key), **HTMX)

    (new,) = form_keys(response.content.decode())
    assert new != key
    response = client_owner.post(reverse("hand_create", args=[partie.pk]), knock(new), **HTMX)
    assert "Hand 2 saved." in response.content.decode()
    assert Hand.objects.filter(partie=partie).count() == 2


@pytest.mark.django_db
def test_a_form_without_a_key_or_with_a_mangled_one_still_records(
    client_owner: Client, partie: Partie
):
    url = reverse("hand_create", args=[partie.pk])

    client_owner.post(url, knock())
    client_owner.post(url, knock("not-a-key"))

    assert Hand.objects.filter(partie=partie).count() == 2
    assert not EntryKey.objects.exists()


@pytest.mark.django_db
def test_without_javascript_the_page_after_the_redirect_says_the_hand_was_saved(
    client_owner: Client, partie: Partie
):
    key = str(uuid.uuid4())
    url = reverse("hand_create", args=[partie.pk])

    saved = client_owner.post(url, knock(key), follow=True).content.decode()
    again = client_owner.post(url, knock(key), follow=True).content.decode()

    assert "Hand 1 saved." in saved
    assert "Hand 1 was saved already: it is recorded once." in again
    assert Hand.objects.filter(partie=partie).count() == 1


@pytest.mark.django_db
def test_a_key_belongs_to_its_partie(owner: User, start_partie):
    one, other = start_partie(), start_partie()
    key = uuid.uuid4()

    services.hand_record(partie=one, hand=K(5, 27, knocker="Anna"), user=owner, key=key)
    written = services.hand_record(partie=other, hand=K(5, 27, knocker="Anna"), user=owner, key=key)

    assert not written.replayed
    assert Hand.objects.filter(partie=other).count() == 1


@pytest.mark.django_db
def test_a_replayed_key_answers_even_after_the_partie_is_over(owner: User, partie: Partie):
    """The hand that closed the partie, sent again: no refusal for a closed game."""
    *before, last = WORKED_EXAMPLE
    for hand in before:
        services.hand_record(partie=partie, hand=hand, user=owner)
    key = uuid.uuid4()
    services.hand_record(partie=partie, hand=last, user=owner, key=key)

    written = services.hand_record(partie=partie, hand=last, user=owner, key=key)

    assert written.replayed and written.session.is_over()
    assert written.change.hand_number == 6
    assert Hand.objects.filter(partie=partie).count() == 6


@pytest.mark.django_db(transaction=True)
def test_two_requests_with_one_key_at_the_same_moment_record_one_hand(owner: User, partie: Partie):
    """Two connections, as two app servers would have: on PostgreSQL the second waits for
    the partie's row lock, then finds the first's key. (SQLite writes one transaction at
    a time; the one that loses the race may be told the database is locked.)"""
    key = uuid.uuid4()
    start = threading.Barrier(2)
    results: list[object] = []

    def send() -> None:
        try:
            start.wait()
            written = services.hand_record(
                partie=Partie.objects.get(pk=partie.pk),
                hand=K(5, 27, knocker="Anna"),
                user=owner,
                key=key,
            )
            results.append(written.replayed)
        except Exception as error:  # noqa: BLE001 (reported below)
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert Hand.objects.filter(partie=partie).count() == 1
    assert EntryKey.objects.filter(partie=partie).count() == 1
    if connection.vendor == "postgresql":
        assert sorted(results, key=str) == [False, True]


# The server's word that a hand is stored: a phone (static/js/offline.js) forgets a queued
# hand on it alone, never on a bare 200 (tests/browser/test_shared_phone.py).

STORED, NUMBER = "Scorekeeper-Hand-Stored", "Scorekeeper-Hand-Number"


@pytest.mark.django_db
def test_the_answer_to_a_recorded_hand_names_its_key_and_its_number(
    client_owner: Client, partie: Partie
):
    url = reverse("hand_create", args=[partie.pk])
    first, second = str(uuid.uuid4()), str(uuid.uuid4())

    one = client_owner.post(url, knock(first), **HTMX)
    two = client_owner.post(url, knock(second, dd=20), **HTMX)
    again = client_owner.post(url, knock(first), **HTMX)  # a retry whose answer was lost

    assert (one[STORED], one[NUMBER]) == (first, "1")
    assert (two[STORED], two[NUMBER]) == (second, "2")
    assert (again[STORED], again[NUMBER]) == (first, "1")
    assert Hand.objects.filter(partie=partie).count() == 2


@pytest.mark.django_db
def test_without_javascript_the_redirect_names_the_hand_stored_too(
    client_owner: Client, partie: Partie
):
    key = str(uuid.uuid4())

    response = client_owner.post(reverse("hand_create", args=[partie.pk]), knock(key))

    assert response.status_code == 302
    assert (response[STORED], response[NUMBER]) == (key, "1")


@pytest.mark.django_db
def test_an_answer_that_stored_nothing_names_no_hand(client_owner: Client, partie: Partie):
    """Refused in the form, only evaluated, or met by the repair path (200, HX-Redirect,
    an empty body): none of these says a hand is stored."""
    url = reverse("hand_create", args=[partie.pk])
    refused = client_owner.post(url, knock(str(uuid.uuid4()), dk=11), **HTMX)
    evaluated = client_owner.post(url, knock(str(uuid.uuid4())) | {"evaluate": "1"}, **HTMX)
    services.hand_record(partie=partie, hand=K(5, 27, knocker="Anna"), user=partie.owner)
    partie.hands.filter(number=1).update(defender_deadwood=500)  # as an older engine took it
    repair = client_owner.post(url, knock(str(uuid.uuid4())), **HTMX)

    assert refused.status_code == evaluated.status_code == repair.status_code == 200
    assert "HX-Redirect" in repair and repair.content == b""
    for response in (refused, evaluated, repair):
        assert STORED not in response and NUMBER not in response
    assert Hand.objects.filter(partie=partie).count() == 1


@pytest.mark.django_db
def test_a_hand_sent_in_another_accounts_session_is_not_recorded(
    client_owner: Client, partie: Partie, outsider: User
):
    """The queue names the account that entered the hand: someone else logged in on the
    phone meanwhile gets 409, which names him, and nothing is written."""
    url = reverse("hand_create", args=[partie.pk])
    mine = client_owner.get("/")["Scorekeeper-Account"]
    other = Client()
    other.force_login(outsider)
    theirs = other.get("/")["Scorekeeper-Account"]

    refused = client_owner.post(
        url, knock(str(uuid.uuid4())), HTTP_SCOREKEEPER_ACCOUNT=theirs, **HTMX
    )
    recorded = client_owner.post(
        url, knock(str(uuid.uuid4())), HTTP_SCOREKEEPER_ACCOUNT=mine, **HTMX
    )

    assert refused.status_code == 409
    assert refused["Scorekeeper-Account"] == mine
    assert STORED not in refused
    assert recorded.status_code == 200 and recorded[NUMBER] == "1"
    assert HandChange.objects.get(partie=partie).user == partie.owner
