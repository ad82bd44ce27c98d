"""A player withdrawn during a tournament (issue 30): his matches still to play forfeited
and the partie he plays ended there, paired in no later Swiss round, his results so far
kept (and his opponents' Buchholz), shown as withdrawn in the standings: the page, the
screen, the PDFs; a round robin's and a knockout's remaining matches forfeited."""

import importlib

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from scorekeeper.table import services as table_services
from scorekeeper.table.models import Partie
from scorekeeper.tournaments import selectors, services
from scorekeeper.tournaments.models import Entry, MatchResult, TournamentMatch
from tests.sheets.helpers import text_of

from .conftest import G, create, entered, table_of, win, work

pytestmark = pytest.mark.django_db


def withdraw(tournament, name: str, owner) -> Entry:
    return services.entry_withdraw(entry=tournament.entries.get(player__name=name), by=owner)


def test_a_swiss_player_withdrawn_during_round_1_is_paired_in_no_later_round(
    client_owner: Client, club, owner, players
):
    tournament = entered(create(club, owner, "swiss", rounds=3), players)
    services.tournament_start(tournament=tournament, owner=owner)
    first = selectors.tournament_state(tournament).playable()
    assert [m.players for m in first] == [
        ("Anna", "Emil"),
        ("Ben", "Fritz"),
        ("Carl", "Gus"),
        ("Dora", "Hanna"),
    ]
    hanna = table_of(tournament, "S1-4").partie
    table_services.hand_record(partie=hanna, hand=G(10, knocker="Hanna"), user=owner)
    win(tournament, "S1-1", "Anna", owner)
    work()

    entry = withdraw(tournament, "Hanna", owner)

    assert entry.withdrawn_after == 1  # one result given before she withdrew
    forfeit = MatchResult.objects.get(match="S1-4")
    assert (forfeit.winner.name, forfeit.source) == ("Dora", "forfeit")
    hanna.refresh_from_db()
    assert (hanna.state, hanna.ended_early) == (Partie.State.CLOSED, "withdrawal")
    win(tournament, "S1-2", "Ben", owner)
    win(tournament, "S1-3", "Carl", owner)
    work()
    state = selectors.tournament_state(tournament)
    second = [m for m in state.matches if m.round == 2]
    seated = sorted(p for m in second for p in m.players)
    assert seated == ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gus"]
    assert [m.bye for m in second] == [False, False, False, True]
    # Her lost match stays hers, and Dora's Buchholz counts it.
    lines = {line.player: line for line in state.swiss_table}
    assert lines["Hanna"].opponents == ("Dora",) and lines["Dora"].buchholz == 0
    page = client_owner.get(tournament.get_absolute_url()).content.decode()
    assert '<th class="player" scope="row">Hanna <span class="tag">withdrawn</span></th>' in page
    screen = client_owner.get(reverse("tournament_screen", args=[tournament.pk]) + "?section=1")
    assert '<span>Hanna</span> <span class="tag">withdrawn</span>' in screen.content.decode()
    pdf = client_owner.get(reverse("tournament_bracket_pdf", args=[tournament.pk]))
    assert "Hanna (withdrawn)" in text_of(pdf.content)


def test_the_organiser_withdraws_a_player_from_the_started_tournaments_field(
    client_owner: Client, club, owner, players
):
    tournament = entered(create(club, owner), players)
    services.tournament_start(tournament=tournament, owner=owner)
    entries = reverse("tournament_entries", args=[tournament.pk])
    page = client_owner.get(entries).content.decode()
    assert "Withdraw Hanna" in page
    entry = tournament.entries.get(player__name="Hanna")
    response = client_owner.post(reverse("entry_withdraw", args=[tournament.pk, entry.pk]))
    assert response.status_code == 302
    assert MatchResult.objects.get(match="W1-1").winner.name == "Anna"
    page = client_owner.get(entries).content.decode()
    assert "Withdraw Hanna" not in page and "Withdraw Anna" in page
    detail = client_owner.get(tournament.get_absolute_url()).content.decode()
    assert "Players and withdrawals" in detail


def test_a_round_robin_withdrawal_forfeits_every_match_left_and_ends_their_parties(
    club, owner, players
):
    tournament = entered(create(club, owner, "round_robin"), players, ["Anna", "Ben", "Carl"])
    services.tournament_start(tournament=tournament, owner=owner)
    win(tournament, "R1-1", "Carl", owner)  # Ben v Carl, before Carl withdraws
    work()
    tables = {
        row.match: row.partie for row in TournamentMatch.objects.filter(tournament=tournament)
    }
    withdraw(tournament, "Carl", owner)
    given = list(MatchResult.objects.values_list("match", "winner__name", "source"))
    assert given == [("R1-1", "Carl", "partie"), ("R3-1", "Anna", "forfeit")]
    tables["R3-1"].refresh_from_db()  # Anna v Carl
    assert tables["R3-1"].ended_early == "withdrawal"
    tables["R2-1"].refresh_from_db()  # Anna v Ben plays on
    assert tables["R2-1"].is_running
    win(tournament, "R2-1", "Ben", owner)
    work()
    tournament.refresh_from_db()
    view = selectors.tournament_view(tournament)
    assert tournament.is_over and view.withdrawn == {"Carl"}
    # One win each, and one over each other: Carl's over Ben stands.
    assert [p.players for p in view.standings] == [("Anna", "Ben", "Carl")]


def test_a_knockout_withdrawal_forfeits_the_match_he_would_come_to(club, owner, players):
    tournament = entered(create(club, owner), players, ["Anna", "Ben", "Carl", "Dora"])
    services.tournament_start(tournament=tournament, owner=owner)
    win(tournament, "W1-1", "Anna", owner)
    work()
    withdraw(tournament, "Anna", owner)  # unbeaten, her final still to come
    assert not TournamentMatch.objects.filter(tournament=tournament, match="W2-1").exists()
    win(tournament, "W1-2", "Carl", owner)
    work()
    final = MatchResult.objects.get(match="W2-1")
    assert (final.winner.name, final.source) == ("Carl", "forfeit")
    tournament.refresh_from_db()
    assert tournament.is_over and selectors.tournament_view(tournament).champion == "Carl"


def test_the_migration_places_a_withdrawal_made_before_it_after_the_results_until_then(
    club, owner, players
):
    place = importlib.import_module(
        "scorekeeper.tournaments.migrations.0003_withdrawn_after_results"
    ).place_withdrawals
    tournament = entered(create(club, owner, "swiss", rounds=2), players)
    services.tournament_start(tournament=tournament, owner=owner)
    win(tournament, "S1-1", "Anna", owner)
    work()
    withdraw(tournament, "Hanna", owner)  # a forfeit follows, in the same transaction
    before = withdraw(tournament, "Fritz", owner)  # after the results and the forfeits
    early = entered(create(club, owner), players, ["Anna", "Ben"])
    services.entry_withdraw(entry=early.entries.get(player__name="Ben"), by=owner)
    Entry.objects.update(withdrawn_after=None)
    place(apps, None)
    after = dict(Entry.objects.exclude(withdrawn_at=None).values_list("pk", "withdrawn_after"))
    hanna = tournament.entries.get(player__name="Hanna").pk
    ben = early.entries.get(player__name="Ben").pk
    assert after == {hanna: 1, before.pk: 2, ben: None}
