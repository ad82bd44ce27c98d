"""The club's board on the screen in the bar, measured (issue 29, item 5): the tables
fill the screen whatever their number, every text is a step of one type scale, a name
is cut only where it has no room, and the board follows a round that starts and a
table that ends.

The type scale: every text on the board is a base times 1, 1.25 or 1.6. The board's
base b is its own font size (a share of the screen); a card's base c is the size of its
"Round 2 · Table 3", which grows with the card's room, never below b.

Set SCREENSHOTS to a folder to keep the board with three rounds as pictures (1920 and
1280 px, English and German, long names).
"""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.clubs.models import Club
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import night_services
from scorekeeper.league.models import Season
from scorekeeper.table import live, services
from tests.browser.conftest import PHONE
from tests.browser.test_club_board import (  # noqa: F401 (club: a fixture)
    BAR,
    SMALL_BAR,
    club,
    fits_the_screen,
    screen,
    screenshot,
)
from tests.league.club_night import G, league_night

SCALE = (1.0, 1.25, 1.6)
SEEN_WITHIN_MS = 3_000  # the board polls every 2 s

# Seven players, long names among them: three tables and a bye a round.
LONG = [
    "Maximiliane Hohenzollern-Sigmaringen",
    "Jonas Weber",
    "Ana",
    "Bartholomäus Wichtelmann",
    "Carla",
    "Dietrich von Falkenhausen-Aue",
    "Emil",
]
THREE_ROUNDS = [
    ([(LONG[0], LONG[1]), (LONG[2], LONG[3]), (LONG[4], LONG[5])], [LONG[6]]),
    ([(LONG[1], LONG[6]), (LONG[0], LONG[2]), (LONG[3], LONG[5])], [LONG[4]]),
    ([(LONG[0], LONG[4]), (LONG[1], LONG[3]), (LONG[6], LONG[2])], [LONG[5]]),
]


@pytest.fixture
def season(club: Club) -> Season:  # noqa: F811 (the club of test_club_board, with its season)
    return Season.objects.get(league__club=club)


def round_of(count: int) -> list[tuple[list[tuple[str, ...]], list[str]]]:
    """One round of ``count`` tables: the first running, the others over."""
    tables = [(f"Player {2 * n + 1}", f"Player {2 * n + 2}") for n in range(count)]
    return [(tables, [])]


def board_of(open_context, log_in, club: Club, size: dict[str, int]) -> Page:  # noqa: F811
    page = screen(open_context, log_in, size)
    page.goto(reverse("club_board", args=[club.slug]))
    expect(page.locator(".board-table").first).to_be_visible()
    return page


def coverage(page: Page) -> dict:
    """The cards on the screen against the room the board leaves the tables."""
    return page.evaluate(
        """() => {
          const cards = [...document.querySelectorAll('.board-table')]
            .filter(card => card.offsetParent !== null).map(card => card.getBoundingClientRect());
          const left = Math.min(...cards.map(r => r.left));
          const right = Math.max(...cards.map(r => r.right));
          const top = Math.min(...cards.map(r => r.top));
          const bottom = Math.max(...cards.map(r => r.bottom));
          const area = cards.reduce((sum, r) => sum + r.width * r.height, 0);
          const standings = document.querySelector('.board-standings').getBoundingClientRect();
          return {width: right - left, height: bottom - top, bottom, area, cards: cards.length,
                  free: standings.left - left, screen: innerHeight};
        }"""
    )


def off_scale(page: Page) -> list[str]:
    """Every text of the board whose size is not its base times a step of SCALE, and any
    card whose base is below the board's."""
    return page.evaluate(
        """scale => {
          const size = e => parseFloat(getComputedStyle(e).fontSize);
          const board = size(document.querySelector('#board'));
          const found = [];
          const all = '.board-head, .board-head *, #board, #board *';
          const texts = [...document.querySelectorAll(all)]
            .filter(e => e.offsetParent !== null || e.id === 'board')
            .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
          for (const e of texts) {
            const card = e.closest('.board-table');
            const base = card ? size(card.querySelector('.table-number')) : board;
            if (card && base < board - 0.5) found.push(`card base ${base} < ${board}`);
            const ratio = size(e) / base;
            if (!scale.some(step => Math.abs(ratio - step) < 0.02))
              found.push(`${e.className || e.tagName} "${e.textContent.trim().slice(0, 30)}":`
                         + ` ${size(e)} / ${base}`);
          }
          return found;
        }""",
        list(SCALE),
    )


