"""The club's live board in a real browser: the screen in the bar and the phones.

The board is a wide screen (1920 × 1080, and 1280 × 720) logged in as a member; a
scorer records hands on his phone (360 px) in a browser of his own. The board shows
twelve tables at once without scrolling, turns its pages past twelve, and the top of
the season's table beside them; a phone lists every table and then the season's table.

Set SCREENSHOTS to a folder (docs/screenshots) to keep the board as pictures, in
English and German, at 1920 and 360 px.
"""

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.table import live
from scorekeeper.table.models import Partie
from tests.browser.conftest import (
    PHONE,
    axe_context,
    mark_page,
    record,
    serious_violations,
    status,
)
from tests.clubs.conftest import join
from tests.conftest import PASSWORD
from tests.league.club_night import (
    play,
    season_around_today,
    season_games,
    start,
    tables_of_a_night,
)

BAR = {"width": 1920, "height": 1080}
SMALL_BAR = {"width": 1280, "height": 720}
SEEN_WITHIN_MS = 3_000  # the board polls every 2 s

K, G = engine.Hand.knock, engine.Hand.gin


@pytest.fixture
def club(owner: User, django_user_model: type[User]) -> Club:
    """The Gin Club, its season around today with eight closed games; a member, "bar",
    whose login the screen in the bar uses."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    join(club, django_user_model.objects.create_user("bar", password=PASSWORD), Role.MEMBER)
    season_around_today(club)
    season_games(owner, club)
    return club


def screen(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    size: dict[str, int],
    username: str = "bar",
) -> Page:
    """A browser of its own, logged in, at the size of its screen."""
    page = open_context(viewport=size).new_page()
    log_in(page, username)
    return page


def board_url(club: Club) -> str:
    return reverse("club_board", args=[club.slug])


def table(page: Page, partie: Partie):
    return page.locator(f"#board-partie-{partie.pk}")


def standings_row(page: Page, player: str):
    return page.locator(".standings-top tbody tr").filter(
        has=page.get_by_role("rowheader", name=player, exact=True)
    )


def screenshot(page: Page, name: str) -> None:
    """Keep a picture in the folder SCREENSHOTS names; without it, take none."""
    if not os.environ.get("SCREENSHOTS"):
        return
    folder = Path(os.environ["SCREENSHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def fits_the_screen(page: Page) -> None:
    """Nothing scrolls, and every table shown is whole: no card cuts its lines off."""
    scrolled = page.evaluate(
        "[document.scrollingElement.scrollHeight - innerHeight,"
        " document.scrollingElement.scrollWidth - innerWidth]"
    )
    assert scrolled == [0, 0], scrolled
    cut = page.evaluate(
        """[...document.querySelectorAll('.board-table, .board-standings')]
             .filter(box => box.offsetParent !== null)
             .filter(box => box.scrollHeight > box.clientHeight + 1
                            || box.scrollWidth > box.clientWidth + 1
                            || box.getBoundingClientRect().bottom > innerHeight)
             .map(box => `${box.id || box.className}: ${box.innerText}`)"""
    )
    assert cut == [], cut


def test_the_bar_screen_follows_the_phone_that_closes_a_game(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User, club
):
    others = tables_of_a_night(owner, club, count=4)
    partie = play(start(owner, club, ["Lena", "Kai"]), owner, [G(40, knocker="Lena")])
    board = screen(open_context, log_in, BAR)
    board.goto(board_url(club))
    card = table(board, partie)
    expect(card).to_contain_text("Lena 60 · Kai 0")
    expect(card).to_contain_text("Next to deal: Kai")
    expect(table(board, others[1])).to_contain_text("Game 1 over: Olga won")
    expect(table(board, others[2])).to_contain_text("Game 1 360 : 0 Sven won")
    expect(standings_row(board, "Lena")).to_have_count(0)  # no game counted yet
    fits_the_screen(board)

    # Unchanged: the board's polls come back 304, standings and all.
    path = board_url(club)
    with board.expect_response(lambda r: r.url.endswith(path) and r.status == 304):
        pass

    scorer = screen(open_context, log_in, PHONE, username=owner.username)
    scorer.goto(reverse("partie_detail", args=[partie.pk]))
    mark_page(scorer)  # each hand swaps the sheet in place
    record(scorer, 2, "gin", knocker="Lena", dd=10)  # 60 + 30: 90
    record(scorer, 3, "gin", knocker="Lena", dd=20)  # 130: the game is over, a shutout
    expect(status(scorer)).to_contain_text("Lena won")

    expect(card).to_contain_text("Over: Lena won", timeout=SEEN_WITHIN_MS)
    lena = standings_row(board, "Lena").locator("td")
    expect(lena.nth(1)).to_have_text("1")  # games
    expect(lena.nth(3)).to_have_text("3")  # a shutout win's league points


def test_twelve_tables_fill_the_bar_screen_and_its_pages_turn(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club,
    monkeypatch: pytest.MonkeyPatch,
):
    parties = tables_of_a_night(owner, club, count=14)
    now = [0.0]
    monkeypatch.setattr(live, "clock", lambda: now[0])  # the live server's thread reads it
    for size in (BAR, SMALL_BAR):
        board = screen(open_context, log_in, size)
        board.goto(board_url(club))
        for shown in parties[:12]:
            expect(table(board, shown)).to_be_in_viewport(ratio=1)
        for waiting in parties[12:]:
            expect(table(board, waiting)).to_be_hidden()
        expect(board.locator(".board-pages")).to_contain_text("Page 1 of 2")
        expect(board.locator(".standings-top tbody tr")).to_have_count(10)
        fits_the_screen(board)
        # The names and figures read from across the room: a share of the screen's width
        # (the board's type scale, app.css: names 1.25 and scores 1.6 times 1.1 % or more).
        for selector, share in ((".board-table h2", 0.0137), (".board-totals", 0.0175)):
            size_px = board.locator(selector).first.evaluate(
                "e => parseFloat(getComputedStyle(e).fontSize)"
            )
            assert size_px >= share * size["width"] - 0.5, (selector, size_px)

    now[0] = live.ROTATE_SECONDS  # the next page's turn: the poll brings it
    for waiting in parties[12:]:
        expect(table(board, waiting)).to_be_in_viewport(timeout=SEEN_WITHIN_MS)
    expect(table(board, parties[0])).to_be_hidden()
    expect(board.locator(".board-pages")).to_contain_text("Page 2 of 2")
    expect(board.locator(".board-table:visible .table-number")).to_have_text(
        ["Table 13", "Table 14"]
    )
    # A page chosen stays: its link holds it whatever the clock says.
    board.locator(".board-pages").get_by_role("link", name="1", exact=True).click()
    expect(board).to_have_url(re.compile(r"\?page=1$"))
    now[0] = 3 * live.ROTATE_SECONDS  # page 2's turn again, unchosen
    path = board_url(club) + "?page=1"
    with board.expect_response(lambda r: r.url.endswith(path) and r.status == 304):
        pass
    expect(table(board, parties[0])).to_be_in_viewport()


def test_a_phone_lists_every_table_and_the_seasons_table(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User, club
):
    parties = tables_of_a_night(owner, club, count=14)
    phone = screen(open_context, log_in, PHONE)
    phone.goto(board_url(club))

    for partie in parties:
        expect(table(phone, partie)).to_be_visible()
    expect(phone.locator(".board-pages")).to_be_hidden()
    expect(standings_row(phone, "Anna")).to_be_visible()
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]
    header = phone.locator(".standings-top thead th")
    expect(header).to_have_text(["#", "Player", "Games", "Won", "Points", "Net"])
    expect(header.nth(4).locator("abbr")).to_have_attribute("title", "League points")


def test_the_board_in_either_language_has_no_serious_accessibility_violation_and_fits(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club,
    live_server,
    monkeypatch: pytest.MonkeyPatch,
):
    """On the bar's screen and on a phone, in English and in German; the pictures where
    SCREENSHOTS names a folder."""
    monkeypatch.setattr(live, "clock", lambda: 0.0)  # the first page
    tables_of_a_night(owner, club, count=14)
    for name, size in (("1920", BAR), ("360", PHONE)):
        page = axe_context(open_context, viewport=size).new_page()
        log_in(page, "bar")
        for language in ("en", "de"):
            cookie = {"name": "django_language", "value": language, "url": live_server.url}
            page.context.add_cookies([cookie])
            page.goto(board_url(club))
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator(".standings-top")).to_be_visible()
            assert serious_violations(page) == [], (size, language)
            screenshot(page, f"board-{language}-{name}")
            if size is BAR:
                fits_the_screen(page)
