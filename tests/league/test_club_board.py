"""The club's live board with its season's table: tonight's tables, numbered, in words the
engine gives them, and the top of the season's table, which the board follows too.

The board answers a poll "unchanged" (304) from the parties' versions and what the
season's standings are counted from: the club's closed games and assignments (their
newest key and their number), read with the season in one query, and nothing replayed
or counted. A game that closes, or changes, anywhere in the club changes the answer.
"""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine, vocabulary
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import night_services, selectors
from scorekeeper.league import services as league_services
from scorekeeper.table import live, services
from scorekeeper.table.models import Partie
from tests.league.conftest import G, K, work
from tests.table.test_live import HTMX, poll, polled_headers

pytestmark = pytest.mark.django_db


@pytest.fixture
def url(club) -> str:
    return reverse("club_board", args=[club.slug])


@pytest.fixture
def board(client_owner, url):
    """The board as the page first shows it: its HTML and the headers its region polls
    with."""

    def board(client=client_owner) -> tuple[str, dict[str, str]]:
        html = client.get(url).content.decode()
        return html, polled_headers(html)

    return board


@pytest.fixture
def tonight(play, season):
    """The season has Anna's win over Ben (a shutout, 3 points), an hour and more ago;
    tonight Carl plays Dora, who has won a hand."""
    old = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    Partie.objects.filter(pk=old.pk).update(closed_at=timezone.now() - timedelta(days=2))
    return play(["Carl", "Dora"], [K(3, 20, knocker="Dora")])


def standings_rows(html: str) -> list[str]:
    """The season's table on the board: each line's player and league points."""
    table = html[html.index('class="standings-top"') :]
    table = table[: table.index("</table>")]
    rows = table.split("<tr")[2:]
    return [" ".join(row.split('scope="row">')[1].split("<")[0].split()) for row in rows]


# The season's table on the board


def test_the_board_shows_the_top_of_the_season_under_way(client_owner, url, tonight):
    html = client_owner.get(url).content.decode()

    assert "Standings: Autumn" in html
    assert standings_rows(html) == ["Anna", "Ben"]  # Carl and Dora have no game counted yet
    assert '<abbr title="League points">Points</abbr>' in html
    assert "Carl – Dora" in html and "Anna – Ben" not in html  # tonight's tables only


def test_the_top_is_ten_lines_of_the_seasons_order(client_owner, url, play, season):
    for n in range(6):
        play(
            [f"Winner {n}", f"Loser {n}"],
            [K(2, 10, knocker=f"Loser {n}")] + [G(90, knocker=f"Winner {n}")],
        )

    html = client_owner.get(url).content.decode()

    rows = standings_rows(html)
    assert len(rows) == 10
    assert rows == [line.player for line, _pending in selectors.season_top(season).lines]
    assert all(name.startswith("Winner") for name in rows[:6])


def test_a_club_without_a_season_under_way_shows_its_tables_alone(
    client_owner, url, club, play, season
):
    season.starts_on = season.ends_on = timezone.localdate() - timedelta(days=1)
    season.save()
    play(["Carl", "Dora"], [])

    html = client_owner.get(url).content.decode()

    assert "Carl – Dora" in html
    assert "standings-top" not in html and "Standings:" not in html


def test_of_two_seasons_under_way_the_board_shows_the_last_to_start(
    client_owner, url, club, season
):
    league = league_services.league_create(club=club, name="Cup")
    today = timezone.localdate()
    league_services.season_create(
        league=league, name="Winter cup", starts_on=today, ends_on=today + timedelta(days=5)
    )

    assert "Standings: Winter cup" in client_owner.get(url).content.decode()


def test_a_season_closed_early_leaves_the_board(client_owner, url, owner, board, play, season):
    """The issue's smaller defect: closed ten days before its end, the board kept it."""
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    html, headers = board()
    assert "Standings: Autumn" in html

    league_services.season_close(season=season, user=owner)

    response = poll(client_owner, url, headers)
    assert response.status_code == 200  # the season's row changed
    html = response.content.decode()
    assert "standings-top" not in html and "Standings:" not in html
    assert 'class="board"' in html  # no column kept for a table it no longer shows


