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

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from .hand import Hand, HandScore
from .roles import Roles, seated
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .seating import next_dealer
from .session import Session, Stakes, Turn
from .settlement import transfers_json
from .sheet import Column, EntryRow, Side, cells
from .tally import Payment, Tally, final_tally, money

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


class Chouette(Session):
    """Three to eight players: one box against a team, game after game."""

    kind = "chouette"
    what = "a chouette"
    seats = range(FEWEST, MOST + 1)
    numbered = True
    dealt_by_roles = True
    own_stakes = True
    # §10.10: first_dealer is accepted for the common interface, and must name him.
    dealer_rule_words = "the first captain deals the first hand"

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        if TEAM in players:
            raise ValueError(f"a chouette player cannot be called {TEAM!r}: it names the team")
        super().__init__(players, rules, first_dealer)
        self._box = self.players[0]
        self._team = list(self.players[1:])  # in the order they captain: the captain first
        self._box_deals = False
        self._games: list[_Game] = []
        self.lines: list[ChouetteLine] = []

    def opening_dealer(self) -> str:
        return self.players[1]  # the first captain

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

    def _record(self, hand: Hand) -> ChouetteLine:  # type: ignore[override]
        """Score the next hand, in a new game if the last one closed; or raise HandError."""
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

    def game_columns(self) -> list[tuple[Column, ...]]:
        return [_columns(game.roles) for game in self._games]

    def opening_columns(self) -> tuple[Column, ...]:
        return _columns(self.roles)

    def rows(self) -> list[EntryRow]:
        """Each hand in its game's columns; the team's column wins with its captain."""
        return [
            EntryRow(
                line.number,
                line.game,
                (line,),
                cells(
                    line.points,
                    None if line.box_won is None else line.roles.box if line.box_won else TEAM,
                    line.score.points,
                    (line.roles.box, TEAM),
                ),
                roles=line.roles,
            )
            for line in self.lines
        ]

    def turn(self) -> Turn:
        closed = not self._games or self._games[-1].winner is not None
        roles = self.roles
        number = len(self._games) + closed
        return Turn(len(self.lines) + 1, number, (roles.dealer,), roles, seated=(roles.table,))

    def payments(self, stake: Decimal, own: Stakes | None = None) -> list[tuple[Payment, ...]]:
        """Each closed game: the box pays the full net to each team member, or collects it.

        ``own`` gives a member's own stake, which counts when he sits in the team (the
        box plays each member at the member's stake); the others play at ``stake``.
        """
        own = own or {}
        for name, value in own.items():
            if name not in self.players:
                raise ValueError(f"stakes: {name!r} is not a player of this chouette")
            if not _is_money(value):
                raise ValueError(f"stakes: {name}'s stake must be a money amount, not {value!r}")
        games = []
        for game, result in zip(self._games, self.games(), strict=True):
            if not result.closed or result.net == 0:
                games.append(())
                continue
            box = game.roles.box
            box_pays = result.players[box].total < result.players[TEAM].total
            points = abs(result.net)
            paid = []
            for member in game.roles.team:
                amount = money(points, own.get(member, stake), self.rules.money_unit)
                payer, payee = (box, member) if box_pays else (member, box)
                paid.append(Payment(payer, payee, points, amount))
            games.append(tuple(paid))
        return games

    def game_extras(self, number: int) -> dict[str, object]:
        roles = self._games[number - 1].roles
        return {"box": roles.box, "team": list(roles.team)}

    def tally_extras(self, payments: Sequence[Payment]) -> dict[str, object]:
        roles = self.roles
        return {
            "roles": {
                "box": roles.box,
                "captain": roles.captain,
                "out": list(roles.out),
                "team": list(roles.team),
            },
            "transfers": transfers_json(self.players, payments, self.rules.money_unit),
        }


def _columns(roles: Roles) -> tuple[Column, ...]:
    """A game's two columns: its box, and the team of every other player."""
    return (
        Column(roles.box, roles.box, (roles.box,), Side.BOX),
        Column(TEAM, TEAM, tuple(roles.team), Side.TEAM),
    )


def _is_money(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        return False
    return Decimal(value).is_finite() and value >= 0
