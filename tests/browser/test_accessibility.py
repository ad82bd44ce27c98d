"""No serious or critical axe-core violation on the main pages, in English and German.

axe-core comes from the npm registry (`make axe` puts it in .cache/axe); the browser
context loads it into each page before the page's own scripts (tests/browser/conftest.py),
and the pages run under their content security policy as always.
"""

import json
from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from playwright.sync_api import Page

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.clubs.services import personal_club
from scorekeeper.league import services as league_services
from scorekeeper.league.models import LeagueNight
from scorekeeper.table import services
from tests.browser.conftest import serious_violations

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


def main_pages(owner: User) -> dict[str, str]:
    """The main pages' addresses: home, new partie, a partie of each kind, an evening,
    the players, the standings, an invitation to another's club (checked logged in and
    out), and the login page (checked logged out)."""
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
    LeagueNight.objects.create(season=season, played_on=season.ends_on)  # planned: a move form
    pages["the season's nights"] = f"/seasons/{season.pk}/nights/"
    host = User.objects.create_user("host")
    gin_club = club_services.club_create(name="Gin Club", owner=host)
    invitation = club_services.invitation_create(club=gin_club, role=Role.MEMBER, created_by=host)
    pages["invitation"] = invitation.get_absolute_url()
    return pages


def test_the_main_pages_have_no_serious_accessibility_violations(
    axe_page: Page, owner: User, live_server
):
    """In English, then in German: one world and one browser for both."""
    page = axe_page
    pages = main_pages(owner)
    found = {}
    for language in ("en", "de"):
        if language == "de":
            page.get_by_role("button", name="Deutsch").click()
            page.wait_for_selector("html[lang=de]")
        for name, url in pages.items():
            page.goto(url)
            if violations := serious_violations(page):
                found[f"{name} ({language})"] = violations
    page.context.clear_cookies()
    for language in ("en", "de"):
        cookie = {"name": "django_language", "value": language, "url": live_server.url}
        page.context.add_cookies([cookie])
        for name, url in (("login", "/accounts/login/"), ("invitation", pages["invitation"])):
            page.goto(url)
            if violations := serious_violations(page):
                found[f"{name}, logged out ({language})"] = violations

    assert not found, json.dumps(found, indent=2, ensure_ascii=False)
