"""A season's CSV files in the reader's language: the standings (the page's download and
``manage.py standings --format csv``) and every hand of its parties.

The headings are translated, and the numbers are written as every page writes them
(formats.number_text): the language's decimal mark, a minus sign (−), + where a sign is
shown, ratings to two decimals. Where the decimal mark is a comma (German), the fields
are separated by semicolons, as spreadsheets in that language expect.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from django.utils.formats import get_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.league import Standings
from scorekeeper.formats import number_text
from scorekeeper.vocabulary import STANDINGS_COLUMNS

# The standings' columns, in their order (the keys are FORMAT.md's names of the JSON).
STANDINGS_CSV: dict[str, Promise] = {
    **{
        key: STANDINGS_COLUMNS[key]
        for key in (
            "rank", "player", "games", "won", "lost", "shutout_wins", "league_points",
            "net_points", "money",
        )
    },
    "mu": _("Skill (μ)"),
    "sigma": _("Uncertainty (σ)"),
    "ordinal": _("Rating"),
}  # fmt: skip

# The hands' columns, by the names league.selectors.HAND_COLUMNS gives them.
HAND_CSV: dict[str, Promise] = {
    "partie": _("Partie"),
    "started": _("Started"),
    "kind": _("Kind"),
    "players": _("Players"),
    "hand": _("Hand"),
    "table": _("Table"),
    "result": _("Result"),
    "knocker": _("Knocker"),
    "knocker_deadwood": _("Knocker's deadwood"),
    "defender_deadwood": _("Defender's deadwood"),
    "upcard": _("Upcard"),
}


class Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def csv_writer(out: Writable, lineterminator: str = "\r\n") -> Any:
    """A CSV writer for the active language: semicolons between the fields where the
    decimal mark is a comma, commas elsewhere."""
    delimiter = ";" if get_format("DECIMAL_SEPARATOR") == "," else ","
    return csv.writer(out, delimiter=delimiter, lineterminator=lineterminator)


def write_standings(out: Writable, table: Standings, lineterminator: str = "\r\n") -> None:
    """The standings as CSV: the headings, then a line per player in the standings' order
    (an unranked player has an empty rank)."""
    writer = csv_writer(out, lineterminator)
    writer.writerow([str(label) for label in STANDINGS_CSV.values()])
    writer.writerows(standings_rows(table))


def standings_rows(table: Standings) -> Iterator[list[object]]:
    for line in table.lines:
        yield [
            "" if line.rank is None else line.rank,
            line.player,
            line.games,
            line.won,
            line.lost,
            line.shutout_wins,
            line.league_points,
            number_text(line.net_points, sign=True),
            number_text(line.money, sign=True),
            number_text(line.rating.mu, places=2),
            number_text(line.rating.sigma, places=2),
            number_text(line.rating.ordinal, places=2),
        ]


def write_hands(out: Writable, columns: Iterable[str], rows: Iterable[Iterable[object]]) -> None:
    """Every hand as CSV, under the headings of ``columns`` (names of HAND_CSV)."""
    writer = csv_writer(out)
    writer.writerow([str(HAND_CSV.get(column, column)) for column in columns])
    writer.writerows(rows)
