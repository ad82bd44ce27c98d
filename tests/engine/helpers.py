"""Helpers of the engine tests: plain functions, imported as
``from tests.engine.helpers import ...``. No Django, as the engine has none."""

from scorekeeper.engine.hand import Hand
from scorekeeper.engine.rules import Ruleset, preset

CLASSIC = preset("classic")
CORNER = preset("round_the_corner")


def win(player: str, points: int) -> Hand:
    """A knock that wins ``player`` exactly ``points``."""
    return Hand.knock(1, points + 1, knocker=player)


def rules_for(corner: bool) -> Ruleset:
    """Classic rules, or round the corner's (an ace both low and high in a run)."""
    return CORNER if corner else CLASSIC
