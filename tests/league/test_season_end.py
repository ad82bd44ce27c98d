"""A season's end: its close (the final standings kept as FORMAT.md's standings JSON), a
reopening (audited), the league's past seasons, the season after a closed one; who may
do what, and that nothing done to the parties after the close changes a closed season."""

import csv
import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scorekeeper.engine.season import standings_json
from scorekeeper.league import selectors, services
from scorekeeper.league.forms import PartieSeasonForm
from scorekeeper.league.models import Season, SeasonClose
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Partie, Player
from tests.league.conftest import G, moved

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(play, season):
    """Anna shuts Ben out; Carl beats Ben twice in one game: Carl, Anna, Ben."""
    anna = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Ben"], [G(20, knocker="Carl"), G(70, knocker="Carl")])
    season.first_partie = anna
    return season


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def shown(season: Season) -> list[tuple]:
    """The standings the season shows: each line's rank, player, points and net."""
    season.refresh_from_db()
    return [
        (row.line.rank, row.line.player, row.line.league_points, row.line.net_points)
        for row in selectors.season_table(season).rows
    ]


def counted(season: Season) -> list[tuple]:
    season.refresh_from_db()
    return [
        (row.line.rank, row.line.player, row.line.league_points, row.line.net_points)
        for row in selectors.counted_table(season).rows
    ]


def page_players(client: Client, season: Season) -> list[str]:
    response = client.get(reverse("season_detail", args=[season.pk]))
    assert response.status_code == 200
    return [row.line.player for row in response.context["rows"]]


# The services


def test_closing_keeps_the_standings_as_formats_json_with_the_winner(owner, played):
    before = selectors.counted_table(played)
    expected = standings_json(before.standings)

    close = services.season_close(season=played, user=owner)

    played.refresh_from_db()
    assert played.closed_at == close.closed_at and close.closed_by == owner
    assert close.final_standings == expected
    assert json.loads(json.dumps(close.final_standings)) == expected  # plain JSON
    assert [line["player"] for line in expected["standings"]] == ["Carl", "Anna", "Ben"]
    assert close.winners == ["Carl"]
    carl = Player.objects.get(club=played.league.club, name="Carl")
    assert close.players["Carl"]["id"] == carl.pk
    assert close.players["Carl"]["trend"] == [True]
    assert close.players["Carl"]["hands"]["hands"] == 2
    assert shown(played) == counted(played)  # nothing changed yet


def test_closing_a_closed_season_again_changes_nothing(owner, played):
    first = services.season_close(season=played, user=owner)
    again = services.season_close(season=played, user=owner)
    assert again.pk == first.pk
    assert SeasonClose.objects.filter(season=played).count() == 1


def test_a_hand_corrected_after_the_close_leaves_the_closed_season_as_it_was(owner, played):
    final = shown(played)
    services.season_close(season=played, user=owner)

    # Hand 1 of Anna and Ben was Ben's gin, not Anna's: Ben wins that game now.
    table_services.hand_edit(
        partie=played.first_partie, number=1, hand=G(90, knocker="Ben"), user=owner
    )

    assert counted(played) != final  # the parties did change ...
    assert [line[1] for line in counted(played)] == ["Carl", "Ben", "Anna"]
    assert shown(played) == final  # ... the closed season did not
    played.refresh_from_db()
    ben = Player.objects.get(club=played.league.club, name="Ben")
    line = selectors.season_line(played, ben)
    assert (line.rank, line.league_points, line.won) == (3, 0, 0)  # his player page's line


