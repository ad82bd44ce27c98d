"""A club runs a league season in the browser, end to end, on a phone.

The owner founds a club and invites a member by link, starts a league and a season
whose dates hold today, and plays three short parties in the club (two players, then a
match best of three) through the start form and the hand form. The standings count
them; a corrected hand changes them; a column sorts them by an HTMX swap (and its link
works on its own); the head-to-head shows who beat whom; the PDF and the CSV hold the
players; the public link shows the standings to anyone. Long names do not make the
page scroll sideways.

Set SCREENSHOTS to a folder (docs/screenshots) to keep the standings page as a picture
in English and German, at phone and desktop widths.
"""

import csv
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import BrowserContext, Locator, Page, expect
from pypdf import PdfReader

from scorekeeper.clubs.models import Membership, Role
from tests.browser.conftest import (
    PHONE,
    choose_kind,
    expect_no_sideways_scroll,
    expect_same_page,
    go_to,
    hand_rows,
    mark_page,
    record,
    screenshot,
    seat,
    start_league_and_season,
    submit_start,
    tap,
)
from tests.browser.test_clubs_flow import found_club
from tests.conftest import PASSWORD

MAX = "Maximilian-Alexander von Hohenstein"
ANNA = "Anna-Katharina Schwarzenberg"
BEN = "Ben"
DESKTOP = {"width": 1280, "height": 800}


def start_partie_in_club(
    page: Page, club: str, kind: str, names: list[str], best_of: int | None = None
) -> None:
    """From the club's page: its start form, the club chosen, two seats, classic rules."""
    go_to(page, "Clubs")
    page.get_by_role("link", name=club).click()
    page.get_by_role("link", name="Start a partie").click()
    expect(page.get_by_label("Club", exact=True).locator("option:checked")).to_have_text(club)
    choose_kind(page, kind)
    for number, name in enumerate(names, 1):
        seat(page, number).fill(name)
    if best_of:
        page.get_by_text("Every rule (change any)").click()
        page.get_by_role("spinbutton", name="Best of").fill(str(best_of))
    submit_start(page)


def open_standings(page: Page, club: str) -> None:
    go_to(page, "Clubs")
    page.get_by_role("link", name=club).click()
    page.get_by_role("link", name="Leagues and standings").click()
    page.get_by_role("link", name="Autumn").click()
    expect(page.get_by_role("heading", name="Club league: Autumn", level=1)).to_be_visible()


def standings_rows(page: Page) -> Locator:
    return page.locator("#standings table.standings tbody tr")


def expect_standings(page: Page, *lines: tuple[str, str, str]) -> None:
    """The standings top down: each player's rank, name and league points."""
    rows = standings_rows(page)
    expect(rows).to_have_count(len(lines))
    expect(rows.locator("td:nth-child(1)")).to_have_text([rank for rank, _, _ in lines])
    expect(rows.locator("th.player")).to_have_text([name for _, name, _ in lines])
    expect(rows.locator("td:nth-child(7)")).to_have_text([points for _, _, points in lines])


