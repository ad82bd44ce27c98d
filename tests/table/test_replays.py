"""Each request replays a partie once: the engine scores every hand again, so a second
replay doubles the cost of recording a hand as the partie grows."""

from collections import Counter

import pytest
from django.urls import reverse

from scorekeeper import engine
from tests.table.helpers import post_hand, record, start, start_fields, wins

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def replays(monkeypatch):
    """How many sessions of each kind the engine was asked to build."""
    built: Counter[str] = Counter()
    original = engine.Session.__init__

    def counted(self, *args, **kwargs):
        built[self.kind] += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(engine.Session, "__init__", counted)
    return built


# Each kind with a hand its next captain or player can win.
KINDS = {
    "two_player": (("Anna", "Ben"), ("Anna", 10)),
    "hollywood": (("Anna", "Ben"), ("Anna", 10)),
    "match": (("Anna", "Ben"), ("Anna", 10)),
    "chouette": (("X", "Y", "Z"), ("Y", 10)),
    "three_player": (("P", "Q", "R"), ("Q", 10)),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_recording_a_hand_replays_the_partie_once(client_owner, replays, kind, htmx):
    players, hand = KINDS[kind]
    partie = record(client_owner, start(client_owner, start_fields(kind, players)), hand)
    replays.clear()

    response = post_hand(client_owner, partie, wins(*hand), **(HTMX if htmx else {}))

    assert response.status_code == (200 if htmx else 302)
    assert replays[kind] == 1  # (a match builds a two-player game inside, per game)


def test_recording_a_partnership_round_replays_the_partie_once(client_owner, replays):
    partie = start(client_owner, start_fields("partnership", ("A", "B", "C", "D")))
    round_ = {f"t1-{k}": v for k, v in wins("A", 10).items()} | {
        f"t2-{k}": v for k, v in wins("C", 10).items()
    }
    replays.clear()

    response = post_hand(client_owner, partie, round_, **HTMX)

    assert response.status_code == 200
    assert replays == {"partnership": 1}


def test_a_knocker_who_sits_out_is_refused_by_the_one_replay(client_owner, replays):
    partie = start(client_owner, start_fields("chouette", ("X", "Y", "Z")))
    replays.clear()

    response = post_hand(client_owner, partie, wins("Z", 10), **HTMX)

    # The service's replay refuses Z; showing the form with the two at the table again
    # takes a second one, on this error path only.
    assert "Z is not at the table: X (box) plays Y (captain)." in response.content.decode()
    assert replays == {"chouette": 2}
    assert partie.hands.count() == 0


def test_confirming_a_rules_change_builds_no_before_sheet(client_owner, replays, rules_data):
    partie = record(client_owner, start(client_owner, start_fields("two_player")), ("Anna", 10))
    replays.clear()

    response = client_owner.post(
        reverse("partie_rules_change", args=[partie.pk]),
        rules_data(gin_bonus=30) | {"confirm": "1"},
    )

    assert response.status_code == 302
    assert replays == {"two_player": 1}  # the service's, under the new rules
