"""``python manage.py worker [--until-idle] [--interval SECONDS]``: the app's worker.

It runs the tasks that the changes enqueued in their own transactions
(``scorekeeper/tasks.py``: a club's games changed, so its tournament results are given
and its ratings rated again; notices to send), one at a time, with the database
backend's worker (django-tasks-db: each task claimed under a row lock, ``SKIP LOCKED``
on PostgreSQL), and waits ``--interval`` seconds (1 by default) when none is ready,
until stopped (Ctrl-C, or SIGTERM from the service manager: the task in hand is
finished first). On start it enqueues the sweep (``tasks.sweep``): what a worker
stopped or killed halfway left due is done first, and the sweep comes round every
minute after.

``--until-idle`` runs what is ready and exits: tests and scripts use it. A task that
fails there fails the command (exit 1, with its traceback); under the long-running
worker it is recorded as failed (the admin shows it) and its work stays due for the
next task or sweep.

Run one beside the web server (``make run`` does; see the README's production notes).
Two at once do no harm: a task is claimed by one of them, a club is rated by one of
them at a time, and a notice is sent by one of them once.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.crypto import get_random_string
from django_tasks.base import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME, TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from scorekeeper import tasks


class Command(BaseCommand):
    help = (
        "Run the tasks the changes enqueued (ratings, tournament results, notices); "
        "with --until-idle, then exit."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--until-idle", action="store_true", help="run what is ready, then exit"
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            metavar="SECONDS",
            help="how long to wait when nothing is ready (default 1)",
        )

    def handle(self, *, until_idle: bool, interval: float, verbosity: int, **_options) -> None:
        if not 0 < interval <= 3600:
            raise CommandError(f"--interval: seconds from more than 0 to 3600, not {interval:g}")
        tasks.sweep.enqueue()
        worker = _Worker(
            queue_names=[DEFAULT_TASK_QUEUE_NAME],
            excluded_queue_names=[],
            interval=interval,
            batch=until_idle,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=False,
            max_tasks=None,
            worker_id=get_random_string(32),
        )
        if until_idle:
            worker.run_ready()
        else:
            worker.configure_signals()
            worker.run()
        if verbosity > 1:
            self.stdout.write(f"ran {worker.ran} task(s)")
        if until_idle and worker.failed:
            raise CommandError("\n".join(worker.failed))


class _Worker(Worker):
    """The backend's worker, keeping count of what it ran and what failed."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.ran = 0
        self.failed: list[str] = []

    def run_ready(self) -> None:
        """Run what is ready, one task at a time, then return: the backend's batch mode
        without the recycling of the connection between tasks that a long-running worker
        needs (it would close a test's transaction)."""
        ready = DBTaskResult.objects.ready().filter(
            backend_name=self.backend_name, queue_name__in=self.queue_names
        )
        while True:
            with exclusive_transaction(ready.db):
                task = ready.get_locked()
                if task is None:
                    return
                task.claim(self.worker_id)
            self.run_task(task)

    def run_task(self, db_task_result: DBTaskResult) -> None:
        super().run_task(db_task_result)
        self.ran += 1
        if db_task_result.status == TaskResultStatus.FAILED:
            self.failed.append(f"{db_task_result.task_path} failed:\n{db_task_result.traceback}")
