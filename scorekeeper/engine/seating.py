"""Two players seated at one table: scoring a hand between them, who deals next, and the
refusal of a hand that names a player not seated (RULES.md §2).

>>> score_seated(Hand.gin(20, knocker="A"), preset("classic"), ("A", "B"))[1]
'A'
"""

from __future__ import annotations

from collections.abc import Sequence

from .hand import Hand, HandError, HandScore, score_hand
from .rules import DealerRule, Ruleset, preset  # noqa: F401 (preset: doctests)


class PlayerError(HandError):
    """A hand naming a player who is not seated in this game (or at this table)."""

    def __init__(self, name: object, players: Sequence[str], where: str = "game"):
        super().__init__(
            "unknown_player",
            f"{name!r} is not a player of this {where}: choose {' or '.join(players)}",
            field="knocker",
            name=name,
        )


def score_seated(
    hand: Hand, rules: Ruleset, players: tuple[str, str], where: str = "game"
) -> tuple[HandScore, str | None]:
    """Score a hand between two seated players: its score and its winner (None: nobody).

    Raises HandError for a hand that cannot have happened at this table.
    """
    if hand.knocker is not None and hand.knocker not in players:
        raise PlayerError(hand.knocker, players, where)
    score = score_hand(hand, rules)
    if score.outcome.is_scored and hand.knocker is None:
        raise HandError("knocker_missing", "say who knocked", field="knocker")
    if score.knocker_wins is None:
        return score, None
    other = players[1] if hand.knocker == players[0] else players[0]
    return score, hand.knocker if score.knocker_wins else other


def next_dealer(rules: Ruleset, players: tuple[str, str], dealer: str, winner: str | None) -> str:
    """Who deals after a hand dealt by ``dealer`` and won by ``winner`` (RULES.md §2.10)."""
    if winner is None:  # no game or void: the same dealer deals again
        return dealer
    rule = rules.dealer_rule
    if rule == DealerRule.WINNER:
        return winner
    loser = players[1] if winner == players[0] else players[0]
    if rule == DealerRule.LOSER:
        return loser
    return players[1] if dealer == players[0] else players[0]
