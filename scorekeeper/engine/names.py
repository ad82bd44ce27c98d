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

A name that only looks like one of the roster's, written with letters of another script
(a Cyrillic "А" for the Latin "A"), is that name: the form asks which player is meant
and offers no new one (``looks_same``). Invisible characters that could make two names
look alike, or reorder what is shown around a name, are removed first (``visible``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

# Characters nobody sees that change how a name is shown or compared: the bidirectional
# controls (a right-to-left override turns "Anna" round on the page, and the text after
# it), zero-width spaces and joiners, the word joiner, the byte-order mark, the soft
# hyphen and the invisible operators. A name loses them (``visible``).
INVISIBLE = frozenset(
    "\u00ad\u061c\u180e\u200b\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Except between two letters, where scripts need them: ZWNJ in Persian (می‌خواهم), ZWJ
# in Indic scripts and in emoji sequences (a family, a flag).
JOINERS = frozenset("\u200c\u200d")


def visible(text: str) -> str:
    """The text without invisible formatting characters (``INVISIBLE``), and without
    a zero-width joiner or non-joiner that does not stand between two letters (or
    marks, or symbols such as emoji): what a name is made of once typed or pasted.

    >>> visible("\u202eAnna"), visible("An\u200bna\ufeff"), visible("\u200dBen\u200c")
    ('Anna', 'Anna', 'Ben')
    >>> persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # ZWNJ inside a word
    >>> visible(persian) == persian
    True
    """
    if text.isascii():  # the common case: nothing to remove
        return text
    kept = [char for char in text if char not in INVISIBLE]
    return "".join(
        char
        for i, char in enumerate(kept)
        if char not in JOINERS or (_joins(kept, i - 1) and _joins(kept, i + 1))
    )


def cleaned(name: str) -> str:
    """A name as it is stored, however it came (a form, the admin, a script): without
    its invisible characters (``visible``) and the spaces around it.

    >>> cleaned("  \u2066Anna\u2069 ")
    'Anna'
    """
    return visible(name).strip()


def _joins(chars: list[str], i: int) -> bool:
    """Whether chars[i] is a letter, a mark or a symbol a joiner may stand beside."""
    return 0 <= i < len(chars) and unicodedata.category(chars[i])[0] in "LMS"


MOST_SUGGESTIONS = 3  # offered for one name: more would be a list to read, not a question


def name_key(name: str) -> str:
    """The name without case, accents or repeated spaces: what "the same name" compares.

    >>> name_key("  Jürgen  Weiß ")
    'jurgen weiss'
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.split())


def skeleton(name: str) -> str:
    """What the name looks like, whatever script its letters come from: each character
    (case folded, decomposed) replaced by the one Unicode's confusables data gives it the
    same look as. Two names of one skeleton cannot be told apart on a phone's screen.

    >>> skeleton("Anna") == skeleton("\u0410nna")  # a Cyrillic А
    True
    >>> skeleton("Zoe") == skeleton("Zoé"), skeleton("Ben") == skeleton("Bea")
    (False, False)
    """
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", visible(name).casefold())
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables data (the ``confusable-homoglyphs``
    package ships it) to the one that stands for all characters it looks like: the
    lowest of its group. Loaded once, when first needed (a tenth of a second)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    # The data lists, for a character, those it may be taken for; a group is closed
    # under that (union-find). Sequences ("rn" for "m") are left out: one character
    # stands for one character, so a skeleton is as long as its name.
    for char, lookalikes in confusables_data.items():
        for lookalike in lookalikes:
            if len(lookalike["c"]) == 1:
                one, other = sorted((root(char), root(lookalike["c"])))
                if one != other:
                    parent[other] = one
    return {char: root(char) for char in parent if root(char) != char}


def looks_same(typed: str, name: str) -> bool:
    """Whether the two names are one name to the eye: the same but for case, or letters
    of another script that look the same. A club cannot hold both.

    >>> looks_same("anna", "Anna"), looks_same("\u0410nna", "Anna"), looks_same("Zoe", "Zoé")
    (True, True, False)
    """
    return is_same_name(typed, name) or skeleton(typed) == skeleton(name)


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
    >>> near_names("\u0410nn\u0430", ["Anna", "Ann"])  # Cyrillic А and а: Anna to the eye
    ('Anna',)
    """
    names = list(roster)
    if typed in names:
        return ()
    typed_key, typed_look = name_key(typed), skeleton(typed)
    same = [name for name in names if name_key(name) == typed_key or skeleton(name) == typed_look]
    near = same or [name for name in names if is_one_edit(typed_key, name_key(name))]
    return tuple(sorted(near, key=lambda name: (name_key(name), name))[:MOST_SUGGESTIONS])


def is_same_name(typed: str, name: str) -> bool:
    """Whether the two differ in case alone: a club cannot hold both ("anna" beside
    "Anna" would be one person twice).

    >>> is_same_name("ben", "Ben"), is_same_name("Zoe", "Zoé")
    (True, False)
    """
    return typed.casefold() == name.casefold()
