"""The engine's refusals in the player's language.

The engine raises ``HandError`` with a code and parameters; this maps each code
to a translatable sentence that says what to change.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from scorekeeper import engine, vocabulary
from scorekeeper.engine import bounds
from scorekeeper.engine.record import RecordError

WHO = {"knocker": gettext_lazy("knocker"), "defender": gettext_lazy("defender")}

MESSAGES = {
    "partie_ended": gettext_lazy(
        "This partie was ended before its target: its hands can no longer change."
    ),
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
    "game_confirmed": gettext_lazy(
        "This would change game %(game)s, whose result its players have confirmed: a "
        "confirmed game is locked until the club's owner unlocks it."
    ),
    "result_confirmed": gettext_lazy(
        "This would change a result its players have confirmed: a confirmed game is locked "
        "until the club's owner unlocks it."
    ),
    "match_over": gettext_lazy("The match is over: it takes no more hands."),
    "round_expected": gettext_lazy("A partnership records rounds: one hand at each table."),
    "round_tables": gettext_lazy("A round has two tables, one hand at each."),
    "too_many_hands": gettext_lazy(
        "A partie holds at most %(most)s hands: start a new partie for the next one."
    ),
    # What a record's hand can get wrong before it is scored (engine/record.py).
    "hand_not_object": gettext_lazy("A hand is a JSON object."),
    "flag_not_boolean": gettext_lazy("%(flag)s must be true or false."),
    "knocker_not_name": gettext_lazy("Give the knocker's name as text."),
    "cards_missing": gettext_lazy(
        'Give both players\' cards as lists of card codes, like "knocker_cards": ["7H", "8H", ...].'
    ),
    "melds_malformed": gettext_lazy("Give each of the knocker's melds as a list of card codes."),
    "not_big_gin": gettext_lazy("The hand says big gin, but the knocker's cards do not all meld."),
    "cards_disagree": gettext_lazy(
        "The hand gives a deadwood of %(given)s, but the cards give %(derived)s."
    ),
    "meld_not_in_hand": gettext_lazy(
        "A meld of the knocker's has %(card)s, which is not among his cards."
    ),
    "meld_overlap": gettext_lazy(
        "%(card)s is in two of the knocker's melds: a card belongs to one meld."
    ),
    "round_malformed": gettext_lazy(
        'A partnership hand is a round of two tables: {"tables": [HAND, HAND]}.'
    ),
    "hand_expected": gettext_lazy("This kind of partie records hands, not rounds."),
}

# A card code or cards that cannot be (engine.CardError, by its code).
CARDS = {
    "unknown_card": gettext_lazy(
        "%(token)s is not a card: give a rank of A23456789TJQK and a suit of SHDC, like 7S."
    ),
    "duplicate_card": gettext_lazy("%(card)s is given twice: each card of the deck appears once."),
    "card_count": gettext_lazy("%(count)s cards given: a hand here holds %(allowed)s cards."),
    "not_a_meld": gettext_lazy(
        "%(token)s is not a meld: a meld is a set of 3 or 4 cards of one rank, or a run of 3 "
        "or more cards in sequence in one suit."
    ),
}


def explain_card(error: engine.CardError) -> str:
    """A translated sentence for a card the engine refuses (the English one if unknown)."""
    template = CARDS.get(error.code)
    params = {"token": error.token, **error.params}
    if error.code == "card_count":
        params["allowed"] = " / ".join(str(n) for n in error.params.get("allowed", ()))
    if template is None or (error.code in ("unknown_card", "not_a_meld") and not error.token):
        return str(error)
    return str(template) % params


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


def explain_refusal(error: Exception) -> str:
    """A hand's refusal (HandError, or CardError for its cards), translated."""
    if isinstance(error, engine.HandError):
        cause = error.params.get("cause")  # a partnership table's card refused
        return explain_card(cause) if isinstance(cause, engine.CardError) else explain(error)
    if isinstance(error, engine.CardError):
        return explain_card(error)
    return str(error)


# Why a number is out of its bounds (engine/bounds.py, BoundsError by its code): the end
# of a sentence that names the number.
BOUNDS = {
    "not_whole": gettext_lazy("give a whole number."),
    "too_low": gettext_lazy("it must be at least %(low)s."),
    "too_high": gettext_lazy("it must be at most %(high)s."),
    "not_plain": gettext_lazy("give digits and a decimal point only (no sign, exponent or words)."),
    "not_finite": gettext_lazy("give a finite number."),
    "too_precise": gettext_lazy("it has more than %(places)s decimal places."),
}


def explain_bound(error: bounds.BoundsError) -> str:
    template = BOUNDS.get(error.code)
    return str(error.reason) if template is None else str(template) % error.params


# Rules a record or a stored partie gives that the engine refuses (RulesError, by code).
RULES = {
    "not_object": gettext_lazy(
        "The rules must be an object: a preset and the rules it changes, like "
        '{"preset": "classic", "gin_bonus": 25}.'
    ),
    "unknown_preset": gettext_lazy("%(value)s is not a preset: choose one of %(presets)s."),
    "unknown_parameter": gettext_lazy("There is no rule %(name)s: remove it, or correct its name."),
    "not_choice": gettext_lazy("%(rule)s cannot be %(value)s: choose one of %(options)s."),
    "not_boolean": gettext_lazy("%(rule)s must be true or false, not %(value)s."),
    "money_unit": gettext_lazy(
        "The money unit %(value)s is not a decimal from %(low)s to %(high)s like 0.01: %(bound)s"
    ),
    "bounds": gettext_lazy("%(rule)s cannot be %(value)s: %(bound)s"),
    "best_of_even": gettext_lazy(
        "%(rule)s must be odd so that a match has a winner, not %(value)s."
    ),
}


