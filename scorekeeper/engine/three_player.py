"""Three-player rotation: box, captain and a player out, individual scores (RULES.md §6, §10.11).

The players are given in cut order: box, captain, out. The box deals every
hand, whatever the dealer rule. If the box wins the hand he stays, and the
captain and the player out swap; if he loses, he sits out, the captain becomes
box and the player out becomes captain. The hand's winner scores its points;
the player out never scores. The first to the target wins the game.

The example of RULES.md §6: P box, Q captain, R out.

>>> game = ThreePlayer(("P", "Q", "R"), preset("classic"))
>>> for knocker, points in (("P", 20), ("R", 15), ("R", 12)):
...     line = game.record(Hand.knock(1, points + 1, knocker=knocker))
...     print(game.roles.box, game.roles.captain, game.roles.out[0])
P R Q
R Q P
R P Q
>>> game.points
{'P': 20, 'Q': 0, 'R': 27}

End bonuses (§10.11) go to every player: box bonus for everyone's boxes, the
game bonus to the first to the target. A player ending at 0 is shut out: the
shutout rule adds the winner's shutout extra against him, and against him only
(``Tally.players[winner].shutout_bonus`` is that extra; the settlement counts
it in the winner's pairs with the players shut out). Settlement is pairwise:
each player pays every player with a higher final the difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

from .hand import Hand, HandScore
from .roles import Roles, seated
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .session import Session, Stakes, Turn
from .settlement import transfers_json
from .sheet import Column, EntryRow, cells
from .tally import Final, Payment, Tally, money, running_tally, shutout_extra

SEATS = 3


@dataclass(frozen=True)
class ThreePlayerLine:
    """One recorded hand of a three-player rotation, with the roles it was played with."""

    number: int
    roles: Roles
    hand: Hand
    score: HandScore
    knocker: str | None
    winner: str | None  # the box or the captain; None for a no game
    box_won: bool | None  # None for a no game
    points: dict[str, int]  # every player's running total after this hand
    boxes: dict[str, int]
    game: int = 1  # one game to the target

    @property
    def dealer(self) -> str:
        return self.roles.dealer


def rotation_tally(
    points: dict[str, int], boxes: dict[str, int], winner: str | None, rules: Ruleset
) -> Tally:
    """End bonuses of a closed game of individual columns (§10.11), or bare points while it runs.

    ``net`` is what the winner collects in points from the others together (it
    may be negative: a player with many boxes can out-total the winner).

    >>> result = rotation_tally({"P": 100, "Q": 0, "R": 40}, {"P": 3, "Q": 0, "R": 2}, "P",
    ...                         preset("classic"))
    >>> result.players["P"].total, result.players["R"].total, result.shutout, result.net
    (360, 80, True, 540)
    """
    if winner is None:
        return running_tally(points, boxes)
    finals = {
        player: Final(
            points[player],
            boxes[player],
            boxes[player] * rules.box_bonus,
            rules.game_bonus if player == winner else 0,
        )
        for player in points
    }
    shutout = any(points[p] == 0 for p in points if p != winner)
    if shutout:
        base = finals[winner]
        extra = shutout_extra(base, rules)
        finals[winner] = Final(base.points, base.boxes, base.box_bonus, base.game_bonus, extra)
    result = Tally(finals, True, winner, shutout, 0)
    net = sum(pair_points(result, winner, other) for other in points if other != winner)
    return Tally(finals, True, winner, shutout, net)


def shut_out(result: Tally) -> tuple[str, ...]:
    """The players of a closed game who ended at 0 points (never the winner)."""
    if not result.closed:
        return ()
    return tuple(p for p, f in result.players.items() if p != result.winner and f.points == 0)


def pair_points(result: Tally, player: str, other: str) -> int:
    """``player``'s final minus ``other``'s, as the two settle: the shutout counts only
    between the winner and a player shut out."""

    def against(one: str, two: str) -> int:
        final = result.players[one]
        if one == result.winner and two not in shut_out(result):
            return final.total - final.shutout_bonus
        return final.total

    return against(player, other) - against(other, player)


class ThreePlayer(Session):
    """Three players in rotation, one game to the target, individual columns."""

    kind = "three_player"
    what = "a three-player rotation"
    seats = range(SEATS, SEATS + 1)
    dealt_by_roles = True
    # The box deals every hand, whatever the dealer rule.
    ignores = Session.ignores | {"dealer_rule"}
    dealer_rule_words = "the box deals every hand"

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        super().__init__(players, rules, first_dealer)
        self._seats = list(self.players)  # box, captain, out
        self.points = dict.fromkeys(self.players, 0)
        self.boxes = dict.fromkeys(self.players, 0)
        self.winner: str | None = None
        self.lines: list[ThreePlayerLine] = []

    @property
    def roles(self) -> Roles:
        """The roles of the next hand; the box deals."""
        box, captain, out = self._seats
        return Roles(box, captain, box, (captain, out), (out,))

    @property
    def dealer(self) -> str:
        return self._seats[0]

    def is_over(self) -> bool:
        return self.winner is not None

    def reached(self) -> tuple[str, int]:
        assert self.winner is not None
        return self.winner, self.points[self.winner]

    def _record(self, hand: Hand) -> ThreePlayerLine:  # type: ignore[override]
        """Score the next hand and turn the roles, or raise HandError and change nothing."""
        roles = self.roles
        score, winner = seated(hand, self.rules, roles)
        box_won = None if winner is None else winner == roles.box
        if winner is not None:
            self.points[winner] += score.points
            self.boxes[winner] += score.boxes
            if self.points[winner] >= self.rules.target:
                self.winner = winner
            box, captain, out = self._seats
            # The box won: captain and out swap. The box lost: everyone moves on a seat.
            self._seats = [box, out, captain] if box_won else [captain, out, box]
        # A no game changes nothing: the same roles, and the box deals again.
        line = ThreePlayerLine(
            len(self.lines) + 1,
            roles,
            hand,
            score,
            hand.knocker,
            winner,
            box_won,
            dict(self.points),
            dict(self.boxes),
        )
        self.lines.append(line)
        return line

    def tally(self) -> Tally:
        return rotation_tally(self.points, self.boxes, self.winner, self.rules)

    def games(self) -> list[Tally]:
        """One game, keyed by the three players in cut order."""
        return [self.tally()]

    def shut_out(self) -> tuple[str, ...]:
        return shut_out(self.tally())

    def game_columns(self) -> list[tuple[Column, ...]]:
        return [self.opening_columns()]

    def rows(self) -> list[EntryRow]:
        return [
            EntryRow(
                line.number,
                1,
                (line,),
                cells(line.points, line.winner, line.score.points, self.players),
                roles=line.roles,
            )
            for line in self.lines
        ]

    def turn(self) -> Turn:
        roles = self.roles
        return Turn(len(self.lines) + 1, None, (self.dealer,), roles, seated=(roles.table,))

    def game_extras(self, number: int) -> dict[str, object]:
        return {"shut_out": list(self.shut_out())}

    def tally_extras(self, payments: Sequence[Payment]) -> dict[str, object]:
        roles = self.roles
        return {
            "roles": {"box": roles.box, "captain": roles.captain, "out": roles.out[0]},
            "transfers": transfers_json(self.players, payments, self.rules.money_unit),
        }

    def payments(self, stake: Decimal, own: Stakes | None = None) -> list[tuple[Payment, ...]]:
        """Pairwise, in cut order: the lower of each pair pays the other the difference."""
        result = self.tally()
        if not result.closed:
            return [()]
        payments = []
        for one, two in combinations(self.players, 2):
            points = pair_points(result, one, two)
            if points == 0:
                continue
            payer, payee = (two, one) if points > 0 else (one, two)
            amount = money(abs(points), stake, self.rules.money_unit)
            payments.append(Payment(payer, payee, abs(points), amount))
        return [tuple(payments)]
