"""What every kind of session is: the one interface that sheets, tallies, forms and
leagues read, so that none of them needs to know the kinds.

A session seats its players, records its entries (hands, or rounds of two tables)
one at a time, and describes itself:

- **who plays next** (``turn``): the entry's number, the game it goes to, the
  dealers and, where not everyone plays, the roles;
- **its games** (``game_sheets``): each game's columns (with the box of that
  game), its tally and its settlement lines at a stake;
- **its rows** (``rows``): each entry's plays and a (gain, running total) cell per
  column, grouped into **parts** (the tables of a sheet: Hollywood's three games
  side by side, a match's or a chouette's games one after another);
- **its footer** (``foot_lines``): points, boxes, each end bonus, total, net, money;
- **its league results** (``results``): per closed game, who won and lost, the
  shutout and the ranking used for ratings (RULES.md §11).

>>> from .game import Game
>>> from .hand import Hand
>>> from .rules import preset
>>> game = Game.replay(("A", "B"), preset("classic"), "B", [Hand.gin(90, knocker="A")])
>>> (result,) = game.results(Decimal(0))
>>> result.winners, result.losers, result.shutout, result.ranking
(('A',), ('B',), True, (('A',), ('B',)))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar, Self

from .hand import Hand, HandError, Outcome
from .roles import Roles
from .rules import Ruleset
from .seating import PlayerError
from .sheet import Column, EntryRow, GameSheet, Part, Who
from .tally import Payment, Tally, running_tally

_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def count_words(fewest: int, most: int) -> str:
    """How many players, in words: ``three``, ``three to eight``.

    >>> count_words(3, 3), count_words(3, 8)
    ('three', 'three to eight')
    """
    low, high = _WORDS.get(fewest, str(fewest)), _WORDS.get(most, str(most))
    return low if fewest == most else f"{low} to {high}"


class GameClosedError(HandError):
    """A hand entered after the game (or the whole session) is over."""

    def __init__(self, message: str, code: str = "game_closed"):
        super().__init__(code, message)


@dataclass(frozen=True)
class HandStats:
    """A player's hands in a session: played, won, gins and undercuts, points won."""

    hands: int = 0
    won: int = 0
    gins: int = 0  # big gins too
    undercuts: int = 0
    points: int = 0  # the points of the hands he won

    @property
    def gin_rate(self) -> float | None:
        """Gins per hand played; None before the first hand."""
        return self.gins / self.hands if self.hands else None

    @property
    def undercut_rate(self) -> float | None:
        return self.undercuts / self.hands if self.hands else None

    @property
    def points_per_hand_won(self) -> float | None:
        return self.points / self.won if self.won else None


@dataclass(frozen=True)
class Turn:
    """Who plays the next entry: its number, its game, the dealers and the roles."""

    number: int
    game: int | None  # the game it starts or continues, where games follow one another
    dealers: tuple[str, ...]  # one per table
    roles: Roles | None = None  # chouette, three players
    seated: tuple[tuple[str, str], ...] = ()  # the two who play at each table

    @property
    def table(self) -> tuple[str, str] | None:
        """The two who play it, where not everyone does."""
        return self.roles.table if self.roles else None


@dataclass(frozen=True)
class Standing:
    """A match: games won so far, and the winner once a majority is reached."""

    best_of: int
    games_won: dict[str, int]
    winner: str | None


@dataclass(frozen=True)
class GameResult:
    """What one closed game gives a league (RULES.md §11)."""

    number: int
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    shutout: bool
    ranking: tuple[tuple[str, ...], ...]  # the sides, best first: OpenSkill's teams
    ranks: tuple[int, ...]  # each side's rank; equal totals share one
    payments: tuple[Payment, ...]

    def net_points(self, player: str) -> int:
        """The settlement points the player received in this game, less those he paid."""
        return sum(p.points for p in self.payments if p.payee == player) - sum(
            p.points for p in self.payments if p.payer == player
        )


Stakes = Mapping[str, Decimal]


