"""``python manage.py sheet RECORD.json -o sheet.pdf``: a game record's score sheet as PDF.

No database: the record (FORMAT.md; ``-`` reads standard input) is replayed by the
engine and drawn by ``scorekeeper.sheets``. A record that cannot be read or
replayed prints one ``error: ...`` line per problem on standard error and exits
with status 2, as ``tally`` does. ``-o -`` writes the PDF to standard output.
"""

from __future__ import annotations

import sys
from datetime import date
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.bounds import MAX_RECORD_BYTES, MAX_TITLE_LENGTH, name_problem
from scorekeeper.engine.record import RecordError, loads
from scorekeeper.sheets.score_sheet import render_score_sheet, score_sheet

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = "Render the score sheet of a game record (FORMAT.md) as PDF; FILE '-' reads stdin."

    # The engine and reportlab do the work: no system checks, no migrations, no database.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the game record, or - for stdin")
        parser.add_argument(
            "-o", "--output", required=True, metavar="PDF", help="the PDF to write, - for stdout"
        )
        parser.add_argument(
            "--title",
            help=f"the sheet's title (default: the players), {MAX_TITLE_LENGTH} characters at most",
        )
        parser.add_argument("--date", help="the day it was played, YYYY-MM-DD")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        played_on = None
        title = options["title"]
        if title is not None:
            title = title.strip()
            trouble = name_problem(title, MAX_TITLE_LENGTH)
            if trouble:
                fail([f"--title: the title {trouble}"], self)
        if options["date"]:
            try:
                played_on = date.fromisoformat(options["date"])
            except ValueError:
                fail([f"--date: {options['date']!r} is not a date like 2025-03-14"], self)
        try:
            record = loads(read_text(path, options.get("stdin", sys.stdin)))
            sheet = score_sheet(record, title=title, played_on=played_on)
        except OSError as error:
            fail([f"cannot read {path}: {error.strerror or error}"], self)
        except UnicodeDecodeError:
            fail([f"cannot read {path}: it is not UTF-8 text"], self)
        except RecordError as error:
            fail(error.errors, self)
        write_pdf(render_score_sheet(sheet), options["output"], self)


def read_text(path: str, stdin: Any, limit: int | None = MAX_RECORD_BYTES) -> str:
    """A file's text, or standard input's for ``-``; a byte order mark is dropped.

    At most ``limit`` bytes are read (None: all of it): a larger input is an OSError
    that says so, and a text that is not UTF-8 a UnicodeDecodeError."""
    size = -1 if limit is None else limit + 1
    if path != "-":
        with open(path, "rb") as file:
            data = file.read(size)
    else:
        # Bytes where there are any, so the encoding never depends on the locale.
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            data = buffer.read(size)
        else:  # a text stream (tests)
            data = stdin.read(size).encode("utf-8", "surrogatepass")
    if limit is not None and len(data) > limit:
        raise OSError(f"it is larger than {limit:,} bytes")
    return data.decode("utf-8-sig")


def write_pdf(pdf: bytes, path: str, command: BaseCommand) -> None:
    if path == "-":
        sys.stdout.buffer.write(pdf)
        sys.stdout.buffer.flush()
        return
    try:
        with open(path, "wb") as file:
            file.write(pdf)
    except OSError as error:
        fail([f"cannot write {path}: {error.strerror or error}"], command)


def fail(lines: list[str], command: BaseCommand) -> NoReturn:
    for line in lines:
        command.stderr.write(f"error: {line}")
    # SystemExit rather than CommandError: Django would prefix "CommandError: ".
    raise SystemExit(EXIT_BAD_INPUT)