def test_a_closed_season_gives_way_to_the_open_one_under_way(
    client_owner, url, owner, play, club, season
):
    cup = league_services.league_create(club=club, name="Cup")
    today = timezone.localdate()
    league_services.season_create(
        league=cup, name="Winter cup", starts_on=today - timedelta(days=60), ends_on=today
    )
    later = league_services.season_create(
        league=cup,
        name="Spring cup",
        starts_on=today + timedelta(days=1),
        ends_on=today + timedelta(days=60),
    )
    league_services.season_close(season=season, user=owner)  # Autumn started last

    html = client_owner.get(url).content.decode()

    assert "Standings: Winter cup" in html
    assert "Autumn" not in html and later.name not in html


# "Unchanged": 304, standings included, from one more query


def test_an_unchanged_board_answers_304_with_its_standings_in_the_etag(
    client_owner, url, board, tonight, django_assert_num_queries, monkeypatch
):
    _html, headers = board()

    def no_counting(*args, **kwargs):
        raise AssertionError("the standings were counted")

    monkeypatch.setattr(selectors, "book_standings", no_counting)
    monkeypatch.setattr(engine.Session, "replay", classmethod(no_counting))
    # the session, the user, the club with the member's role, the parties' versions, the
    # season with its standings' version
    with django_assert_num_queries(5):
        response = poll(client_owner, url, headers)

    assert response.status_code == 304 and response.content == b""
    assert response["ETag"] == headers["If-None-Match"]


def test_a_game_that_closes_changes_the_board_and_its_standings(
    client_owner, url, board, owner, tonight
):
    html, headers = board()
    assert "Over: Carl won" not in html

    services.hand_record(partie=tonight, hand=G(90, knocker="Carl"), user=owner)

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Over: Carl won" in html
    assert standings_rows(html) == ["Anna", "Carl", "Dora", "Ben"]


@pytest.mark.parametrize(
    "change",
    [
        # the last hand of a game played two days ago, changed: its rows are new
        lambda p, u: services.hand_edit(partie=p, number=1, hand=G(85, knocker="Anna"), user=u),
        # a game of two days ago deleted: its rows are gone
        lambda p, u: services.partie_delete(partie=p, user=u),
    ],
    ids=["edited", "deleted"],
)
def test_a_game_off_the_board_that_changes_changes_the_etag_through_the_standings(
    client_owner, url, board, owner, play, season, change
):
    old = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    Partie.objects.filter(pk=old.pk).update(closed_at=timezone.now() - timedelta(days=2))
    html, headers = board()
    assert "Anna – Ben" not in html  # not on the board: its version is not in the ETag

    change(Partie.objects.get(pk=old.pk), owner)

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    assert poll(client_owner, url, polled_headers(response.content.decode())).status_code == 304


def test_a_partie_given_to_the_season_changes_the_etag(client_owner, url, board, play, season):
    other = league_services.league_create(club=season.league.club, name="Cup")
    today = timezone.localdate()
    cup = league_services.season_create(
        league=other,
        name="Cup",
        starts_on=today - timedelta(days=400),
        ends_on=today - timedelta(days=300),
    )
    old = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    Partie.objects.filter(pk=old.pk).update(closed_at=timezone.now() - timedelta(days=2))
    html, headers = board()
    assert standings_rows(html) == ["Anna", "Ben"]

    league_services.partie_season_assign(partie=old, season=cup)

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    assert "standings-top" not in response.content.decode()  # no game counted any more
    assert "No game of the season counted yet." in response.content.decode()


def test_a_changed_season_changes_the_etag(client_owner, url, board, tonight, season):
    _html, headers = board()
    season.points_win = 5
    season.save()

    response = poll(client_owner, url, headers)

    assert response.status_code == 200


def test_a_rename_of_a_player_off_the_board_changes_the_etag_and_shows(
    client_owner, url, board, owner, play, season
):
    """The issue's third defect: the renamed player's parties are no longer on the board,
    only his line in the season's table is."""
    old = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    Partie.objects.filter(pk=old.pk).update(closed_at=timezone.now() - timedelta(days=2))
    html, headers = board()
    assert standings_rows(html) == ["Anna", "Ben"]

    services.player_rename(player=old.seats.get(position=1).player, name="Benno", user=owner)

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    assert standings_rows(response.content.decode()) == ["Anna", "Benno"]


