"""``python manage.py pairings --season ID --present "Anna,Ben,..." --method
round_robin|swiss [--seed N] [--three-player-table] [--date YYYY-MM-DD] --format json``:
who plays whom on a league night, as JSON:

    {"tables": [{"table": 1, "players": ["Anna", "Ben"]}], "byes": ["Zoe"]}

``round_robin`` seats the players present with the fewest repeats of the season's
meetings; ``swiss`` pairs neighbours in tonight's standings (the parties of the season
started on ``--date``, today by default) with no rematch tonight. An odd count gets one
bye, or with ``--three-player-table`` one table of three. The same seed prints the same
tables. An unknown season, player or method prints an ``error: ...`` line on standard
error and exits with status 2.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.engine.bounds import shorten
from scorekeeper.engine.pairings import Method, PairingError
from scorekeeper.inputs import whole_number
from scorekeeper.league.models import Season
from scorekeeper.league.nights import UnknownPlayers, night_pairing
from scorekeeper.table.management.commands.sheet import fail

METHODS = [method.value for method in Method]


class Command(BaseCommand):
    help = "Propose the tables of a league night (who plays whom) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", required=True, metavar="ID", help="the season's id")
        parser.add_argument(
            "--present", required=True, metavar="NAMES", help="the players present, comma separated"
        )
        # Checked in handle, not by argparse: a bad method fails like any bad input.
        parser.add_argument("--method", required=True, metavar="|".join(METHODS))
        parser.add_argument("--seed", type=int, default=0, help="breaks ties (default 0)")
        parser.add_argument(
            "--three-player-table",
            action="store_true",
            help="an odd count plays one table of three instead of a bye",
        )
        parser.add_argument("--date", metavar="YYYY-MM-DD", help="the night (default: today)")
        parser.add_argument("--format", choices=("json",), default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["method"] not in METHODS:
            fail([f"unknown method {options['method']!r}: use {' or '.join(METHODS)}"], self)
        season_id = str(options["season"])
        season = None
        if (pk := whole_number(season_id)) is not None:  # "²" and 5,000 digits are none
            season = Season.objects.select_related("league").filter(pk=pk).first()
        if season is None:
            shown = season_id if len(season_id) <= 20 else shorten(season_id)
            fail([f"there is no season {shown}"], self)
        night = None
        if options["date"]:
            try:
                night = date.fromisoformat(options["date"])
            except ValueError:
                fail([f"{options['date']!r} is not a date: write YYYY-MM-DD"], self)
        present = [name.strip() for name in options["present"].split(",") if name.strip()]
        if not present:
            fail(['nobody is present: give --present "Anna,Ben,..."'], self)
        try:
            tables = night_pairing(
                season,
                present,
                options["method"],
                seed=options["seed"],
                three_player_table=options["three_player_table"],
                night=night,
            )
        except UnknownPlayers as error:
            fail([_unknown(name, error.hints, season) for name in error.names], self)
        except PairingError as error:
            fail([str(error)], self)
        self.stdout.write(json.dumps(tables.as_dict(), ensure_ascii=False))


def _unknown(name: str, hints: dict[str, str], season: Season) -> str:
    hint = f" (did you mean {hints[name]}?)" if name in hints else ""
    return f"{name} is not a player of the club {season.league.club}{hint}"
