"""``python manage.py tournament FILE --format json|text``: the state of a tournament
document, without the database.

FILE is a ``scorekeeper-tournament/1`` document (FORMAT.md, "Tournament"), or ``-`` for
standard input. The state (every match, the champion and the standings once every
match is played) is printed as JSON, or as a readable listing with ``--format text``.
A document that cannot be read, or a result the tournament refuses, prints one
``error: ...`` line per problem on standard error and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.tournaments import TournamentError, loads, state_json, state_text
from scorekeeper.engine.tournaments import tournament_state as play_out

from .sheet import fail, read_text


class Command(BaseCommand):
    help = "Print the state of a tournament document (FORMAT.md); FILE '-' reads standard input."

    # The engine alone does the work: no system checks, no migrations, no database.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the tournament document, or - for stdin")
        parser.add_argument("--format", choices=("json", "text"), default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = read_text(path, options.get("stdin", sys.stdin))
            state = play_out(*loads(text))
        except OSError as error:
            fail([f"cannot read {path}: {error.strerror or error}"], self)
        except UnicodeDecodeError:
            fail([f"cannot read {path}: it is not UTF-8 text"], self)
        except TournamentError as error:
            fail(error.errors, self)
        if options["format"] == "text":
            self.stdout.write(state_text(state))
        else:
            self.stdout.write(json.dumps(state_json(state), indent=2, ensure_ascii=False))
