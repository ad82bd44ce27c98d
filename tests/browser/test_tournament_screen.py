"""A tournament on the screen in the bar, measured at 1920 × 1080 (issue 30, item 4): a
32-player bracket fits without scrolling, every match box whole with both names and
its winner marked, its texts in the board's type scale and a name cut only where it
has no room; bigger brackets take turns a section at a time, as the board's pages do.

Set SCREENSHOTS to a folder to keep the screen of 32 players as pictures."""

from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.clubs.models import Club, Role
from scorekeeper.table import live
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Player
from scorekeeper.tournaments import selectors, services
from scorekeeper.tournaments.models import Tournament
from tests.browser.conftest import screenshot
from tests.browser.test_board_screen import SCALE
from tests.browser.test_club_board import BAR
from tests.browser.test_league_night_end_to_end import a_club
from tests.tournaments.conftest import settings

LONG = [
    "Maximiliane Hohenzollern-Sigmaringen",
    "Bartholomäus Wichtelmann",
    "Dietrich von Falkenhausen-Aue",
]
READABLE_PX = 18  # a name across the room: no smaller than this at 1920 × 1080


def names(count: int) -> list[str]:
    """``count`` players, the long names among them."""
    return [*LONG, *(f"Player {n}" for n in range(len(LONG) + 1, count + 1))][:count]


def started(club: Club, owner: User, system: str, count: int, **options) -> Tournament:
    players = [table_services.player_add(club=club, name=n, owner=owner) for n in names(count)]
    tournament = services.tournament_create(
        club=club,
        owner=owner,
        name="Club championship",
        played_on=date(2026, 11, 28),
        system=system,
        settings=settings(),
        **options,
    )
    services.entries_check_in(tournament=tournament, players=players)
    order = [tournament.entries.get(player=p).pk for p in players]
    services.entries_seed(tournament=tournament, method="hand", order=order)
    return services.tournament_start(tournament=tournament, owner=owner)


def first_round_won(tournament: Tournament, owner: User) -> None:
    """The better seed wins each match of the first round, given by the organiser."""
    for match in selectors.tournament_state(tournament).playable():
        winner = Player.objects.get(club=tournament.club, name=match.players[0])
        services.result_correct(tournament=tournament, match=match.id, winner=winner, by=owner)


@pytest.fixture
def club(owner: User) -> Club:
    return a_club(owner, {"bar": Role.MEMBER})


def bar_screen(
    open_context, log_in, tournament: Tournament, query: str = "", language: str = "en"
) -> Page:
    page = open_context(viewport=BAR).new_page()
    log_in(page, "bar", language)
    page.goto(reverse("tournament_screen", args=[tournament.pk]) + query)
    expect(page.locator(".screen-match").first).to_be_visible()
    return page


def measured(page: Page) -> dict:
    """What the room sees: scrolling, the boxes cut or off the screen, the boxes without
    two names, the smallest name, and the texts off the type scale."""
    return page.evaluate(
        """scale => {
          const size = e => parseFloat(getComputedStyle(e).fontSize);
          const base = size(document.querySelector('#tournament-screen'));
          const boxes = [...document.querySelectorAll('.screen-match')];
          const texts = [...document.querySelectorAll('#tournament-screen *')]
            .filter(e => e.offsetParent !== null)
            .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
          return {
            scrolled: [document.scrollingElement.scrollHeight - innerHeight,
                       document.scrollingElement.scrollWidth - innerWidth],
            cut: boxes.filter(b => b.scrollHeight > b.clientHeight + 1
                                   || b.getBoundingClientRect().bottom > innerHeight)
                      .map(b => b.id),
            unnamed: boxes.filter(b => b.querySelectorAll('.screen-player').length !== 2)
                          .map(b => b.id),
            smallest: Math.min(...[...document.querySelectorAll('.screen-player')].map(size)),
            off_scale: texts.filter(e => !scale.some(s => Math.abs(size(e) / base - s) < 0.02))
                            .map(e => `${e.className || e.tagName}: ${size(e)} / ${base}`),
            boxes: boxes.length,
          };
        }""",
        list(SCALE),
    )


def cut_with_room(page: Page) -> list[str]:
    """Every name cut with an ellipsis although its box has room for the rest of it."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.screen-player, .screen-round h3')]
          .filter(e => e.scrollWidth > e.clientWidth + 1)
          .filter(e => {
            const line = e.parentElement, style = getComputedStyle(line);
            const room = line.clientWidth - parseFloat(style.paddingLeft)
                         - parseFloat(style.paddingRight) - e.getBoundingClientRect().width;
            return room >= e.scrollWidth - e.clientWidth;
          })
          .map(e => e.textContent.trim())"""
    )


