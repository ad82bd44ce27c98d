"""League standings, head-to-head and ratings from closed games (RULES.md §11).

A season counts the closed games of its parties in the order they were played;
each game's result (``Session.results``) says who won and lost, the shutout, the
settlement lines and the ranking of the sides. From these come each player's line
of the standings, the head-to-head between every two players who met, and an
OpenSkill rating (Plackett-Luce, the library's defaults).

>>> from .tally import Payment
>>> game = GameResult(1, ("Anna",), ("Ben",), False, (("Anna",), ("Ben",)), (1, 2),
...                   (Payment("Ben", "Anna", 175, Decimal("8.75")),))
>>> table = standings([game], ["Ben", "Anna", "Carl"])
>>> [(line.rank, line.player, line.league_points, line.net_points) for line in table.lines]
[(1, 'Anna', 2, 175), (2, 'Carl', 0, 0), (3, 'Ben', 0, -175)]
>>> table.head_to_head["Anna"]["Ben"]
HeadToHead(won=1, lost=0, net_points=175)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import groupby
from typing import NamedTuple

from .bounds import LEAGUE_POINTS, check_integer
from .session import GameResult, HandStats

# OpenSkill's Plackett-Luce model with its default parameters, computed as the library
# computes them (tests/engine/test_plackett_luce.py holds them to the library's, which
# is the tests' oracle and not a dependency of the app).
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
KAPPA = 0.0001


@dataclass(frozen=True)
class LeaguePoints:
    """What a game gives a league table: a win, a shutout win (instead), a loss; each a
    whole number from -99 to 99 (a loss may cost points), else a BoundsError.

    >>> LeaguePoints(loss=-1)
    LeaguePoints(win=2, shutout_win=3, loss=-1)
    >>> LeaguePoints(win=100)
    Traceback (most recent call last):
    ...
    scorekeeper.engine.bounds.BoundsError: win must be between -99 and 99, not 100
    """

    win: int = 2
    shutout_win: int = 3
    loss: int = 0

    def __post_init__(self) -> None:
        for name in ("win", "shutout_win", "loss"):
            check_integer(name, getattr(self, name), *LEAGUE_POINTS)


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating; the ordinal ``mu − 3·sigma`` is what the table shows."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class HeadToHead(NamedTuple):
    """One player's results against another, and the settlement points between them (a
    named tuple: a season makes one for every pair of players who met)."""

    won: int = 0
    lost: int = 0
    net_points: int = 0


@dataclass(frozen=True)
class Line:
    """One player's line of the standings."""

    rank: int | None  # None: fewer counted games than the season's min_games
    player: str
    games: int = 0
    won: int = 0
    lost: int = 0
    shutout_wins: int = 0
    league_points: int = 0
    net_points: int = 0
    money: Decimal = Decimal("0.00")
    rating: Rating = field(default_factory=Rating)

    def ranked_as(self, rank: int | None) -> Line:
        """The line with another rank: ``replace(line, rank=rank)`` without looking the
        fields up each time (a season ranks thousands of lines on every view).

        >>> Line(3, "Anna", 2).ranked_as(1)
        Line(rank=1, player='Anna', games=2, won=0, lost=0, shutout_wins=0, league_points=0, \
net_points=0, money=Decimal('0.00'), rating=Rating(mu=25.0, sigma=8.333333333333334))
        """
        line = object.__new__(Line)
        line.__dict__.update(self.__dict__, rank=rank)  # frozen: set once, here
        return line


Figure = int | float | Decimal | str | None


@dataclass(frozen=True)
class StandingsColumn:
    """One column of the standings, as every table of them has it (the season's page,
    the club's board, the PDF, the CSV) and FORMAT.md's JSON names it: its key, how it
    is read from a player's line and his hands (None: nothing to show, as a hand
    statistic where there are none), and how it is written. Its heading is the
    vocabulary's for its key.

    >>> line = Line(1, "Anna", 3, 2, 1, 1, 5, 120, Decimal("6.00"), Rating(27.1, 7.4))
    >>> [(column.key, column.read(line, None)) for column in RESULT_COLUMNS[5:]]
    [('shutout_wins', 1), ('league_points', 5), ('net_points', 120), ('money', Decimal('6.00'))]
    >>> COLUMNS["gins"].read(line, HandStats(hands=12, gins=2)), COLUMNS["gins"].read(line, None)
    (2, None)

    In the JSON, money is a decimal string, read back exactly; a column derived from
    the others (the ordinal of a rating) is written, never read back (``line_of``):

    >>> COLUMNS["money"].dump(Decimal("-6.50")), COLUMNS["money"].load("-6.50")
    ('-6.50', Decimal('-6.50'))
    """

    key: str
    read: Callable[[Line, HandStats | None], Figure]
    signed: bool = False  # won (+) or paid (−): written with its sign
    places: int | None = None  # written to so many decimals
    strong: bool = False  # what ranks the players: set in bold
    exact: bool = False  # a Decimal (money): a decimal string in the JSON
    derived: bool = False  # follows from the line's other figures: not read back

    def dump(self, figure: Figure) -> Figure:
        """The figure as FORMAT.md's JSON writes it: an exact one as a decimal string."""
        return str(figure) if self.exact and figure is not None else figure

    def load(self, value: Figure) -> Figure:
        """A figure of FORMAT.md's JSON, as ``read`` gives it (``dump`` undone)."""
        return Decimal(value) if self.exact and value is not None else value


