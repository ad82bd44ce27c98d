"""The worker runs what a change enqueued in its own transaction (django-tasks, its
database backend): the change's rows and its task are written together or not at all,
a task runs once, a failure is reported and leaves the work due, and what a worker
killed halfway left is done by the sweep of the next worker to start."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scorekeeper import tasks
from scorekeeper.league import ratings
from scorekeeper.table import services
from scorekeeper.table.models import ResultsChange
from tests.league.conftest import K, work
from tests.league.test_outbox import due
from tests.league.test_ratings import afresh, read

pytestmark = pytest.mark.django_db


def queued(task) -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=task.module_path).order_by("enqueued_at"))


def test_a_change_enqueues_the_clubs_task_with_its_row(evening, season, owner):
    DBTaskResult.objects.all().delete()
    services.partie_delete(partie=evening[0], user=owner)

    [task] = queued(tasks.results_changed)
    assert task.status == TaskResultStatus.READY
    assert task.args_kwargs == {"args": [season.league.club_id], "kwargs": {}}
    assert len(due(season)) == 1


def test_a_change_rolled_back_leaves_neither_its_row_nor_its_task(season):
    DBTaskResult.objects.all().delete()
    rows = ResultsChange.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        ResultsChange.record(season.league.club_id)
        raise RuntimeError("the request failed after the change")
    assert ResultsChange.objects.count() == rows
    assert not DBTaskResult.objects.exists()


def test_the_worker_runs_each_task_once_and_schedules_the_next_sweep(evening, season, owner):
    services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    work()

    assert due(season) == []
    assert read(season) == afresh(season)
    assert not DBTaskResult.objects.ready().exists()  # nothing left to run now
    assert {t.status for t in queued(tasks.results_changed)} == {TaskResultStatus.SUCCESSFUL}
    [later] = DBTaskResult.objects.filter(
        task_path=tasks.sweep.module_path, status=TaskResultStatus.READY
    )
    assert later.run_after > timezone.now() + tasks.SWEEP - timedelta(seconds=30)

    work()  # a second worker finds the sweep queued and adds none
    assert (
        DBTaskResult.objects.filter(
            task_path=tasks.sweep.module_path, status=TaskResultStatus.READY
        ).count()
        == 1
    )


def test_a_failing_task_fails_the_command_and_leaves_the_work_due(evening, season, owner):
    services.hand_edit(partie=evening[1], number=2, hand=K(1, 11, knocker="Ben"), user=owner)
    with (
        mock.patch.object(ratings, "rate_from", side_effect=RuntimeError("out of memory")),
        pytest.raises(CommandError, match=r"(?s)results_changed failed.*out of memory"),
    ):
        work()
    assert len(due(season)) == 1
    assert queued(tasks.results_changed)[-1].status == TaskResultStatus.FAILED

    work()  # the next worker's sweep does it
    assert due(season) == []
    assert read(season) == afresh(season)


def test_work_a_killed_worker_left_is_done_by_the_next_workers_sweep(evening, season, owner):
    services.partie_delete(partie=evening[2], user=owner)
    # Killed halfway: the task was claimed (its row says running), the rating's own
    # transaction rolled back, so the change is still due and no task is ready for it.
    DBTaskResult.objects.filter(task_path=tasks.results_changed.module_path).update(
        status=TaskResultStatus.RUNNING, started_at=timezone.now()
    )
    assert len(due(season)) == 1

    work()
    assert due(season) == []
    assert read(season) == afresh(season)
