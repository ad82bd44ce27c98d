"""``python manage.py tournament FILE --format json|text|pdf``: the state of a tournament
document, without the database.

FILE is a ``scorekeeper-tournament/1`` document (FORMAT.md, "Tournament"), or ``-`` for
standard input. The state (every match, the champion and the standings once every
match is played) is printed as JSON, or as a readable listing with ``--format text``;
``--format pdf -o FILE`` prints the bracket (``--sheet placings``: the final placings)
as the tournament's page does (``-o -``: standard output).
A document that cannot be read, or a result the tournament refuses, prints one
``error: ...`` line per problem on standard error and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.tournaments import State, TournamentError, loads, state_json, state_text
from scorekeeper.engine.tournaments import tournament_state as play_out
from scorekeeper.sheets.tournament import (
    bracket_sheet,
    document_tournament,
    placings_sheet,
    render_bracket,
    render_placings,
)

from .sheet import fail, read_text, write_pdf


class Command(BaseCommand):
    help = "Print the state of a tournament document (FORMAT.md); FILE '-' reads standard input."

    # The engine alone does the work: no system checks, no migrations, no database.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the tournament document, or - for stdin")
        parser.add_argument("--format", choices=("json", "text", "pdf"), default="json")
        parser.add_argument(
            "-o", "--output", metavar="PDF", help="with --format pdf: the PDF, - for stdout"
        )
        parser.add_argument(
            "--sheet",
            choices=("bracket", "placings"),
            default="bracket",
            help="with --format pdf: the bracket (default) or the final placings",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        if options["format"] == "pdf" and not options["output"]:
            fail(["--format pdf: name the PDF to write with -o FILE (- for stdout)"], self)
        try:
            text = read_text(path, options.get("stdin", sys.stdin))
            state = play_out(*loads(text))
        except OSError as error:
            fail([f"cannot read {path}: {error.strerror or error}"], self)
        except UnicodeDecodeError:
            fail([f"cannot read {path}: it is not UTF-8 text"], self)
        except TournamentError as error:
            fail(error.errors, self)
        if options["format"] == "pdf":
            write_pdf(self.pdf(state, options["sheet"]), options["output"], self)
        elif options["format"] == "text":
            self.stdout.write(state_text(state))
        else:
            self.stdout.write(json.dumps(state_json(state), indent=2, ensure_ascii=False))

    def pdf(self, state: State, sheet: str) -> bytes:
        view = document_tournament(state)
        title = state.tournament.name or "Tournament"
        if sheet == "placings":
            return render_placings(placings_sheet(view, title=title))
        return render_bracket(bracket_sheet(view, title=title))