def test_the_board_says_when_ratings_are_due_and_changes_when_they_land(
    client_owner, url, board, owner, play, season
):
    old = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    Partie.objects.filter(pk=old.pk).update(closed_at=timezone.now() - timedelta(days=2))
    services.hand_edit(partie=old, number=1, hand=G(85, knocker="Anna"), user=owner)
    response = poll(client_owner, url, {})
    assert "Ratings are being updated" in response.content.decode()
    headers = polled_headers(response.content.decode())
    assert poll(client_owner, url, headers).status_code == 304

    work()

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    assert "Ratings are being updated" not in response.content.decode()


# Tonight's tables: numbered, in the engine's words


def test_the_tables_are_numbered_in_the_order_they_started(client_owner, url, play, season):
    first = play(["Carl", "Dora"], [])
    second = play(["Emil", "Fay"], [])

    html = client_owner.get(url).content.decode()

    assert html.index(f'id="board-partie-{first.pk}"') < html.index(
        f'id="board-partie-{second.pk}"'
    )
    assert "Table 1</span>" in html and "Table 2</span>" in html


def test_a_league_nights_tables_keep_their_numbers_and_the_others_follow(
    client_owner, url, owner, season, play
):
    free = play(["Xena", "Yann"], [])
    seating = Pairing((Table(1, ("Anna", "Ben")), Table(2, ("Carl", "Dora"))))
    night_services.night_round_start(
        season=season, owner=owner, seating=seating, played_on=timezone.localdate(), round=1
    )
    night = {p.summary["players"][0]: p for p in Partie.objects.exclude(pk=free.pk)}

    tables = client_owner.get(url).context["tables"]

    numbers = {table.partie.pk: table.number for table in tables}
    assert numbers == {night["Anna"].pk: 1, night["Carl"].pk: 2, free.pk: 3}
    assert [table.number for table in tables] == [1, 2, 3]


def test_a_chouette_between_games_says_who_won_the_last(client_owner, url, play, season):
    chouette = play(["Olga", "Pia", "Quin"], [G(90, knocker="Olga")], kind="chouette")

    html = client_owner.get(url).content.decode()

    card = html[html.index(f'id="board-partie-{chouette.pk}"') :]
    assert "Game 1 over: Olga won" in card[: card.index("</article>")]
    assert ">Team</span> <strong>0</strong>" in card  # the team's total, named


def test_a_chouette_game_the_team_won_says_so(client_owner, url, play, season):
    play(["Olga", "Pia", "Quin"], [G(90, knocker="Pia")], kind="chouette")

    assert "Game 1 over: the team won" in client_owner.get(url).content.decode()


def test_a_chouettes_next_game_drops_the_words_of_the_last(client_owner, url, play, season):
    play(
        ["Olga", "Pia", "Quin"], [G(90, knocker="Olga"), K(2, 12, knocker="Olga")], kind="chouette"
    )

    html = client_owner.get(url).content.decode()

    assert "over:" not in html
    assert "Game 2" in html


def test_a_hollywood_names_each_games_winner(client_owner, url, play, season):
    # Anna's first gin of 110 closes game 1, her second game 2; game 3 has no hand yet.
    hollywood = play(["Anna", "Ben"], [G(90, knocker="Anna")] * 2, kind="hollywood")

    html = client_owner.get(url).content.decode()

    card = html[html.index(f'id="board-partie-{hollywood.pk}"') :]
    card = card[: card.index("</article>")]
    games = [line.split(">", 1)[1] for line in card.split('<p class="board-totals">')[1:]]
    assert [("Anna won" in game) for game in games] == [True, True, False]
    assert "Game 3" in games[2]


def test_a_finished_hollywood_is_over_with_its_three_winners(client_owner, url, play, season):
    hands = [G(90, knocker="Anna"), G(90, knocker="Ben"), G(90, knocker="Anna")]
    hollywood = play(["Anna", "Ben"], hands, kind="hollywood")
    assert not hollywood.is_running

    html = client_owner.get(url).content.decode()

    card = html[html.index(f'id="board-partie-{hollywood.pk}"') :]
    card = card[: card.index("</article>")]
    assert card.count(" won</span>") == 3
    assert "Ben won" in card
    assert '<span class="badge">over</span>' in card


def test_a_summary_from_before_the_winners_were_kept_shows_its_totals(
    client_owner, url, play, season
):
    chouette = play(["Olga", "Pia", "Quin"], [G(90, knocker="Olga")], kind="chouette")
    summary = dict(chouette.summary)
    del summary["winners"]
    Partie.objects.filter(pk=chouette.pk).update(summary=summary)

    html = client_owner.get(url).content.decode()

    assert ">Olga</span> <strong>" in html and "over:" not in html


