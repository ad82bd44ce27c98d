"""The scoring and card engine of Scorekeeper: pure Python, no Django.

Value types and pure functions for the rules of RULES.md: cards, rulesets and
presets, one hand, a game to the target with its end bonuses and money, the
kinds of session (two-player, Hollywood, match, partnership) behind one
interface, and the game record format of FORMAT.md.
"""

from .cards import Card, CardError, Suit
from .game import (
    Final,
    Game,
    GameClosedError,
    Line,
    Payment,
    PlayerError,
    Tally,
    final_tally,
    money,
    next_dealer,
    score_seated,
)
from .hand import Hand, HandError, HandKind, HandScore, Outcome, knock_limit, score_hand
from .hollywood import Hollywood, HollywoodLine
from .match import Match, MatchOverError
from .partnership import Partnership, Round, RoundLine, TableLine, team_name
from .rules import (
    PARAMETERS,
    PRESETS,
    UPCARD,
    DealerRule,
    OklahomaAce,
    RulesError,
    Ruleset,
    Shutout,
    SpadeDouble,
    preset,
)
from .sessions import (
    KINDS,
    PLANNED_KINDS,
    SESSION_KINDS,
    KindError,
    Session,
    seats,
    session_class,
)

__all__ = [
    "KINDS",
    "PARAMETERS",
    "PLANNED_KINDS",
    "PRESETS",
    "SESSION_KINDS",
    "UPCARD",
    "Card",
    "CardError",
    "DealerRule",
    "Final",
    "Game",
    "GameClosedError",
    "Hand",
    "HandError",
    "HandKind",
    "HandScore",
    "Hollywood",
    "HollywoodLine",
    "KindError",
    "Line",
    "Match",
    "MatchOverError",
    "OklahomaAce",
    "Outcome",
    "Partnership",
    "Payment",
    "PlayerError",
    "Round",
    "RoundLine",
    "RulesError",
    "Ruleset",
    "Session",
    "Shutout",
    "SpadeDouble",
    "Suit",
    "TableLine",
    "Tally",
    "final_tally",
    "knock_limit",
    "money",
    "next_dealer",
    "preset",
    "score_hand",
    "score_seated",
    "seats",
    "session_class",
    "team_name",
]
