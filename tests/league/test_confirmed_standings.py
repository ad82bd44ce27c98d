"""A season that counts only confirmed games, and the standings' pending marks: a game
counts once every player asked (those linked to an account) has confirmed it; a game
that asked nobody counts at once; the standings mark each player's pending games,
whether the season counts them or not, and so do their CSV, PDF and the club's board
(which follows the confirmations); a season with none pending prints as it always did."""

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

from scorekeeper.clubs.models import Club, Role
from scorekeeper.league import selectors
from scorekeeper.league import services as league_services
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, PlayerResult
from scorekeeper.table.services import confirmations
from tests.league.conftest import G, K, confirm

pytestmark = pytest.mark.django_db


def club_owner(club: Club) -> User:
    return club.memberships.get(role=Role.OWNER).user


def rows(season) -> list[tuple]:
    """Each listed player: name, counted games, league points, games pending."""
    table = selectors.season_table(season)
    return [(r.line.player, r.line.games, r.line.league_points, r.pending) for r in table.rows]


def only_confirmed(season):
    season.confirmed_games_only = True
    season.save()
    return season


def test_by_default_a_pending_game_counts_and_is_marked(play, season, accounts):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # a shutout: 3 points
    play(["Carl", "Dora"], [G(90, knocker="Carl")])  # nobody to ask

    assert rows(season) == [
        ("Anna", 1, 3, 1),
        ("Carl", 1, 3, 0),
        ("Ben", 1, 0, 1),
        ("Dora", 1, 0, 0),
    ]


def test_a_season_of_confirmed_games_counts_a_game_once_its_players_confirmed(
    play, season, accounts
):
    only_confirmed(season)
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])

    assert sorted(rows(season)) == [
        ("Anna", 0, 0, 1),
        ("Ben", 0, 0, 1),
        ("Carl", 1, 3, 0),
        ("Dora", 1, 0, 0),
    ]
    assert selectors.season_table(season).without_games == ["Anna (1 pending)", "Ben (1 pending)"]

    confirm(partie, accounts["Anna"])
    assert [row[1:] for row in rows(season) if row[0] == "Anna"] == [(0, 0, 1)]  # Ben's is pending

    confirm(partie, accounts["Ben"])
    assert rows(season) == [
        ("Anna", 1, 3, 0),
        ("Carl", 1, 3, 0),
        ("Ben", 1, 0, 0),
        ("Dora", 1, 0, 0),
    ]


def test_a_season_of_confirmed_games_counts_the_hands_of_its_confirmed_games_alone(
    play, season, accounts
):
    only_confirmed(season)
    partie = play(["Anna", "Ben"], [K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])  # nobody to ask: counts at once

    def hands() -> dict[str, tuple[int, int]]:
        """Each listed player's hands and gins on the season's table."""
        table = selectors.season_table(season)
        return {row.line.player: (row.stats.hands, row.stats.gins) for row in table.rows}

    assert hands() == {"Anna": (0, 0), "Ben": (0, 0), "Carl": (1, 1), "Dora": (1, 0)}

    confirm(partie, accounts["Anna"])
    assert hands()["Anna"] == (0, 0)  # Ben's confirmation is pending
    confirm(partie, accounts["Ben"])
    assert hands() == {"Anna": (2, 1), "Ben": (2, 0), "Carl": (1, 1), "Dora": (1, 0)}


def test_only_the_linked_players_are_asked(play, season, accounts):
    only_confirmed(season)
    partie = play(["Anna", "Carl"], [G(90, knocker="Carl")])

    confirm(partie, accounts["Anna"])

    assert rows(season) == [("Carl", 1, 3, 0), ("Anna", 1, 0, 0)]