class Session(ABC):
    """The shared base of every kind: seating, the first dealer, the closed-game guard,
    replay, and the descriptions built from each kind's few answers."""

    kind: ClassVar[str]
    what: ClassVar[str]  # the kind in words, for messages: "a chouette"
    seats: ClassVar[range]  # how many players it seats
    preset: ClassVar[str] = "classic"  # the rules it starts from, unless the table says
    entry: ClassVar[type] = Hand  # what it records: hands, or partnership rounds
    hands_per_entry: ClassVar[int] = 1  # a partnership round has one hand per table
    own_stakes: ClassVar[bool] = False  # a player may play at a stake of his own (chouette)
    dealt_by_roles: ClassVar[bool] = False  # the roles say who deals: no first dealer to pick
    numbered: ClassVar[bool] = False  # its games are named "Game 1", "Game 2", ...
    side_by_side: ClassVar[bool] = False  # its games share one table (Hollywood)
    # Rules that do nothing in this kind (the rules of one kind are ignored by the others).
    ignores: ClassVar[frozenset[str]] = frozenset({"hollywood_game3_double", "best_of"})

    players: tuple[str, ...]
    rules: Ruleset

    def __init__(self, players: Sequence[str], rules: Ruleset, first_dealer: str | None = None):
        seated = tuple(players)
        if len(seated) not in self.seats or len(set(seated)) != len(seated):
            count = count_words(self.seats.start, self.seats.stop - 1)
            raise ValueError(f"{self.what} needs {count} different player names")
        self.players = seated
        self.rules = rules
        self.first_dealer = self._first_dealer(first_dealer)

    @classmethod
    def name_clash(cls, players: Sequence[str]) -> str | None:
        """A column name two sides would share with these players (None: they differ)."""
        return None

    @classmethod
    def plays_rule(cls, name: str) -> bool:
        """Whether a rule parameter counts in this kind."""
        return name not in cls.ignores

    @classmethod
    def who_columns(cls) -> tuple[Who, ...]:
        """What a hand line says about who played it, before the knocker."""
        if cls.dealt_by_roles:
            return (Who.BOX, Who.CAPTAIN, Who.DEALER if cls.plays_rule("dealer_rule") else Who.OUT)
        return (Who.TABLE, Who.DEALER) if cls.hands_per_entry > 1 else (Who.DEALER,)

    @classmethod
    def dealer_seats(cls) -> int:
        """How many seats the first dealer may be picked from: none where the roles deal."""
        return 0 if cls.dealt_by_roles else cls.seats.stop - 1

    @classmethod
    def first_dealer_at(cls, players: Sequence[str], seat: int) -> str | None:
        """The player in ``seat`` (1-based) who deals first; None where the roles say who
        deals. ValueError for a seat nobody holds."""
        if cls.dealt_by_roles:
            return None
        if not 1 <= seat <= len(players):
            raise ValueError(f"seat {seat} of {len(players)}: not a player")
        return players[seat - 1]

    @classmethod
    def stakes_played(cls, stakes: Mapping[str, Decimal]) -> dict[str, Decimal]:
        """The members' own stakes as this kind plays them: none where all play one."""
        return dict(stakes) if cls.own_stakes else {}

    def _first_dealer(self, first_dealer: str | None) -> str:
        """The first hand's dealer, checked: a player; the roles' dealer where they deal."""
        default = self.opening_dealer()
        if first_dealer is None:
            return default
        if self.dealt_by_roles and first_dealer != default:
            raise ValueError(
                f"in {self.what} {self.dealer_rule_words}: "
                f"the first dealer is {default}, not {first_dealer!r}"
            )
        if first_dealer not in self.players:
            raise PlayerError(first_dealer, self.players)
        return first_dealer

    def opening_dealer(self) -> str:
        """Who deals the first hand when nobody is named."""
        return self.players[0]

    dealer_rule_words: ClassVar[str] = ""

    @classmethod
    def replay(
        cls,
        players: Sequence[str],
        rules: Ruleset,
        first_dealer: str | None,
        entries: Iterable[object],
    ) -> Self:
        """The session built from what happened: created, then every entry in order."""
        session = cls(players, rules, first_dealer)
        for entry in entries:
            session.record(entry)
        return session

    def record(self, entry: object) -> object:
        """Score the next entry, or raise HandError and change nothing."""
        if self.is_over():
            raise self.closed_error()
        if not isinstance(entry, self.entry):
            if self.entry is Hand:
                raise HandError("hand_expected", f"{self.what} records hands")
            raise HandError("round_expected", f"{self.what} records rounds: one hand per table")
        return self._record(entry)

    @abstractmethod
    def _record(self, entry: object) -> object: ...

    @abstractmethod
    def is_over(self) -> bool: ...

    def closed_error(self) -> GameClosedError:
        """The refusal of an entry after the end; by default, who reached the target."""
        winner, points = self.reached()
        return GameClosedError(
            f"the game is over: {winner} reached {points} of {self.rules.target}"
        )

    def reached(self) -> tuple[str, int]:
        """The winner of a one-game kind and his points (asked once it is over)."""
        raise NotImplementedError

    @property
    @abstractmethod
    def dealer(self) -> str | tuple[str, ...]: ...

    @abstractmethod
    def games(self) -> list[Tally]:
        """Every game started, in order; the last may still run."""

    @abstractmethod
    def game_columns(self) -> list[tuple[Column, ...]]:
        """Each game's columns, in the order of ``games()``."""

    @abstractmethod
    def rows(self) -> list[EntryRow]:
        """Every entry as a row of the sheet, cells across its part's columns."""

    @abstractmethod
    def turn(self) -> Turn: ...

    @classmethod
    def entry_of(cls, hands: Sequence[Hand]) -> Hand:
        """The entry that the hands of one number make (a partnership: a round)."""
        (hand,) = hands
        return hand

    @classmethod
    def hands_of(cls, entry: Hand) -> tuple[Hand, ...]:
        """The hands of one entry, table 1 first: the inverse of ``entry_of``."""
        return (entry,)

    def payments(self, stake: Decimal, own: Stakes | None = None) -> list[tuple[Payment, ...]]:
        """Each game's settlement lines: the lower final pays the difference."""
        unit = self.rules.money_unit
        return [tuple(tally.settle(stake, unit)) for tally in self.games()]

    def settle(self, stake: Decimal, own: Stakes | None = None) -> list[Payment]:
        """Every settlement line of every game, in order. ``own`` gives a player's own
        stake where the kind plays one (a chouette member against the box)."""
        return [payment for game in self.payments(stake, own) for payment in game]

    def game_sheets(self, stake: Decimal, own: Stakes | None = None) -> list[GameSheet]:
        games, columns = self.games(), self.game_columns()
        if not games:  # nothing played yet (a chouette): the columns of the game to come
            opening = self.opening_columns()
            zero = dict.fromkeys((column.key for column in opening), 0)
            return [GameSheet(1, opening, running_tally(zero, dict(zero)), ())]
        paid = self.payments(stake, own)
        return [
            GameSheet(number, cols, tally, pays)
            for number, (tally, cols, pays) in enumerate(
                zip(games, columns, paid, strict=True), start=1
            )
        ]

    def opening_columns(self) -> tuple[Column, ...]:
        """The columns of the first game before its first hand."""
        return tuple(Column(name, name, (name,)) for name in self.players)

    def parts(self, stake: Decimal, own: Stakes | None = None) -> list[Part]:
        """The tables of the sheet: one with every game side by side, or one per game."""
        games, rows = self.game_sheets(stake, own), self.rows()
        if self.side_by_side or len(games) == 1:
            labelled = self.numbered and self.side_by_side
            titled = self.numbered and not self.side_by_side
            return [Part(tuple(games), tuple(rows), titled=titled, labelled=labelled)]
        return [
            Part((game,), tuple(r for r in rows if r.game == game.number), titled=True)
            for game in games
        ]

    def hand_stats(self) -> dict[str, HandStats]:
        """Each player's hands at the table (a no game counts as played)."""
        counts = {name: [0, 0, 0, 0, 0] for name in self.players}
        for row in self.rows():
            for play, pair in zip(row.plays, row.at_tables, strict=True):
                for name in pair:
                    counts[name][0] += 1
                if play.winner is None:
                    continue
                won = counts[play.winner]
                won[1] += 1
                won[2] += play.score.outcome in (Outcome.GIN, Outcome.BIG_GIN)
                won[3] += play.score.outcome == Outcome.UNDERCUT
                won[4] += play.score.points
        return {name: HandStats(*figures) for name, figures in counts.items()}

    def standing(self) -> Standing | None:
        """A match's games won; None for a kind that plays no series."""
        return None

    def overall_winner(self) -> str | None:
        """Who won the whole session: a match's winner, a one-game kind's game winner;
        None while it runs and where games are won one by one (Hollywood, chouette)."""
        standing = self.standing()
        if standing is not None:
            return standing.winner
        games = self.games()
        return games[0].winner if len(games) == 1 and not self.numbered else None

    @property
    def heading(self) -> tuple[str, ...]:
        """The names a sheet is titled with: the players (a partnership: its teams)."""
        return self.players

    def tally_extras(self, payments: Sequence[Payment]) -> dict[str, object]:
        """What the kind adds to a record's tally (FORMAT.md), beyond games and money."""
        return {}

    def game_extras(self, number: int) -> dict[str, object]:
        """What the kind adds to one game of a record's tally."""
        return {}

    def results(self, stake: Decimal, own: Stakes | None = None) -> list[GameResult]:
        """What each closed game gives a league (RULES.md §11): the winning column's
        members win, every other column's lose; the sides rank by their finals."""
        results = []
        for game in self.game_sheets(stake, own):
            tally = game.tally
            if not tally.closed or tally.winner is None:
                continue
            winning = next(c for c in game.columns if c.key == tally.winner)
            others = sorted(
                (c for c in game.columns if c is not winning),
                key=lambda c: -tally.players[c.key].total,
            )
            ranks, rank = [1], 1
            for n, column in enumerate(others):
                total = tally.players[column.key].total
                if n == 0 or total != tally.players[others[n - 1].key].total:
                    rank = n + 2
                ranks.append(rank)
            results.append(
                GameResult(
                    game.number,
                    winning.members,
                    tuple(m for c in others for m in c.members),
                    tally.shutout,
                    (winning.members, *(c.members for c in others)),
                    tuple(ranks),
                    game.payments,
                )
            )
        return results