def test_a_club_plays_a_season_and_shares_its_standings(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    django_user_model: type[User],
) -> None:
    friend = django_user_model.objects.create_user("friend", password=PASSWORD)
    page = open_context(accept_downloads=True).new_page()
    log_in(page, owner.username)
    page.goto("/")
    found_club(page, "Gin Club")

    # An invitation link, accepted by the friend in a browser of his own.
    page.get_by_label("Joins as").select_option("member")
    page.get_by_role("button", name="Create an invitation link").click()
    address = page.get_by_label("Invitation link").input_value()
    guest = open_context().new_page()
    log_in(guest, friend.username)
    guest.goto(address)
    guest.get_by_role("button", name="Join the club").click()
    expect(guest.get_by_text("Your role here: member.")).to_be_visible()
    assert Membership.objects.get(user=friend).role == Role.MEMBER

    # A league, and a season around today.
    page.reload()
    start_league_and_season(page, "Club league", "Autumn")
    expect(page.get_by_text("No player yet")).to_be_visible()

    # Three short parties in the club. A gin against 90 deadwood ends a game at once:
    # 90 + the gin bonus of 25 passes 100, and the loser has not scored (a shutout).
    start_partie_in_club(page, "Gin Club", "two_player", [MAX, ANNA])
    record(page, 1, "gin", MAX, None, 90)
    expect(page.locator("#table .status")).to_have_text(f"The partie is over: {MAX} won.")
    first_partie = page.url

    start_partie_in_club(page, "Gin Club", "match", [ANNA, BEN], best_of=3)
    record(page, 1, "gin", BEN, None, 90)
    record(page, 2, "gin", BEN, None, 90)
    expect(page.locator(".standing")).to_have_text(f"Match (best of 3): {ANNA} 0 – {BEN} 2")
    expect(page.locator("form.hand-form")).to_have_count(0)

    start_partie_in_club(page, "Gin Club", "two_player", [BEN, MAX])
    record(page, 1, "gin", MAX, None, 80)
    expect(page.locator("form.hand-form")).to_have_count(0)

    # The standings: a shutout win is worth 3 league points, a loss 0.
    open_standings(page, "Gin Club")
    expect_standings(page, ("1", MAX, "6"), ("2", BEN, "6"), ("3", ANNA, "0"))
    guest.goto(page.url)
    expect_standings(guest, ("1", MAX, "6"), ("2", BEN, "6"), ("3", ANNA, "0"))

    # The first partie's only hand was Anna's gin, not Max's: she takes his points.
    page.goto(first_partie)
    hand_rows(page).first.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    tap(page, "knocker", ANNA)
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#table .status")).to_have_text(f"The partie is over: {ANNA} won.")
    open_standings(page, "Gin Club")
    # Max and Anna are level on league points and wins: the net points part them.
    expect_standings(page, ("1", BEN, "6"), ("2", MAX, "3"), ("3", ANNA, "3"))

    # Sorting by a column swaps the table in place; its link also works on its own.
    mark_page(page)
    page.locator("#standings thead").get_by_role("link", name="Player").click()
    expect(page.locator("#standings th[aria-sort]")).to_have_text("Player ▲")
    expect_same_page(page)
    expect(standings_rows(page).locator("th.player")).to_have_text([ANNA, BEN, MAX])
    link = page.locator("#standings thead").get_by_role("link", name="Player")
    page.goto(page.url.split("?")[0] + link.get_attribute("href"))
    expect(page).to_have_url(re.compile(r"\?sort=player&order=desc$"))
    expect(page.locator("#standings th[aria-sort]")).to_have_text("Player ▼")
    expect(standings_rows(page).locator("th.player")).to_have_text([MAX, BEN, ANNA])

    # Head-to-head, in the standings' order: each line's wins–losses against the player
    # of the column, then the points between them.
    page.get_by_role("heading", name="Head-to-head").scroll_into_view_if_needed()
    matrix = page.locator("table.matrix")
    expect(matrix.locator("thead th[scope=col]")).to_have_text([BEN, MAX, ANNA])
    lines = matrix.locator("tbody tr")
    expect(lines.locator("th")).to_have_text([BEN, MAX, ANNA])
    expect(lines.nth(0).locator("td")).to_contain_text(["", "0–1", "2–0"])
    expect(lines.nth(1).locator("td")).to_contain_text(["1–0", "", "0–1"])
    expect(lines.nth(2).locator("td")).to_contain_text(["0–2", "1–0", ""])

    # Downloads.
    with page.expect_download() as pdf:
        page.get_by_role("link", name="Standings (PDF)").click()
    text = "\n".join(p.extract_text() for p in PdfReader(pdf.value.path()).pages)
    for name in (MAX, ANNA, BEN):
        assert name in text.replace("\n", " "), name
    with page.expect_download() as sheet:
        page.get_by_role("link", name="Standings (CSV)").click()
    table = list(csv.reader(io.StringIO(Path(sheet.value.path()).read_text("utf-8"))))
    assert table[0][:2] == ["Rank", "Player"] and table[0][6] == "League points"
    assert [line[:2] + line[6:7] for line in table[1:]] == [
        ["1", BEN, "6"],
        ["2", MAX, "3"],
        ["3", ANNA, "3"],
    ]
    # The season as a document: every partie as a game record, whose standings, read
    # back without the database, are those of the page.
    with page.expect_download() as document:
        page.get_by_role("link", name="Season document (JSON)").click()
    assert document.value.suggested_filename == "club-league-autumn-season.json"
    read = io.StringIO()
    call_command("standings", document.value.path(), stdout=read)
    lines = json.loads(read.getvalue())["standings"]
    assert [[str(line["rank"]), line["player"], str(line["league_points"])] for line in lines] == [
        line[:2] + line[6:7] for line in table[1:]
    ]

    # At 360 px the long names stay inside the page: the table scrolls, not the page,
    # and scrolled to its last column (all of them shown) it still shows whose line it is.
    expect_no_sideways_scroll(page)
    page.get_by_text("More columns").click()
    page.locator("#standings .sheet-scroll").evaluate("box => box.scrollLeft = box.scrollWidth")
    name = standings_rows(page).first.locator("th.player").bounding_box()
    trend = standings_rows(page).first.locator("td.trend").bounding_box()
    assert name["x"] < 20 and name["x"] + name["width"] <= trend["x"] < PHONE["width"]

    # The public link, opened by someone not logged in: the same table, read only.
    page.get_by_role("button", name="Make the standings public").click()
    expect(page.get_by_text("Public link, read only:")).to_be_visible()
    address = page.locator("a[href*='/standings/']").get_attribute("href")
    stranger = open_context(accept_downloads=True).new_page()
    stranger.goto(address)
    expect(stranger.get_by_role("heading", name="Club league: Autumn", level=1)).to_be_visible()
    expect(standings_rows(stranger).locator("th.player")).to_have_text([BEN, MAX, ANNA])
    expect(stranger.get_by_role("link", name=MAX)).to_have_count(0)
    expect(stranger.get_by_role("button", name="Make the standings public")).to_have_count(0)
    expect(stranger.get_by_role("link", name="Log in")).to_be_visible()
    expect_no_sideways_scroll(stranger)
    with stranger.expect_download() as pdf:
        stranger.get_by_role("link", name="Standings (PDF)").click()
    assert MAX in PdfReader(pdf.value.path()).pages[0].extract_text().replace("\n", " ")

    # The owner's page with its public link, on a phone and a desktop, in English and in
    # German (the header's language button).
    expect_no_sideways_scroll(page)
    screenshot(page, "standings-en-360")
    page.set_viewport_size(DESKTOP)
    expect_no_sideways_scroll(page)
    screenshot(page, "standings-en-1280")
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Tabelle")).to_be_visible()
    expect(page.locator("#standings thead th")).to_contain_text(["Platz", "Spieler", "Partien"])
    expect_no_sideways_scroll(page)
    screenshot(page, "standings-de-1280")
    page.set_viewport_size(PHONE)
    expect_no_sideways_scroll(page)
    screenshot(page, "standings-de-360")
