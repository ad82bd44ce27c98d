"""The club's board on a league night, as the room follows it (issue 29, item 5): each
table says its round, running tables come first, a round whose tables are all over
folds into one line of results with its byes, and nothing private shows on it.

Five players, three rounds of two tables and a bye: rounds 1 and 2 are over, round 3 has
its first table running and its second over.
"""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import night_services
from scorekeeper.league.models import NightTable
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, Partie
from scorekeeper.table.services import confirmations
from scorekeeper.table.services import sharing as share_services
from tests.league.conftest import G, work
from tests.table.test_live import poll, polled_headers

pytestmark = pytest.mark.django_db

ROUNDS = [
    # (the tables' players, the bye)
    ((("Anna", "Ben"), ("Carl", "Dora")), "Emil"),
    ((("Anna", "Carl"), ("Ben", "Emil")), "Dora"),
    ((("Anna", "Dora"), ("Carl", "Emil")), "Ben"),
]


@pytest.fixture
def url(club) -> str:
    return reverse("club_board", args=[club.slug])


def start_round(season, owner, number: int) -> dict[int, Partie]:
    """Round ``number`` of ROUNDS started tonight: its parties by table number."""
    tables, bye = ROUNDS[number - 1]
    seating = Pairing(tuple(Table(n, players) for n, players in enumerate(tables, 1)), (bye,))
    night = night_services.night_round_start(
        season=season, owner=owner, seating=seating, played_on=timezone.localdate(), round=number
    )
    seated = NightTable.objects.filter(night=night, round=number).select_related("partie")
    return {table.number: table.partie for table in seated}


def win(partie: Partie, owner) -> None:
    """The table's first player wins its game: a gin of 90 ends it, 330 to 0 with the
    game's and the boxes' bonuses."""
    winner = partie.summary["players"][0]
    services.hand_record(partie=partie, hand=G(90, knocker=winner), user=owner)
    work()


@pytest.fixture
def three_rounds(club, season, owner) -> dict[tuple[int, int], Partie]:
    """Rounds 1 and 2 played out; round 3's table 2 over, its table 1 running."""
    for name in ("Anna", "Ben", "Carl", "Dora", "Emil"):
        services.player_add(club=club, name=name, owner=owner)
    parties = {}
    for number in (1, 2, 3):
        for table, partie in start_round(season, owner, number).items():
            parties[(number, table)] = partie
            if (number, table) != (3, 1):
                win(partie, owner)
    return parties


def cards(html: str) -> list[str]:
    """The cards' heads in the board's order."""
    return [head.split("</span>")[0] for head in html.split('<h2><span class="table-number">')[1:]]


def round_line(html: str, number: int) -> str:
    """The line of round ``number``, from its <li> on, its spaces collapsed."""
    line = html[html.rindex("<li", 0, html.index(f'id="board-round-{number}"')) :]
    return " ".join(line[: line.index("</li>")].split())


def test_each_table_says_its_round_and_the_running_one_comes_first(client_owner, url, three_rounds):
    html = client_owner.get(url).content.decode()

    assert cards(html) == ["Round 3 · Table 1", "Round 3 · Table 2"]
    running = f'class="board-table running" id="board-partie-{three_rounds[(3, 1)].pk}"'
    assert running in html
    assert "Anna – Dora" in html and "Over: Carl won" in html


def test_a_round_played_out_is_one_line_of_results_with_its_bye(client_owner, url, three_rounds):
    html = client_owner.get(url).content.decode()

    assert html.index('id="board-round-3"') < html.index('id="board-round-2"')
    assert html.index('id="board-round-2"') < html.index('id="board-round-1"')
    for number in (1, 2):
        for table in (1, 2):
            assert f'id="board-partie-{three_rounds[(number, table)].pk}"' not in html
    first = round_line(html, 1)
    assert first.startswith('<li class="board-round folded" id="board-round-1"><strong')
    assert 'Table 1:</span> <span class="side won">Anna <strong>330</strong></span>' in first
    assert '<span class="side">Ben <strong>0</strong></span>' in first
    assert 'Table 2:</span> <span class="side won">Carl <strong>330</strong>' in first
    assert "Bye: Emil" in first
    assert "Bye: Dora" in round_line(html, 2)


