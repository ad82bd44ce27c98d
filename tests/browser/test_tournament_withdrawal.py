"""A player withdrawn during a Swiss, and a round's time called (issue 30): the organiser
withdraws him at a desktop; a member's phone (360 px, in English and in German) and the
screen in the bar (1920 px) show the next round without him and the Swiss table with
him marked, long names and all; a partie decided at time says so on its page, and under
"one more hand" its page says that one more hand is to be played, which then ends it.

Set SCREENSHOTS to a folder to keep the pages as pictures."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import BrowserContext, expect

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.table import services as table_services
from scorekeeper.tournaments import selectors, services
from scorekeeper.tournaments.models import TournamentMatch
from tests.browser.conftest import PHONE, browser_of, expect_no_sideways_scroll, screenshot
from tests.browser.test_club_board import BAR
from tests.browser.test_league_night_end_to_end import DESKTOP
from tests.browser.test_tournament_screen import LONG, club, first_round_won, started  # noqa: F401

GONE = LONG[2]  # "Dietrich von Falkenhausen-Aue", seed 3


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_swiss_player_withdrawn_in_round_1_is_marked_and_left_out_of_round_2(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,  # noqa: F811
    language: str,
):
    tournament = started(club, owner, "swiss", 8, rounds=3)
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP, language)
    organiser.goto(reverse("tournament_entries", args=[tournament.pk]))
    withdraw = {"en": f"Withdraw {GONE}", "de": f"{GONE} zurückziehen"}[language]
    organiser.get_by_role("button", name=withdraw).click()
    expect(organiser.locator(".seeds li").nth(2).locator(".tag")).to_have_text(
        {"en": "withdrawn", "de": "zurückgezogen"}[language]
    )
    screenshot(organiser, f"tournament-withdrawn-players-{language}-1280")
    first_round_won(tournament, owner)  # the rest of round 1, by the organiser
    second = [m for m in selectors.tournament_state(tournament).matches if m.round == 2]
    assert GONE not in {p for m in second for p in m.players} and second[-1].bye

    phone = browser_of(open_context, log_in, "bar", PHONE, language)
    phone.goto(tournament.get_absolute_url())
    heading = {"en": "Round 2", "de": "Runde 2"}[language]
    expect(phone.get_by_role("heading", name=heading)).to_be_visible()
    expect(phone.locator(".match")).to_have_count(4)  # three tables and the bye
    row = phone.locator(".swiss-table tbody tr").filter(has_text=GONE)
    expect(row.locator(".tag")).to_have_text({"en": "withdrawn", "de": "zurückgezogen"}[language])
    screenshot(phone, f"tournament-swiss-withdrawn-{language}-360")
    expect_no_sideways_scroll(phone)

    bar = open_context(viewport=BAR).new_page()
    log_in(bar, "bar", language)
    bar.goto(reverse("tournament_screen", args=[tournament.pk]) + "?section=1")
    line = bar.locator(".screen-swiss tr.withdrawn")
    expect(line).to_have_count(1)
    mark = line.locator(".tag")
    expect(mark).to_be_visible()
    # The mark is whole beside the long name, which is cut short where it has no room.
    box, cell = mark.bounding_box(), line.locator("th").bounding_box()
    assert box["x"] + box["width"] <= cell["x"] + cell["width"] + 0.5
    assert bar.evaluate("document.documentElement.scrollHeight") <= BAR["height"]
    screenshot(bar, f"tournament-screen-swiss-withdrawn-{language}-1920", full_page=False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_partie_decided_at_time_says_so_on_its_page(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,  # noqa: F811
    language: str,
):
    tournament = started(club, owner, "single_elimination", 8, round_minutes=30)
    row = TournamentMatch.objects.select_related("partie").get(tournament=tournament, match="W1-1")
    table_services.hand_record(
        partie=row.partie, hand=engine.Hand.gin(10, knocker=LONG[0]), user=owner
    )
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP, language)
    organiser.goto(tournament.get_absolute_url())
    time = {
        "en": "Time: end the unfinished parties",
        "de": "Zeit: die nicht beendeten Partien beenden",
    }[language]
    organiser.get_by_role("button", name=time).click()
    expect(organiser.locator("#bracket .match").first.locator(".winner")).to_contain_text(LONG[0])

    phone = browser_of(open_context, log_in, "bar", PHONE, language)
    phone.goto(row.partie.get_absolute_url())
    said = {
        "en": "Time was called: the partie ended here, before it was played out.",
        "de": "Die Zeit ist abgelaufen: Die Partie endete hier, bevor sie zu Ende gespielt war.",
    }[language]
    expect(phone.locator("#status")).to_have_text(said)
    expect(phone.locator("form.hand-form")).to_have_count(0)
    expect_no_sideways_scroll(phone)
    screenshot(phone, f"partie-ended-at-time-{language}-360")


@pytest.mark.parametrize("language", ["en", "de"])
def test_one_more_hand_at_time_is_said_at_the_table_and_that_hand_ends_the_partie(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    club: Club,  # noqa: F811
    language: str,
):
    tournament = started(
        club, owner, "single_elimination", 8, round_minutes=30, at_time="one_more_hand"
    )
    row = TournamentMatch.objects.select_related("partie").get(tournament=tournament, match="W1-1")
    table_services.hand_record(
        partie=row.partie, hand=engine.Hand.gin(10, knocker=LONG[0]), user=owner
    )
    services.round_end_at_time(tournament=tournament, by=owner)

    phone = browser_of(open_context, log_in, owner.username, PHONE, language)
    phone.goto(row.partie.get_absolute_url())
    one_more = {
        "en": "Time was called: one more hand is to be played.",
        "de": "Die Zeit ist abgelaufen: Ein Spiel wird noch gespielt.",
    }[language]
    expect(phone.locator("#status .time-called")).to_have_text(one_more)
    expect_no_sideways_scroll(phone)
    screenshot(phone, f"partie-one-more-hand-{language}-360")
    form = phone.locator("form.hand-form")  # by the fields' names, in either language
    form.locator("label.choice:has(input[name=kind][value=gin])").click()
    form.locator('label.choice:has(input[name=knocker][value="Player 8"])').click()
    form.locator("input[name=defender_deadwood]").fill("40")  # 60 : 30, the other way round
    form.locator("> button[type=submit]:visible").click()
    ended = {
        "en": "Time was called: the partie ended here, before it was played out.",
        "de": "Die Zeit ist abgelaufen: Die Partie endete hier, bevor sie zu Ende gespielt war.",
    }[language]
    expect(phone.locator("#status")).to_have_text(ended)
    expect(phone.locator("form.hand-form")).to_have_count(0)
    screenshot(phone, f"partie-one-more-hand-played-{language}-360")

    call_command("worker", until_idle=True)  # the hand's own task gives the result
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP, language)
    organiser.goto(tournament.get_absolute_url())
    expect(organiser.locator("#bracket .match").first.locator(".winner")).to_contain_text(
        "Player 8"
    )
    screenshot(organiser, f"tournament-one-more-hand-given-{language}-1280")
