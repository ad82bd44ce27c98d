"""``python manage.py worker [--until-idle] [--interval SECONDS]``: the league's worker.

It does what the changes of the clubs' games made due (``tournaments.outbox``: a
tournament match's partie over, its winner moves on; ``league.outbox``: their ratings
rated again) and sends the notices due (``notices.outbox``: mails), then waits
``--interval`` seconds (1 by default) for more, until stopped
(Ctrl-C, or SIGTERM from the service manager: the work in hand is finished first, or
left due). ``--until-idle`` does what is due and exits: tests and scripts use it. One
line on standard output per round that rated clubs or sent notices, with ``-v 2``.

Run one beside the web server (``make run`` does; see the README's production notes).
Two at once do no harm: a club is rated by one of them at a time, and a notice is
sent by one of them once.
"""

from __future__ import annotations

import signal
import time

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections

from scorekeeper.league import outbox
from scorekeeper.notices import outbox as notices_outbox
from scorekeeper.tournaments import outbox as tournaments_outbox


class Command(BaseCommand):
    help = (
        "Rate what the changes of the clubs' games made due and send the notices due; "
        "with --until-idle, then exit."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--until-idle", action="store_true", help="do what is due, then exit")
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            metavar="SECONDS",
            help="how long to wait when nothing is due (default 1)",
        )

    def handle(self, *, until_idle: bool, interval: float, verbosity: int, **_options) -> None:
        if not 0 < interval <= 3600:
            raise CommandError(f"--interval: seconds from more than 0 to 3600, not {interval:g}")
        self.running = True
        if not until_idle:
            signal.signal(signal.SIGTERM, self.stop)
            signal.signal(signal.SIGINT, self.stop)
        while self.running:
            # A tournament's results first: the parties they start are in the ratings'
            # next round, and nothing a result gives is rated.
            given = tournaments_outbox.advance_due()
            if given and verbosity > 1:
                self.stdout.write(f"gave {given} tournament result(s)")
            rated = outbox.rate_due()
            if rated and verbosity > 1:
                self.stdout.write(f"rated {rated} club(s)")
            sent = notices_outbox.send_due()
            if sent and verbosity > 1:
                self.stdout.write(f"sent {sent} notice(s)")
            if until_idle:
                return
            if not given and not rated and not sent:
                time.sleep(interval)
            close_old_connections()  # one the server closed, or older than CONN_MAX_AGE

    def stop(self, *_signal) -> None:
        self.running = False
