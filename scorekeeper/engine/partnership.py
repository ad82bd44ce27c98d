"""Partnership: two teams of two, one hand at each of two tables per round (RULES.md §6).

Team A is ``players[0]`` and ``players[2]``, team B ``players[1]`` and
``players[3]``; table 1 seats ``players[0]`` against ``players[1]``, table 2
``players[2]`` against ``players[3]``. A round's score is a team's points minus
the other team's (§10.12): the team ahead scores the difference and one box.

One partner wins by 12, the other loses by 10: the side scores 2 (BIC-PART).

>>> game = Partnership(("A", "B", "C", "D"), preset("partnership"))
>>> line = game.record(Round((Hand.knock(2, 14, knocker="A"), Hand.knock(3, 13, knocker="D"))))
>>> line.gained, line.winner, line.boxes
({'A & C': 2, 'B & D': 0}, 'A & C', {'A & C': 1, 'B & D': 0})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from .hand import Hand, HandError, HandScore
from .rules import Ruleset, preset  # noqa: F401 (preset: doctests)
from .seating import next_dealer, score_seated
from .session import Session, Stakes, Turn
from .sheet import Column, EntryRow, Side, cells
from .tally import Payment, Tally, final_tally

TABLES = 2


def team_name(a: str, b: str) -> str:
    """The name of a team's column: its two players."""
    return f"{a} & {b}"


@dataclass(frozen=True)
class Round:
    """One round: the hand played at table 1 and the hand played at table 2."""

    tables: tuple[Hand, Hand]

    def __post_init__(self) -> None:
        tables = tuple(self.tables)
        if len(tables) != TABLES or not all(isinstance(hand, Hand) for hand in tables):
            raise HandError("round_tables", "a round has two tables, one hand at each")
        object.__setattr__(self, "tables", tables)


@dataclass(frozen=True)
class TableLine:
    """The hand of one table in a round, as scored between that table's two players."""

    dealer: str
    hand: Hand
    score: HandScore
    knocker: str | None
    winner: str | None  # a player, or None for a no game


@dataclass(frozen=True)
class RoundLine:
    """One recorded round on the team sheet."""

    number: int
    tables: tuple[TableLine, TableLine]
    gained: dict[str, int]  # per team: what the round added (the difference, to one team)
    winner: str | None  # the team that scored the round; None when it netted 0
    points: dict[str, int]  # running totals per team after this round
    boxes: dict[str, int]


class Partnership(Session):
    """Four players in two teams, rounds recorded until a team reaches the target."""

    kind = "partnership"
    what = "a partnership"
    seats = range(4, 5)
    entry = Round
    hands_per_entry = TABLES
    preset = "partnership"

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        super().__init__(players, rules, first_dealer)
        p = self.players
        self.teams: tuple[tuple[str, str], tuple[str, str]] = ((p[0], p[2]), (p[1], p[3]))
        self.team_names: tuple[str, str] = (team_name(*self.teams[0]), team_name(*self.teams[1]))
        if clash := self.name_clash(p):
            raise ValueError(f"both teams would be called {clash!r}: rename a player")
        self.tables: tuple[tuple[str, str], tuple[str, str]] = ((p[0], p[1]), (p[2], p[3]))
        # The other table starts with the player in the same team position.
        position = p.index(self.first_dealer) % 2
        self._dealers = [p[position], p[position + 2]]
        self.points = dict.fromkeys(self.team_names, 0)
        self.boxes = dict.fromkeys(self.team_names, 0)
        self.winner: str | None = None
        self.lines: list[RoundLine] = []

    @property
    def dealer(self) -> tuple[str, str]:
        """The next dealers: table 1's and table 2's."""
        return (self._dealers[0], self._dealers[1])

    def team_of(self, player: str) -> str:
        return self.team_names[self.players.index(player) % 2]

    def is_over(self) -> bool:
        return self.winner is not None

    @classmethod
    def name_clash(cls, players: Sequence[str]) -> str | None:
        """The name both teams would share: players named like "A & B" make it possible."""
        first, second = team_name(players[0], players[2]), team_name(players[1], players[3])
        return first if first == second else None

    def reached(self) -> tuple[str, int]:
        assert self.winner is not None
        return self.winner, self.points[self.winner]

    @property
    def heading(self) -> tuple[str, ...]:
        return self.team_names

    def _record(self, entry: Round) -> RoundLine:  # type: ignore[override]
        """Score the next round, or raise HandError (naming its table) and change nothing."""
        tables = []
        for number, (hand, seated) in enumerate(zip(entry.tables, self.tables, strict=True)):
            try:
                score, winner = score_seated(hand, self.rules, seated, where="table")
            except HandError as error:
                error.table = number + 1
                raise
            tables.append(TableLine(self._dealers[number], hand, score, hand.knocker, winner))

        raw = dict.fromkeys(self.team_names, 0)
        for table in tables:
            if table.winner is not None:
                raw[self.team_of(table.winner)] += table.score.points
        a, b = self.team_names
        difference = raw[a] - raw[b]
        gained = dict.fromkeys(self.team_names, 0)
        winner = a if difference > 0 else b if difference < 0 else None
        if winner is not None:  # a round netting 0 scores nothing and earns no box
            gained[winner] = abs(difference)
            self.points[winner] += abs(difference)
            self.boxes[winner] += 1
            if self.points[winner] >= self.rules.target:
                self.winner = winner
        line = RoundLine(
            len(self.lines) + 1,
            (tables[0], tables[1]),
            gained,
            winner,
            dict(self.points),
            dict(self.boxes),
        )
        self.lines.append(line)
        for number, table in enumerate(tables):
            self._dealers[number] = next_dealer(
                self.rules, self.tables[number], table.dealer, table.winner
            )
        return line

    def tally(self) -> Tally:
        """The game of the two team columns, keyed by team name, with §3's end bonuses."""
        return final_tally(self.points, self.boxes, self.winner, self.rules)

    def games(self) -> list[Tally]:
        return [self.tally()]

    def game_columns(self) -> list[tuple[Column, ...]]:
        teams = zip(self.team_names, self.teams, strict=True)
        return [tuple(Column(name, name, members, Side.PARTNERS) for name, members in teams)]

    def rows(self) -> list[EntryRow]:
        return [
            EntryRow(
                line.number,
                1,
                line.tables,
                cells(
                    line.points, line.winner, line.gained.get(line.winner or "", 0), self.team_names
                ),
                seated=self.tables,
            )
            for line in self.lines
        ]

    def turn(self) -> Turn:
        return Turn(len(self.lines) + 1, None, self.dealer, seated=self.tables)

    @classmethod
    def entry_of(cls, hands: Sequence[Hand]) -> Round:  # type: ignore[override]
        return Round(tables=tuple(hands))

    @classmethod
    def hands_of(cls, entry: Round) -> tuple[Hand, ...]:  # type: ignore[override]
        return entry.tables

    def payments(self, stake: Decimal, own: Stakes | None = None) -> list[tuple[Payment, ...]]:
        """Each player settles the full team net with his opposite number (§10.12)."""
        payments = []
        for team_payment in self.tally().settle(stake, self.rules.money_unit):
            paying = self.team_names.index(team_payment.payer)
            for table in self.tables:
                payer, payee = table[paying], table[1 - paying]
                payments.append(Payment(payer, payee, team_payment.points, team_payment.amount))
        return [tuple(payments)]

    def tally_extras(self, payments: Sequence[Payment]) -> dict[str, object]:
        return {"teams": [list(team) for team in self.teams]}
