"""``python manage.py standings FILE``: the standings of a season document, as JSON;
``python manage.py standings --season ID --format json|csv``: those of a season of
the database, in the same JSON (or as CSV; the JSON is FORMAT.md's, in any language, the
CSV the standings page's download, in the language ``--language`` names); ``--format
season``: that season as a season document, which ``standings FILE`` reads back into the
same standings.

FILE is a season document (FORMAT.md, "Season"; ``-`` reads standard input) whose
game records the engine replays, without the database; the standings, head-to-head
and ratings follow RULES.md §11. A bad record prints one ``error: party N, hand M:
...`` line per problem on standard error, writes nothing and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from scorekeeper.engine.bounds import shorten
from scorekeeper.engine.league import Standings
from scorekeeper.engine.record import RecordError
from scorekeeper.engine.season import dumps, loads, season_standings, standings_json
from scorekeeper.inputs import whole_number
from scorekeeper.league.exports import write_standings
from scorekeeper.table.management.commands.sheet import fail, read_text


class Command(BaseCommand):
    help = "Print the standings of a season document (FORMAT.md) as JSON; FILE '-' reads stdin."

    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", metavar="FILE", nargs="?", help="the season document, or - for stdin"
        )
        # Read by inputs.whole_number, as pairings' is: a bad id fails like any bad input.
        parser.add_argument("--season", metavar="ID", help="a season of the database")
        parser.add_argument(
            "--format",
            choices=("json", "csv", "season"),
            default="json",
            help="season: the season of the database as a season document (FORMAT.md)",
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the CSV: its headings and decimal mark (the JSON has none)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if (options["file"] is None) == (options["season"] is None):
            fail(["give a season document (FILE) or --season ID, not both"], self)
        if options["format"] == "season" and options["season"] is None:
            fail(["--format season writes a season of the database: give --season ID"], self)
        if options["season"] is not None:
            self._database(options["season"], options["format"], options["language"])
            return
        path = options["file"]
        try:
            # The operator's own file (the app's export of a season of any size): no
            # bound; MAX_SEASON_BYTES guards what others send.
            text = read_text(path, options.get("stdin", sys.stdin), limit=None)
            table = season_standings(loads(text, limit=None))
        except OSError as error:
            fail([f"cannot read {path}: {error.strerror or error}"], self)
        except UnicodeDecodeError:
            fail([f"cannot read {path}: it is not UTF-8 text"], self)
        except RecordError as error:
            fail(error.errors, self)
        self._print(table, options["format"], options["language"])

    def _database(self, season_id: str, form: str, language: str) -> None:
        # Imported here: FILE needs no database, and so no app registry beyond settings.
        from scorekeeper.league.models import Season
        from scorekeeper.league.selectors import season_document, season_table
        from scorekeeper.table.models import Unscorable

        season = None
        if (pk := whole_number(season_id)) is not None:
            season = Season.objects.select_related("league").filter(pk=pk).first()
        if season is None:
            shown = season_id if len(season_id) <= 20 else shorten(season_id)
            fail([f"there is no season {shown}"], self)
        if form != "season":
            # The JSON (FORMAT.md) lists every player of the season; the CSV is the page's
            # download, without the players who have no counted game.
            table = season_table(season)
            if form == "json":
                self._print(table.standings, form, language)
            else:  # with each player's games pending, as the page's download
                self._print(table.played_standings, form, language, table.pending_counts)
            return
        try:
            document = season_document(season)
        except Unscorable as error:
            fail([f"partie {error.partie.pk} cannot be scored any more: {error.error}"], self)
        self.stdout.write(dumps(document), ending="")

    def _print(
        self,
        table: Standings,
        form: str,
        language: str,
        pending: Mapping[str, int | None] | None = None,
    ) -> None:
        if form == "json":
            self.stdout.write(json.dumps(standings_json(table), indent=2, ensure_ascii=False))
            return
        with translation.override(language):
            write_standings(self.stdout, table, lineterminator="\n", pending=pending)