def test_a_disputed_game_does_not_count_until_confirmed(play, season, accounts, owner):
    only_confirmed(season)
    partie = play(["Anna", "Ben"], [K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    confirm(partie, accounts["Anna"])
    game = ClosedGame.objects.get(partie=partie)
    confirmations.result_dispute(game=game, user=accounts["Ben"], note="5 against 17")

    assert [row[1] for row in rows(season)] == [0, 0]
    disputed = PlayerResult.objects.get(partie=partie, player__name="Anna").net_points

    # Corrected, the game is asked anew; confirmed, it counts with its new figures.
    services.hand_edit(partie=partie, number=1, hand=K(5, 17, knocker="Anna"), user=owner)
    confirm(partie, accounts["Anna"], accounts["Ben"])
    line = selectors.season_table(season).rows[0].line
    corrected = PlayerResult.objects.get(partie=partie, player__name="Anna").net_points
    assert (line.player, line.games, line.net_points) == ("Anna", 1, corrected)
    assert corrected < disputed  # 5 against 17 gives Anna less than 5 against 27


def test_the_head_to_head_ratings_and_trends_count_the_confirmed_games_alone(
    play, season, accounts
):
    only_confirmed(season)
    first = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Anna", "Ben"], [G(90, knocker="Ben")])
    confirm(first, accounts["Anna"], accounts["Ben"])

    table = selectors.season_table(season)

    assert table.meeting("Anna", "Ben").won == 1 and table.meeting("Anna", "Ben").lost == 0
    assert table.with_details(list(table.rows))[0].trend == (True,)
    assert [row.line.rating.ordinal > 0 for row in table.rows] == [True, False]
    assert [row.pending for row in table.rows] == [1, 1]


def test_the_standings_page_marks_pending_games_and_says_what_counts(
    play, season, accounts, client_owner
):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    url = reverse("season_detail", args=[season.pk])

    page = client_owner.get(url).content.decode()
    assert '<small class="pending">1 pending</small>' in page
    assert "They count already" in page

    only_confirmed(season)
    page = client_owner.get(url).content.decode()
    assert "only confirmed games count" in page
    assert "Anna (1 pending), Ben (1 pending)" in page
    assert "This season counts a game once its players have confirmed it." in page


def test_the_season_form_and_the_next_season_keep_the_setting(club, client_owner, season):
    today = timezone.localdate()
    response = client_owner.post(
        reverse("season_new", args=[season.league_id]),
        {
            "name": "Winter",
            "starts_on": today.isoformat(),
            "ends_on": today.isoformat(),
            "points_win": 2,
            "points_shutout_win": 3,
            "points_loss": 0,
            "min_games": 0,
            "confirmed_games_only": "on",
        },
    )
    winter = season.league.seasons.get(name="Winter")
    assert response.status_code == 302 and winter.confirmed_games_only

    spring = league_services.season_start_next(
        season=winter, name="Spring", starts_on=today, ends_on=today
    )
    assert spring.confirmed_games_only


def test_a_confirmation_changes_the_boards_etag(play, season, accounts, club, client_owner):
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    url = reverse("club_board", args=[club.slug])
    etag = client_owner.get(url)["ETag"]

    confirm(partie, accounts["Anna"])
    after = client_owner.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after["ETag"] != etag

    confirm(partie, accounts["Ben"])  # locked now
    game = ClosedGame.objects.get(partie=partie)
    locked_etag = client_owner.get(url)["ETag"]
    confirmations.game_unlock(game=game, user=club_owner(club))
    assert client_owner.get(url, headers={"If-None-Match": locked_etag}).status_code == 200
    assert client_owner.get(url, headers={"If-None-Match": locked_etag})["ETag"] != locked_etag


def test_the_boards_etag_follows_a_confirmation_taken_back_and_a_dispute_decided(
    play, season, accounts, club, client_owner
):
    """The rows change in place; the change's ``ResultsChange`` changes the ETag."""
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    game = ClosedGame.objects.get(partie=partie)
    url = reverse("club_board", args=[club.slug])
    confirm(partie, accounts["Anna"])
    etags = [client_owner.get(url)["ETag"]]

    confirmations.result_withdraw(game=game, user=accounts["Anna"])
    etags.append(client_owner.get(url, headers={"If-None-Match": etags[-1]})["ETag"])
    confirmations.result_dispute(game=game, user=accounts["Ben"], note="I had gin")
    etags.append(client_owner.get(url, headers={"If-None-Match": etags[-1]})["ETag"])
    confirmations.game_decide(game=game, user=club_owner(club), reason="It stands")
    etags.append(client_owner.get(url, headers={"If-None-Match": etags[-1]})["ETag"])

    assert len(set(etags)) == 4


# The downloads and the board mark what waits too


def test_the_csv_pdf_and_standings_command_mark_the_pending_games(
    play, season, accounts, owner, client_owner
):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # waits for Anna and Ben
    play(["Carl", "Dora"], [G(90, knocker="Carl")])  # nobody to ask

    text = client_owner.get(reverse("season_csv", args=[season.pk])).content.decode()
    pdf = client_owner.get(reverse("season_pdf", args=[season.pk])).content
    noticeboard = client_owner.get(
        reverse("season_pdf", args=[season.pk]), {"layout": "noticeboard"}
    )
    out = io.StringIO()
    call_command("standings", "--season", str(season.pk), "--format", "csv", stdout=out)

    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][-1] == "Pending"
    assert [(row[1], row[-1]) for row in rows[1:]] == [
        ("Anna", "1"),
        ("Carl", "0"),
        ("Ben", "1"),
        ("Dora", "0"),
    ]
    assert list(csv.reader(io.StringIO(out.getvalue())))[1:] == rows[1:]
    for document in (pdf, noticeboard.content):
        printed = " ".join(
            " ".join(p.extract_text() for p in PdfReader(io.BytesIO(document)).pages).split()
        )
        assert "1 Anna (1 pending) 1 1 0" in printed and "Carl 1 1 0" in printed
        assert "Pending: games that a player linked to an account has not confirmed" in printed
        assert "They count already" in printed


def test_a_closed_seasons_csv_knows_no_pending_games_and_its_pdf_marks_none(
    play, season, accounts, owner, client_owner
):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    league_services.season_close(season=season, user=owner)

    text = client_owner.get(reverse("season_csv", args=[season.pk])).content.decode()
    pdf = client_owner.get(reverse("season_pdf", args=[season.pk])).content

    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][-1] == "Pending" and [row[-1] for row in rows[1:]] == ["", ""]
    printed = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "pending" not in printed.lower()


def test_the_board_marks_pending_games_and_says_how_many_wait(
    play, season, accounts, club, client_owner
):
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Dora"], [G(90, knocker="Carl")])
    url = reverse("club_board", args=[club.slug])

    board = client_owner.get(url).content.decode()
    assert board.count('<small class="pending" title="1 pending">(1)</small>') == 2  # Anna, Ben
    assert "(1), (2): games a player has not confirmed yet." in board
    assert "not counted yet" not in board  # the season counts them already

    only_confirmed(season)
    board = client_owner.get(url).content.decode()
    assert '<small class="pending"' not in board  # Carl and Dora, nothing pending
    assert "pending-legend" not in board
    assert "1 game waits for its players to confirm it: not counted yet." in board

    confirm(partie, accounts["Anna"], accounts["Ben"])
    board = client_owner.get(url).content.decode()
    assert "not counted yet" not in board and '<small class="pending"' not in board
    confirmations.game_unlock(game=ClosedGame.objects.get(partie=partie), user=club_owner(club))
    with translation.override("de"):
        german = client_owner.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "1 Partie wartet auf die Bestätigung ihrer Spieler: noch nicht gezählt." in german