def _line(name: str) -> Callable[[Line, HandStats | None], Figure]:
    return lambda line, stats: getattr(line, name)


def _hands(name: str) -> Callable[[Line, HandStats | None], Figure]:
    return lambda line, stats: None if stats is None else getattr(stats, name)


# A player's results: the first columns of every table of the standings, and of the JSON.
RESULT_COLUMNS = (
    StandingsColumn("rank", _line("rank")),
    StandingsColumn("player", _line("player")),
    StandingsColumn("games", _line("games")),
    StandingsColumn("won", _line("won")),
    StandingsColumn("lost", _line("lost")),
    StandingsColumn("shutout_wins", _line("shutout_wins")),
    StandingsColumn("league_points", _line("league_points"), strong=True),
    StandingsColumn("net_points", _line("net_points"), signed=True),
    StandingsColumn("money", _line("money"), signed=True, exact=True),
)
# His rating in full (the JSON's, the CSV's); the tables show its ordinal, "rating".
RATING_COLUMNS = (
    StandingsColumn("mu", lambda line, stats: line.rating.mu, places=2),
    StandingsColumn("sigma", lambda line, stats: line.rating.sigma, places=2),
    StandingsColumn("ordinal", lambda line, stats: line.rating.ordinal, places=2, derived=True),
)
RATING_COLUMN = StandingsColumn("rating", lambda line, stats: line.rating.ordinal, places=1)
# His hands over the season: the last columns of the page and of the PDF.
STATS_COLUMNS = (
    StandingsColumn("hands", _hands("hands")),
    StandingsColumn("gins", _hands("gins")),
    StandingsColumn("undercuts", _hands("undercuts")),
    StandingsColumn("points_per_hand_won", _hands("points_per_hand_won"), places=1),
)
LINE_COLUMNS = (*RESULT_COLUMNS, RATING_COLUMN)  # a line of the table, left to right
COLUMNS = {column.key: column for column in (*LINE_COLUMNS, *RATING_COLUMNS, *STATS_COLUMNS)}


def line_of(figures: Mapping[str, Figure]) -> Line:
    """A line from its figures by column key, as the columns read them: its results
    (RESULT_COLUMNS, each key the line's field of that name) and its rating
    (RATING_COLUMNS, the derived ordinal left out).

    >>> line = Line(None, "Ben", 3, 1, 2, 0, -1, -120, Decimal("-6.00"), Rating(22.9, 7.4))
    >>> line_of({c.key: c.read(line, None) for c in (*RESULT_COLUMNS, *RATING_COLUMNS)}) == line
    True
    """
    rating = {c.key: figures[c.key] for c in RATING_COLUMNS if not c.derived}
    return Line(**{c.key: figures[c.key] for c in RESULT_COLUMNS}, rating=Rating(**rating))


@dataclass(frozen=True)
class Standings:
    lines: tuple[Line, ...]
    head_to_head: dict[str, dict[str, HeadToHead]]
    history: dict[str, tuple[Rating, ...]]  # each player's rating after each of his games
    results: dict[str, tuple[bool, ...]] = field(default_factory=dict)  # won, game by game


def standings(
    games: Iterable[GameResult],
    players: Iterable[str],
    points: LeaguePoints | None = None,
    min_games: int = 0,
) -> Standings:
    """The standings of a season: ``games`` are its counted closed games in the order
    they were played, ``players`` everybody named in its parties (listed even without
    a counted game)."""
    book = LeagueBook(points or LeaguePoints(), players)
    for game in games:
        book.add(game)
    return book.standings(min_games)


