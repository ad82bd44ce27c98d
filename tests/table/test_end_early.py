"""A partie ended before its games were played out (``partie_end_early``: a tournament's
time called, a player withdrawn): over with the hands played, its open game counting
for nothing, no hand taken any more, its page and the list saying why, the trail
saying who."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, HandChange, Partie
from scorekeeper.table.services import repair
from tests.table.helpers import post_hand, state_of, wins

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin


@pytest.fixture
def under_way(partie: Partie, play: Callable[..., Partie]) -> Partie:
    """Anna 22 : Ben 0 after one hand, the target 100 far off."""
    return play(partie, [K(5, 27, knocker="Anna")])


def test_time_called_closes_the_partie_with_its_hands_and_a_line_in_the_trail(
    under_way: Partie, owner: User
):
    version = under_way.version
    ended = services.partie_end_early(partie=under_way, why=Partie.EarlyEnd.TIME, user=owner)
    ended.refresh_from_db()
    assert (ended.state, ended.ended_early) == (Partie.State.CLOSED, "time")
    assert ended.closed_at is not None and ended.version == version + 1
    assert ended.summary["hands"] == 1 and ended.summary["winner"] is None
    change = HandChange.objects.filter(partie=ended).first()  # the newest
    assert (change.action, change.user, change.after) == ("ended", owner, {"why": "time"})
    # The game it left open counts for nothing: no closed game, no result.
    assert not ClosedGame.objects.filter(partie=ended).exists()


def test_a_partie_ended_early_takes_no_hand_edit_delete_or_rules_change(
    under_way: Partie, owner: User
):
    services.partie_end_early(partie=under_way, why=Partie.EarlyEnd.WITHDRAWAL, user=owner)
    partie = Partie.objects.get(pk=under_way.pk)
    attempts = [
        lambda: services.hand_record(partie=partie, hand=G(10, knocker="Ben"), user=owner),
        lambda: services.hand_edit(
            partie=partie, number=1, hand=K(5, 20, knocker="Anna"), user=owner
        ),
        lambda: services.hand_delete(partie=partie, number=1, user=owner),
        lambda: services.partie_rules_change(
            partie=partie, rules=engine.preset("modern"), user=owner
        ),
    ]
    for attempt in attempts:
        with pytest.raises(engine.HandError) as refused:
            attempt()
        assert refused.value.code == "partie_ended"
    partie.refresh_from_db()
    assert partie.summary["hands"] == 1 and partie.state == Partie.State.CLOSED


def test_a_partie_over_already_is_left_as_it_is(closed_partie: Partie, owner: User):
    services.partie_end_early(partie=closed_partie, why=Partie.EarlyEnd.TIME, user=owner)
    closed_partie.refresh_from_db()
    assert closed_partie.ended_early == "" and closed_partie.summary["winner"] == "Anna"
    assert not HandChange.objects.filter(partie=closed_partie, action="ended").exists()


def test_deleted_and_restored_it_stays_ended(under_way: Partie, owner: User):
    services.partie_end_early(partie=under_way, why=Partie.EarlyEnd.TIME, user=owner)
    repair.partie_delete(partie=under_way, user=owner)
    repair.partie_restore(partie=under_way, user=owner)
    under_way.refresh_from_db()
    assert (under_way.state, under_way.ended_early) == (Partie.State.CLOSED, "time")


def test_its_page_and_the_list_say_it_ended_at_time(
    client_owner: Client, under_way: Partie, owner: User
):
    services.partie_end_early(partie=under_way, why=Partie.EarlyEnd.TIME, user=owner)
    page = client_owner.get(under_way.get_absolute_url()).content.decode()
    assert "Time was called: the partie ended here, before it was played out." in page
    assert 'name="knocker"' not in page  # no hand form
    assert "The game left unfinished settles nothing." in page
    assert "Nobody pays: the totals are equal." not in page
    assert "partie ended early" in page  # the trail
    home = client_owner.get("/").content.decode()
    assert "over · time was called" in home


def test_a_hand_posted_to_a_partie_ended_early_is_refused_in_words(
    client_owner: Client, under_way: Partie, owner: User
):
    services.partie_end_early(partie=under_way, why=Partie.EarlyEnd.WITHDRAWAL, user=owner)
    before = state_of(under_way)
    response = post_hand(client_owner, under_way, wins("Ben", 20))
    assert response.status_code == 400
    assert "This partie was ended before its target" in response.content.decode()
    assert state_of(under_way) == before
    page = client_owner.get(under_way.get_absolute_url()).content.decode()
    assert "The partie ended here, before it was played out: a player withdrew." in page
