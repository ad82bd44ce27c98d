"""A whole league night, each person in a browser of his own: the organiser at a desktop,
two players on their phones (360 px), the board on the screen in the bar (1920 px).

The organiser finds the season's players ticked as present, unticks the one who stayed
home, seats the two players together and starts the round; the board shows the tables.
One player scores the partie on his phone to its end while the other follows it on his;
the board, never reloaded, follows the score and then the season's table by its polls
(the 3 s it promises are timed in test_club_board.py; here a busy machine may take
longer). The organiser closes the season, and the league's past seasons name its winner.

``test_screenshots_of_a_league_night`` keeps the league night page, the board and the
standings at 360 and 1920 px, in English and German, with long names, when SCREENSHOTS
names a folder (docs/screenshots); without it, it is skipped (tests/browser/
test_overflow.py walks these pages with long names at 360 px).
"""

import os
import re
from collections.abc import Callable
from pathlib import Path
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
    PHONE,
    expect_no_sideways_scroll,
    expect_same_page,
    go_to,
    mark_page,
    record,
    screenshot,
    status,
)
from tests.browser.test_club_board import BAR, fits_the_screen, standings_row
from tests.clubs.conftest import join
from tests.conftest import PASSWORD
from tests.league.club_night import G, K, season_around_today

DESKTOP = {"width": 1280, "height": 800}
ROSTER = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def a_club(owner: User, users: dict[str, Role]) -> Club:
    """The Gin Club: the owner organises; each of ``users`` joins with his role."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    for username, role in users.items():
        join(club, User.objects.create_user(username, password=PASSWORD), role)
    return club


def a_listed_season(club: Club, names: list[str], accounts: dict[str, str]) -> Season:
    """The club's season around today, listing the roster ``names``; the players named in
    ``accounts`` are linked to those members' accounts."""
    season = season_around_today(club)
    players = []
    for name in names:
        user = User.objects.get(username=accounts[name]) if name in accounts else None
        players.append(Player.objects.create(club=club, name=name, user=user))
    return league_services.season_players_set(
        season=season, players_from=Season.Players.ROSTER, players=players
    )


def browser_of(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    username: str,
    size: dict[str, int],
    language: str = "en",
) -> Page:
    """A browser of the person's own, at his screen's size, logged in, in his language."""
    context = open_context(viewport=size)
    page = context.new_page()
    log_in(page, username)
    if language != "en":
        context.add_cookies([{"name": "django_language", "value": language, "url": page.url}])
    return page


def tables_proposed(page: Page) -> list[list[str]]:
    """The proposed tables' players, table 1 first."""
    texts = page.locator(".proposal li").all_inner_texts()
    return [re.sub(r"^Table \d+\s*", "", text).split(" – ") for text in texts]


def test_a_league_night_from_the_organiser_to_the_archive(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User
):
    club = a_club(owner, {"anna": Role.SCORER, "ben": Role.MEMBER, "bar": Role.MEMBER})
    season = a_listed_season(club, ROSTER, {"Anna": "anna", "Ben": "ben"})

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
    annas = next(table for table in tables_proposed(organiser) if "Anna" in table)
    if "Ben" not in annas:  # Anna and Ben play each other tonight: a swap seats them
        partner = next(name for name in annas if name != "Anna")
        organiser.get_by_label("Swap").select_option(label="Ben")
        organiser.get_by_label("with", exact=True).select_option(label=partner)
        organiser.get_by_role("button", name="Swap").click()
    number = next(n for n, t in enumerate(tables_proposed(organiser), 1) if "Anna" in t)
    assert sorted(tables_proposed(organiser)[number - 1]) == ["Anna", "Ben"]
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
        go_to(phone, "My games")
        phone.locator("ul.parties li a").click()
        expect(phone).to_have_url(re.compile(r"/parties/\d+/$"))
        phones[username] = phone
    anna, ben = phones["anna"], phones["ben"]
    expect(ben.locator("form.hand-form")).to_have_count(0)  # Ben reads; Anna scores

    mark_page(anna)
    record(anna, 1, "knock", knocker="Anna", dk=3, dd=23)  # Anna 20
    expect(card.locator(".board-totals")).to_contain_text("Anna 20")
    record(anna, 2, "gin", knocker="Anna", dd=40)  # 20 + 60: 80
    record(anna, 3, "gin", knocker="Anna", dd=10)  # 80 + 30: 110, Ben has none: a shutout
    expect(status(anna)).to_contain_text("Anna won")
    expect(card).to_contain_text("Over: Anna won")
    row = standings_row(board, "Anna").locator("td")
    expect(row.nth(1)).to_have_text("1")  # games
    expect(row.nth(3)).to_have_text("3")  # a shutout win's league points
    expect(standings_row(board, "Ben").locator("td").nth(1)).to_have_text("1")
    expect_same_page(board)

    ben.reload()
    expect(status(ben)).to_contain_text("Anna won")
    # CONFIRMATION (issue 18, deliverable 3, built elsewhere): Ben confirms the result on
    # his phone here (his games page, or the notice on any page), and the organiser's
    # standings count the game as confirmed. Insert that step at this place.

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
    season = a_listed_season(club, LONG_NAMES, {})
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
    services.hand_record(partie=parties[1], hand=K(2, 30, knocker=third), user=owner)
    return season


def test_long_names_leave_every_card_of_the_bar_screen_whole(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User
):
    season = a_long_named_night(owner)
    board = browser_of(open_context, log_in, "bar", BAR)
    board.goto(reverse("club_board", args=[season.league.club.slug]))

    expect(board.locator(".standings-top tbody tr")).to_have_count(2)
    fits_the_screen(board)  # the score, who won and whose deal: nothing cut off
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


def small_screenshot(page: Page, name: str, full_page: bool) -> None:
    """``screenshot``, in 64 colours: a third of the bytes, the same picture to the eye."""
    screenshot(page, name, full_page)
    from PIL import Image  # reportlab's dependency; only the pictures need it

    path = Path(os.environ["SCREENSHOTS"]) / f"{name}.png"
    Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)
