"""A season ends, on phones: the owner closes it (after a confirmation), a member reads
its final standings and the league's past seasons in German, a hand corrected later
changes nothing there, the noticeboard PDF is upright, and the owner starts the next
season with the same points. Everything at 360 px, in English and in German.

Set SCREENSHOTS to a folder (docs/screenshots) to keep the closed season and the past
seasons as pictures in both languages.
"""

import re
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect
from pypdf import PdfReader

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.browser.conftest import expect_no_sideways_scroll, screenshot
from tests.browser.test_league_flow import standings_rows
from tests.clubs.conftest import join
from tests.conftest import PASSWORD

G = engine.Hand.gin


def played(club, owner: User, names: list[str], *hands: engine.Hand) -> Partie:
    partie = services.partie_start(
        owner=owner,
        club=club,
        names=names,
        rules=engine.preset("classic"),
        stake=Decimal("0.05"),
        first_dealer=names[0],
    )
    for hand in hands:
        services.hand_record(partie=partie, hand=hand, user=owner)
    return partie


def a_season(owner: User, member: User) -> tuple[Season, Partie]:
    """The club's Autumn season: Anna shuts Ben out, Carl beats Ben: Carl, Anna, Ben."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    join(club, member, Role.MEMBER)
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league,
        name="Autumn",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
    )
    first = played(club, owner, ["Anna", "Ben"], G(90, knocker="Anna"))
    played(club, owner, ["Carl", "Ben"], G(20, knocker="Carl"), G(70, knocker="Carl"))
    return season, first


def expect_players(page: Page, *names: str) -> None:
    expect(standings_rows(page).locator("th.player")).to_have_text(list(names))


def expect_archive_fits(page: Page) -> None:
    """The past seasons fit the phone: neither the page nor their table scrolls sideways."""
    expect_no_sideways_scroll(page)
    box = page.locator("table.archive").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


def test_the_owner_closes_a_season_and_a_member_reads_it_in_the_archive(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    django_user_model: type[User],
) -> None:
    member = django_user_model.objects.create_user("member", password=PASSWORD)
    season, first = a_season(owner, member)
    page = open_context(accept_downloads=True).new_page()
    log_in(page, owner.username)
    page.goto(season.get_absolute_url())
    expect_players(page, "Carl", "Anna", "Ben")

    # The close asks first; the question itself closes nothing.
    page.get_by_role("link", name="Close the season").click()
    expect(page.get_by_role("heading", name="Close the season Autumn?")).to_be_visible()
    expect_no_sideways_scroll(page)
    season.refresh_from_db()
    assert season.closed_at is None
    page.get_by_role("button", name="Close the season").click()
    expect(page).to_have_url(re.compile(rf"/seasons/{season.pk}/$"))
    expect(page.locator(".closed-season")).to_contain_text(
        "Final standings: the season was closed on"
    )
    expect(page.get_by_role("link", name="Close the season")).to_have_count(0)
    expect(page.get_by_role("link", name="Reopen the season")).to_be_visible()

    # A hand corrected after the close: the closed season shows what it showed.
    services.hand_edit(partie=first, number=1, hand=G(90, knocker="Ben"), user=owner)
    page.reload()
    expect_players(page, "Carl", "Anna", "Ben")
    expect_no_sideways_scroll(page)
    screenshot(page, "season-closed-en-360")

    # The noticeboard's PDF: upright A4.
    with page.expect_download() as download:
        page.get_by_role("link", name="For the noticeboard (PDF)").click()
    assert download.value.suggested_filename == "club-league-autumn-noticeboard.pdf"
    sheet = PdfReader(download.value.path()).pages[0]
    assert float(sheet.mediabox.width) < float(sheet.mediabox.height)
    assert "Carl" in sheet.extract_text()

    # The past seasons, newest first, with the winner.
    page.get_by_role("link", name="Past seasons").click()
    expect(page.get_by_role("heading", name="Past seasons of Club league")).to_be_visible()
    rows = page.locator("table.archive tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.locator("th a")).to_have_text(["Autumn"])
    expect(rows.locator("td.winner")).to_have_text(["Carl"])
    expect(rows.locator("th small")).to_have_text(re.compile(r"^closed on "))
    expect_archive_fits(page)
    screenshot(page, "season-archive-en-360")

    # A member, on his own phone, in German: the league's page links the past seasons.
    guest = open_context().new_page()
    log_in(guest, member.username)
    guest.goto("/")
    guest.get_by_role("button", name="Deutsch").click()
    expect(guest.locator("html")).to_have_attribute("lang", "de")
    guest.goto(f"/clubs/{season.league.club.slug}/leagues/")
    expect(guest.get_by_role("link", name="Autumn")).to_have_count(0)  # not a running one
    guest.get_by_role("link", name="Vergangene Saisons (1)").click()
    expect(guest.get_by_role("heading", name="Vergangene Saisons von Club league")).to_be_visible()
    expect(guest.locator("table.archive thead th")).to_have_text(["Saison", "Zeitraum", "Sieger"])
    expect(guest.locator("table.archive td.winner")).to_have_text(["Carl"])
    expect_archive_fits(guest)
    screenshot(guest, "season-archive-de-360")
    guest.get_by_role("link", name="Autumn").click()
    expect(guest.locator(".closed-season")).to_contain_text("Abschlusstabelle: Die Saison wurde am")
    expect_players(guest, "Carl", "Anna", "Ben")
    expect(guest.get_by_role("link", name="Saison wieder öffnen")).to_have_count(0)
    expect(guest.get_by_role("link", name="Nächste Saison beginnen")).to_have_count(0)
    expect_no_sideways_scroll(guest)
    screenshot(guest, "season-closed-de-360")

    # The owner starts the next season: new name and dates, the same points.
    page.goto(season.get_absolute_url())
    page.get_by_role("link", name="Start the next season").click()
    expect(page.get_by_role("heading", name="Next season of Club league")).to_be_visible()
    expect(page.get_by_text("win 2, shutout win 3, loss 0")).to_be_visible()
    starts = season.ends_on + timedelta(days=1)
    expect(page.get_by_label("First day")).to_have_value(starts.isoformat())
    page.get_by_label("Name").fill("Winter")
    page.get_by_role("button", name="Start the season").click()
    expect(page.get_by_role("heading", name="Club league: Winter", level=1)).to_be_visible()
    winter = Season.objects.get(name="Winter")
    assert (winter.points, winter.min_games, winter.kinds, winter.starts_on) == (
        season.points,
        season.min_games,
        season.kinds,
        starts,
    )
