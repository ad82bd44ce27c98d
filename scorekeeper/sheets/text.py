"""Text as a PDF prints it: NFKC-normalised, Arabic shaped, right-to-left runs in visual order.

reportlab draws a string's characters one after another, left to right, each its own
glyph. It cannot place a combining accent over its letter, join Arabic letters or turn
a right-to-left name round, so ``printable`` does that first, as pretix's PDF renderer
does: NFKC composes ``e`` + U+0301 into ``é`` (and spells compatibility characters,
such as full-width letters, the plain way), arabic-reshaper picks each Arabic letter's
joined form, and python-bidi puts every right-to-left run in the order it is seen.

The documents are written left to right (English, German), so each string is laid out
with a left-to-right base direction: a Hebrew or Arabic name inside a sentence reads
right to left in its place. A string that needs none of this comes back as it is, so a
PDF of Latin names is byte for byte what it was.

Apply ``printable`` once to a string that is drawn, never twice: visual order turned
round again is logical order.

>>> printable("Zoe\\u0308") == "Zo\\u00eb"
True
>>> printable("שרה") == "הרש"
True
>>> [f"{ord(c):X}" for c in printable("مريم")]  # joined forms, right to left
['FEE2', 'FEF3', 'FEAE', 'FEE3']
>>> printable("Anna pays שרה")
'Anna pays הרש'
"""

from __future__ import annotations

import unicodedata

from arabic_reshaper import ArabicReshaper
from bidi import get_display

# Classes that make python-bidi reorder: right-to-left letters, Arabic digits and the
# explicit direction controls.
REORDERED = frozenset(
    ("R", "AL", "AN", "RLE", "RLO", "RLI", "LRE", "LRO", "LRI", "FSI", "PDF", "PDI")
)
# Joined forms only: DejaVu Sans has the lam-alef ligatures but not the word ligature
# of "Allah" (U+FDF2), which the reshaper makes by default. Harakat are dropped, as by
# default: reportlab cannot place them over their letters.
RESHAPER = ArabicReshaper(configuration={"ARABIC LIGATURE ALLAH": False})
# The ellipsis a cut name ends with is ours: NFKC would spell it as three full stops.
ELLIPSIS = "…"


def printable(value: str) -> str:
    """``value`` as reportlab should draw it (see the module's docstring)."""
    if value.isascii():
        return value
    value = ELLIPSIS.join(unicodedata.normalize("NFKC", part) for part in value.split(ELLIPSIS))
    classes = {unicodedata.bidirectional(c) for c in value}
    if not classes & REORDERED:
        return value
    if "AL" in classes:  # an Arabic letter (NFKC has undone any joined form typed in)
        value = RESHAPER.reshape(value)
    return get_display(value, base_dir="L")
