"""A season's CSV files in the reader's language: the standings (the page's download and
``manage.py standings --format csv``) and every hand of its parties.

The headings are translated, and the numbers are written as every page writes them
(formats.number_text): the language's decimal mark, a minus sign (−), + where a sign is
shown, ratings to two decimals. Where the decimal mark is a comma (German), the fields
are separated by semicolons, as spreadsheets in that language expect.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from django.utils.formats import get_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.league import RATING_COLUMNS, RESULT_COLUMNS, Standings
from scorekeeper.formats import figure_text, number_text
from scorekeeper.vocabulary import STANDINGS_COLUMNS

# The standings' columns, in their order: a player's results, then his rating in full.
STANDINGS_CSV = (*RESULT_COLUMNS, *RATING_COLUMNS)

# The hands' columns, by the names league.selectors.HAND_COLUMNS gives them.
HAND_CSV: dict[str, Promise] = {
    "partie": _("Partie"),
    "started": _("Started"),
    "kind": _("Kind"),
    "players": _("Players"),
    "night_round": _("Round (league night)"),
    "night_table": _("Table (league night)"),
    "hand": _("Hand"),
    "table": _("Table (partnership)"),
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


def write_standings(
    out: Writable,
    table: Standings,
    lineterminator: str = "\r\n",
    pending: Mapping[str, int | None] | None = None,
) -> None:
    """The standings as CSV: the headings, then a line per player in the standings' order
    (an unranked player has an empty rank). ``pending`` (a season of the database: each
    player's pending games, by name) adds a last column, "Pending", empty where it is not
    known (a closed season); a season document has no confirmations, so its CSV has no
    such column."""
    writer = csv_writer(out, lineterminator)
    headings = [str(STANDINGS_COLUMNS[column.key]) for column in STANDINGS_CSV]
    if pending is not None:
        headings.append(str(STANDINGS_COLUMNS["pending"]))
    writer.writerow(headings)
    writer.writerows(standings_rows(table, pending))


def standings_rows(
    table: Standings, pending: Mapping[str, int | None] | None = None
) -> Iterator[list[str]]:
    for line in table.lines:
        row = [figure_text(column, column.read(line, None)) for column in STANDINGS_CSV]
        if pending is not None:
            games = pending.get(line.player)
            row.append("" if games is None else number_text(games))
        yield row


def write_hands(out: Writable, columns: Iterable[str], rows: Iterable[Iterable[object]]) -> None:
    """Every hand as CSV, under the headings of ``columns`` (names of HAND_CSV)."""
    writer = csv_writer(out)
    writer.writerow([str(HAND_CSV.get(column, column)) for column in columns])
    writer.writerows(rows)
