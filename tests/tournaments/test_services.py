"""A tournament played through its services: entries, seeds, the start, each partie's
close moving its winner on (the worker), confirmations, withdrawals, corrections and the
ratings it counts in."""

import pytest

from scorekeeper import engine
from scorekeeper.clubs.models import Role
from scorekeeper.league import selectors as league_selectors
from scorekeeper.league.models import CurrentRating
from scorekeeper.table import services as table_services
from scorekeeper.table.models import ClosedGame, Partie
from scorekeeper.table.services import confirmations
from scorekeeper.tournaments import selectors, services
from scorekeeper.tournaments.models import MatchResult, TournamentMatch
from scorekeeper.tournaments.services import TournamentRefused
from tests.clubs.conftest import join

from .conftest import NAMES, create, entered, table_of, win, work

pytestmark = pytest.mark.django_db


def test_a_player_checked_in_is_entered_and_a_tick_taken_away_leaves_him_out(club, owner, players):
    tournament = create(club, owner)
    services.entries_check_in(tournament=tournament, players=[players["Anna"], players["Ben"]])
    services.entries_check_in(tournament=tournament, players=[players["Ben"], players["Carl"]])
    field = [e.player.name for e in selectors.field_of(tournament)]
    assert sorted(field) == ["Ben", "Carl"]
    assert tournament.entries.count() == 3  # Anna stays entered, not checked in


def test_seeding_by_club_rating_puts_the_best_rated_first_and_the_unrated_last(
    club, owner, players
):
    for name, wins in (("Carl", 3), ("Ben", 1)):
        for _ in range(wins):
            partie = table_services.partie_start(
                owner=owner,
                club=club,
                names=[name, "Hanna"],
                rules=create(club, owner).settings.rules,
                first_dealer=name,
            )
            for _ in range(2):
                table_services.hand_record(
                    partie=partie,
                    hand=engine.Hand.gin(30, knocker=name),
                    user=owner,
                )
    work()
    tournament = create(club, owner)
    services.entries_check_in(tournament=tournament, players=list(players.values()))
    seeded = services.entries_seed(tournament=tournament, method="rating")
    names = [e.player.name for e in seeded]
    assert names[:2] == ["Carl", "Ben"]
    assert names[-5:] == ["Anna", "Dora", "Emil", "Fritz", "Gus"]  # unrated, by name


def test_a_random_draw_is_the_same_for_the_same_seed(club, owner, players):
    tournament = create(club, owner)
    services.entries_check_in(tournament=tournament, players=list(players.values()))
    first = [
        e.player.name for e in services.entries_seed(tournament=tournament, method="random", seed=7)
    ]
    again = [
        e.player.name for e in services.entries_seed(tournament=tournament, method="random", seed=7)
    ]
    assert first == again and sorted(first) == NAMES
    tournament.refresh_from_db()
    assert tournament.seed == 7


def test_the_start_makes_round_one_parties_at_numbered_tables_in_seed_order(club, owner, players):
    tournament = entered(create(club, owner), players)
    tournament = services.tournament_start(tournament=tournament, owner=owner)
    rows = list(TournamentMatch.objects.filter(tournament=tournament).order_by("table"))
    assert [(r.match, r.table, sorted(r.partie.player_names)) for r in rows] == [
        ("W1-1", 1, ["Anna", "Hanna"]),
        ("W1-2", 2, ["Dora", "Emil"]),
        ("W1-3", 3, ["Ben", "Gus"]),
        ("W1-4", 4, ["Carl", "Fritz"]),
    ]
    partie = rows[0].partie
    assert partie.club == club and partie.dealer_cut and partie.evening == tournament.evening
    assert partie.kind == "two_player" and str(partie.stake) == "0.0500"


def test_entries_close_at_the_start(club, owner, players):
    tournament = entered(create(club, owner), players, NAMES[:4])
    services.tournament_start(tournament=tournament, owner=owner)
    with pytest.raises(TournamentRefused) as refused:
        services.entry_add(tournament=tournament, player=players["Gus"])
    assert refused.value.code == "started"


