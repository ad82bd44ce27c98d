"""The engine's Plackett-Luce update on plain floats gives OpenSkill's figures to the last
bit: the library's model with its defaults is the oracle, on random games of every shape
a partie closes (two players, sides of two, three players with ties) and beyond, from
random ratings and from ratings carried forward game after game."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from scorekeeper.engine import league
from scorekeeper.engine.league import Rater, Rating, plackett_luce

MODEL = PlackettLuce()


def test_the_engines_parameters_are_the_librarys_defaults_to_the_last_bit():
    engine = (league.MU, league.SIGMA, league.BETA, league.TAU, league.KAPPA)
    assert engine == (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.tau, MODEL.kappa)
    assert (Rating().mu, Rating().sigma) == (MODEL.mu, MODEL.sigma)
    assert not MODEL.limit_sigma and not MODEL.balance  # the engine has neither option


def library(teams: list[list[Rating]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    rated = [[MODEL.create_rating([r.mu, r.sigma]) for r in team] for team in teams]
    return [[(p.mu, p.sigma) for p in team] for team in MODEL.rate(rated, ranks=list(ranks))]


def random_game(rng: random.Random) -> tuple[list[list[Rating]], list[int]]:
    """Two to five sides of one to three players, ranks with ties, ratings from a newcomer's
    to a settled player's (and some exactly level, which the library sorts stably)."""
    sides = rng.randint(2, 5)
    teams = []
    for _ in range(sides):
        size = rng.choice([1, 1, 1, 2, 2, 3])
        if rng.random() < 0.2:
            teams.append([Rating() for _ in range(size)])
        else:
            teams.append([Rating(rng.uniform(-10, 60), rng.uniform(0.5, 9)) for _ in range(size)])
    ranks = [rng.randint(1, sides) for _ in range(sides)]
    return teams, ranks


def test_each_update_is_the_librarys_to_the_last_bit():
    rng = random.Random(16)
    for _ in range(5000):
        teams, ranks = random_game(rng)
        assert plackett_luce(teams, ranks) == library(teams, ranks), (teams, ranks)


def test_a_game_of_two_players_is_the_librarys_to_the_last_bit():
    """The most common game, which the engine rates by a shorter way."""
    rng = random.Random(2)
    for _ in range(5000):
        teams = [[Rating(rng.uniform(-10, 60), rng.uniform(0.5, 9))] for _ in range(2)]
        ranks = rng.choice([[1, 2], [2, 1], [0, 1], [1, 3]])
        assert plackett_luce(teams, ranks) == library(teams, ranks), (teams, ranks)
    assert plackett_luce([[Rating()], [Rating()]], [1, 2]) == library(
        [[Rating()], [Rating()]], [1, 2]
    )


def test_ratings_carried_over_thousands_of_games_are_the_librarys():
    """A club's games one after another: the same ratings after every game."""
    rng = random.Random(11)
    names = [f"P{n}" for n in range(40)]
    ours = Rater()
    theirs: dict[str, Rating] = {}
    for _ in range(3000):
        shape = rng.choice(["two", "sides", "three"])
        seated = rng.sample(names, {"two": 2, "sides": 4, "three": 3}[shape])
        if shape == "two":
            ranking, ranks = [[seated[0]], [seated[1]]], [1, 2]
        elif shape == "sides":
            ranking, ranks = [seated[:2], seated[2:]], [1, 2]
        else:
            ranking, ranks = [[name] for name in seated], rng.choice([[1, 2, 3], [1, 2, 2]])
        after = dict(ours.rate(ranking, ranks))
        teams = [[theirs.get(name, Rating()) for name in side] for side in ranking]
        for side, team in zip(ranking, library(teams, ranks), strict=True):
            for name, (mu, sigma) in zip(side, team, strict=True):
                theirs[name] = Rating(mu, sigma)
                assert after[name] == theirs[name]
    assert ours.ratings == theirs
