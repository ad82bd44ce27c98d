"""The screen in the bar through the client (who may see it, its 304 while nothing
changed, the share link of the tournament's evening, the sections of a big bracket)
and the time limit of a round: its clock, and the rule for a partie unfinished at time,
applied by the organiser's "time" and audited."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scorekeeper import engine, tasks
from scorekeeper.clubs.models import Role
from scorekeeper.table import live
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Partie
from scorekeeper.table.services import sharing
from scorekeeper.tournaments import screen, selectors, services
from scorekeeper.tournaments.models import MatchResult, Tournament, TournamentMatch
from tests.clubs.conftest import join

from .conftest import NAMES, G, create, entered, table_of, win, work
from .test_views import new_tournament_data

pytestmark = pytest.mark.django_db


def started(club, owner, players, **options) -> Tournament:
    tournament = entered(create(club, owner, **options), players)
    return services.tournament_start(tournament=tournament, owner=owner)


def screen_url(tournament: Tournament) -> str:
    return reverse("tournament_screen", args=[tournament.pk])


def test_members_see_the_screen_and_strangers_do_not(
    client_owner: Client, club, owner, players, outsider: User, member: User
):
    tournament = started(club, owner, players)
    join(club, member, Role.MEMBER)
    as_member, as_outsider = Client(), Client()
    as_member.force_login(member)
    as_outsider.force_login(outsider)
    page = as_member.get(screen_url(tournament))
    assert page.status_code == 200 and 'id="screen-W1-1"' in page.content.decode()
    assert as_outsider.get(screen_url(tournament)).status_code == 404
    assert Client().get(screen_url(tournament)).status_code == 302  # to the login
    detail = client_owner.get(tournament.get_absolute_url()).content.decode()
    assert screen_url(tournament) in detail and "Screen in the bar" in detail


def test_the_screen_answers_304_while_nothing_changed_and_follows_a_result(
    client_owner: Client, club, owner, players
):
    tournament = started(club, owner, players)
    region = {"HX-Request": "true"}
    first = client_owner.get(screen_url(tournament), headers=region)
    etag = first["ETag"]
    again = client_owner.get(screen_url(tournament), headers={**region, "If-None-Match": etag})
    assert again.status_code == 304
    win(tournament, "W1-1", "Anna", owner)
    work()
    changed = client_owner.get(screen_url(tournament), headers={**region, "If-None-Match": etag})
    assert changed.status_code == 200
    assert 'class="screen-player winner" title="Anna"' in changed.content.decode()


def test_the_evening_boards_link_opens_the_screen_until_it_is_withdrawn(
    client_owner: Client, club, owner, players
):
    tournament = started(club, owner, players)
    evening = tournament.evening
    sharing.evening_share(evening=evening, shared=True)
    evening.refresh_from_db()
    url = reverse("shared_tournament_screen", args=[evening.share_token])
    assert Client().get(url).status_code == 200
    assert url in client_owner.get(tournament.get_absolute_url()).content.decode()
    sharing.evening_share(evening=evening, shared=False)
    assert Client().get(url).status_code == 404


@pytest.mark.parametrize(("count", "sections"), [(8, 1), (32, 1), (64, 2), (128, 4)])
def test_a_knockout_is_cut_into_parts_of_the_draw_that_each_fit(
    club, owner, count: int, sections: int
):
    names = [f"P{n}" for n in range(1, count + 1)]
    many = {n: table_services.player_add(club=club, name=n, owner=owner) for n in names}
    tournament = services.tournament_start(
        tournament=entered(create(club, owner), many, names), owner=owner
    )
    cut = screen.sections_of(selectors.tournament_view(tournament))
    assert len(cut) == sections
    for section in cut:
        assert sum(band.rows for band in section.bands) <= screen.ROWS
        assert all(len(band.columns) <= screen.COLUMNS for band in section.bands)
        assert section.bands[0].columns[-1].stage == "winners"  # each part leads to the final
        assert len(section.bands[0].columns[-1].matches) == 1
    first_round = [m.id for s in cut for m in s.bands[0].columns[0].matches]
    assert len(first_round) == len(set(first_round)) == count // 2  # each match in one part


def test_a_small_double_elimination_shows_both_brackets_at_once_a_big_one_in_turns(
    club, owner, players
):
    small = started(club, owner, players, system="double_elimination")
    (section,) = screen.sections_of(selectors.tournament_view(small))
    assert [band.bracket for band in section.bands] == ["winners", "losers"]


def test_the_sections_take_turns_by_the_clock_unless_one_is_chosen(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(live, "clock", lambda: 2.5 * live.ROTATE_SECONDS)
    assert screen.SectionTurn.of(4, None).number == 3
    assert screen.SectionTurn.of(4, 9) == screen.SectionTurn(4, 4, True)


# The time limit


def started_at(tournament: Tournament, minutes_ago: int) -> None:
    TournamentMatch.objects.filter(tournament=tournament).update(
        started_at=timezone.now() - timedelta(minutes=minutes_ago)
    )


def test_the_screen_counts_the_rounds_time_down_from_its_parties_start(
    client_owner: Client, club, owner, players
):
    tournament = started(club, owner, players, round_minutes=30)
    started_at(tournament, 10)
    page = client_owner.get(screen_url(tournament)).content.decode()
    assert "20 minutes left in this round" in page
    started_at(tournament, 31)
    page = client_owner.get(screen_url(tournament)).content.decode()
    assert "Time is up for this round" in page


def hand_to(tournament: Tournament, match: str, knocker: str, owner, deadwood: int = 10) -> None:
    """A gin of ``knocker`` against ``deadwood``: 25 + deadwood points, short of the target."""
    partie = table_of(tournament, match).partie
    table_services.hand_record(partie=partie, hand=G(deadwood, knocker=knocker), user=owner)


def test_at_time_the_leader_wins_each_unfinished_partie_and_the_result_is_audited(
    client_owner: Client, club, owner, players
):
    tournament = started(club, owner, players, round_minutes=30, at_time="leader")
    hand_to(tournament, "W1-1", "Anna", owner)  # Anna leads Hanna
    hand_to(tournament, "W1-2", "Emil", owner)  # Emil, the lower seat, leads Dora
    win(tournament, "W1-3", "Ben", owner)  # over before time
    response = client_owner.post(reverse("tournament_time", args=[tournament.pk]))
    assert response.status_code == 302
    timed = MatchResult.objects.filter(tournament=tournament, source=MatchResult.Source.TIME)
    assert {(r.match, r.winner.name, r.by) for r in timed} == {
        ("W1-1", "Anna", owner),
        ("W1-2", "Emil", owner),
    }
    state = selectors.tournament_state(tournament)
    assert state.match("W1-1").winner == "Anna" and state.match("W1-2").winner == "Emil"
    assert state.match("W1-4").winner is None  # level at 0 : 0, it plays on
    # The parties decided at time end there; the one level plays on.
    ended = {m: table_of(tournament, m).partie for m in ("W1-1", "W1-2", "W1-4")}
    assert [(p.state, p.ended_early) for p in ended.values()] == [
        (Partie.State.CLOSED, "time"),
        (Partie.State.CLOSED, "time"),
        (Partie.State.RUNNING, ""),
    ]
    page = client_owner.get(ended["W1-1"].get_absolute_url()).content.decode()
    assert "Time was called: the partie ended here, before it was played out." in page
    work()
    assert MatchResult.objects.filter(tournament=tournament).count() == 3  # nothing more due


def test_at_time_one_more_hand_is_played_and_then_its_leader_wins(club, owner, players):
    tournament = started(club, owner, players, round_minutes=30, at_time="one_more_hand")
    hand_to(tournament, "W1-1", "Anna", owner)  # Anna leads
    assert services.round_end_at_time(tournament=tournament, by=owner) == 0
    partie = table_of(tournament, "W1-1").partie
    assert (partie.last_hand, partie.state) == (2, Partie.State.RUNNING)  # the table's note
    assert table_of(tournament, "W1-4").partie.last_hand == 1  # no hand yet: one to play
    assert selectors.tournament_state(tournament).match("W1-1").winner is None
    work()
    assert not MatchResult.objects.filter(source=MatchResult.Source.TIME).exists()
    DBTaskResult.objects.all().delete()
    hand_to(tournament, "W1-1", "Hanna", owner, deadwood=20)  # after time: Hanna leads now
    # The hand ended the partie at the table, and queued the club's task with it.
    partie.refresh_from_db()
    assert (partie.state, partie.ended_early, partie.summary["hands"]) == ("closed", "time", 2)
    [task] = DBTaskResult.objects.filter(task_path=tasks.results_changed.module_path)
    assert task.args_kwargs == {"args": [club.pk], "kwargs": {}}
    work()
    # That task gave the result (not the sweep the worker runs beside it).
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL and task.return_value["results"] == 1
    (result,) = MatchResult.objects.filter(source=MatchResult.Source.TIME)
    assert (result.match, result.winner.name, result.partie) == ("W1-1", "Hanna", partie)
    assert selectors.tournament_state(tournament).match("W1-1").winner == "Hanna"
    with pytest.raises(engine.HandError):  # the extra hand was its last
        table_services.hand_record(partie=partie, hand=G(10, knocker="Anna"), user=owner)
    work()
    assert MatchResult.objects.filter(source=MatchResult.Source.TIME).count() == 1


def test_at_time_level_players_play_on_and_a_partie_closing_by_itself_gives_its_winner(
    club, owner, players
):
    tournament = started(club, owner, players, round_minutes=30, at_time="one_more_hand")
    hand_to(tournament, "W1-1", "Anna", owner, deadwood=40)  # Anna 65 : Hanna 0
    hand_to(tournament, "W1-2", "Emil", owner)  # Emil 35 : Dora 0
    services.round_end_at_time(tournament=tournament, by=owner)
    hand_to(tournament, "W1-1", "Anna", owner, deadwood=40)  # Anna 130: over by itself
    hand_to(tournament, "W1-4", "Carl", owner)  # W1-4's only hand, after time: Carl leads
    hand_to(tournament, "W1-2", "Dora", owner)  # 35 : 35, level: they play on
    work()
    given = MatchResult.objects.filter(tournament=tournament).order_by("match")
    assert [(r.match, r.winner.name, r.source) for r in given] == [
        ("W1-1", "Anna", MatchResult.Source.PARTIE),
        ("W1-4", "Carl", MatchResult.Source.TIME),
    ]
    assert table_of(tournament, "W1-1").partie.ended_early == ""
    assert table_of(tournament, "W1-2").partie.is_running
    hand_to(tournament, "W1-2", "Dora", owner)  # Dora 70 : 35, and it ends
    work()
    (result,) = MatchResult.objects.filter(tournament=tournament, match="W1-2")
    assert (result.winner.name, result.source) == ("Dora", MatchResult.Source.TIME)
    assert table_of(tournament, "W1-2").partie.summary["hands"] == 3


def test_time_is_refused_where_the_tournament_has_no_time_limit(
    client_owner: Client, club, owner, players
):
    tournament = started(club, owner, players)
    hand_to(tournament, "W1-1", "Anna", owner)
    response = client_owner.post(reverse("tournament_time", args=[tournament.pk]), follow=True)
    assert "This tournament has no time limit for a round." in response.content.decode()
    assert not MatchResult.objects.exists()
    assert NAMES[:2] == ["Anna", "Ben"]  # the seeds the matches above are named by


def test_the_organiser_sets_the_time_limit_and_its_rule_when_creating_it(
    client_owner: Client, club
):
    data = new_tournament_data(round_minutes="25", at_time="one_more_hand")
    client_owner.post(reverse("tournament_list", args=[club.slug]), data)
    assert Tournament.objects.values_list("round_minutes", "at_time").get() == (
        25,
        "one_more_hand",
    )