def test_a_field_too_small_is_refused_with_the_engines_line(club, owner, players):
    tournament = entered(create(club, owner), players, ["Anna"])
    with pytest.raises(TournamentRefused) as refused:
        services.tournament_start(tournament=tournament, owner=owner)
    assert refused.value.errors == ["players: a tournament needs at least 2 players, not 1"]
    tournament.refresh_from_db()
    assert tournament.started_at is None and not Partie.objects.filter(club=club).exists()


def test_a_partie_closed_moves_its_winner_on_when_the_worker_runs(club, owner, players):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    win(tournament, "W1-1", "Anna", owner)
    win(tournament, "W1-2", "Emil", owner)
    assert not MatchResult.objects.exists()  # the close gives nothing by itself: the worker does
    work()
    assert list(MatchResult.objects.values_list("match", "winner__name", "source")) == [
        ("W1-1", "Anna", "partie"),
        ("W1-2", "Emil", "partie"),
    ]
    semi = table_of(tournament, "W2-1")
    assert sorted(semi.partie.player_names) == ["Anna", "Emil"]
    assert semi.table == 1  # the first table free: W1-3 and W1-4 still play at 3 and 4
    work()
    assert MatchResult.objects.count() == 2  # done once


def test_a_whole_knockout_ends_with_its_champion(club, owner, players):
    tournament = entered(create(club, owner, third_place=True), players)
    services.tournament_start(tournament=tournament, owner=owner)
    while not tournament.is_over:
        state = selectors.tournament_state(tournament)
        for match in state.playable():
            win(tournament, match.id, min(p for p in match.players), owner)
        work()
        tournament.refresh_from_db()
    view = selectors.tournament_view(tournament)
    assert view.champion == "Anna"
    assert [s.players for s in view.standings][:4] == [("Anna",), ("Ben",), ("Carl",), ("Dora",)]


def test_where_the_tournament_asks_the_winner_moves_on_once_both_confirmed(
    club, owner, players, django_user_model
):
    users = {}
    for name in ("Anna", "Hanna"):
        users[name] = django_user_model.objects.create_user(name.lower())
        join(club, users[name], Role.MEMBER)
        table_services.player_link(player=players[name], user=users[name])
    tournament = entered(create(club, owner, confirmed_only=True), players)
    services.tournament_start(tournament=tournament, owner=owner)
    partie = win(tournament, "W1-1", "Anna", owner)
    work()
    assert not MatchResult.objects.exists()
    game = ClosedGame.objects.get(partie=partie)
    confirmations.result_confirm(game=game, user=users["Anna"])
    work()
    assert not MatchResult.objects.exists()
    confirmations.result_confirm(game=game, user=users["Hanna"])
    work()
    assert list(MatchResult.objects.values_list("match", "winner__name")) == [("W1-1", "Anna")]


def test_a_withdrawal_forfeits_his_match_now_and_those_to_come(club, owner, players):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    services.entry_withdraw(entry=tournament.entries.get(player__name="Hanna"), by=owner)
    assert list(MatchResult.objects.values_list("match", "winner__name", "source")) == [
        ("W1-1", "Anna", "forfeit")
    ]
    services.entry_withdraw(entry=tournament.entries.get(player__name="Emil"), by=owner)
    # W1-2 (Dora v Emil) forfeited to Dora; the semi-final Anna v Dora starts
    assert MatchResult.objects.get(match="W1-2").winner.name == "Dora"
    assert sorted(table_of(tournament, "W2-1").partie.player_names) == ["Anna", "Dora"]


def test_a_correction_is_refused_while_a_later_result_depends_on_it(club, owner, players):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    for match, winner in (("W1-1", "Anna"), ("W1-2", "Dora")):
        win(tournament, match, winner, owner)
    work()
    win(tournament, "W2-1", "Anna", owner)
    work()
    with pytest.raises(TournamentRefused) as refused:
        services.result_correct(
            tournament=tournament, match="W1-1", winner=players["Hanna"], by=owner
        )
    assert refused.value.code == "depended_on"
    assert refused.value.params["matches"] == ["W2-1"]
    assert "void W2-1 first" in refused.value.errors[0]
    assert MatchResult.objects.count() == 3


