"""Numbers as the reader reads them: the one formatter of pages, PDFs, CSV and templates.

A negative number has a real minus sign (−, U+2212, as wide as the plus), never a
hyphen; where a sign is shown (won +, paid −: a net, a payment, a balance) a positive
number has a plus. The decimal mark is the active language's: 8,75 in German, 8.75 in
English. A figure shown to fewer places than it has (a rating, points per hand won, a
rate) is rounded half up, the same either side of zero, as a person rounds on paper:
29.25 is 29.3, −29.25 is −29.3 (never Python's half to even, 29.2). The app has no
currency (players settle in whatever they play for), so money is a number with the
stake's places, at least cents.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from django.utils.formats import number_format

if TYPE_CHECKING:
    from scorekeeper.engine.league import Figure, StandingsColumn

MINUS = "−"  # U+2212: as wide as the plus


def plain_amount(amount: Decimal | int) -> Decimal:
    """An amount with its cents, however it was stored: the database pads to four places
    (5.4000 is 5.40), an int has none (45 is 45.00); a finer unit keeps its places.

    >>> [plain_amount(Decimal(text)) for text in ("5.4000", "45", "0.1250")]
    [Decimal('5.40'), Decimal('45.00'), Decimal('0.125')]
    """
    amount = Decimal(amount)
    cents = amount.quantize(Decimal("0.01"))
    return cents if cents == amount else amount.normalize()


def rounded(value: int | float | Decimal, places: int) -> Decimal:
    """The value to ``places`` decimals, half up (away from zero): the one rounding of a
    number a person reads. A float is taken as the shortest decimal that is that float
    (29.25, 0.145; not the binary 0.14499999...), which is what a person computing the
    ratio by hand gets.

    >>> [str(rounded(v, p)) for v, p in ((29.25, 1), (-29.25, 1), (0.125, 2), (2.675, 2))]
    ['29.3', '-29.3', '0.13', '2.68']
    """
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def number_text(
    value: int | float | Decimal | None,
    *,
    sign: bool = False,
    places: int | None = None,
    localize: bool = True,
) -> str:
    """A number written the one way: '−85', '+462' (``sign``), '8,75' in German.

    What it is says how it is written: an int as it is (points, boxes); a Decimal is
    money, with its cents ('45.00', '−10.15'); a float in its shortest form ('27.5').
    ``places`` rounds any of them to that many decimals, half up (``rounded``: a rating
    '27.13', points per hand won 29.25 to one place '29.3'). None is
    written as nothing. ``localize=False`` keeps the decimal point in every language
    (what a printed sheet showed before it had the reader's mark).
    """
    if value is None:
        return ""
    if type(value) is int and places is None:  # most figures: no decimal mark to localise
        text = str(abs(value))
        if value < 0:
            return MINUS + text
        return "+" + text if sign and value > 0 else text
    if places is not None:
        shown = rounded(value, places)
    elif isinstance(value, Decimal):
        shown = plain_amount(value)
    elif isinstance(value, float):
        shown = Decimal(f"{value:g}")
    else:
        shown = Decimal(int(value))
    text = number_format(abs(shown), use_l10n=localize)
    if shown < 0:
        return MINUS + text
    return "+" + text if sign and shown > 0 else text


def percent_text(rate: float | Decimal | None) -> str:
    """A rate (a share of 1) as a whole percentage, rounded half up: 0.125 is '13 %'; None
    (no hand yet) is nothing.

    >>> [percent_text(rate) for rate in (0.125, 0.145, 0.0, None)]
    ['13 %', '15 %', '0 %', '']
    """
    if rate is None:
        return ""
    exact = Decimal(repr(rate)) if isinstance(rate, float) else Decimal(rate)
    return number_text(exact * 100, places=0) + " %"


def figure_text(column: StandingsColumn, value: Figure, *, localize: bool = True) -> str:
    """A figure of the standings as its column writes it, in every table of them: a name
    as it is, a number by ``number_text`` (signed, to its places), None as nothing.

    >>> from scorekeeper.engine.league import COLUMNS
    >>> [figure_text(COLUMNS[key], value) for key, value in
    ...  [("player", "Anna"), ("league_points", -3), ("money", Decimal("6.5")), ("rating", 4.94)]]
    ['Anna', '−3', '+6.50', '4.9']
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return number_text(value, sign=column.signed, places=column.places, localize=localize)