# Pages of twelve tables


@pytest.fixture
def fourteen(play, season) -> list[Partie]:
    return [play([f"A{n}", f"B{n}"], []) for n in range(14)]


def test_a_page_chosen_shows_its_tables_and_holds(client_owner, url, fourteen, monkeypatch):
    monkeypatch.setattr(live, "clock", lambda: 0.0)

    response = client_owner.get(url + "?page=2")

    tables = response.context["tables"]
    assert [t.number for t in tables if t.on_page] == [13, 14]
    assert len(tables) == 14  # a phone lists them all
    html = response.content.decode()
    assert "Page 2 of 2" in html and 'hx-get="/clubs/gin-club/board/?page=2"' in html
    assert 'class="board-table running off-page"' in html
    headers = polled_headers(html)
    monkeypatch.setattr(live, "clock", lambda: 1000.0 * live.ROTATE_SECONDS + 1)
    assert poll(client_owner, url + "?page=2", headers).status_code == 304


def test_unchosen_the_pages_take_turns_with_the_clock(client_owner, url, fourteen, monkeypatch):
    monkeypatch.setattr(live, "clock", lambda: 0.0)
    html = client_owner.get(url).content.decode()
    headers = polled_headers(html)
    assert "Page 1 of 2" in html

    monkeypatch.setattr(live, "clock", lambda: live.ROTATE_SECONDS - 0.5)
    assert poll(client_owner, url, headers).status_code == 304
    monkeypatch.setattr(live, "clock", lambda: float(live.ROTATE_SECONDS))
    turned = poll(client_owner, url, headers)

    assert turned.status_code == 200
    html = turned.content.decode()
    assert "Page 2 of 2" in html
    assert html.count("off-page") == 12
    assert f'class="board-table running" id="board-partie-{fourteen[13].pk}"' in html


@pytest.mark.parametrize("page", ["0", "9", "two", "-1"])
def test_a_page_out_of_range_or_not_a_number_shows_a_page_that_is(
    client_owner, url, fourteen, page, monkeypatch
):
    monkeypatch.setattr(live, "clock", lambda: 0.0)

    response = client_owner.get(url, {"page": page})

    assert response.status_code == 200
    shown = [t.number for t in response.context["tables"] if t.on_page]
    assert shown in ([*range(1, 13)], [13, 14])


def test_one_page_has_no_pages_to_turn(client_owner, url, play, season):
    play(["Carl", "Dora"], [])

    html = client_owner.get(url).content.decode()

    assert "board-pages" not in html and "off-page" not in html


# The words, from the engine's summary


def test_the_words_of_a_board_come_from_the_summary_and_the_kind():
    pair = [("Olga", 290), ("team", 40)]
    chouette = engine.session_class("chouette")

    assert vocabulary.game_over(["Olga"], chouette) == "Game 1 over: Olga won"
    assert vocabulary.game_over([engine.TEAM], chouette) == "Game 1 over: the team won"
    assert vocabulary.game_over(["Olga", None], chouette) is None
    (game,) = vocabulary.board_games([pair], ["Olga"], chouette)
    assert (game.label, game.totals, game.result) == ("Game 1", (("Olga", 290), ("Team", 40)), None)
    hollywood = engine.session_class("hollywood")
    games = vocabulary.board_games([pair, pair, pair], ["Olga", None, None], hollywood)
    assert [g.result for g in games] == ["Olga won", None, None]
    assert not any(g.named for g in games)


def test_the_words_of_a_board_in_german(client_owner, url, play, season):
    play(["Olga", "Pia", "Quin"], [G(90, knocker="Olga")], kind="chouette")
    play(["Anna", "Ben"], [G(90, knocker="Anna")], kind="hollywood")

    html = client_owner.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()

    assert "Partie 1 vorbei: Olga hat gewonnen" in html
    assert "Anna hat gewonnen" in html
    assert "Tabelle: Autumn" in html
    assert '<abbr title="Ligapunkte">Pkt.</abbr>' in html


def test_the_board_region_is_what_a_poll_gets(client_owner, url, tonight):
    response = client_owner.get(url, **HTMX)

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="board" class="board with-standings"')
    assert "standings-top" in html