class LeagueBook:
    """A league's figures as counted so far, game after game: each player's games, won,
    lost, shutout wins, league points, net points and money; each pair's meetings;
    the ratings; each player's run of results."""

    def __init__(self, points: LeaguePoints, players: Iterable[str] = ()):
        self.points = points
        self.counts: dict[str, list] = {}
        self.pairs: dict[str, dict[str, list[int]]] = {}
        self.rater = Rater()
        self.history: dict[str, list[Rating]] = {}
        self.results: dict[str, list[bool]] = {}
        self.enter(players)

    def enter(self, players: Iterable[str]) -> None:
        """List players who may have no counted game."""
        for name in players:
            self.counts.setdefault(name, _zero())

    def add(self, game: GameResult) -> None:
        """Count the next game in playing order."""
        for name in (*game.winners, *game.losers):
            self.results.setdefault(name, []).append(name in game.winners)
        _count(self.counts, game, self.points)
        _meet(self.pairs, game)
        for name, rating in self.rater.rate(game.ranking, game.ranks):
            self.history.setdefault(name, []).append(rating)

    def standings(self, min_games: int = 0) -> Standings:
        final = [
            Line(None, name, *figures, rating=self.rater.ratings.get(name, Rating()))
            for name, figures in self.counts.items()
        ]
        meetings = {
            one: {two: HeadToHead(*figures) for two, figures in against.items()}
            for one, against in self.pairs.items()
        }
        among = {
            name: _among(name, group, meetings)
            for group in ties(final, min_games)
            for name in group
        }
        return Standings(
            ranked(final, among, min_games),
            meetings,
            {name: tuple(past) for name, past in self.history.items()},
            {name: tuple(run) for name, run in self.results.items()},
        )


def ties(lines: Iterable[Line], min_games: int = 0) -> list[frozenset[str]]:
    """The groups of players level on league points, games won and net points (each
    group among the ranked or among the unranked): only their head-to-head is needed."""
    groups = []
    for part in _parts(lines, min_games):
        for _, tied in groupby(sorted(part, key=_key), key=_key):
            names = frozenset(line.player for line in tied)
            if len(names) > 1:
                groups.append(names)
    return groups


def ranked(lines: Iterable[Line], among: Mapping[str, int], min_games: int = 0) -> tuple[Line, ...]:
    """The lines in the order of RULES.md §11, ranked 1, 1, 3; ``among`` gives each
    tied player's settlement points against the others of his group (``ties``); those
    under ``min_games`` follow, in the same order, with no rank."""
    counted, under = _parts(lines, min_games)
    return (
        *_ranked(_ordered(counted, among)),
        *(line.ranked_as(None) for _, line in _ordered(under, among)),
    )


def played(lines: Iterable[Line]) -> tuple[Line, ...]:
    """The ranked lines of those with a counted game, ranked again among themselves:
    RULES.md §11 lists a player with none (his partie runs), and ranks him like anyone
    with 0 points; a table shown without him closes the gap. The order and the ties
    stay as they were.

    >>> lines = [Line(1, "A", 2), Line(2, "Z"), Line(3, "B", 1), Line(3, "C", 1)]
    >>> [(line.rank, line.player) for line in played(lines)]
    [(1, 'A'), (2, 'B'), (2, 'C')]
    >>> played(lines[:1])[0] is lines[0]  # nobody without a game: the lines as they are
    True
    """
    lines = tuple(lines)
    if all(line.games for line in lines):
        return lines
    kept, ranks = [], {}
    for line in lines:
        if not line.games:
            continue
        if line.rank is not None:
            ranks.setdefault(line.rank, len(kept) + 1)
        kept.append(line.ranked_as(line.rank and ranks[line.rank]))
    return tuple(kept)


def _parts(lines: Iterable[Line], min_games: int) -> tuple[list[Line], list[Line]]:
    lines = list(lines)
    return (
        [line for line in lines if line.games >= min_games],
        [line for line in lines if line.games < min_games],
    )


def _zero() -> list:
    return [0, 0, 0, 0, 0, 0, Decimal("0.00")]


def _count(counts: dict[str, list], game: GameResult, points: LeaguePoints) -> None:
    """Games, wins, losses, league points, and the settlement lines' points and money."""
    win = points.shutout_win if game.shutout else points.win
    for name in game.winners:
        figures = counts.setdefault(name, _zero())
        figures[0] += 1
        figures[1] += 1
        figures[3] += game.shutout
        figures[4] += win
    for name in game.losers:
        figures = counts.setdefault(name, _zero())
        figures[0] += 1
        figures[2] += 1
        figures[4] += points.loss
    for payment in game.payments:
        for name, sign in ((payment.payee, 1), (payment.payer, -1)):
            figures = counts.setdefault(name, _zero())
            figures[5] += sign * payment.points
            figures[6] += sign * payment.amount


