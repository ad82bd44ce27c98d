"""The ruleset: every amount and choice of RULES.md §8, and the named presets.

A ruleset is fixed when a game starts and is stored with it, so a preset can
change later without touching a game already played.

>>> classic = preset("classic")
>>> classic.gin_bonus, classic.undercut_bonus, classic.box_bonus, classic.target
(20, 10, 20, 100)
>>> preset("modern").shutout
<Shutout.DOUBLE_TOTAL: 'double_total'>
>>> preset("oklahoma").is_oklahoma
True
>>> preset("classic", gin_bonus=25).changes_from_preset()
{'gin_bonus': 25}
>>> preset("classic", gin_bonus="lots")
Traceback (most recent call last):
...
scorekeeper.engine.rules.RulesError: gin_bonus must be a whole number, not 'lots'
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .bounds import MAX_MONEY_UNIT, MIN_MONEY_UNIT, BoundsError, check_integer, check_money, shorten

UPCARD = "upcard"  # knock_limit value: the upcard sets the limit (Oklahoma)


class RulesError(ValueError):
    """An unknown preset or parameter, or a value a parameter cannot take.

    ``code`` and ``params`` let a user interface word the message in its own language
    (``messages.explain_rules``); ``str()`` gives the English sentence."""

    def __init__(self, message: str, code: str = "", **params: Any):
        super().__init__(message)
        self.code, self.params = code, params


class Shutout(enum.StrEnum):
    BONUS = "bonus"
    DOUBLE_TOTAL = "double_total"
    DOUBLE_HANDS = "double_hands"
    NONE = "none"


class DealerRule(enum.StrEnum):
    LOSER = "loser"
    WINNER = "winner"
    ALTERNATE = "alternate"


class SpadeDouble(enum.StrEnum):
    OFF = "off"
    POINTS = "points"
    POINTS_AND_BOXES = "points_and_boxes"


class OklahomaAce(enum.StrEnum):
    GIN_ONLY = "gin_only"
    ONE = "one"


@dataclass(frozen=True)
class Ruleset:
    preset: str = "classic"
    knock_limit: int | str = 10  # or UPCARD
    undercut_bonus: int = 10
    tie_is_undercut: bool = True
    gin_bonus: int = 20
    big_gin_bonus: int | None = None  # None: big gin is not played
    box_bonus: int = 20
    game_bonus: int = 100
    target: int = 100
    shutout: Shutout = Shutout.BONUS
    shutout_bonus: int = 100
    dealer_rule: DealerRule = DealerRule.LOSER
    spade_double: SpadeDouble = SpadeDouble.OFF
    oklahoma_ace: OklahomaAce = OklahomaAce.GIN_ONLY
    extra_boxes_gin: int = 0
    extra_boxes_undercut: int = 0
    round_the_corner: bool = False
    hollywood_game3_double: bool = False
    best_of: int = 5
    money_unit: Decimal = Decimal("0.01")

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            if field.name != "preset":
                object.__setattr__(self, field.name, _clean(field.name, getattr(self, field.name)))
        # A preset read from JSON may be a list or object, which cannot be a dict key.
        if not isinstance(self.preset, str) or self.preset not in PRESETS_VALUES:
            raise RulesError(
                f"unknown preset {shorten(self.preset)}: choose one of {', '.join(PRESETS_VALUES)}",
                "unknown_preset",
                value=shorten(self.preset),
                presets=", ".join(PRESETS_VALUES),
            )

    @property
    def is_oklahoma(self) -> bool:
        return self.knock_limit == UPCARD

    def replace(self, **changes: Any) -> Ruleset:
        unknown = sorted(set(changes) - set(PARAMETERS) - {"preset"})
        if unknown:
            raise _unknown_parameter(unknown[0])
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready values, keyed by the parameter names of RULES.md §8."""
        return {name: _plain(getattr(self, name)) for name in ("preset", *PARAMETERS)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """A preset name (classic when absent) plus any parameter overrides."""
        if not isinstance(data, dict):
            raise RulesError(
                "rules must be an object with a preset and parameter overrides", "not_object"
            )
        overrides = dict(data)
        return preset(overrides.pop("preset", "classic"), **overrides)

    def changes_from_preset(self) -> dict[str, Any]:
        """The parameters whose values differ from the ruleset's preset."""
        base = preset(self.preset).to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}