def test_the_page_csv_pdf_and_standings_command_show_the_final_standings(owner, played, capsys):
    services.season_close(season=played, user=owner)
    table_services.hand_edit(
        partie=played.first_partie, number=1, hand=G(90, knocker="Ben"), user=owner
    )
    client = client_as(owner)

    assert page_players(client, played) == ["Carl", "Anna", "Ben"]
    html = client.get(reverse("season_detail", args=[played.pk])).content.decode()
    assert "Final standings: the season was closed on" in html
    rows = list(csv.reader(io.StringIO(client.get(reverse("season_csv", args=[played.pk])).text)))
    assert [row[1] for row in rows[1:]] == ["Carl", "Anna", "Ben"]
    pdf = client.get(reverse("season_pdf", args=[played.pk])).content
    text = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    assert "final standings, closed on" in text
    assert text.index("Carl") < text.index("Anna") < text.index("Ben")
    call_command("standings", "--season", str(played.pk))
    got = json.loads(capsys.readouterr().out)
    assert got == SeasonClose.objects.get(season=played).final_standings


def test_a_partie_started_after_the_close_does_not_count_until_a_reopen(owner, play, played):
    services.season_close(season=played, user=owner)
    play(["Eva", "Finn"], [G(90, knocker="Eva")])  # in the season's dates, after the close

    assert "Eva" not in [line[1] for line in counted(played)]
    assert "Eva" not in [line[1] for line in shown(played)]
    assert all(p.started_at < played.closed_at for p in selectors.season_parties(played))

    services.season_reopen(season=played, user=owner)

    assert {"Eva", "Finn"} < {line[1] for line in shown(played)}


def test_a_reopen_is_kept_with_who_did_it_and_a_second_close_is_a_new_record(owner, member, played):
    first = services.season_close(season=played, user=owner)

    reopened = services.season_reopen(season=played, user=owner)

    played.refresh_from_db()
    assert played.closed_at is None
    assert reopened.pk == first.pk and reopened.reopened_by == owner
    assert reopened.reopened_at >= reopened.closed_at
    assert services.season_reopen(season=played, user=owner) is None  # not closed: nothing
    second = services.season_close(season=played, user=member)
    assert list(SeasonClose.objects.filter(season=played)) == [second, first]  # newest first
    assert selectors.season_close_of(played).pk == second.pk
    history = client_as(owner).get(reverse("season_detail", args=[played.pk])).content.decode()
    assert "History of the season" in history
    assert history.count("by owner") == 2 and "by member" in history


def test_a_player_merged_after_the_close_keeps_his_final_line_without_a_link(owner, play, played):
    play(["Dora", "Anna"], [G(90, knocker="Anna")])
    services.season_close(season=played, user=owner)
    club = played.league.club
    carl, dora = (Player.objects.get(club=club, name=name) for name in ("Carl", "Dora"))

    table_services.player_merge(keep=carl, gone=dora, user=owner)

    rows = {row.line.player: row for row in selectors.season_table(played).rows}
    assert set(rows) == {"Carl", "Anna", "Ben", "Dora"}
    assert rows["Carl"].linked and not rows["Dora"].linked
    html = client_as(owner).get(reverse("season_detail", args=[played.pk])).content.decode()
    assert f'href="{reverse("player_detail", args=[carl.pk])}"' in html
    assert f'href="{reverse("player_detail", args=[dora.pk])}"' not in html


def test_a_closed_season_takes_no_partie_but_keeps_those_given_to_it(owner, play, played):
    before = played.starts_on - timedelta(days=3)
    old = moved(play(["Eva", "Finn"], [G(90, knocker="Eva")]), before)
    given = moved(play(["Gus", "Hal"], [G(90, knocker="Gus")]), before)
    services.partie_season_assign(partie=given, season=played)
    services.season_close(season=played, user=owner)
    played.refresh_from_db()

    with pytest.raises(services.SeasonClosedError):
        services.partie_season_assign(partie=old, season=played)
    services.partie_season_assign(partie=given, season=played)  # already its: no change

    seasons = Season.objects.filter(league__club=played.league.club)
    assert list(PartieSeasonForm(seasons=seasons, partie=old).fields["season"].queryset) == []
    given.refresh_from_db()
    offered = PartieSeasonForm(seasons=seasons, partie=given).fields["season"].queryset
    assert list(offered) == [played]