def _meet(pairs: dict[str, dict[str, list[int]]], game: GameResult) -> None:
    """A result between the winner(s) and each loser; the settlement lines between two."""

    def between(one: str, other: str) -> list[int]:
        return pairs.setdefault(one, {}).setdefault(other, [0, 0, 0])

    for winner in game.winners:
        for loser in game.losers:
            between(winner, loser)[0] += 1
            between(loser, winner)[1] += 1
    for payment in game.payments:
        between(payment.payee, payment.payer)[2] += payment.points
        between(payment.payer, payment.payee)[2] -= payment.points


class Rater:
    """OpenSkill updates game after game (RULES.md §11), for players known by any key
    (a name, a player's id): each starts from ``ratings`` or, at his first game, from
    the default rating."""

    def __init__(self, ratings: Mapping[Hashable, Rating] | None = None):
        self.ratings: dict[Hashable, Rating] = dict(ratings or {})

    def rate(
        self, ranking: Sequence[Sequence[Hashable]], ranks: Sequence[int]
    ) -> list[tuple[Hashable, Rating]]:
        """One update for a game: its sides in their ranking, the winners first; each
        player's rating after it, side by side."""
        ratings = self.ratings
        if len(ranking) == 2 and len(ranking[0]) == len(ranking[1]) == 1 and ranks[0] != ranks[1]:
            (one,), (other,) = ranking  # most games: straight to the unrolled update
            [first], [second] = _one_against_one(
                ratings.get(one, DEFAULT), ratings.get(other, DEFAULT), ranks[0] < ranks[1]
            )
            ratings[one], ratings[other] = Rating(*first), Rating(*second)
            return [(one, ratings[one]), (other, ratings[other])]
        teams = [[ratings.get(key, DEFAULT) for key in side] for side in ranking]
        after = []
        for side, team in zip(ranking, plackett_luce(teams, ranks), strict=True):
            for key, (mu, sigma) in zip(side, team, strict=True):
                ratings[key] = rating = Rating(mu, sigma)
                after.append((key, rating))
        return after


DEFAULT = Rating()  # a player's before his first game

# The library's model with its defaults, on plain floats: ``PlackettLuce().rate(teams,
# ranks=ranks)`` step by step, each operation in the library's order, so that every
# figure is the same to the last bit (tests/engine/test_plackett_luce.py checks it on
# thousands of random games). The library copies every rating, sorts its objects and
# makes an identifier for each: about ten times the time, which a season rated again
# from its first game (tens of thousands of games) would feel.
TAU_SQUARED = TAU * TAU
BETA_SQUARED = BETA**2


