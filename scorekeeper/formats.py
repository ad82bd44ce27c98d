"""Money as the reader reads it: one helper for pages, PDFs and the text to copy.

The app has no currency (players settle in whatever they play for), so money is a
number with the stake's places, at least cents, in the active language's format:
8,75 in German, 8.75 in English. A negative amount has a real minus sign (−), as the
score sheets print it; ``signed`` marks a win with + too.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format

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


def money_text(amount: Decimal | int, *, signed: bool = False) -> str:
    """An amount in the active language: '8.75' / '8,75', '−8.75'; signed: '+8.75'."""
    amount = plain_amount(amount)
    text = number_format(abs(amount), use_l10n=True)
    if amount < 0:
        return MINUS + text
    return "+" + text if signed and amount > 0 else text
