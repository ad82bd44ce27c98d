"""Standings and player records resumed from a checkpoint are those counted from the
first game, whatever changed since: a game appended, a partie started later, a hand
corrected before the checkpoint, a partie deleted, a player renamed."""

from __future__ import annotations

import pytest

from scorekeeper.league import books, selectors
from scorekeeper.league.models import BookCheckpoint
from scorekeeper.league.players import player_record
from scorekeeper.league.services import results_changed
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.league.conftest import G, K

pytestmark = pytest.mark.django_db


def table(season) -> list:
    return [(row.line, row.stats, row.trend) for row in selectors.season_table(season).rows]


def counted_afresh(season) -> list:
    """The standings with no checkpoint to resume from (it is put back afterwards)."""
    kept = list(BookCheckpoint.objects.filter(season=season).values())
    BookCheckpoint.objects.filter(season=season).delete()
    results_changed(club_id=season.league.club_id)
    fresh = table(season)
    BookCheckpoint.objects.filter(season=season).delete()
    for row in kept:
        BookCheckpoint.objects.create(**row)
    results_changed(club_id=season.league.club_id)
    return fresh


@pytest.fixture
def short_tail(monkeypatch):
    """A checkpoint two games behind the last, moved on after four."""
    monkeypatch.setattr(books, "TAIL", 2)


def games(play, pairs):
    return [play(pair, [G(90, knocker=pair[n % 2])]) for n, pair in enumerate(pairs)]


def test_games_appended_after_the_checkpoint_are_counted_from_it(play, season, short_tail):
    games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna")])
    table(season)
    point = BookCheckpoint.objects.get(season=season)
    assert point.parties[0] == 1  # three games, the checkpoint two behind

    games(play, [("Dora", "Anna"), ("Ben", "Eva")])  # Dora and Eva are new
    resumed = table(season)
    assert BookCheckpoint.objects.get(season=season).upto == point.upto  # resumed from it
    assert resumed == counted_afresh(season)
    assert {line.player for line, _, _ in resumed} >= {"Dora", "Eva"}

    games(play, [("Anna", "Carl"), ("Eva", "Dora")])  # seven: more than twice two after it
    assert table(season) == counted_afresh(season)
    assert BookCheckpoint.objects.get(season=season).parties[0] == 5  # moved on


def test_a_correction_before_the_checkpoint_counts_from_the_first_game(
    play, season, owner, short_tail
):
    first, *_ = games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna"), ("Ben", "Dora")])
    table(season)
    assert BookCheckpoint.objects.get(season=season).parties[0] == 2

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


def record(player: Player) -> tuple:
    """A player's all-time record as his page shows it, results with ratings included."""
    got = player_record(player)
    return (
        got.line,
        [(r.partie.pk, r.number, r.won, r.net_points, r.rating) for r in got.results],
        [(o.player.pk, o.meeting) for o in got.opponents],
    )


def records_afresh(club_id: int) -> dict:
    """Every player's record with no checkpoint to resume from (it is put back)."""
    kept = list(BookCheckpoint.objects.filter(club_id=club_id).values())
    BookCheckpoint.objects.filter(club_id=club_id).delete()
    results_changed(club_id=club_id)
    fresh = {p.name: record(p) for p in Player.objects.filter(club_id=club_id)}
    BookCheckpoint.objects.filter(club_id=club_id).delete()
    for row in kept:
        BookCheckpoint.objects.create(**row)
    results_changed(club_id=club_id)
    return fresh


def test_player_records_resumed_from_the_clubs_checkpoint_are_those_counted_afresh(
    play, season, owner, short_tail
):
    parties = games(play, [("Anna", "Ben"), ("Ben", "Carl"), ("Carl", "Anna"), ("Ben", "Dora")])
    club_id = parties[0].club_id
    anna = Player.objects.get(name="Anna")
    record(anna)
    point = BookCheckpoint.objects.get(club_id=club_id)
    assert point.parties[0] == 2

    games(play, [("Anna", "Dora"), ("Eva", "Ben")])  # appended: resumed
    now = {p.name: record(p) for p in Player.objects.filter(club_id=club_id)}
    assert BookCheckpoint.objects.get(club_id=club_id).upto == point.upto
    assert now == records_afresh(club_id)
    assert len(now["Anna"][1]) == 3

    services.hand_edit(partie=parties[0], number=1, hand=G(90, knocker="Ben"), user=owner)
    assert {p.name: record(p) for p in Player.objects.filter(club_id=club_id)} == records_afresh(
        club_id
    )
