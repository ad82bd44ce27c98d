"""The scoring and card engine of Scorekeeper: pure Python, no Django.

Value types and pure functions for the rules of RULES.md: cards, rulesets and
presets, one hand, a game to the target with its end bonuses and money, and the
game record format of FORMAT.md.
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
)
from .hand import Hand, HandError, HandKind, HandScore, Outcome, knock_limit, score_hand
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

__all__ = [
    "PARAMETERS",
    "PRESETS",
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
    "Line",
    "OklahomaAce",
    "Outcome",
    "Payment",
    "PlayerError",
    "Ruleset",
    "RulesError",
    "Shutout",
    "SpadeDouble",
    "Suit",
    "Tally",
    "final_tally",
    "knock_limit",
    "money",
    "preset",
    "score_hand",
]
