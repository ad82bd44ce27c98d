"""What comes in at the door, read once: numbers of the query string and names typed.

A number of the query string (an id, a page) is read by ``number_param`` and by nothing
else: ASCII digits, no more than a database id holds. ``str.isdigit`` accepts "²" and
5,000 digits, which ``int()`` then refuses with a ValueError (a 500); here a bad number
is ignored, or answered with 400 where the page cannot do without it. Text of the query
string is read by ``text_param``, which answers 400 to a NUL (PostgreSQL cannot hold
one). A name (of a club, a league, a season, an evening, a player) is a ``NameField``:
invisible formatting characters are removed, control characters refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import BadRequest
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine import bounds
from scorekeeper.engine.names import cleaned

MAX_ID = 2**63 - 1  # a bigint primary key; nothing the query string numbers is larger
_MAX_DIGITS = len(str(MAX_ID))


def whole_number(text: object) -> int | None:
    """A whole number from 1 to MAX_ID written in ASCII digits; None for anything else.

    >>> whole_number("42"), whole_number("²"), whole_number("0"), whole_number("9" * 5000)
    (42, None, None, None)
    """
    if not isinstance(text, str) or not text.isascii() or not text.isdigit():
        return None
    if len(text) > _MAX_DIGITS:
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def number_param(params: Mapping[str, Any], key: str, *, refuse: bool = False) -> int | None:
    """The number ``params[key]`` gives (a GET or POST QueryDict), None when it is
    absent or empty; a value that is not a number from 1 to MAX_ID is ignored (None),
    or, with ``refuse``, answered with 400 (BadRequest)."""
    text = params.get(key) or ""
    number = whole_number(text)
    if number is None and text and refuse:
        raise BadRequest(f"{key} must be a whole number from 1 to {MAX_ID}")
    return number


def text_param(params: Mapping[str, Any], key: str) -> str:
    """The text ``params[key]`` gives, without spaces around it ("" when absent); 400
    for a NUL, which no text the app stores or searches holds."""
    text = str(params.get(key) or "")
    if "\x00" in text:
        raise BadRequest(f"{key} holds a NUL character")
    return text.strip()


def printable_name(value: str) -> None:
    """A name without control characters (a tab, a line break) or broken Unicode."""
    if bounds.unprintable(value) is not None:
        raise forms.ValidationError(
            _("A name may not hold control characters such as tabs or line breaks."),
            code="unprintable",
        )


class NameField(forms.CharField):
    """A name as typed or pasted: spaces around it dropped, invisible formatting
    characters (bidirectional controls, zero-width characters, byte-order marks) removed,
    since nobody sees them but they reorder or disguise what is shown; control
    characters refused, with a message (Django's CharField refuses NUL already)."""

    default_validators = [printable_name]

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        return cleaned(value) if value else value
