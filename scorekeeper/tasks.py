"""The worker's tasks: what a change sets in motion, done once, outside the request.

A change writes what it made due, as rows that pages read (``table.ResultsChange``: a
club's games changed from a place in their order on; ``notices.Delivery``: a notice to
send) and, in the same transaction, enqueues the task that does it (django-tasks, the
backport of Django 6's ``django.tasks``, with its database backend: the task is a row
too, so a change rolled back leaves neither). ``manage.py worker`` runs them (the
backend's worker: one task at a time, claimed under a row lock).

The rows are the record, the tasks only say "now": each task does everything of its
kind that is due, under the outboxes' own locks (``league.outbox``, ``notices.outbox``,
``tournaments.outbox``), and a task that finds nothing due returns at once. So ten
hands closed in a club before the worker comes round rate it once, two workers never do
one club's work twice, and a task lost (a worker killed halfway: the rows stay due) or
failed is made up by the next one. ``sweep``, which the worker enqueues when it starts
and which enqueues itself again every ``SWEEP``, does everything due: what a killed
worker left, and what comes due by time alone (a delivery's retry, a lease run out).
Nothing else waits for it: a tournament's match decided by the hand after time was
called is the end of its partie at the table, which writes its ``ResultsChange`` (and
so enqueues ``results_changed``) like any close.

The app modules are imported by the tasks, not here: the table's models enqueue
``results_changed``, and the league's and tournaments' code sits above the table.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus

SWEEP = timedelta(minutes=1)
KEPT = timedelta(days=1)  # how long a finished task's row is kept, for the admin


@task()
def results_changed(club_id: int) -> dict[str, int]:
    """A club's closed games changed, or a partie of it ended (by itself, or at time:
    the hand after time was called): the tournament results it gives first (the parties
    they start are in the ratings' next round), then the club rated again."""
    from scorekeeper.league import outbox
    from scorekeeper.tournaments import outbox as tournaments_outbox

    return {"results": tournaments_outbox.advance_due(), "clubs": outbox.rate_due(club_id)}


@task()
def notices_due() -> int:
    """Notices to send: every delivery due, sent once."""
    from scorekeeper.notices import outbox

    return outbox.send_due()


@task()
def sweep() -> dict[str, int]:
    """Everything due, in every club, then the next sweep (unless one is queued)."""
    from django_tasks_db.models import DBTaskResult

    from scorekeeper.league import outbox
    from scorekeeper.notices import outbox as notices_outbox
    from scorekeeper.tournaments import outbox as tournaments_outbox

    done = {
        "results": tournaments_outbox.advance_due(),
        "clubs": outbox.rate_due(),
        "notices": notices_outbox.send_due(),
    }
    now = timezone.now()
    DBTaskResult.objects.finished().filter(finished_at__lt=now - KEPT).delete()
    queued = DBTaskResult.objects.filter(task_path=sweep.module_path, status=TaskResultStatus.READY)
    if not queued.exists():
        sweep.using(run_after=now + SWEEP).enqueue()
    return done
