"""A whole league night, each person in a browser of his own: the organiser at a desktop,
two players on their phones (360 px), the board on the screen in the bar (1920 px).

The organiser finds the season's players ticked as present, unticks the one who stayed
home, seats the two players together and starts the round; the board shows the tables.
One player scores the partie on his phone to its end while the other follows it on his;
the board, never reloaded, follows the score by its polls (the 3 s it promises are timed
in test_club_board.py; here a busy machine may take longer). The season counts only
confirmed games: the opponent finds the notice on his phone and confirms from his games,
the scorer confirms on the game's page, the game is locked (a correction is refused),
and only then does the board's season table count it. The organiser closes the season,
and the league's past seasons name its winner.

``test_screenshots_of_a_league_night`` keeps the league night page, the board and the
standings at 360 and 1920 px, in English and German, with long names, when SCREENSHOTS
names a folder (docs/screenshots); without it, it is skipped (tests/browser/
test_overflow.py walks these pages with long names at 360 px).
"""

import os
import re
from collections.abc import Callable
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.league.night_services import night_round_start
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    browser_of,
    expect_console_error,
    expect_no_sideways_scroll,
    expect_same_page,
    go_to,
    hand_rows,
    mark_page,
    record,
    small_screenshot,
    status,
    tables_proposed,
)
from tests.browser.test_club_board import BAR, fits_the_screen, standings_row
from tests.clubs.conftest import join
from tests.conftest import PASSWORD
from tests.league.club_night import G, K, season_around_today

