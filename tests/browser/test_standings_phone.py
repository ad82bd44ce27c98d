"""The season's standings on a phone (360 px), in English and German, with a long name:
each column head sits over its own column, and the head-to-head's caption is read whole
(wrapped in the screen's width, not cut by the table's scroll box)."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.league.models import Season
from scorekeeper.table import services
from tests.browser.conftest import PHONE, expect_no_sideways_scroll, screenshot
from tests.league.club_night import season_around_today

G = engine.Hand.gin
LONG = "Maximiliane Hohenzollern-Sigmaringen"
DESKTOP = {"width": 1280, "height": 900}


NAMES = [LONG, "Ben", "Carl", "Dora", "Eberhardt Zwingli-Oberkampf", "Fay", "Gus", "Hal"]


@pytest.fixture
def season(owner: User) -> Season:
    """Eight players, two with long names, each meeting the next: a head-to-head wider
    than a phone."""
    club: Club = club_services.club_create(name="Gin Club", owner=owner)
    season = season_around_today(club)
    for winner, loser in zip(NAMES, NAMES[1:] + NAMES[:1], strict=True):
        partie = services.partie_start(
            owner=owner, club=club, names=[winner, loser], rules=engine.preset("classic"),
            kind="two_player", stake=Decimal("0.05"), first_dealer=winner,
        )  # fmt: skip
        for _ in range(2):
            services.hand_record(partie=partie, hand=G(60, knocker=winner), user=owner)
    return season


def heads(page: Page) -> list[dict]:
    """Each visible head of the standings: its words as shown (the text a reader sees,
    not the label kept for screen readers), where they are, and the first row's cell
    under it."""
    return page.evaluate(
        """() => {
        const table = document.querySelector('#standings table.standings');
        const cells = [...table.querySelector('tbody tr').children];
        const shown = node => {
          const parent = node.parentElement;
          return node.textContent.trim() && parent.getClientRects().length
            && getComputedStyle(parent).position !== 'absolute';
        };
        return [...table.querySelectorAll('thead th')].map((th, n) => {
          if (!th.getClientRects().length) return null;
          const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
          const words = [], boxes = [];
          for (let node; (node = walker.nextNode());) {
            if (!shown(node)) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            words.push(node.textContent.trim());
            boxes.push(range.getBoundingClientRect());
          }
          const cell = cells[n].getBoundingClientRect();
          return {
            text: words.join(' '),
            left: Math.min(...boxes.map(b => b.left)),
            right: Math.max(...boxes.map(b => b.right)),
            bottom: Math.max(...boxes.map(b => b.bottom)),
            cellLeft: cell.left, cellRight: cell.right,
          };
        }).filter(Boolean);
    }"""
    )


def caption_overflow(page: Page) -> float:
    """How far the head-to-head's explanation reaches past the screen's right edge or its
    scroll box's (0: read whole)."""
    return page.evaluate(
        """() => {
        const table = document.querySelector('table.matrix');
        const text = document.getElementById(table.getAttribute('aria-describedby'))
          || table.querySelector('caption');
        const box = text.getBoundingClientRect();
        const scroll = table.closest('.sheet-scroll').getBoundingClientRect();
        const edge = Math.min(window.innerWidth, text.closest('.sheet-scroll') ? scroll.right
                                                                             : window.innerWidth);
        return Math.max(0, box.right - edge, text.scrollWidth - text.clientWidth);
    }"""
    )


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_phone_standings_set_each_head_over_its_column_and_the_caption_whole(
    page: Page, owner: User, log_in, season: Season, language: str
):
    log_in(page, owner.username, language)
    page.goto(season.get_absolute_url())
    expect(page.locator("#standings tbody tr")).to_have_count(len(NAMES))

    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        expect_no_sideways_scroll(page)
        shown = heads(page)
        assert len(shown) >= 6, shown
        first = {"en": ("#", "Rank ▲"), "de": ("Pl.", "Platz ▲")}[language]
        assert shown[0]["text"] == first[viewport is DESKTOP], shown
        for head in shown:
            # over its own column, and on the line of every other head
            assert head["cellLeft"] - 1 <= head["left"] < head["right"] <= head["cellRight"] + 1
            assert abs(head["bottom"] - shown[1]["bottom"]) < 2, (head, shown[1])
        assert caption_overflow(page) == 0, viewport
        name = "360" if viewport is PHONE else "1280"
        screenshot(page, f"standings-{language}-{name}")