def test_the_next_season_copies_the_points_games_and_kinds_and_takes_new_dates(season):
    season.kinds = ["two_player", "match"]
    season.points_win, season.points_shutout_win, season.points_loss = 3, 4, -1
    season.min_games = 5
    season.save()
    starts = season.ends_on + timedelta(days=1)

    after = services.season_start_next(
        season=season, name=" Winter ", starts_on=starts, ends_on=starts + timedelta(days=90)
    )

    assert after.league == season.league and after.pk != season.pk
    assert (after.name, after.starts_on, after.ends_on) == (
        "Winter",
        starts,
        starts + timedelta(days=90),
    )
    assert after.kinds == ["two_player", "match"]
    assert after.points == season.points and after.min_games == 5
    assert after.closed_at is None and after.share_token is None


def test_the_archive_lists_the_closed_seasons_newest_first_with_their_winners(owner, play, played):
    services.season_close(season=played, user=owner)
    earlier = services.season_create(
        league=played.league,
        name="Spring",
        starts_on=played.starts_on - timedelta(days=200),
        ends_on=played.starts_on - timedelta(days=100),
    )
    moved(play(["Ida", "Jo"], [G(90, knocker="Jo")]), earlier.starts_on)
    services.season_close(season=earlier, user=owner)
    services.season_start_next(
        season=played, name="Winter", starts_on=played.ends_on, ends_on=played.ends_on
    )

    past = selectors.league_archive(played.league)

    assert [(p.season.name, p.winners) for p in past] == [("Autumn", ["Carl"]), ("Spring", ["Jo"])]


# The pages: who may do what


@pytest.mark.parametrize("name", ["season_close", "season_reopen", "season_next"])
def test_only_the_owner_closes_reopens_or_continues_a_season(name, owner, member, outsider, played):
    url = reverse(name, args=[played.pk])
    assert client_as(None).get(url).status_code == 302  # to log in
    assert client_as(outsider).get(url).status_code == 404
    assert client_as(outsider).post(url).status_code == 404
    assert client_as(member).get(url).status_code == 403
    assert client_as(member).post(url).status_code == 403
    assert client_as(owner).get(url).status_code == 200
    assert not SeasonClose.objects.exists() and Season.objects.count() == 1


def test_the_owner_confirms_the_close_and_then_the_reopen(owner, member, played):
    client = client_as(owner)
    detail = reverse("season_detail", args=[played.pk])
    page = client.get(detail).content.decode()
    assert reverse("season_close", args=[played.pk]) in page
    assert reverse("season_close", args=[played.pk]) not in client_as(member).get(detail).text

    confirm = client.get(reverse("season_close", args=[played.pk])).content.decode()
    assert "Close the season Autumn?" in confirm
    assert played.closed_at is None  # a look at the question closes nothing
    response = client.post(reverse("season_close", args=[played.pk]))
    assert response.status_code == 302 and response.url == detail
    played.refresh_from_db()
    assert played.closed_at is not None

    page = client.get(detail).content.decode()
    for address in ("season_reopen", "season_next"):
        assert reverse(address, args=[played.pk]) in page
    assert reverse("league_archive", args=[played.league_id]) in client_as(member).get(detail).text
    reopen = client.get(reverse("season_reopen", args=[played.pk])).text
    assert "Reopen the season Autumn?" in reopen
    assert client.post(reverse("season_reopen", args=[played.pk])).status_code == 302
    played.refresh_from_db()
    assert played.closed_at is None


def test_a_running_partie_is_named_before_the_close(owner, play, played):
    play(["Eva", "Finn"], [])
    confirm = client_as(owner).get(reverse("season_close", args=[played.pk])).content.decode()
    assert "1 partie of the season is still running" in confirm


