"""Ratings carried forward: a rater resumed from the ratings stored after some game rates
the games after it as one rated straight through (what league.ratings relies on)."""

from __future__ import annotations

import random
from decimal import Decimal

from scorekeeper import engine
from scorekeeper.engine.league import LeaguePoints, Rater, ranked, ties
from scorekeeper.engine.tally import Payment

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]


def made_up_games(count: int, seed: int = 7) -> list[engine.GameResult]:
    """Two-player games, partnership games and three-player games with ties."""
    rng = random.Random(seed)
    games = []
    for number in range(1, count + 1):
        shape = rng.choice(["two", "teams", "three"])
        seated = rng.sample(NAMES, {"two": 2, "teams": 4, "three": 3}[shape])
        points = rng.randint(20, 200)
        if shape == "two":
            ranking, ranks = ((seated[0],), (seated[1],)), (1, 2)
            payments = (Payment(seated[1], seated[0], points, Decimal(points) / 20),)
        elif shape == "teams":
            ranking, ranks = (tuple(seated[:2]), tuple(seated[2:])), (1, 2)
            payments = tuple(
                Payment(loser, winner, points, Decimal(points) / 20)
                for winner, loser in zip(seated[:2], seated[2:], strict=True)
            )
        else:
            ranking, ranks = tuple((name,) for name in seated), rng.choice([(1, 2, 3), (1, 2, 2)])
            payments = tuple(
                Payment(loser, seated[0], points, Decimal(points) / 20) for loser in seated[1:]
            )
        winners = ranking[0]
        losers = tuple(name for side in ranking[1:] for name in side)
        games.append(
            engine.GameResult(number, winners, losers, rng.random() < 0.1, ranking, ranks, payments)
        )
    return games


def test_a_rater_resumed_from_stored_ratings_rates_as_one_rated_straight_through():
    games = made_up_games(120)
    straight = Rater()
    after = [dict(straight.rate(game.ranking, game.ranks)) for game in games]
    for stop in (1, 57, 119):
        known: dict = {}
        for game_after in after[:stop]:
            known.update(game_after)
        # As a float column keeps them: the same 64-bit values.
        resumed = Rater(
            {name: engine.Rating(float(r.mu), float(r.sigma)) for name, r in known.items()}
        )
        for game, expected in zip(games[stop:], after[stop:], strict=True):
            assert dict(resumed.rate(game.ranking, game.ranks)) == expected


def test_the_head_to_head_is_asked_for_only_among_tied_players():
    games = made_up_games(60)
    points = LeaguePoints(win=2, shutout_win=4, loss=-1)
    table = engine.standings(games, NAMES + ["Gustav"], points, min_games=3)
    lines = [engine.league.Line(None, *(getattr(line, f) for f in (
        "player", "games", "won", "lost", "shutout_wins", "league_points", "net_points",
        "money", "rating"))) for line in table.lines]  # fmt: skip
    groups = ties(lines, min_games=3)
    assert all(len(group) > 1 for group in groups)
    among = {
        name: sum(h.net_points for other, h in table.head_to_head.get(name, {}).items()
                  if other in group)
        for group in groups for name in group
    }  # fmt: skip
    assert ranked(reversed(lines), among, min_games=3) == table.lines
    untied = {line.player for line in lines} - {name for group in groups for name in group}
    assert untied  # most players are told apart without their meetings
