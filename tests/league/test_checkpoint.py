"""Standings resumed from a season's checkpoint are those counted from the first game,
whatever changed since: a game appended, a partie started later, a hand corrected before
the checkpoint, a player renamed."""

from __future__ import annotations

import pytest

from scorekeeper.league import selectors
from scorekeeper.league.models import SeasonCheckpoint
from scorekeeper.league.services import results_changed
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.league.conftest import G, K

pytestmark = pytest.mark.django_db


def table(season) -> list:
    return [(row.line, row.stats, row.trend) for row in selectors.season_table(season).rows]


def counted_afresh(season) -> list:
    """The standings with no checkpoint to resume from (it is put back afterwards)."""
    kept = list(SeasonCheckpoint.objects.filter(season=season).values())
    SeasonCheckpoint.objects.filter(season=season).delete()
    results_changed(club_id=season.league.club_id)
    fresh = table(season)
    SeasonCheckpoint.objects.filter(season=season).delete()
    for row in kept:
        SeasonCheckpoint.objects.create(**row)
    results_changed(club_id=season.league.club_id)
    return fresh


@pytest.fixture
def short_tail(monkeypatch):
    """A checkpoint two games behind the last, moved on after four."""
    monkeypatch.setattr(selectors, "TAIL", 2)


def games(play, pairs):
    return [play(pair, [G(90, knocker=pair[n % 2])]) for n, pair in enumerate(pairs)]


def test_games_appended_after_the_checkpoint_are_counted_from_it(play, season, short_tail):
    games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna")])
    table(season)
    point = SeasonCheckpoint.objects.get(season=season)
    assert point.parties[0] == 1  # three games, the checkpoint two behind

    games(play, [("Dora", "Anna"), ("Ben", "Eva")])  # Dora and Eva are new
    resumed = table(season)
    assert SeasonCheckpoint.objects.get(season=season).upto == point.upto  # resumed from it
    assert resumed == counted_afresh(season)
    assert {line.player for line, _, _ in resumed} >= {"Dora", "Eva"}

    games(play, [("Anna", "Carl"), ("Eva", "Dora")])  # seven: more than twice two after it
    assert table(season) == counted_afresh(season)
    assert SeasonCheckpoint.objects.get(season=season).parties[0] == 5  # moved on


def test_a_correction_before_the_checkpoint_counts_from_the_first_game(
    play, season, owner, short_tail
):
    first, *_ = games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna"), ("Ben", "Dora")])
    table(season)
    assert SeasonCheckpoint.objects.get(season=season).parties[0] == 2

    services.hand_edit(partie=first, number=1, hand=G(90, knocker="Ben"), user=owner)
    corrected = table(season)
    assert corrected == counted_afresh(season)
    anna = next(line for line, _, _ in corrected if line.player == "Anna")
    assert (anna.games, anna.won) == (2, 0)


def test_a_running_partie_seating_a_new_player_lists_him(play, season, short_tail):
    games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna")])
    table(season)
    play(["Anna", "Zoe"], [K(3, 20, knocker="Zoe")])  # no game closed yet
    assert "Zoe" in [line.player for line, _, _ in table(season)]
    assert table(season) == counted_afresh(season)


def test_a_renamed_player_counts_from_the_first_game(play, season, owner, short_tail):
    games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna"), ("Ben", "Dora")])
    table(season)

    services.player_rename(player=Player.objects.get(name="Carl"), name="Karl", user=owner)
    renamed = table(season)
    assert "Karl" in [line.player for line, _, _ in renamed]
    assert "Carl" not in [line.player for line, _, _ in renamed]
    assert renamed == counted_afresh(season)


def test_a_deleted_partie_leaves_the_standings_before_or_after_the_checkpoint(
    play, season, owner, short_tail
):
    parties = games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna"), ("Ben", "Dora")])
    table(season)

    services.partie_delete(partie=parties[-1], user=owner)  # after the checkpoint
    after = table(season)
    assert after == counted_afresh(season)
    assert "Dora" not in [line.player for line, _, _ in after]

    services.partie_delete(partie=parties[0], user=owner)  # before it
    assert table(season) == counted_afresh(season)