def test_the_round_being_played_names_its_bye_beside_its_cards(client_owner, url, three_rounds):
    html = client_owner.get(url).content.decode()

    line = round_line(html, 3)
    assert 'class="board-round"' in line  # not folded: its tables are cards
    assert "Bye: Ben" in line and "Table 1:" not in line


def test_tonights_rounds_stay_on_the_board_after_the_hour(client_owner, url, three_rounds):
    first_round = [three_rounds[(1, 1)].pk, three_rounds[(1, 2)].pk]
    Partie.objects.filter(pk__in=first_round).update(closed_at=timezone.now() - timedelta(hours=3))

    html = client_owner.get(url).content.decode()

    assert "Bye: Emil" in round_line(html, 1) and "Anna <strong>330</strong>" in html


def test_the_last_table_of_a_round_to_end_folds_it_and_changes_the_etag(
    client_owner, url, owner, three_rounds
):
    html = client_owner.get(url).content.decode()
    headers = polled_headers(html)
    assert poll(client_owner, url, headers).status_code == 304

    win(three_rounds[(3, 1)], owner)

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    html = response.content.decode()
    assert cards(html) == []
    assert round_line(html, 3).startswith('<li class="board-round folded"')
    assert "No table is being played" not in html


def test_a_round_started_changes_the_etag_and_its_tables_come_first(
    client_owner, url, owner, season, three_rounds
):
    win(three_rounds[(3, 1)], owner)
    headers = polled_headers(client_owner.get(url).content.decode())
    seating = Pairing((Table(1, ("Ben", "Carl")), Table(2, ("Dora", "Emil"))), ("Anna",))

    night_services.night_round_start(
        season=season, owner=owner, seating=seating, played_on=timezone.localdate(), round=4
    )

    response = poll(client_owner, url, headers)
    assert response.status_code == 200
    html = response.content.decode()
    assert cards(html) == ["Round 4 · Table 1", "Round 4 · Table 2"]
    assert "Bye: Anna" in round_line(html, 4)


def test_a_table_no_night_started_follows_the_nights_tables(client_owner, url, play, three_rounds):
    play(["Xena", "Yann"], [])

    html = client_owner.get(url).content.decode()

    assert cards(html) == ["Round 3 · Table 1", "Table 3", "Round 3 · Table 2"]


# Nothing private on the room's screen


@pytest.fixture
def disputed(club, owner, accounts, play):
    """Anna (a member) is asked to confirm a game; Ben disputed another, which asks the
    owner to look at it."""
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    other = play(["Ben", "Anna"], [G(90, knocker="Anna")])
    confirmations.result_dispute(
        game=ClosedGame.objects.get(partie=other), user=accounts["Ben"], note="Wrong count"
    )
    work()


NOTICES = ("to confirm", "disputed game", "confirmation-notice")


@pytest.mark.parametrize("who", ["owner", "Anna"])
def test_the_club_board_shows_no_ones_notices(client_owner, url, club, accounts, disputed, who):
    client = client_owner if who == "owner" else Client()
    if who == "Anna":
        client.force_login(accounts["Anna"])
    elsewhere = client.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert "confirmation-notice" in elsewhere  # the notice is there to be left off

    html = client.get(url).content.decode()

    assert not [words for words in NOTICES if words in html]


def test_the_shared_evening_board_shows_no_notices_to_whoever_is_logged_in(
    client_owner, owner, club, disputed
):
    evening = services.evening_start(
        owner=owner, club=club, name="Club night", played_on=timezone.localdate()
    )
    share_services.evening_share(evening=evening)
    assert "confirmation-notice" in client_owner.get(reverse("evening_list")).content.decode()

    for url in (
        reverse("shared_evening_board", args=[evening.share_token]),
        reverse("evening_board", args=[evening.pk]),
    ):
        html = client_owner.get(url).content.decode()
        assert not [words for words in NOTICES if words in html], url