def test_the_next_season_page_offers_the_days_after_and_starts_it(owner, played):
    services.season_close(season=played, user=owner)
    url = reverse("season_next", args=[played.pk])
    response = client_as(owner).get(url)
    form = response.context["form"]
    starts = played.ends_on + timedelta(days=1)
    assert form.initial == {
        "starts_on": starts,
        "ends_on": starts + (played.ends_on - played.starts_on),
    }
    assert "win 2, shutout win 3, loss 0" in response.content.decode()

    bad = client_as(owner).post(url, {"name": "Winter", "starts_on": "2027-02-01",
                                      "ends_on": "2027-01-01"})  # fmt: skip
    assert bad.status_code == 400
    assert "The last day cannot come before the first." in bad.content.decode()
    response = client_as(owner).post(
        url, {"name": "Winter", "starts_on": "2027-01-01", "ends_on": "2027-03-31"}
    )

    after = Season.objects.get(name="Winter")
    assert response.status_code == 302 and response.url == after.get_absolute_url()
    assert (after.points, after.min_games, after.kinds) == (
        played.points,
        played.min_games,
        played.kinds,
    )


def test_members_read_the_archive_and_outsiders_get_404(owner, member, outsider, played):
    services.season_close(season=played, user=owner)
    url = reverse("league_archive", args=[played.league_id])

    assert client_as(outsider).get(url).status_code == 404
    assert client_as(None).get(url).status_code == 302
    for user in (owner, member):
        response = client_as(user).get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert "Past seasons of Club league" in html
        assert '<td class="winner">Carl</td>' in html
        assert played.get_absolute_url() in html
    leagues = client_as(member).get(reverse("league_list", args=[played.league.club.slug])).text
    assert url in leagues and "Past seasons (1)" in leagues
    assert played.get_absolute_url() not in leagues  # listed among the past ones only


def test_the_public_link_of_a_closed_season_shows_the_final_standings(owner, played):
    services.season_share(season=played, shared=True)
    services.season_close(season=played, user=owner)
    table_services.hand_edit(
        partie=played.first_partie, number=1, hand=G(90, knocker="Ben"), user=owner
    )
    public = reverse("season_public", args=[played.share_token])

    response = client_as(None).get(public)

    assert response.status_code == 200
    assert [row.line.player for row in response.context["rows"]] == ["Carl", "Anna", "Ben"]
    html = response.content.decode()
    assert "Final standings" in html
    assert reverse("season_reopen", args=[played.pk]) not in html
    for layout in ("", "?layout=noticeboard"):
        pdf = client_as(None).get(reverse("season_public_pdf", args=[played.share_token]) + layout)
        assert pdf.status_code == 200
        text = " ".join(PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text().split())
        assert text.index("Carl") < text.index("Anna") < text.index("Ben")


def test_the_noticeboard_pdf_is_upright_and_named_for_the_noticeboard(member, played):
    url = reverse("season_pdf", args=[played.pk])
    response = client_as(member).get(url, {"layout": "noticeboard"})
    assert response["Content-Disposition"] == (
        'attachment; filename="club-league-autumn-noticeboard.pdf"'
    )
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert float(page.mediabox.width) < float(page.mediabox.height)
    full = client_as(member).get(url)
    assert full["Content-Disposition"].endswith('-standings.pdf"')
    page = PdfReader(io.BytesIO(full.content)).pages[0]
    assert float(page.mediabox.width) > float(page.mediabox.height)  # as it always was


def test_a_closed_season_has_no_league_night_and_a_stale_round_starts_nothing(owner, played):
    night = reverse("league_night", args=[played.pk])
    detail = reverse("season_detail", args=[played.pk])
    assert night in client_as(owner).get(detail).content.decode()
    services.season_close(season=played, user=owner)
    parties = Partie.objects.count()

    assert night not in client_as(owner).get(detail).content.decode()
    response = client_as(owner).post(night, {"tables": "Anna, Ben", "byes": "", "round": 1})

    assert response.status_code == 302 and response.url == detail
    assert client_as(owner).get(night).url == detail
    assert Partie.objects.count() == parties
