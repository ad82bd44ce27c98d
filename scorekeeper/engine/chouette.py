"""Chouette: the box plays every hand against a team sharing one column (RULES.md §6, §10.10).

The players are given in cut order: ``players[0]`` is the box, ``players[1]``
the first captain, and the team is ``players[1:]`` in that order. The captain
plays for the team until he loses a hand; then the next team member captains,
round and round. A game ends when the box's column or the team's column
(named ``"team"``) reaches the target, with §3's end bonuses; the box then
settles the full net with **each** team member. The next hand starts the next
game, with new roles (§10.10). A chouette never ends by itself: the table
decides when to stop.

The example of RULES.md §6: X box, Y captain, Z.

>>> chouette = Chouette(("X", "Y", "Z"), preset("classic"))
>>> for knocker, points in (("Y", 20), ("Y", 15), ("X", 30), ("Z", 40), ("Z", 30)):
...     line = chouette.record(Hand.knock(1, points + 1, knocker=knocker))
>>> (game,) = chouette.games()
>>> game.winner, game.players["team"].total, game.players["X"].total, game.net
('team', 285, 50, 235)
>>> chouette.settle(Decimal("0.10"))
[Payment(payer='X', payee='Y', points=235, amount=Decimal('23.50')), \
Payment(payer='X', payee='Z', points=235, amount=Decimal('23.50'))]
>>> chouette.roles
Roles(box='Z', captain='Y', dealer='Y', team=('Y', 'X'), out=('X',))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .game import Payment, Replayable, Tally, final_tally, money, next_dealer
from .hand import Hand, HandError, HandScore
from .roles import Roles, seat_between, seated
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)

TEAM = "team"  # the name of the team's column in every game
FEWEST, MOST = 3, 8


@dataclass(frozen=True)
class ChouetteLine:
    """One recorded hand of a chouette, with the roles it was played with."""

    number: int
    game: int  # 1-based: the game the hand belongs to
    roles: Roles
    hand: Hand
    score: HandScore
    knocker: str | None
    winner: str | None  # the box or the captain; None for a no game
    box_won: bool | None  # None for a no game
    points: dict[str, int]  # running in this game: the box's name and "team"
    boxes: dict[str, int]

    @property
    def dealer(self) -> str:
        return self.roles.dealer


@dataclass
class _Game:
    """One game of the chouette as it runs: its box, its team and its two columns."""

    roles: Roles  # the roles of its first hand
    points: dict[str, int]
    boxes: dict[str, int]
    winner: str | None = None  # the box's name or TEAM


class Chouette(Replayable):
    """Three to eight players: one box against a team, game after game."""

    kind = "chouette"

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        self.players: tuple[str, ...] = seat_between(players, FEWEST, MOST, "a chouette")
        if TEAM in self.players:
            raise ValueError(f"a chouette player cannot be called {TEAM!r}: it names the team")
        self.rules = rules
        self._box = self.players[0]
        self._team = list(self.players[1:])  # in the order they captain: the captain first
        captain = self._team[0]
        # §10.10: the first captain deals the first hand; first_dealer is accepted
        # for the common interface, and must then name him.
        if first_dealer is not None and first_dealer != captain:
            raise ValueError(
                f"in a chouette the first captain deals the first hand: "
                f"the first dealer is {captain}, not {first_dealer!r}"
            )
        self._box_deals = False
        self._games: list[_Game] = []
        self.lines: list[ChouetteLine] = []

    @property
    def roles(self) -> Roles:
        """The roles of the next hand (of the next game, once a game has closed)."""
        captain = self._team[0]
        return Roles(
            self._box,
            captain,
            self._box if self._box_deals else captain,
            tuple(self._team),
            tuple(self._team[1:]),
        )

    @property
    def dealer(self) -> str:
        return self.roles.dealer

    def is_over(self) -> bool:
        """Never: a chouette goes on, game after game, until the table stops."""
        return False

    def record(self, hand: Hand) -> ChouetteLine:
        """Score the next hand, in a new game if the last one closed; or raise HandError."""
        if not isinstance(hand, Hand):
            raise HandError("hand_expected", "a chouette records hands between box and captain")
        roles = self.roles
        score, winner = seated(hand, self.rules, roles)  # the only refusal: nothing changed yet
        if not self._games or self._games[-1].winner is not None:
            columns = dict.fromkeys((roles.box, TEAM), 0)
            self._games.append(_Game(roles, columns, dict(columns)))
        game = self._games[-1]
        box_won = None if winner is None else winner == roles.box
        if winner is not None:
            side = roles.box if box_won else TEAM
            game.points[side] += score.points
            game.boxes[side] += score.boxes
            self._after_hand(roles, winner, bool(box_won))
            if game.points[side] >= self.rules.target:
                game.winner = side
                self._next_game(roles, bool(box_won))
        # A no game changes nothing: the same captain plays and the same seat deals.
        line = ChouetteLine(
            len(self.lines) + 1,
            len(self._games),
            roles,
            hand,
            score,
            hand.knocker,
            winner,
            box_won,
            dict(game.points),
            dict(game.boxes),
        )
        self.lines.append(line)
        return line

    def _after_hand(self, roles: Roles, winner: str, box_won: bool) -> None:
        # The dealer rule picks a seat, the box's or the captain's: when the captain
        # loses, the next captain takes his seat, and deals if that seat deals.
        self._box_deals = next_dealer(self.rules, roles.table, roles.dealer, winner) == roles.box
        if box_won:  # the captain lost: the next team member captains
            self._team = self._team[1:] + self._team[:1]

    def _next_game(self, roles: Roles, box_won: bool) -> None:
        """The roles of the next game's first hand (§10.10); its captain deals."""
        if not box_won:
            # The winning captain becomes box, the member after him captains, and the
            # old box joins the team at the end of the order: he captains last.
            self._box, self._team = roles.captain, self._team[1:] + [roles.box]
        # When the box won, the losing captain has already gone to the end of the order.
        self._box_deals = False

    def games(self) -> list[Tally]:
        """Every game started, keyed by its box's name and ``"team"``; the last may run."""
        return [
            final_tally(game.points, game.boxes, game.winner, self.rules) for game in self._games
        ]

    def game_roles(self) -> list[Roles]:
        """The roles of each game's first hand: who was box and who made up the team."""
        return [game.roles for game in self._games]

    def settle(
        self, stake: Decimal | Mapping[str, Decimal], default: Decimal | None = None
    ) -> list[Payment]:
        """Each closed game: the box pays the full net to each team member, or collects it.

        ``stake`` is one stake per point for everybody, or a stake per player,
        which counts when he sits in the team (the box plays each member at the
        member's stake). A member missing from the mapping plays at ``default``;
        without a default, every member of a closed game needs his stake.
        """
        stake_of = _stakes(stake, default, self.players)
        payments = []
        for game, result in zip(self._games, self.games(), strict=True):
            if not result.closed or result.net == 0:
                continue
            box = game.roles.box
            box_pays = result.players[box].total < result.players[TEAM].total
            points = abs(result.net)
            for member in game.roles.team:
                amount = money(points, stake_of(member), self.rules.money_unit)
                payer, payee = (box, member) if box_pays else (member, box)
                payments.append(Payment(payer, payee, points, amount))
        return payments


def _stakes(
    stake: Decimal | Mapping[str, Decimal], default: Decimal | None, players: Sequence[str]
) -> Callable[[str], Decimal]:
    """Each team member's stake, or ValueError for a stake that cannot be."""
    if not isinstance(stake, Mapping):
        return lambda member: stake
    for name, value in stake.items():
        if name not in players:
            raise ValueError(f"stakes: {name!r} is not a player of this chouette")
        if not _is_money(value):
            raise ValueError(f"stakes: {name}'s stake must be a money amount, not {value!r}")

    def stake_of(member: str) -> Decimal:
        if member in stake:
            return stake[member]
        if default is None:
            raise ValueError(f"stakes: no stake for {member}: give each one, or a default")
        return default

    return stake_of


def _is_money(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        return False
    return Decimal(value).is_finite() and value >= 0
