"""The bounds of every number and name a player or a record may give, defined once.

The forms, the import, the engine's rules and the commands all read them here, and
they are chosen so that whatever they accept can be stored and settled: the largest
stake times the most a player can win in a partie, times the parties of an evening,
fits the money columns of the database (``tests/table/test_bounds.py`` checks the
columns against ``largest_evening_amount()``).

>>> check_integer("target", 150)
150
>>> check_integer("game_bonus", 10**15)
Traceback (most recent call last):
...
scorekeeper.engine.bounds.BoundsError: game_bonus must be between 0 and 1000, not 1000000000000000
>>> check_money("stake", "0.05")
Decimal('0.05')
>>> check_money("stake", "1e3")
Traceback (most recent call last):
...
scorekeeper.engine.bounds.BoundsError: stake: '1e3' is not a plain decimal number like "0.05"
>>> name_problem("Anna"), name_problem("A" * 61)
(None, 'is longer than 60 characters')
"""

from __future__ import annotations

import math
import re
import reprlib
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from .names import visible


class BoundsError(ValueError):
    """A value outside its bounds, or not of its kind; the message says which.

    ``reason`` is the bound alone (``"at most 100"``), for a caller that words the
    message its own way; ``code`` (``not_whole``, ``too_low``, ``too_high``,
    ``not_plain``, ``not_finite``, ``too_precise``) and ``params`` let a user interface
    word it in its own language."""

    def __init__(self, message: str, reason: str = "", code: str = "", **params: Any):
        super().__init__(message)
        self.reason = reason or message
        self.code, self.params = code, params


# Money: a stake per point and the unit money is rounded to. Four decimal places, as
# the database stores them (Partie.stake, Seat.stake, the payments).
MONEY_PLACES = 4
MONEY_QUANTUM = Decimal(1).scaleb(-MONEY_PLACES)  # 0.0001
MAX_STAKE = Decimal(100)
MIN_MONEY_UNIT = MONEY_QUANTUM
MAX_MONEY_UNIT = Decimal(100)

# Deadwood: ten unmelded cards hold at most 98 points (two each of T, J, Q, K and 9,
# suited so that no run forms); with round-the-corner aces at 15, at most 110.
MAX_DEADWOOD = 98
MAX_DEADWOOD_ROUND_THE_CORNER = 110
MAX_KNOCK_LIMIT = 10

# Every whole-number rule parameter of RULES.md §8: (lowest, highest). The highest are
# far above any rules played (a box of 25, a game bonus of 100) and low enough that
# the money of a partie fits the database (largest_partie_points below).
RULE_INTEGERS: dict[str, tuple[int, int]] = {
    "knock_limit": (0, MAX_KNOCK_LIMIT),
    "undercut_bonus": (0, 100),
    "gin_bonus": (0, 100),
    "big_gin_bonus": (0, 100),
    "box_bonus": (0, 100),
    "game_bonus": (0, 1000),
    "shutout_bonus": (0, 1000),
    "target": (1, 1000),
    "extra_boxes_gin": (0, 5),
    "extra_boxes_undercut": (0, 5),
    "best_of": (1, 21),
}

# Names of players (Player.name), evenings and titles.
MAX_NAME_LENGTH = 60
MAX_TITLE_LENGTH = 200  # a score sheet's title (manage.py sheet --title)

# Sizes: entries (hands, or a partnership's rounds) of one partie, parties of one
# evening, and the bytes of what is read.
MAX_HANDS = 500
# As many as EveningPayment.amount holds at the largest stake (largest_evening_amount:
# 9.9e10 of 1e11): a league night of 26 players, three rounds, is one evening.
MAX_PARTIES_PER_EVENING = 39
MAX_RECORD_BYTES = 1_000_000  # a game record: import, tally, sheet
MAX_SEASON_BYTES = 20_000_000  # a season document: standings
MAX_LINE_BYTES = 100_000  # one line of evaluate --jsonl
MAX_CARDS_TEXT = 1_000  # the cards of one hand as typed
MAX_JSON_DEPTH = 32  # a record nests 6 deep (record, hands, round, tables, hand, cards)
MAX_NUMBER_DIGITS = 40  # a JSON number's literal; nothing here needs more

# A tournament (FORMAT.md, "Tournament"): its players, a Swiss's rounds, the results
# of its document (every match of the largest, with corrections).
MAX_TOURNAMENT_PLAYERS = 256
MAX_SWISS_ROUNDS = 24
MAX_TOURNAMENT_RESULTS = 10_000

# A league season (FORMAT.md, "Season").
# A season's points for a win, a shutout win, a loss (RULES.md §11): a loss may cost points.
LEAGUE_POINTS = (-99, 99)
MAX_MIN_GAMES = 10_000
# A season's dates: from the first day of SEASON_YEARS[0] to the last of SEASON_YEARS[1],
# at most MAX_SEASON_DAYS long (five years). A season ending in 9999 stopped its club:
# the day after it, which the ratings, the next season and the pages work out, is no date.
SEASON_YEARS = (2000, 2100)
MAX_SEASON_DAYS = 5 * 366


