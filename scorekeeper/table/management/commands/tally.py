"""``python manage.py tally FILE``: the tally of a game record, without the database.

FILE is a record in the format of FORMAT.md, or ``-`` for standard input. The
tally is printed as JSON on standard output. A record that cannot be read or
replayed prints one ``error: ...`` line per problem on standard error and exits
with status 2, as a command-line usage error does.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.record import RecordError, loads, tally

from .sheet import read_text

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = "Print the tally of a game record (FORMAT.md) as JSON; FILE '-' reads standard input."

    # The engine alone does the work: no system checks, no migrations, no database.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # Tests may pass a text stream to call_command() in place of standard input.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the game record, or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = read_text(path, options.get("stdin", sys.stdin))
            result = tally(loads(text))
        except OSError as error:
            self._fail([f"cannot read {path}: {error.strerror or error}"])
        except UnicodeDecodeError:
            self._fail([f"cannot read {path}: it is not UTF-8 text"])
        except RecordError as error:
            self._fail(error.errors)
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))

    def _fail(self, lines: list[str]) -> NoReturn:
        for line in lines:
            self.stderr.write(f"error: {line}")
        # SystemExit rather than CommandError: Django would prefix "CommandError: "
        # and print the lines once more.
        raise SystemExit(EXIT_BAD_INPUT)
