"""No serious or critical axe-core violation on the main pages, in English and German.

axe-core comes from the npm registry (`make axe` puts it in .cache/axe); the test injects
it into each page and runs it. The browser context bypasses the content security policy
for that one script only: the pages themselves run under it as always.
"""

import json
import os
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page

from scorekeeper import engine
from scorekeeper.clubs.services import personal_club
from scorekeeper.league import services as league_services
from scorekeeper.table import services
from tests.conftest import PASSWORD

AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe" / "node_modules" / "axe-core"
AXE = AXE / "axe.min.js"
SERIOUS = {"serious", "critical"}
K, G = engine.Hand.knock, engine.Hand.gin

# Each kind with names long enough to wrap, and a hand or two, so the sheet has rows.
KINDS = {
    "two_player": (["Alexandra", "Maximilian"], [K(5, 27, knocker="Alexandra")]),
    "hollywood": (["Alexandra", "Maximilian"], [G(20, knocker="Maximilian")]),
    "match": (["Alexandra", "Maximilian"], [K(3, 30, knocker="Alexandra")]),
    "partnership": (
        ["Anna", "Ben", "Clara", "David"],
        [engine.Round(tables=(K(4, 16, knocker="Anna"), K(2, 14, knocker="Clara")))],
    ),
    "chouette": (["Pia", "Quentin", "Rosa"], [K(1, 21, knocker="Pia")]),
    "three_player": (["Xaver", "Yvonne", "Zoe"], [K(1, 31, knocker="Xaver")]),
}


@pytest.fixture
def axe_page(open_context: Callable[..., BrowserContext], live_server, owner: User) -> Page:
    if not AXE.exists():
        reason = f"axe-core not found at {AXE} (run `make axe`: it needs npm)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    context = open_context(bypass_csp=True)
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(owner.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    page.wait_for_url(live_server.url + "/")
    return page


def serious_violations(page: Page) -> list[str]:
    """axe's serious and critical findings on the page, one line per offending element."""
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    found = []
    for violation in json.loads(results)["violations"]:
        if violation["impact"] in SERIOUS:
            for node in violation["nodes"]:
                found.append(f"{violation['id']} ({violation['impact']}): {node['html'][:160]}")
    return found


def main_pages(owner: User) -> dict[str, str]:
    """The main pages' addresses: home, new partie, a partie of each kind, an evening,
    the players, the standings, and the login page (checked logged out)."""
    club = personal_club(owner)
    evening = services.evening_start(owner=owner, name="Thursday", played_on=date(2026, 11, 19))
    pages = {"home": "/", "new partie": "/parties/new/", "evenings": "/evenings/"}
    for kind, (names, hands) in KINDS.items():
        cls = engine.session_class(kind)
        partie = services.partie_start(
            owner=owner,
            names=names,
            rules=engine.preset(cls.preset),
            kind=kind,
            stake=Decimal("0.05"),
            evening=evening,
        )
        for hand in hands:
            services.hand_record(partie=partie, hand=hand, user=owner)
        pages[f"partie: {kind}"] = partie.get_absolute_url()
    pages["evening"] = evening.get_absolute_url()
    pages["players"] = f"/clubs/{club.slug}/players/"
    league = league_services.league_create(club=club, name="Club league")
    today = date.today()
    season = league_services.season_create(
        league=league, name="Winter", starts_on=today - timedelta(days=30), ends_on=today
    )
    pages["standings"] = f"/seasons/{season.pk}/"
    autumn = league_services.season_create(
        league=league, name="Autumn", starts_on=today - timedelta(days=90), ends_on=today
    )
    league_services.season_close(season=autumn, user=owner)
    pages["closed season"] = f"/seasons/{autumn.pk}/"
    pages["close the season"] = f"/seasons/{season.pk}/close/"
    pages["past seasons"] = f"/leagues/{league.pk}/archive/"
    pages["the season's players"] = f"/seasons/{season.pk}/players/"
    pages["the season's settings"] = f"/seasons/{season.pk}/settings/"
    pages["league night"] = f"/seasons/{season.pk}/night/"
    return pages


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_main_pages_have_no_serious_accessibility_violations(
    axe_page: Page, owner: User, language: str
):
    page = axe_page
    if language == "de":
        page.get_by_role("button", name="Deutsch").click()
        page.wait_for_selector("html[lang=de]")
    found = {}
    for name, url in main_pages(owner).items():
        page.goto(url)
        if violations := serious_violations(page):
            found[name] = violations
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    if violations := serious_violations(page):
        found["login"] = violations

    assert not found, json.dumps(found, indent=2, ensure_ascii=False)