ROSTER = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def a_club(owner: User, users: dict[str, Role]) -> Club:
    """The Gin Club: the owner organises; each of ``users`` joins with his role."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    for username, role in users.items():
        join(club, User.objects.create_user(username, password=PASSWORD), role)
    return club


def a_listed_season(
    club: Club,
    owner: User,
    names: list[str],
    accounts: dict[str, str],
    confirmed_games_only: bool = False,
) -> Season:
    """The club's season around today, listing the roster ``names``; the players named in
    ``accounts`` are linked to those members' accounts (so they are asked to confirm
    their games), and the season may count only the games they confirmed."""
    season = season_around_today(club)
    if confirmed_games_only:
        season = league_services.season_settings_change(season=season, confirmed_games_only=True)
    players = []
    for name in names:
        player = services.player_add(club=club, name=name, owner=owner)
        if name in accounts:
            services.player_link(player=player, user=User.objects.get(username=accounts[name]))
        players.append(player)
    return league_services.season_players_set(
        season=season, players_from=Season.Players.ROSTER, players=players
    )


def seat_together(page: Page, one: str, other: str) -> int:
    """Seat ``other`` at ``one``'s proposed table (a swap, unless he sits there already):
    the number of their table."""
    ones = next(table for table in tables_proposed(page) if one in table)
    if other not in ones:
        partner = next(name for name in ones if name != one)
        page.get_by_label("Swap").select_option(label=other)
        page.get_by_label("with", exact=True).select_option(label=partner)
        page.get_by_role("button", name="Swap").click()
    number = next(n for n, table in enumerate(tables_proposed(page), 1) if one in table)
    assert sorted(tables_proposed(page)[number - 1]) == sorted([one, other])
    return number


def test_a_league_night_from_the_organiser_to_the_archive(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    console_errors: list[str],
):
    club = a_club(owner, {"anna": Role.SCORER, "ben": Role.MEMBER, "bar": Role.MEMBER})
    # Anna and Ben are linked to their accounts: each confirms their games on his phone,
    # and the season counts only the games its players have confirmed.
    accounts = {"Anna": "anna", "Ben": "ben"}
    season = a_listed_season(club, owner, ROSTER, accounts, confirmed_games_only=True)

    # The organiser, at a desktop: the season's players are ticked; Emil stayed home.
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP)
    organiser.goto(season.get_absolute_url())
    organiser.get_by_role("link", name="League night").click()
    for name in ROSTER:
        expect(organiser.get_by_label(name, exact=True)).to_be_checked()
    organiser.get_by_label("Emil", exact=True).uncheck()
    organiser.get_by_role("button", name="Propose tables").click()
    expect(organiser.locator(".proposal li")).to_have_count(2)
    expect(organiser.locator(".night-bye")).to_have_count(0)
    number = seat_together(organiser, "Anna", "Ben")  # Anna and Ben play each other tonight
    organiser.get_by_role("button", name="Start round 1: 2 parties").click()
    expect(organiser.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    expect(organiser.locator(".night-round li")).to_have_count(2)

    # The board in the bar shows tonight's tables; no game of the season is over yet.
    board = browser_of(open_context, log_in, "bar", BAR)
    board.goto(reverse("club_board", args=[club.slug]))
    card = board.locator(".board-table").filter(has_text=f"Table {number}")
    expect(card.locator("h2")).to_contain_text(re.compile(r"(Anna – Ben|Ben – Anna)"))
    expect(board.locator(".board-table")).to_have_count(2)
    expect(board.locator(".board-standings")).to_contain_text("No game of the season counted")
    fits_the_screen(board)
    mark_page(board)  # what follows comes by the board's polls, not by a reload

    # Anna and Ben find their partie on their phones, under My games.
    phones = {}
    for username in ("anna", "ben"):
        phone = browser_of(open_context, log_in, username, PHONE)
        phone.goto("/")
        go_to(phone, "My games")
        phone.locator("ul.parties li a").click()
        expect(phone).to_have_url(re.compile(r"/parties/\d+/$"))
        phones[username] = phone
    anna, ben = phones["anna"], phones["ben"]
    # Both sit at this table: Ben, a plain member, may score it as Anna does (Anna does).
    expect(ben.locator("form.hand-form")).to_be_visible()

    mark_page(anna)
    record(anna, 1, "knock", knocker="Anna", dk=3, dd=23)  # Anna 20
    expect(card.locator(".board-totals")).to_contain_text("Anna 20")
    record(anna, 2, "gin", knocker="Anna", dd=40)  # 20 + 60: 80
    record(anna, 3, "gin", knocker="Anna", dd=10)  # 80 + 30: 110, Ben has none: a shutout
    expect(status(anna)).to_contain_text("Anna won")
    expect(card).to_contain_text("Over: Anna won")
    # The game is pending: the board's table counts it not yet.
    expect(board.locator(".board-standings")).to_contain_text("No game of the season counted")
    pending = board.locator(".board-standings .pending-games")
    expect(pending).to_have_text("1 game waits for its players to confirm it: not counted yet.")

    # Ben's next page tells him of the game; he confirms it from his games, in place.
    ben.reload()
    expect(status(ben)).to_contain_text("Anna won")
    notice = ben.locator(".confirmation-notice")
    expect(notice).to_have_text("1 game to confirm")
    notice.get_by_role("link").click()
    item = ben.locator("#to-confirm li").filter(has_text="Anna won.")
    expect(item.locator(".game-head")).to_contain_text(re.compile(r"(Anna – Ben|Ben – Anna)"))
    item.get_by_role("button", name="Confirm the result").click()
    expect(ben.locator("#to-confirm")).to_contain_text("Nothing left to confirm.")

    # Anna plays too: she confirms on the game's page, and the game is locked; its hands
    # offer no correction from now on, and their edit page says who unlocks it.
    anna.reload()
    anna.locator("#confirmations").get_by_role("link", name="The result").click()
    expect(anna.locator(".confirmation-confirmed")).to_have_text("Ben: ✓ confirmed")
    anna.get_by_role("button", name="Confirm the result").click()
    expect(anna.locator(".locked")).to_have_text("Confirmed by every player: the game is locked.")
    anna.get_by_role("link", name="The partie's page", exact=True).click()
    expect(hand_rows(anna).first.get_by_role("link", name="Locked")).to_be_visible()
    expect(hand_rows(anna).get_by_role("link", name="Edit")).to_have_count(0)
    anna.goto(f"{anna.url}hands/1/edit/")
    expect(anna.locator("h1")).to_have_text("Hand 1 is locked")
    expect(anna.locator("main")).to_contain_text("Only the club's owner can unlock it")
    expect_console_error(console_errors, "409 (Conflict)")  # the locked hand's page: 409

    # Only now does the board, by its polls, count the game: a shutout win of Anna's.
    row = standings_row(board, "Anna").locator("td")
    expect(row.nth(1)).to_have_text("1")  # games
    expect(row.nth(3)).to_have_text("3")  # a shutout win's league points
    expect(standings_row(board, "Ben").locator("td").nth(1)).to_have_text("1")
    expect(pending).to_have_count(0)
    expect_same_page(board)

    # Ben reads the season's standings on his phone: Anna first; who has no counted game
    # is one line under the table (Carl and Dora still play, Emil is on the list).
    ben.goto(season.get_absolute_url())
    players = ben.locator("table.standings tbody th.player")
    expect(players).to_have_text(["Anna", "Ben"])
    expect(ben.locator(".also-players")).to_have_text(
        "Also in this season, no counted game yet: Carl, Dora, Emil"
    )
    expect_no_sideways_scroll(ben)

    # The organiser closes the season; the league's past seasons name Anna its winner.
    organiser.goto(season.get_absolute_url())
    organiser.get_by_role("link", name="Close the season").click()
    expect(organiser.locator(".notice")).to_contain_text("1 partie of the season is still")
    organiser.get_by_role("button", name="Close the season").click()
    expect(organiser.locator(".closed-season")).to_contain_text("Final standings")
    organiser.get_by_role("link", name="Past seasons").click()
    archive = organiser.locator("table.archive tbody tr")
    expect(archive.locator("th a")).to_have_text(["Autumn"])
    expect(archive.locator("td.winner")).to_have_text(["Anna"])


# Long names, as the screenshots show them: each page must hold them.
LONG_NAMES = [
    "Alexandra-Maximiliane von Hohenzollern",
    "Bartholomäus Friedrich-Wilhelm",
    "Christabella Fitzwilliam-Montgomery",
    "Dorotheanna Wittelsbach-Habsburg",
    "Gerlinde Sonnenschein-Oberhuber",
    "Emil",
    "Fritz",
    "Hans",
    "Ida Pfeiffer",
]


def a_long_named_night(owner: User) -> Season:
    """The first round of tonight's league night, of long names: table 1 over, a table of
    three with a hand, two tables of short names; the bar's screen logs in as "bar"."""
    club = a_club(owner, {"bar": Role.MEMBER})
    season = a_listed_season(club, owner, LONG_NAMES, {})
    first, second, third, fourth, fifth, *rest = LONG_NAMES
    round_one = Pairing(
        (
            Table(1, (first, second)),
            Table(2, (third, fourth, fifth)),  # a table of three: long names thrice
            Table(3, tuple(rest[:2])),
            Table(4, tuple(rest[2:])),
        ),
        (),
    )
    night = night_round_start(
        season=season, owner=owner, seating=round_one, played_on=timezone.localdate(), round=1
    )
    parties = [table.partie for table in night.tables.order_by("number")]
    for hand in (G(40, knocker=first), G(30, knocker=first)):
        services.hand_record(partie=parties[0], hand=hand, user=owner)
    # The cut seats the table of three: the knocker is whoever plays at it first.
    knocker = services.partie_replay(parties[1]).turn().table[0]
    services.hand_record(partie=parties[1], hand=K(2, 30, knocker=knocker), user=owner)
    return season