def plackett_luce(
    teams: Sequence[Sequence[Rating]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """Each player's ``(mu, sigma)`` after a game of ``teams`` ranked ``ranks`` (lower
    is better; equal ranks a tie), as OpenSkill's Plackett-Luce model with its defaults
    gives them.

    >>> [[(round(mu, 4), round(sigma, 4))] for [(mu, sigma)] in plackett_luce(
    ...     [[Rating()], [Rating()]], [1, 2])]
    [[(27.6354, 8.0659)], [(22.3646, 8.0659)]]
    """
    count = len(teams)
    if count == 2 and len(teams[0]) == len(teams[1]) == 1 and ranks[0] != ranks[1]:
        return _one_against_one(teams[0][0], teams[1][0], ranks[0] < ranks[1])
    # The dynamics: each sigma grows by tau before the game.
    players = [[(r.mu, math.sqrt(r.sigma * r.sigma + TAU_SQUARED)) for r in team] for team in teams]
    order = sorted(range(count), key=ranks.__getitem__)  # stable: tied teams keep their order
    ranked = [int(rank) for rank in sorted(ranks)]
    sides = [players[i] for i in order]
    team_mu, team_sigma_squared = [], []
    for side in sides:
        if len(side) == 1:  # one player: his figures, added to 0.0 as the sum would
            ((mu, sigma),) = side
            team_mu.append(0.0 + mu)
            team_sigma_squared.append(0.0 + sigma**2)
            continue
        mu_summed = sigma_squared_summed = 0.0
        # The library sums a team's players by their ordinal, the best first.
        for mu, sigma in sorted(side, key=lambda p: p[0] - 3.0 * p[1], reverse=True):
            mu_summed += mu
            sigma_squared_summed += sigma**2
        team_mu.append(mu_summed)
        team_sigma_squared.append(sigma_squared_summed)
    collective = 0.0
    for sigma_squared in team_sigma_squared:
        collective += sigma_squared + BETA_SQUARED
    c = math.sqrt(collective)
    sum_q = [0.0] * count
    for i in range(count):
        summed = math.exp(team_mu[i] / c)
        for q in range(count):
            if ranked[i] >= ranked[q]:
                sum_q[q] += summed
    a = [ranked.count(rank) for rank in ranked]
    tied = {rank for rank in ranked if ranked.count(rank) > 1}
    results: list[list[tuple[float, float]]] = []
    for i in range(count):
        omega = delta = 0.0
        i_mu_over_c = math.exp(team_mu[i] / c)
        for q in range(count):
            share = i_mu_over_c / sum_q[q]
            if ranked[q] <= ranked[i]:
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        sigma_squared = team_sigma_squared[i]
        omega *= sigma_squared / c
        delta *= sigma_squared / c**2
        delta *= math.sqrt(sigma_squared) / c  # the default gamma
        team = []
        for mu, sigma in sides[i]:
            mu += (sigma**2 / sigma_squared) * omega
            sigma *= math.sqrt(max(1 - (sigma**2 / sigma_squared) * delta, KAPPA))
            if ranked[i] in tied:
                mu += 0.0  # the library's average change of tied teams: zero, always
            team.append((mu, sigma))
        results.append(team)
    unsorted: list[list[tuple[float, float]]] = [[] for _ in range(count)]
    for position, i in enumerate(order):
        unsorted[i] = results[position]
    return unsorted


def _one_against_one(
    first: Rating, second: Rating, first_won: bool
) -> list[list[tuple[float, float]]]:
    """``plackett_luce`` of two players, one the winner (most games): the same operations
    on the same values, unrolled."""
    winner, loser = (first, second) if first_won else (second, first)
    sigma_w = math.sqrt(winner.sigma * winner.sigma + TAU_SQUARED)
    sigma_l = math.sqrt(loser.sigma * loser.sigma + TAU_SQUARED)
    mu_w, mu_l = 0.0 + winner.mu, 0.0 + loser.mu  # each team's mu, summed from 0.0
    squared_w, squared_l = 0.0 + sigma_w**2, 0.0 + sigma_l**2
    c = math.sqrt((0.0 + (squared_w + BETA_SQUARED)) + (squared_l + BETA_SQUARED))
    e_w, e_l = math.exp(mu_w / c), math.exp(mu_l / c)
    sum_w, sum_l = (0.0 + e_w) + e_l, 0.0 + e_l  # the winner's rank is met by both
    # The winner: against the sum of both.
    share = e_w / sum_w
    delta_w = 0.0 + share * (1 - share) / 1
    omega_w = 0.0 + (1 - share) / 1
    # The loser: against the sum of both, then his own.
    share = e_l / sum_w
    delta_l = 0.0 + share * (1 - share) / 1
    omega_l = 0.0 - share / 1
    share = e_l / sum_l
    delta_l += share * (1 - share) / 1
    omega_l += (1 - share) / 1
    after = []
    for mu, sigma, squared, omega, delta in (
        (winner.mu, sigma_w, squared_w, omega_w, delta_w),
        (loser.mu, sigma_l, squared_l, omega_l, delta_l),
    ):
        omega *= squared / c
        delta *= squared / c**2
        delta *= math.sqrt(squared) / c
        mu += (sigma**2 / squared) * omega
        sigma *= math.sqrt(max(1 - (sigma**2 / squared) * delta, KAPPA))
        after.append([(mu, sigma)])
    return after if first_won else after[::-1]


def _key(line: Line) -> tuple[int, int, int]:
    return (-line.league_points, -line.won, -line.net_points)


Ordered = list[tuple[tuple[int, ...], Line]]  # each line with the key it was ordered by


def _ordered(lines: Sequence[Line], among: Mapping[str, int]) -> Ordered:
    """League points, games won, net points; then among the players still tied, their
    settlement points against each other; then by name, character by character."""
    keyed = [((*_key(line), -among.get(line.player, 0)), line) for line in lines]
    return sorted(keyed, key=lambda pair: (pair[0], pair[1].player))


def _among(player: str, names: frozenset[str], meetings: dict[str, dict[str, HeadToHead]]) -> int:
    """A player's settlement points against the other players of ``names``."""
    against = meetings.get(player, {})
    return sum(h.net_points for other, h in against.items() if other in names)


def _ranked(ordered: Ordered) -> list[Line]:
    """Ranks 1, 1, 3: players level on all four keys share the rank of the first."""
    result: list[Line] = []
    for position, (key, line) in enumerate(ordered, start=1):
        level = position > 1 and ordered[position - 2][0] == key
        result.append(line.ranked_as(result[-1].rank if level else position))
    return result