def fits(page: Page, boxes: int) -> None:
    seen = measured(page)
    assert seen["scrolled"] == [0, 0], seen["scrolled"]
    assert seen["cut"] == [], seen["cut"]
    assert seen["unnamed"] == [], seen["unnamed"]
    assert seen["boxes"] == boxes
    assert seen["smallest"] >= READABLE_PX, seen["smallest"]
    assert seen["off_scale"] == [], seen["off_scale"]
    assert cut_with_room(page) == []


@pytest.mark.parametrize(
    ("language", "third"), [("en", "Third place"), ("de", "Spiel um Platz drei")]
)
def test_a_32_player_knockout_fits_the_bar_screen_with_its_winners_marked(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,
    language: str,
    third: str | None,
):
    tournament = started(club, owner, "single_elimination", 32, third_place=True)
    first_round_won(tournament, owner)
    page = bar_screen(open_context, log_in, tournament, language=language)
    expect(page.locator(".screen-sections")).to_have_count(0)  # one section: no turns
    expect(page.locator("html")).to_have_attribute("lang", language)
    if third:
        expect(page.locator(".screen-round h3").last).to_have_text(third)
    screenshot(page, f"tournament-screen-32-{language}-1920", full_page=False)
    fits(page, boxes=16 + 8 + 4 + 2 + 1 + 1)
    expect(page.locator(".screen-round")).to_have_count(6)
    expect(page.locator(".screen-player.winner")).to_have_count(16)
    first = page.locator("#screen-W1-1")
    expect(first.locator(".winner")).to_contain_text(LONG[0])


def test_a_32_player_double_elimination_shows_both_brackets_in_turns(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setattr(live, "clock", lambda: 0.0)
    tournament = started(club, owner, "double_elimination", 32)
    first_round_won(tournament, owner)
    page = bar_screen(open_context, log_in, tournament)
    expect(page.locator(".screen-sections")).to_contain_text("Section 1 of 2")
    expect(page.get_by_role("heading", name="Winners' bracket")).to_be_visible()
    fits(page, boxes=16 + 8 + 4 + 2 + 1)
    screenshot(page, "tournament-screen-32-double-en-1920", full_page=False)

    # The clock turns to the losers' bracket and the finals by itself.
    monkeypatch.setattr(live, "clock", lambda: float(live.ROTATE_SECONDS))
    expect(page.get_by_role("heading", name="Losers' bracket and grand final")).to_be_visible()
    fits(page, boxes=8 + 8 + 4 + 4 + 2 + 2 + 1 + 1 + 1)


@pytest.mark.parametrize(("count", "sections"), [(64, 2), (128, 4)])
def test_a_bigger_knockout_takes_turns_a_part_of_the_draw_at_a_time(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,
    count: int,
    sections: int,
):
    tournament = started(club, owner, "single_elimination", count)
    page = bar_screen(open_context, log_in, tournament, "?section=2")
    expect(page.locator(".screen-sections")).to_contain_text(f"Section 2 of {sections}")
    expect(page.get_by_role("heading", name=f"Bracket, part 2 of {sections}")).to_be_visible()
    # Its part of the draw: 16 first-round matches, down to the final, which every part shows.
    expect(page.locator(".screen-round").first.locator(".screen-match")).to_have_count(16)
    expect(page.locator(".screen-round").last.locator(".screen-match")).to_have_count(1)
    fits(page, boxes=page.locator(".screen-match").count())
    page.get_by_role("link", name="Turn the sections").click()
    expect(page.locator(".screen-sections a", has_text="Turn the sections")).to_have_count(0)


def test_the_swiss_table_and_its_tie_breaks_on_the_screen(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,
):
    tournament = started(club, owner, "swiss", 32, rounds=5)
    first_round_won(tournament, owner)
    page = bar_screen(open_context, log_in, tournament, "?section=2")
    page.goto(reverse("tournament_screen", args=[tournament.pk]) + "?section=1")
    expect(page.get_by_role("heading", name="Swiss table")).to_be_visible()
    expect(page.locator(".swiss-table tbody tr")).to_have_count(32)
    expect(page.locator(".swiss-table").first.get_by_role("columnheader")).to_contain_text(
        ["Place", "Player", "Points", "Buchholz", "Byes"]
    )
    scrolled = page.evaluate(
        "[document.scrollingElement.scrollHeight - innerHeight,"
        " document.scrollingElement.scrollWidth - innerWidth]"
    )
    assert scrolled == [0, 0]