PARAMETERS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Ruleset) if f.name != "preset"
)

_CHOICES: dict[str, type[enum.StrEnum]] = {
    "shutout": Shutout,
    "dealer_rule": DealerRule,
    "spade_double": SpadeDouble,
    "oklahoma_ace": OklahomaAce,
}
_BOOLEANS = {"tie_is_undercut", "round_the_corner", "hollywood_game3_double"}
_OPTIONAL = {"big_gin_bonus"}  # None or "off" turns the rule off


def _clean(name: str, value: Any) -> Any:
    """Check one parameter value and bring it to its engine type."""
    if name in _CHOICES:
        try:
            return _CHOICES[name](value)
        except ValueError:
            options = ", ".join(c.value for c in _CHOICES[name])
            raise RulesError(
                f"{name} must be one of {options}, not {shorten(value)}",
                "not_choice",
                name=name,
                options=options,
                value=shorten(value),
            ) from None
    if name in _BOOLEANS:
        if not isinstance(value, bool):
            raise RulesError(
                f"{name} must be true or false, not {shorten(value)}",
                "not_boolean",
                name=name,
                value=shorten(value),
            )
        return value
    # Every number within the bounds of engine/bounds.py, so that what a partie comes to
    # can be computed, stored and settled.
    if name == "money_unit":
        try:
            return check_money(name, value, MIN_MONEY_UNIT, MAX_MONEY_UNIT)
        except BoundsError as error:
            raise RulesError(
                f"money_unit must be a positive decimal like 0.01, not {shorten(value)}: "
                f"{error.reason} (from {MIN_MONEY_UNIT} to {MAX_MONEY_UNIT})",
                "money_unit",
                name=name,
                value=shorten(value),
                low=MIN_MONEY_UNIT,
                high=MAX_MONEY_UNIT,
                bound=error,
            ) from None
    try:
        if name == "knock_limit" and value == UPCARD:
            return value
        if name in _OPTIONAL and value in (None, "off", False):
            return None
        value = check_integer(name, value)
    except BoundsError as error:
        raise RulesError(
            str(error), "bounds", name=name, value=shorten(value), bound=error
        ) from None
    if name == "best_of" and value % 2 == 0:
        raise RulesError(
            f"best_of must be odd so that a match has a winner, not {value}",
            "best_of_even",
            name=name,
            value=value,
        )
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    return value


_MODERN = dict(
    undercut_bonus=25,
    gin_bonus=25,
    big_gin_bonus=31,
    box_bonus=25,
    shutout=Shutout.DOUBLE_TOTAL,
    dealer_rule=DealerRule.WINNER,
)
PRESETS_VALUES: dict[str, dict[str, Any]] = {
    "classic": {},
    "modern": _MODERN,
    "oklahoma": _MODERN | dict(knock_limit=UPCARD, target=150, spade_double=SpadeDouble.POINTS),
    "straight": dict(knock_limit=0),
    "hollywood": {},
    "partnership": dict(target=125),
    "round_the_corner": dict(
        undercut_bonus=20, gin_bonus=20, box_bonus=20, target=125, round_the_corner=True
    ),
}
PRESETS: tuple[str, ...] = tuple(PRESETS_VALUES)


def preset(name: str = "classic", **overrides: Any) -> Ruleset:
    """The ruleset of a named preset, with any parameter overridden."""
    if not isinstance(name, str) or name not in PRESETS_VALUES:
        raise RulesError(
            f"unknown preset {shorten(name)}: choose one of {', '.join(PRESETS)}",
            "unknown_preset",
            value=shorten(name),
            presets=", ".join(PRESETS),
        )
    unknown = sorted(set(overrides) - set(PARAMETERS))
    if unknown:
        raise _unknown_parameter(unknown[0])
    return Ruleset(preset=name, **(PRESETS_VALUES[name] | overrides))


def _unknown_parameter(name: Any) -> RulesError:
    """A parameter RULES.md §8 does not have (refused: RULES.md §10, decision 13)."""
    return RulesError(
        f"unknown rule parameter {shorten(name)}", "unknown_parameter", name=shorten(name)
    )