def check_integer(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """A whole number within the bounds of ``name`` (a rule parameter) or the ones given.

    Booleans, floats and numeric text are refused: a record gives JSON numbers.
    """
    if low is None or high is None:
        low, high = RULE_INTEGERS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoundsError(
            f"{name} must be a whole number, not {shorten(value)}", "a whole number", "not_whole"
        )
    if value < low:
        raise BoundsError(
            f"{name} must be at least {low}, not {value}", f"at least {low}", "too_low", low=low
        )
    if value > high:
        raise BoundsError(
            f"{name} must be between {low} and {high}, not {shorten(value)}",
            f"at most {high}",
            "too_high",
            low=low,
            high=high,
        )
    return value


_PLAIN_DECIMAL = re.compile(r"[0-9]{1,20}(\.[0-9]{1,20})?|\.[0-9]{1,20}")


def check_money(
    name: str,
    value: Any,
    low: Decimal = Decimal(0),
    high: Decimal = MAX_STAKE,
) -> Decimal:
    """An amount of money: a plain decimal string (``"0.05"``) or a JSON number, with
    at most four decimal places, within ``low`` and ``high``.

    Exponents (``"1e3"``), signs, infinities and text are refused.

    >>> check_money("money_unit", 0.25, MIN_MONEY_UNIT, MAX_MONEY_UNIT)
    Decimal('0.25')
    >>> check_money("stake", "0.00001")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.bounds.BoundsError: stake: '0.00001' has more than 4 decimal places
    """
    if isinstance(value, bool):
        amount = None
    elif isinstance(value, Decimal | int | float):
        amount = _decimal(value)
    elif isinstance(value, str) and _PLAIN_DECIMAL.fullmatch(value):
        amount = Decimal(value)
    else:
        raise BoundsError(
            f'{name}: {shorten(value)} is not a plain decimal number like "0.05"',
            "digits and a decimal point only (no sign, exponent or words)",
            "not_plain",
        )
    if amount is None:
        raise BoundsError(
            f'{name}: {shorten(value)} is not a money amount like "0.05"',
            "a finite number",
            "not_finite",
        )
    if amount < low:
        raise BoundsError(
            f"{name} must be at least {low}, not {shorten(value)}",
            f"at least {low}",
            "too_low",
            low=low,
        )
    if amount > high:
        raise BoundsError(
            f"{name} must be at most {high}, not {shorten(value)}",
            f"at most {high}",
            "too_high",
            low=low,
            high=high,
        )
    if amount != amount.quantize(MONEY_QUANTUM):
        reason = f"at most {MONEY_PLACES} decimal places"
        raise BoundsError(
            f"{name}: {shorten(value)} has more than {MONEY_PLACES} decimal places",
            reason,
            "too_precise",
            places=MONEY_PLACES,
        )
    return amount


def _decimal(value: Decimal | int | float) -> Decimal | None:
    """The exact decimal of a number; None for an infinity or NaN."""
    try:
        # str() of a float is its shortest form: 0.05, not 0.05000000000000000277.
        amount = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except (InvalidOperation, ValueError):
        return None
    return amount if amount.is_finite() else None


def season_dates_trouble(starts: date, ends: date) -> str | None:
    """What is wrong with a season's dates (a key of SEASON_TROUBLES); None when they
    are fine.

    >>> season_dates_trouble(date(2026, 1, 1), date(2026, 12, 31)) is None
    True
    >>> season_dates_trouble(date(2026, 1, 1), date(9999, 12, 31))
    'season_out_of_range'
    >>> season_dates_trouble(date(2026, 1, 1), date(2025, 12, 31))
    'season_backwards'
    """
    first, last = SEASON_YEARS
    if not (date(first, 1, 1) <= starts and ends <= date(last, 12, 31)):
        return "season_out_of_range"
    if ends < starts:
        return "season_backwards"
    if (ends - starts).days + 1 > MAX_SEASON_DAYS:
        return "season_too_long"
    return None


# What season_dates_trouble finds, in English (a form words the codes its own way).
SEASON_TROUBLES = {
    "season_out_of_range": "a season's days lie in the years {} to {}".format(*SEASON_YEARS),
    "season_backwards": "the last day comes before the first",
    "season_too_long": f"a season lasts at most {MAX_SEASON_DAYS} days",
}


def name_problem(name: Any, longest: int = MAX_NAME_LENGTH) -> str | None:
    """What is wrong with a name, in English, to follow the name in a message; None when
    it can be stored and shown.

    A name is text of 1 to ``longest`` characters, without spaces around it, control
    characters (NUL included) or lone surrogates (which no text encoding can write).

    >>> name_problem("Anna"), name_problem(" Anna"), name_problem("An\\x00na")
    (None, 'begins or ends with a space: remove it', 'holds a control character: remove it')
    """
    trouble = name_trouble(name, longest)
    return None if trouble is None else NAME_TROUBLES[trouble] % {"longest": longest}


# What name_trouble finds, in English (a user interface words the codes its own way).
NAME_TROUBLES = {
    "name_empty": "is not a name: give text that is not empty",
    "name_too_long": "is longer than %(longest)s characters",
    "name_spaces": "begins or ends with a space: remove it",
    "name_surrogate": "holds a lone surrogate (broken Unicode): remove it",
    "name_control": "holds a control character: remove it",
    "name_invisible": "holds an invisible formatting character (a direction mark or a "
    "zero-width space): remove it",
}


def name_trouble(name: Any, longest: int = MAX_NAME_LENGTH) -> str | None:
    """The code of what is wrong with a name (a key of NAME_TROUBLES); None when it can
    be stored and shown.

    >>> name_trouble("Anna"), name_trouble("A" * 61), name_trouble("")
    (None, 'name_too_long', 'name_empty')
    >>> name_trouble("\u202eAnna")  # a right-to-left override
    'name_invisible'
    """
    if not isinstance(name, str) or not name.strip():
        return "name_empty"
    if len(name) > longest:
        return "name_too_long"
    if name != name.strip():
        return "name_spaces"
    char = unprintable(name)
    if char is None:
        # A form removes them from what is typed (names.visible); a record is refused.
        return "name_invisible" if visible(name) != name else None
    if unicodedata.category(char) == "Cs":
        return "name_surrogate"
    return "name_control"


def unprintable(text: str) -> str | None:
    """The first control character (NUL, tab, line break...) or lone surrogate of a
    text, which no name should hold; None when there is none.

    >>> unprintable("Zoë ♠"), unprintable("A" + chr(9) + "B")
    (None, '\\t')
    """
    if text.isprintable():  # the common case, at C speed
        return None
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs"):
            return char
    return None


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict = 3, 6, 4
_REPR.maxstring = _REPR.maxother = 40


def shorten(value: Any) -> str:
    """A value as a message quotes it: its repr, cut short and never nested deep, so
    that a message stays short whatever a record holds.

    >>> shorten("x" * 100)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> shorten(["classic"]), shorten(0.05), shorten(10**5000)
    ("['classic']", '0.05', 'a number of 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        # repr() of an int of more than 4,300 digits raises ValueError.
        return f"a number of {math.floor(math.log10(abs(value))) + 1} digits"
    return _REPR.repr(value)


# What the bounds allow at most, worked out from them. Money per partie and per evening
# must fit the database columns; tests/table/test_bounds.py compares.

# The most points one hand scores (a gin against the most deadwood, doubled by a
# spade upcard) and the most boxes it earns (gin boxes, doubled by points_and_boxes).
_MOST_HAND_BONUS = max(RULE_INTEGERS[name][1] for name in ("gin_bonus", "big_gin_bonus"))
MAX_HAND_POINTS = 2 * (MAX_DEADWOOD_ROUND_THE_CORNER + _MOST_HAND_BONUS)
MAX_HAND_BOXES = 2 * (1 + max(RULE_INTEGERS[f"extra_boxes_{n}"][1] for n in ("gin", "undercut")))
# The most settlement lines one player's hand counts in: a chouette's box against
# seven members (Hollywood: three games at once, game 3 doubled, counts as four;
# a partnership round: two tables).
MOST_LINES_PER_HAND = 7


def largest_line_points() -> int:
    """The most points one settlement line of one game can carry: every hand of the
    partie in that game, at both tables, each with its boxes; the end bonuses; doubled
    by a shutout, doubled again as Hollywood's game 3.

    >>> largest_line_points()
    6488000
    """
    box = RULE_INTEGERS["box_bonus"][1]
    per_entry = 2 * (MAX_HAND_POINTS + MAX_HAND_BOXES * box)
    end = RULE_INTEGERS["game_bonus"][1] + RULE_INTEGERS["shutout_bonus"][1]
    return 2 * 2 * (per_entry * MAX_HANDS + end)


def largest_partie_points() -> int:
    """The most points a player can win in one partie, over all its games and lines:
    every hand scored in up to seven lines, each game's end bonuses, doubled.

    >>> largest_partie_points()
    25340000
    """
    box = RULE_INTEGERS["box_bonus"][1]
    per_hand = MAX_HAND_POINTS + MAX_HAND_BOXES * box
    end = RULE_INTEGERS["game_bonus"][1] + RULE_INTEGERS["shutout_bonus"][1]
    # A game needs a hand, so there are at most as many games' end bonuses as hands.
    return MOST_LINES_PER_HAND * 2 * (per_hand + end) * MAX_HANDS


def largest_partie_amount() -> Decimal:
    """The most money a player can win in one partie: at the largest stake, plus what
    rounding each line to the largest money unit may add.

    >>> largest_partie_amount()
    Decimal('2534175000')
    """
    lines = MOST_LINES_PER_HAND * MAX_HANDS
    return largest_partie_points() * MAX_STAKE + lines * MAX_MONEY_UNIT / 2


def largest_evening_amount() -> Decimal:
    """The most one transfer of an evening's settle-up can be, debts carried in from
    earlier evenings aside: what a player wins in every partie of the evening.

    >>> largest_evening_amount()
    Decimal('98832825000')
    """
    return largest_partie_amount() * MAX_PARTIES_PER_EVENING