def cut_with_room(page: Page) -> list[str]:
    """Every text cut with an ellipsis although its line has room for the rest of it."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#board *')]
          .filter(e => e.offsetParent !== null && getComputedStyle(e).textOverflow === 'ellipsis')
          .filter(e => e.scrollWidth > e.clientWidth + 1)
          .filter(e => {
            const line = e.parentElement, box = line.getBoundingClientRect();
            const style = getComputedStyle(line);
            const end = box.right - parseFloat(style.paddingRight)
                        - parseFloat(style.borderRightWidth);
            const used = Math.max(...[...line.children].map(c => c.getBoundingClientRect().right));
            return end - used >= e.scrollWidth - e.clientWidth;
          })
          .map(e => `${e.className}: ${e.textContent.trim()}`)"""
    )


@pytest.mark.parametrize("count", [1, 2, 4, 8, 12])
def test_the_tables_fill_the_screen_in_one_type_scale(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,  # noqa: F811
    season: Season,
    count: int,
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(live, "clock", lambda: 0.0)
    league_night(owner, club, season, round_of(count))
    for size in (BAR, SMALL_BAR):
        page = board_of(open_context, log_in, club, size)
        expect(page.locator(".board-table:visible")).to_have_count(count)
        shown = coverage(page)
        # The cards span the room left of the standings and reach the screen's foot ...
        assert shown["width"] >= shown["free"] - 0.03 * size["width"], (size, shown)
        assert shown["bottom"] >= 0.95 * size["height"], (size, shown)
        # ... and cover it, but for the gaps between them.
        assert shown["area"] >= 0.85 * shown["width"] * shown["height"], (size, shown)
        fits_the_screen(page)
        assert off_scale(page) == [], size
        assert cut_with_room(page) == [], size
        screenshot(page, f"board-{count}-tables-{size['width']}")


def test_three_rounds_in_long_names_keep_to_the_scale_and_cut_no_name_with_room(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    live_server,
    owner: User,
    club: Club,  # noqa: F811
    season: Season,
):
    # Jonas confirms his games: until he does, the standings mark them pending.
    jonas = services.player_add(club=club, name="Jonas Weber", owner=owner)
    services.player_link(player=jonas, user=User.objects.get(username="bar"))
    league_night(owner, club, season, THREE_ROUNDS)
    for name, size in (("1920", BAR), ("1280", SMALL_BAR)):
        page = board_of(open_context, log_in, club, size)
        for language in ("en", "de"):
            cookie = {"name": "django_language", "value": language, "url": live_server.url}
            page.context.add_cookies([cookie])
            page.goto(reverse("club_board", args=[club.slug]))
            expect(page.locator(".board-round.folded")).to_have_count(2)
            jonas = page.locator(".standings-top th", has_text="Jonas Weber").locator(".name")
            expect(jonas).to_be_visible()  # beside his pending mark, whole
            assert jonas.evaluate("e => e.scrollWidth <= e.clientWidth"), (size, language)
            fits_the_screen(page)
            assert off_scale(page) == [], (size, language)
            assert cut_with_room(page) == [], (size, language)
            screenshot(page, f"board-rounds-{language}-{name}")
    phone = board_of(open_context, log_in, club, PHONE)
    expect(phone.locator(".board-round.folded")).to_have_count(2)
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "board-rounds-en-360")


def test_the_board_follows_a_table_that_ends_and_a_round_that_starts(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,  # noqa: F811
    season: Season,
):
    (first_round,) = league_night(
        owner, club, season, [([("Ana", "Jonas"), ("Carla", "Emil")], [])]
    )
    page = board_of(open_context, log_in, club, BAR)
    running = page.locator(".board-table.running")
    expect(running).to_have_count(1)
    expect(page.locator(".board-table .table-number").first).to_have_text("Round 1 · Table 1")

    services.hand_record(partie=first_round[0], hand=G(90, knocker="Ana"), user=owner)

    expect(page.locator("#board-round-1.folded")).to_contain_text("Ana", timeout=SEEN_WITHIN_MS)
    expect(page.locator(".board-table")).to_have_count(0)

    seating = Pairing((Table(1, ("Ana", "Carla")), Table(2, ("Jonas", "Emil"))))
    night_services.night_round_start(
        season=season, owner=owner, seating=seating, played_on=timezone.localdate(), round=2
    )

    expect(page.locator(".board-table .table-number")).to_have_text(
        ["Round 2 · Table 1", "Round 2 · Table 2"], timeout=SEEN_WITHIN_MS
    )
    expect(page.locator("#board-round-1.folded")).to_be_visible()
