"""The engine's refusals in the player's language.

The engine raises ``HandError`` with a code and parameters; this maps each code
to a translatable sentence that says what to change.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from scorekeeper import engine

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
