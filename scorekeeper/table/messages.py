"""The engine's refusals in the player's language.

The engine raises ``HandError`` with a code and parameters; this maps each code
to a translatable sentence that says what to change.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from scorekeeper import engine
from scorekeeper.engine import bounds

WHO = {"knocker": gettext_lazy("knocker"), "defender": gettext_lazy("defender")}

MESSAGES = {
    "upcard_missing": gettext_lazy("Oklahoma rules need the upcard of every scored hand."),
    "gin_only": gettext_lazy("These rules allow only gin here: a knock needs 0 deadwood."),
    "over_limit": gettext_lazy(
        "A knock with %(deadwood)s deadwood is over the knock limit of %(limit)s."
    ),
    "big_gin_off": gettext_lazy("Big gin is not played under these rules."),
    "gin_with_deadwood": gettext_lazy(
        "A gin has no deadwood, but the knocker's deadwood is %(deadwood)s: enter it as a knock."
    ),
    "deadwood_missing": gettext_lazy("Enter the %(who)s's deadwood."),
    "deadwood_not_number": gettext_lazy("The %(who)s's deadwood must be a whole number."),
    "deadwood_negative": gettext_lazy("The %(who)s's deadwood cannot be negative."),
    "deadwood_impossible": gettext_lazy(
        "A deadwood of %(deadwood)s is impossible: ten cards hold at most %(highest)s."
    ),
    "game_closed": gettext_lazy("The partie is over: it takes no more hands."),
    "unknown_player": gettext_lazy("%(name)s is not a player of this partie."),
    "not_at_table": gettext_lazy(
        "%(name)s is not at the table: %(box)s (box) plays %(captain)s (captain)."
    ),
    "knocker_missing": gettext_lazy("Say who knocked, or choose no game."),
    "later_hand_refused": gettext_lazy("Hand %(number)s would then be refused: %(reason)s"),
    "evening_settled": gettext_lazy(
        "This partie belongs to the settled evening %(evening)s: its hands and rules stay as "
        "they were settled."
    ),
    "match_over": gettext_lazy("The match is over: it takes no more hands."),
    "round_expected": gettext_lazy("A partnership records rounds: one hand at each table."),
    "round_tables": gettext_lazy("A round has two tables, one hand at each."),
    "too_many_hands": gettext_lazy(
        "A partie holds at most %(most)s hands: start a new partie for the next one."
    ),
}


def explain(error: engine.HandError) -> str:
    """A translated sentence for an engine refusal (the English one if unknown)."""
    template = MESSAGES.get(error.code)
    if template is None:
        return str(error)
    params = dict(error.params)
    if "who" in params:
        params["who"] = WHO.get(params["who"], params["who"])
    if isinstance(params.get("reason"), engine.HandError):
        params["reason"] = explain(params["reason"])
    return str(template) % params if params else str(template)


# Why a stored partie cannot be scored any more (see models.Unscorable), and what mends it.
UNSCORABLE = {
    "hand": gettext_lazy(
        "Hand %(number)s is refused under the partie's rules: %(reason)s Correct or delete "
        "that hand, or change the rules."
    ),
    "money": gettext_lazy(
        "Its amounts cannot be computed under its rules (money unit %(unit)s, stake "
        "%(stake)s): change the rules to a money unit like 0.01 to repair it."
    ),
    "rules": gettext_lazy(
        "Its rules are no longer accepted (%(reason)s): change them to repair the partie."
    ),
    "other": gettext_lazy(
        "The scoring stopped with an error (%(reason)s): correct its hands or rules."
    ),
}


def explain_unscorable(error: Exception, partie, refused: int | None = None) -> str:
    """A translated sentence for a stored partie the engine cannot score: why, and what
    to change. ``refused`` is the number of the hand the engine refused, if one was."""
    if isinstance(error, engine.HandError):
        reason = explain(error)
        if refused is not None:
            return str(UNSCORABLE["hand"]) % {"number": refused, "reason": reason}
        return reason
    if isinstance(error, ArithmeticError):
        rules = partie.rules if isinstance(partie.rules, dict) else {}
        stake = format(partie.stake.normalize(), "f")
        params = {"unit": rules.get("money_unit", "0.01"), "stake": stake}
        return str(UNSCORABLE["money"]) % params
    if isinstance(error, engine.RulesError):
        return str(UNSCORABLE["rules"]) % {"reason": error}
    return str(UNSCORABLE["other"]) % {"reason": error}


# A record's text that is no JSON to read (engine/jsontext.py), by its code.
RECORD_TEXT = {
    "too_large": gettext_lazy(
        "The record is larger than %(megabytes)s MB: a partie holds at most %(hands)s hands."
    ),
    "not_utf8": gettext_lazy("The file is not UTF-8 text."),
    "broken": gettext_lazy(
        "broken JSON at line %(line)s column %(column)s: this is not a game record; check "
        "its brackets, commas and quotes."
    ),
    "too_deep": gettext_lazy(
        "The JSON nests deeper than %(depth)s levels: a game record never does."
    ),
    "number_too_long": gettext_lazy("The number %(number)s is too long for a game record."),
    "number_too_large": gettext_lazy("The number %(number)s is too large for a game record."),
    "not_a_number": gettext_lazy("%(number)s is not a number: JSON has no NaN or Infinity."),
    "nul": gettext_lazy("The record holds a NUL character (\\u0000): remove it."),
    "bad_unicode": gettext_lazy(
        "The record holds %(character)s, a broken character (a lone surrogate): remove it."
    ),
}


def record_text_message(code: str, **params: object) -> str:
    """Why a record's text cannot be read, translated (FORMAT.md; engine/jsontext.py)."""
    params = {
        "megabytes": bounds.MAX_RECORD_BYTES // 1_000_000,
        "hands": bounds.MAX_HANDS,
        "depth": bounds.MAX_JSON_DEPTH,
        **params,
    }
    template = RECORD_TEXT.get(code)
    return str(template) % params if template is not None else code