def explain_rules(error: engine.RulesError) -> str:
    """A translated sentence for rules the engine refuses (the English one if unknown)."""
    template = RULES.get(getattr(error, "code", ""))
    if template is None:
        return str(error)
    params = dict(error.params)
    if params.get("name") in engine.PARAMETERS:
        params["rule"] = vocabulary.rule_label(params["name"])
    if isinstance(params.get("bound"), bounds.BoundsError):
        params["bound"] = explain_bound(params["bound"])
    return str(template) % params


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
        # The reason stands in brackets inside the sentence: without its full stop.
        return str(UNSCORABLE["rules"]) % {"reason": explain_rules(error).rstrip(".")}
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


# A record's problems (engine/record.py RecordError.problems), by their code.
RECORD = {
    "not_object": gettext_lazy(
        "A game record is a JSON object with kind, rules, players and hands."
    ),
    "unknown_format": gettext_lazy(
        "The format %(value)s is unknown: a game record here has the format %(expected)s."
    ),
    "unknown_kind": gettext_lazy("The kind %(value)s is unknown: choose one of %(kinds)s."),
    "rules": gettext_lazy("Rules: %(reason)s"),
    "name_empty": gettext_lazy("Players: %(name)s is not a name: give text that is not empty."),
    "name_too_long": gettext_lazy(
        "Players: the name %(name)s is longer than %(longest)s characters."
    ),
    "name_spaces": gettext_lazy(
        "Players: the name %(name)s begins or ends with a space: remove it."
    ),
    "name_surrogate": gettext_lazy(
        "Players: the name %(name)s holds a broken character (a lone surrogate): remove it."
    ),
    "name_control": gettext_lazy(
        "Players: the name %(name)s holds a control character: remove it."
    ),
    "name_invisible": gettext_lazy(
        "Players: the name %(name)s holds an invisible formatting character (a direction "
        "mark or a zero-width space): remove it."
    ),
    "players": gettext_lazy("Players: give the players as a list of different names."),
    "players_count": gettext_lazy(
        "Players: a record of the kind %(kind)s names %(fewest)s different players."
    ),
    "players_count_range": gettext_lazy(
        "Players: a record of the kind %(kind)s names %(fewest)s to %(most)s different players."
    ),
    "first_dealer": gettext_lazy("The first dealer %(value)s is not one of the players."),
    "stake": gettext_lazy(
        "The stake %(value)s is not a money amount per point like 0.05: %(bound)s"
    ),
    "player_stake": gettext_lazy(
        "The stake of %(player)s, %(value)s, is not a money amount per point like 0.05: %(bound)s"
    ),
    "stakes_kind": gettext_lazy("A stake per player is for a chouette: give one stake."),
    "stakes_not_object": gettext_lazy(
        'Stakes: give each player\'s stake per point, like {"Y": "0.10"}.'
    ),
    "stakes_player": gettext_lazy("Stakes: %(value)s is not one of the players."),
    "hands_not_list": gettext_lazy("Hands: give the hands as a list."),
    "too_many_hands": gettext_lazy(
        "Hands: a partie holds at most %(most)s hands, and this record has %(count)s."
    ),
    "hand": gettext_lazy("Hand %(number)s: %(reason)s"),
    "table_hand": gettext_lazy("Hand %(number)s, table %(table)s: %(reason)s"),
}


def explain_problem(code: str, params: dict, line: str) -> str:
    """One problem of a record in the reader's language; ``line``, the engine's English
    line, where its code is unknown."""
    params = dict(params)
    if code == "rules" and isinstance(params.get("error"), engine.RulesError):
        params["reason"] = explain_rules(params["error"])
    elif code == "hand":
        params["reason"] = explain_refusal(params.get("error"))
        if params.get("table") is not None:
            code = "table_hand"
    elif code == "setup":  # the session refused its players or first dealer
        error = params.get("error")
        return explain(error) if isinstance(error, engine.HandError) else line
    elif code == "players_count":
        params["kind"] = vocabulary.kind_name(params["kind"])
        if params["fewest"] != params["most"]:
            code = "players_count_range"
    elif code == "stake" and params.get("player") is not None:
        code = "player_stake"
    elif code == "unknown_kind":
        params["kinds"] = ", ".join(params["kinds"])
    if isinstance(params.get("bound"), bounds.BoundsError):
        params["bound"] = explain_bound(params["bound"])
    template = RECORD.get(code)
    return line if template is None else str(template) % params


def explain_record(error: RecordError) -> list[str]:
    """A record's refusal, one sentence per problem, in the reader's language: the text
    that is no JSON by its code, each problem by its own (the English line where a code
    is unknown)."""
    if error.code is not None:
        return [record_text_message(error.code, **error.params)]
    return [
        explain_problem(code, params, line)
        for line, (code, params) in zip(error.errors, error.problems, strict=True)
    ]
