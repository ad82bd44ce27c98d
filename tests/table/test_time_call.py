"""Time called on a partie with one more hand to play (``partie_time_call``, a
tournament's "one more hand"): the partie notes its last hand and its trail says who
called time; the hand that reaches it ends the partie at time in that hand's own
transaction, with the ``ResultsChange`` and the worker's task that a partie's end makes
due; players level then play on until a hand puts one ahead; a partie that closes by
itself with that hand just closes; and the hand that ended it is final, as every hand
of a partie ended early."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scorekeeper import engine, tasks
from scorekeeper.table import services
from scorekeeper.table.models import HandChange, Partie, ResultsChange
from tests.table.conftest import WORKED_EXAMPLE
from tests.table.helpers import post_hand, wins

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin
HTMX = {"HTTP_HX_REQUEST": "true"}
ONE_MORE = "Time was called: one more hand is to be played."
LEVEL = "Time was called and the players are level: they play on until a hand puts one ahead."
ENDED = "Time was called: the partie ended here, before it was played out."


@pytest.fixture
def under_way(partie: Partie, play: Callable[..., Partie]) -> Partie:
    """Anna 22 : Ben 0 after one hand, the target 100 far off."""
    return play(partie, [K(5, 27, knocker="Anna")])


@pytest.fixture
def time_called(under_way: Partie, owner: User) -> Partie:
    services.partie_time_call(partie=under_way, user=owner)
    return Partie.objects.get(pk=under_way.pk)


def results_changed_tasks() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=tasks.results_changed.module_path))


def test_time_called_notes_its_last_hand_once_and_the_trail_says_who(
    under_way: Partie, owner: User
):
    version = under_way.version
    called = services.partie_time_call(partie=under_way, user=owner)
    assert (called.last_hand, called.state, called.version) == (2, "running", version + 1)
    services.partie_time_call(partie=called, user=owner)  # called again: as it was
    called.refresh_from_db()
    assert (called.last_hand, called.version) == (2, version + 1)
    [change] = HandChange.objects.filter(partie=called, action=HandChange.Action.TIME)
    assert (change.user, change.after) == (owner, {"last_hand": 2})


def test_the_hand_after_the_call_ends_the_partie_in_its_own_transaction(
    time_called: Partie, owner: User
):
    DBTaskResult.objects.all().delete()
    changes = ResultsChange.objects.count()
    # One transaction: the hand, the end, its results change and its task go together.
    with pytest.raises(RuntimeError), transaction.atomic():
        services.hand_record(partie=time_called, hand=G(10, knocker="Ben"), user=owner)
        raise RuntimeError("the request failed after the hand")
    time_called.refresh_from_db()
    assert (time_called.summary["hands"], time_called.state) == (1, Partie.State.RUNNING)
    assert ResultsChange.objects.count() == changes and not results_changed_tasks()

    written = services.hand_record(partie=time_called, hand=G(10, knocker="Ben"), user=owner)
    time_called.refresh_from_db()
    assert written.change.hand_number == 2
    assert (time_called.state, time_called.ended_early) == (Partie.State.CLOSED, "time")
    assert time_called.summary["totals"] == {"Anna": 22, "Ben": 30}  # Ben leads now
    ended = HandChange.objects.filter(partie=time_called).first()  # the newest
    assert (ended.action, ended.user, ended.after) == ("ended", owner, {"why": "time"})
    [change] = ResultsChange.objects.order_by("-pk")[:1]
    assert ResultsChange.objects.count() == changes + 1
    assert (change.club_id, change.since, change.done_at) == (
        time_called.club_id,
        time_called.started_at,
        None,
    )
    [task] = results_changed_tasks()
    assert task.status == TaskResultStatus.READY
    assert task.args_kwargs == {"args": [time_called.club_id], "kwargs": {}}


def test_players_level_after_the_last_hand_play_on_until_one_leads(
    time_called: Partie, play: Callable[..., Partie], client_owner: Client
):
    play(time_called, [K(5, 27, knocker="Ben")])  # 22 : 22
    time_called.refresh_from_db()
    assert (time_called.state, time_called.ended_early) == (Partie.State.RUNNING, "")
    page = client_owner.get(time_called.get_absolute_url()).content.decode()
    assert LEVEL in page and 'name="knocker"' in page
    play(time_called, [K(5, 6, knocker="Ben")])  # Ben +1
    assert (time_called.state, time_called.ended_early) == (Partie.State.CLOSED, "time")
    assert time_called.summary["hands"] == 3


def test_a_partie_that_closes_by_itself_with_the_last_hand_just_closes(
    partie: Partie, play: Callable[..., Partie], owner: User
):
    play(partie, WORKED_EXAMPLE[:5])
    services.partie_time_call(partie=partie, user=owner)
    play(partie, WORKED_EXAMPLE[5:])  # Anna reaches 101
    assert (partie.state, partie.ended_early, partie.summary["winner"]) == ("closed", "", "Anna")
    assert not HandChange.objects.filter(partie=partie, action="ended").exists()


def test_the_hand_that_ended_it_cannot_be_edited_or_deleted(
    time_called: Partie, play: Callable[..., Partie], owner: User
):
    play(time_called, [G(10, knocker="Ben")])
    attempts = [
        lambda: services.hand_edit(
            partie=time_called, number=2, hand=G(20, knocker="Ben"), user=owner
        ),
        lambda: services.hand_delete(partie=time_called, number=2, user=owner),
        lambda: services.hand_record(partie=time_called, hand=G(10, knocker="Anna"), user=owner),
    ]
    for attempt in attempts:
        with pytest.raises(engine.HandError) as refused:
            attempt()
        assert refused.value.code == "partie_ended"
    time_called.refresh_from_db()
    assert (time_called.summary["hands"], time_called.ended_early) == (2, "time")


def test_time_is_not_called_on_a_partie_over_already(closed_partie: Partie, owner: User):
    services.partie_time_call(partie=closed_partie, user=owner)
    closed_partie.refresh_from_db()
    assert closed_partie.last_hand is None
    assert not HandChange.objects.filter(partie=closed_partie, action="time").exists()


def test_its_page_says_one_more_hand_then_the_htmx_answer_says_it_ended(
    client_owner: Client, time_called: Partie
):
    page = client_owner.get(time_called.get_absolute_url()).content.decode()
    assert ONE_MORE in page and 'name="knocker"' in page
    assert "time called: one more hand" in page  # the trail
    response = post_hand(client_owner, time_called, wins("Ben", 30), **HTMX)
    assert response.status_code == 200
    answer = response.content.decode()
    assert ENDED in answer and ONE_MORE not in answer
    assert 'name="knocker"' not in answer  # no hand form
    page = client_owner.get(time_called.get_absolute_url()).content.decode()
    assert ENDED in page and "partie ended early" in page
