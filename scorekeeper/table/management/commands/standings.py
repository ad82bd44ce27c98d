"""``python manage.py standings FILE``: the standings of a season document, as JSON.

No database: FILE is a season document (FORMAT.md, "Season"; ``-`` reads standard
input) whose game records the engine replays; the standings, head-to-head and
ratings follow RULES.md §11. A bad record prints one ``error: party N, hand M: ...``
line per problem on standard error, writes nothing and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.record import RecordError
from scorekeeper.engine.season import loads, season_standings, standings_json

from .sheet import fail, read_text


class Command(BaseCommand):
    help = "Print the standings of a season document (FORMAT.md) as JSON; FILE '-' reads stdin."

    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the season document, or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = read_text(path, options.get("stdin", sys.stdin))
            result = standings_json(season_standings(loads(text)))
        except OSError as error:
            fail([f"cannot read {path}: {error.strerror or error}"], self)
        except UnicodeDecodeError:
            fail([f"cannot read {path}: it is not UTF-8 text"], self)
        except RecordError as error:
            fail(error.errors, self)
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
