"""Who plays the next hand when more than two sit at the table (RULES.md §6).

In a chouette and in the three-player rotation only two players play each
hand: the **box** and the **captain**; the others sit out and may advise the
captain. A hand names its knocker, who must be one of the two at the table.

>>> roles = Roles("X", "Y", "Y", ("Y", "Z"), ("Z",))
>>> seated(Hand.knock(3, 11, knocker="Y"), preset("classic"), roles)[1]
'Y'
>>> seated(Hand.knock(3, 11, knocker="Z"), preset("classic"), roles)
Traceback (most recent call last):
...
scorekeeper.engine.roles.NotAtTableError: 'Z' is not at the table: X (box) plays Y (captain)
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import Hand, HandError, HandScore
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .seating import PlayerError, score_seated


@dataclass(frozen=True)
class Roles:
    """The roles of one hand: who is box, who captains, who deals, who sits out."""

    box: str
    captain: str
    dealer: str  # the box or the captain
    team: tuple[str, ...]  # in the order they captain, the captain first
    out: tuple[str, ...]  # the team members not captaining (team[1:])

    @property
    def table(self) -> tuple[str, str]:
        """The two players of the hand: the box and the captain."""
        return (self.box, self.captain)


class NotAtTableError(PlayerError):
    """A hand whose knocker is not one of the two at the table (the box and the captain)."""

    def __init__(self, name: object, roles: Roles):
        # PlayerError's own wording names every player; here only two may knock.
        HandError.__init__(
            self,
            "not_at_table",
            f"{name!r} is not at the table: {roles.box} (box) plays {roles.captain} (captain)",
            field="knocker",
            name=name,
            box=roles.box,
            captain=roles.captain,
        )


def seated(hand: Hand, rules: Ruleset, roles: Roles) -> tuple[HandScore, str | None]:
    """Score a hand between the box and the captain: its score and its winner (None: nobody)."""
    if hand.knocker is not None and hand.knocker not in roles.table:
        raise NotAtTableError(hand.knocker, roles)
    return score_seated(hand, rules, roles.table)
