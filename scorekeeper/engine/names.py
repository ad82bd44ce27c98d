"""A name typed at the table, against the club's roster: the names it may be a slip for.

Two names are near when they are one name but for case and accents ("ben", "Bén" and
"Ben"), or when one letter is added, dropped or changed ("Bem", "Benn", "Be"): an edit
distance of 1 once case and accents are set aside. The form then asks, rather than
entering a second player for one person.

>>> near_names("ben", ["Anna", "Bea", "Ben", "Carl"])
('Ben',)
>>> near_names("Zoe", ["Anna", "Ben", "Zoé"])
('Zoé',)
>>> near_names("Bem", ["Ben", "Bea", "Anna"])
('Bea', 'Ben')
>>> near_names("Ben", ["Ben", "Bea"])
()
>>> near_names("Dora", ["Anna", "Ben"])
()
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MOST_SUGGESTIONS = 3  # offered for one name: more would be a list to read, not a question


def name_key(name: str) -> str:
    """The name without case, accents or repeated spaces: what "the same name" compares.

    >>> name_key("  Jürgen  Weiß ")
    'jurgen weiss'
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.split())


def is_one_edit(one: str, other: str) -> bool:
    """Whether ``other`` is ``one`` with a letter added, dropped or changed (not equal).

    >>> [is_one_edit("ben", x) for x in ("bem", "benn", "be", "bean", "ben", "bne", "bonn")]
    [True, True, True, True, False, False, False]
    """
    if one == other or abs(len(one) - len(other)) > 1:
        return False
    if len(one) > len(other):
        one, other = other, one
    # one is the shorter (or of the same length): skip the first difference, then equal
    for i, (a, b) in enumerate(zip(one, other, strict=False)):
        if a != b:
            rest = i if len(one) < len(other) else i + 1
            return one[rest:] == other[i + 1 :]
    return True  # one is other less its last letter


def is_near(typed: str, name: str) -> bool:
    """Whether ``typed`` may be a slip for ``name``: the same but for case and accents,
    or one letter apart. An identical name is not near: it is that name."""
    if typed == name:
        return False
    typed_key, key = name_key(typed), name_key(name)
    return typed_key == key or is_one_edit(typed_key, key)


def near_names(typed: str, roster: Iterable[str]) -> tuple[str, ...]:
    """The roster's names that ``typed`` may be a slip for, by name: those that are the
    same but for case and accents where there are any (then a name one letter away is
    another person), else those one letter apart; none where the roster holds ``typed``
    as it is written.

    >>> near_names("bea", ["Ben", "Bea", "BEA"])
    ('BEA', 'Bea')
    """
    names = list(roster)
    if typed in names:
        return ()
    typed_key = name_key(typed)
    same = [name for name in names if name_key(name) == typed_key]
    near = same or [name for name in names if is_one_edit(typed_key, name_key(name))]
    return tuple(sorted(near, key=lambda name: (name_key(name), name))[:MOST_SUGGESTIONS])


def is_same_name(typed: str, name: str) -> bool:
    """Whether the two differ in case alone: a club cannot hold both ("anna" beside
    "Anna" would be one person twice).

    >>> is_same_name("ben", "Ben"), is_same_name("Zoe", "Zoé")
    (True, False)
    """
    return typed.casefold() == name.casefold()