def test_a_correction_after_voiding_what_depends_on_it_plays_the_match_again(club, owner, players):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    for match, winner in (("W1-1", "Anna"), ("W1-2", "Dora")):
        win(tournament, match, winner, owner)
    work()
    old_semi = table_of(tournament, "W2-1").partie
    services.result_correct(
        tournament=tournament,
        match="W1-1",
        winner=players["Hanna"],
        by=owner,
        reason="scores swapped",
    )
    last = MatchResult.objects.last()
    assert (last.match, last.winner.name, last.source, last.by, last.reason) == (
        "W1-1",
        "Hanna",
        "organiser",
        owner,
        "scores swapped",
    )
    semi = table_of(tournament, "W2-1").partie
    assert semi != old_semi and sorted(semi.player_names) == ["Dora", "Hanna"]
    assert Partie.objects.filter(pk=old_semi.pk).exists()  # the old partie stays the club's


def test_a_voided_result_sends_the_match_back_to_a_new_partie(club, owner, players):
    tournament = entered(create(club, owner), players, NAMES[:2])
    services.tournament_start(tournament=tournament, owner=owner)
    first = win(tournament, "W1-1", "Ben", owner)
    work()
    tournament.refresh_from_db()
    assert tournament.is_over
    services.result_correct(tournament=tournament, match="W1-1", winner=None, by=owner)
    tournament.refresh_from_db()
    assert not tournament.is_over
    again = table_of(tournament, "W1-1").partie
    assert again != first and again.is_running


def test_an_unrated_tournaments_games_count_in_no_rating_until_the_organiser_says_so(
    club, owner, players
):
    tournament = entered(create(club, owner, rated=False), players, NAMES[:2])
    services.tournament_start(tournament=tournament, owner=owner)
    win(tournament, "W1-1", "Anna", owner)
    work()
    book = league_selectors.club_book(club)
    assert not book.results.exists() and not CurrentRating.objects.filter(club=club).exists()
    services.tournament_rated_set(tournament=tournament, rated=True)
    work()
    assert league_selectors.club_book(club).results.count() == 2
    assert CurrentRating.objects.filter(club=club).count() == 2


def test_a_swiss_with_a_top_cut_plays_through_to_its_champion(club, owner, players):
    tournament = entered(create(club, owner, "swiss", rounds=3, top_cut=4), players)
    services.tournament_start(tournament=tournament, owner=owner)
    for _ in range(20):
        tournament.refresh_from_db()
        if tournament.is_over:
            break
        for match in selectors.tournament_state(tournament).playable():
            win(tournament, match.id, min(match.players), owner)
        work()
    view = selectors.tournament_view(tournament)
    assert view.champion == "Anna"
    assert [row.player for row in view.swiss_table][:1] == ["Anna"]
    assert {r.stage for r in view.rounds} == {"swiss", "top_cut"}


def test_round_robin_hollywood_winner_is_who_won_two_games(club, owner, players):
    tournament = entered(create(club, owner, "round_robin", kind="hollywood"), players, NAMES[:2])
    services.tournament_start(tournament=tournament, owner=owner)
    partie = table_of(tournament, "R1-1").partie
    while partie.is_running:
        table_services.hand_record(
            partie=partie, hand=engine.Hand.gin(30, knocker="Ben"), user=owner
        )
        partie.refresh_from_db()
    work()
    assert MatchResult.objects.get().winner.name == "Ben"


def test_a_player_a_tournament_names_is_not_merged_away_but_may_be_kept(club, owner, players):
    tournament = create(club, owner)
    services.entries_check_in(tournament=tournament, players=[players["Anna"], players["Ben"]])
    twin = table_services.player_add(club=club, name="Anna W.", owner=owner)

    with pytest.raises(table_services.PlayerChangeError) as refused:
        table_services.player_merge(keep=twin, gone=players["Anna"], user=owner)

    assert str(refused.value) == (
        "Anna is entered in the tournament Club championship, whose draw names him: keep "
        "Anna and merge Anna W. into him instead."
    )
    assert twin.__class__.objects.filter(pk=players["Anna"].pk).exists()  # nothing changed
    table_services.player_merge(keep=players["Anna"], gone=twin, user=owner)  # the other way
    assert [e.player.name for e in tournament.entries.all()] == ["Anna", "Ben"]
