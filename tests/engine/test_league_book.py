"""A league book stored at some game and resumed gives the standings of one counted
straight through: the checkpoint behind the league pages' quick recomputation."""

from __future__ import annotations

import json
import random
from decimal import Decimal

from scorekeeper import engine
from scorekeeper.engine.league import LeagueBook, LeaguePoints
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


def test_a_book_resumed_from_its_stored_state_counts_as_one_counted_straight_through():
    games = made_up_games(120)
    points = LeaguePoints(win=2, shutout_win=4, loss=1)
    straight = engine.standings(games, NAMES + ["Gustav"], points, min_games=3)
    for stop in (0, 1, 57, 119, 120):
        first = LeagueBook(points, NAMES + ["Gustav"])
        for game in games[:stop]:
            first.add(game)
        state = json.loads(json.dumps(first.state(results_kept=5)))  # as a JSON column keeps it
        resumed = LeagueBook.resume(state, points)
        for game in games[stop:]:
            resumed.add(game)
        table = resumed.standings(min_games=3)
        assert table.lines == straight.lines
        assert table.head_to_head == straight.head_to_head
        for name, run in straight.results.items():
            assert table.results[name][-5:] == run[-5:]


def test_the_stored_state_keeps_only_the_last_results_and_no_rating_history():
    book = LeagueBook(LeaguePoints())
    for game in made_up_games(40):
        book.add(game)
    state = book.state(results_kept=5)
    assert all(len(run) <= 5 for run in state["results"].values())
    assert "history" not in state
    assert any(len(run) > 5 for run in book.results.values())