def test_long_names_leave_every_card_of_the_bar_screen_whole(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User
):
    season = a_long_named_night(owner)
    board = browser_of(open_context, log_in, "bar", BAR)
    board.goto(reverse("club_board", args=[season.league.club.slug]))

    expect(board.locator(".standings-top tbody tr")).to_have_count(2)
    fits_the_screen(board)  # the score, who won and whose deal: nothing cut off
    # Both players of a two-sided table are named in its heading, each cut on his own
    # (a Hollywood's games name nobody): none is pushed out of the heading's two lines.
    shown = board.evaluate(
        """[...document.querySelectorAll('.board-table h2 .players')]
             .filter(names => getComputedStyle(names).display === 'flex')
             .flatMap(names => [...names.querySelectorAll('.player')].map(name => {
               const heading = names.closest('h2').getBoundingClientRect();
               const box = name.getBoundingClientRect();
               const size = parseFloat(getComputedStyle(name).fontSize);
               return [name.textContent, box.bottom <= heading.bottom + 1
                                         && box.width >= 2 * size];
             }))"""
    )
    assert len(shown) == 6, shown  # tables 1, 3 and 4; table 2's three are in its totals
    assert all(whole for _name, whole in shown), shown
    # A player a line in the season's table (not a name broken in five), whole in its title.
    first = board.locator(".standings-top tbody th").first
    expect(first).to_have_attribute("title", LONG_NAMES[0])
    height = "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).fontSize)"
    assert first.evaluate(height) < 2


@pytest.mark.skipif(
    not os.environ.get("SCREENSHOTS"),
    reason="pictures only: the overflow walk checks these pages with long names",
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_a_league_night(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    language: str,
):
    season = a_long_named_night(owner)
    # The league night page proposes the second round's tables for everyone present.
    present = Player.objects.filter(club=season.league.club).values_list("pk", flat=True)
    query = urlencode([("present", pk) for pk in present] + [("method", "swiss")])
    pages = {
        "league-night": (owner.username, f"{reverse('league_night', args=[season.pk])}?{query}"),
        "night-board": ("bar", reverse("club_board", args=[season.league.club.slug])),
        "night-standings": ("bar", season.get_absolute_url()),
    }
    for name, (username, url) in pages.items():
        for width, size in (("360", PHONE), ("1920", BAR)):
            page = browser_of(open_context, log_in, username, size, language)
            page.goto(url)
            expect_no_sideways_scroll(page)
            if name == "night-board" and size is BAR:
                fits_the_screen(page)
            small_screenshot(page, f"{name}-{language}-{width}", full_page=size is PHONE)
