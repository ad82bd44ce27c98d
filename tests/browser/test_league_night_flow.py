"""A league night on the organiser's phone (360 px), JavaScript off: from the season page
he ticks who is present, gets the proposed tables, swaps the player on the bye into a
table and starts the round with one tap; every partie starts in the club and season,
numbered by table, and the next round's form comes up with the same players ticked."""

from datetime import timedelta

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Assignment, NightBye, NightTable
from scorekeeper.league.night_services import night_round_start
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Player
from tests.browser.conftest import (
    expect_console_error,
    expect_no_sideways_scroll,
    screenshot,
    tap,
)

G = engine.Hand.gin

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def test_the_organiser_runs_a_round_of_a_league_night(open_context, log_in, owner: User):
    club = club_services.club_create(name="Gin Club", owner=owner)
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=today - timedelta(days=9), ends_on=today
    )
    for name in NAMES:
        Player.objects.create(club=club, name=name)
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)

    page.goto(season.get_absolute_url())
    page.get_by_role("link", name="League night").click()
    expect(page.get_by_role("heading", name="League night", level=1)).to_be_visible()
    for name in NAMES:
        page.get_by_label(name, exact=True).check()
    tap(page, "method", "Round robin: who has met least this season")
    page.get_by_role("button", name="Propose tables").click()

    tables = page.locator(".proposal li")
    expect(tables).to_have_count(2)
    expect(tables.first).to_contain_text("Table 1")
    bye = page.locator(".night-bye")
    expect(bye).to_contain_text("Bye: ")
    out = bye.inner_text().split(": ", 1)[1].strip()
    first = tables.first.inner_text().replace("Table 1", "").split(" – ")[0].strip()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360

    page.get_by_label("Swap").select_option(label=out)
    page.get_by_label("with", exact=True).select_option(label=first)
    page.get_by_role("button", name="Swap").click()
    expect(page.locator(".night-bye")).to_have_text(f"Bye: {first}")
    expect(page.locator(".proposal li").first).to_contain_text(out)

    page.get_by_role("button", name="Start round 1: 2 parties").click()

    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2: who plays whom")).to_be_visible()
    started = list(NightTable.objects.order_by("number"))
    assert [table.number for table in started] == [1, 2]
    assert all(Assignment.objects.get(partie=t.partie).season == season for t in started)
    assert out in started[0].partie.player_names
    assert NightBye.objects.get().player.name == first
    for name in NAMES:  # the next round starts from the same players
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360

    page.get_by_role("link", name=" – ".join(started[0].partie.player_names)).click()
    expect(page).to_have_url(started[0].partie.get_absolute_url())


LONG = "Maximiliane Hohenzollern-Sigmaringen"


def test_a_round_proposed_while_a_table_still_plays(
    open_context, log_in, owner: User, console_errors: list[str]
):
    """Round 1 has three tables; Ana and Jonas Weber still play theirs when round 2 is
    proposed: they are left out, the page says why, and the round starts without them.
    Proposed anyway against each other, their second partie is refused."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=today - timedelta(days=9), ends_on=today
    )
    names = ["Ana", "Jonas Weber", "Carl", "Dora", "Emil", LONG]
    for name in names:
        Player.objects.create(club=club, name=name)
    tables = (("Ana", "Jonas Weber"), ("Carl", "Dora"), ("Emil", LONG))
    night_round_start(
        season=season,
        owner=owner,
        seating=Pairing(tuple(Table(n, t) for n, t in enumerate(tables, start=1))),
        played_on=today,
        round=1,
    )
    for table in NightTable.objects.filter(number__in=(2, 3)):
        winner = table.partie.player_names[0]
        table_services.hand_record(partie=table.partie, hand=G(90, knocker=winner), user=owner)
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)

    page.goto(reverse("league_night", args=[season.pk]))
    playing = page.locator(".still-playing")
    expect(playing).to_contain_text("Round 1 · Table 1")
    expect(playing).to_contain_text("Ana – Jonas Weber")
    for name in names:  # the players still playing are ticked present too
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    page.get_by_role("button", name="Propose tables").click()

    proposal = page.locator(".proposal li")
    expect(proposal).to_have_count(2)
    for name in ("Ana", "Jonas Weber"):
        expect(page.locator("#proposal")).not_to_contain_text(name)
    expect_no_sideways_scroll(page)
    screenshot(page, "league-night-still-playing")
    page.get_by_role("button", name="Start round 2: 2 parties").click()
    expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()

    # Everyone else now plays round 2: Ana and Jonas Weber proposed anyway meet again.
    page.get_by_label("Propose Ana anyway").check()
    page.get_by_label("Propose Jonas Weber anyway").check()
    page.get_by_role("button", name="Propose tables").click()
    expect(proposal).to_have_text(["Table 1 Ana – Jonas Weber"])
    page.get_by_role("button", name="Start round 3: 1 partie").click()

    expect(page.get_by_role("alert")).to_contain_text(
        "Ana – Jonas Weber are still playing round 1 at table 1: a second partie cannot start"
    )
    expect_console_error(console_errors, "status of 400")  # the refusal's page
    assert NightTable.objects.filter(round=3).count() == 0
    assert NightTable.objects.count() == 5
