"""Every kind of partie played to the end on a phone: Hollywood, a match, a partnership,
Oklahoma, and a running partie whose rules change.

Each partie starts from the start form and every hand goes through the hand form,
as at the table. The hands are big on purpose, so that a partie ends in a few.
"""

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.browser.conftest import (
    PHONE,
    enter_hand,
    expect_table_swapped,
    expect_totals,
    fill_hand,
    fill_start,
    hand_rows,
    mark_page,
    record,
    screenshot,
    seat,
    status,
    submit_start,
)


def game_titles(page: Page) -> Locator:
    """The titles of the games shown in tables of their own (a match, a chouette)."""
    return page.locator("table.sheet caption strong")


def group_headers(page: Page) -> Locator:
    return page.locator("table.sheet thead th.group")


# Anna and Ben, Hollywood values (classic, target 100), 0.05 a point. One hand a line:
# the dealer (the loser deals next), kind, knocker, knocker's deadwood, defender's
# deadwood, then after it the totals Anna/Ben in G1, G2, G3 and the closed games.
HOLLYWOOD = [
    ("Anna", "gin", "Anna", None, 60, (80, 0, 0, 0, 0, 0), ""),  # a first win: G1
    ("Ben", "gin", "Ben", None, 60, (80, 80, 0, 0, 0, 0), ""),
    ("Anna", "gin", "Anna", None, 40, (140, 80, 60, 0, 0, 0), "G1"),  # second: G1 and G2
    ("Ben", "knock", "Ben", 2, 62, (140, 80, 60, 60, 0, 0), "G1"),  # G1 is closed: G2 only
    ("Anna", "gin", "Anna", None, 30, (140, 80, 110, 60, 50, 0), "G1 G2"),
    ("Ben", "gin", "Ben", None, 60, (140, 80, 110, 60, 50, 80), "G1 G2"),  # G3 only
    ("Anna", "gin", "Ben", None, 20, (140, 80, 110, 60, 50, 120), "G1 G2 G3"),
]


def test_hollywood_is_played_until_all_three_games_are_closed(logged_in_page: Page) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    fill_start(page, "hollywood", ["Anna", "Ben"], stake="0.05", preset="hollywood")
    submit_start(page)

    expect(page.locator(".rules-line")).to_contain_text("Rules: Hollywood")
    expect(group_headers(page)).to_have_text(["Game 1", "Game 2", "Game 3"])
    expect(page.locator("table.sheet thead th.num")).to_have_text(["Anna", "Ben"] * 3)
    for number, (dealer, kind, knocker, dk, dd, totals, closed) in enumerate(HOLLYWOOD, 1):
        expect(status(page)).to_have_text(f"Hand {number}: {dealer} deals.")
        record(page, number, kind, knocker, dk, dd)
        expect_totals(page, number, *totals)
        for n, (header, game) in enumerate(
            zip(group_headers(page).all(), ("G1", "G2", "G3"), strict=True), start=1
        ):
            if game in closed.split():
                expect(header).to_have_class(re.compile(r"\bclosed\b"))
                expect(header).to_have_text(f"Game {n} ✓ over")
            else:
                expect(header).not_to_have_class(re.compile(r"\bclosed\b"))
                expect(header).to_have_text(f"Game {n}")

    expect(status(page)).to_have_text("The partie is over.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    # Per game: points + 20 a box + 100 for the winner.
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(
        ["280", "100", "250", "80", "70", "260"]
    )
    expect(page.locator("tfoot tr.foot-net td.num")).to_have_text(
        ["+180", "−180", "+170", "−170", "−190", "+190"]
    )
    settlement = page.locator(".settlement")
    expect(settlement.locator(".pays")).to_have_text(
        [
            "Game 1: Ben pays Anna 180 points = 9.00",
            "Game 2: Ben pays Anna 170 points = 8.50",
            "Game 3: Anna pays Ben 190 points = 9.50",
            "In all: Ben pays Anna 8.00",  # 180 + 170 − 190 = 160 points at 0.05
        ]
    )
    screenshot(page, "hollywood")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_hollywood_page_does_not_scroll_sideways_on_a_phone(
    logged_in_page: Page, owner: User
) -> None:
    partie = services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("hollywood"), kind="hollywood"
    )
    for _dealer, kind, knocker, dk, dd, *_ in HOLLYWOOD[:5]:  # G1 and G2 closed, G3 running
        hand = engine.Hand(engine.HandKind(kind), knocker, dk or 0, dd)
        services.hand_record(partie=partie, hand=hand, user=owner)
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    expect(hand_rows(page)).to_have_count(5)
    expect(page.locator("form.hand-form")).to_be_visible()
    page.locator("details.trail summary").click()
    expect(page.locator("details.trail li").first).to_be_visible()

    # Three games side by side are wider than a phone: the sheet scrolls in its box,
    # the page never sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator(".sheet-scroll")).to_have_css("overflow-x", "auto")


# Best of 3, classic values: two gins of 40 (60 each) close a game.
MATCH = [
    # kind, knocker, dk, dd, the game it belongs to, Anna's and Ben's totals in that game
    ("gin", "Anna", None, 40, 1, 60, 0),
    ("knock", "Ben", 2, 12, 1, 60, 10),
    ("gin", "Anna", None, 40, 1, 120, 10),
    ("gin", "Ben", None, 40, 2, 0, 60),
    ("knock", "Anna", 3, 13, 2, 10, 60),
    ("gin", "Ben", None, 40, 2, 10, 120),
    ("gin", "Anna", None, 80, 3, 100, 0),
]


def test_a_match_best_of_three_runs_game_after_game_to_the_winner(logged_in_page: Page) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    fill_start(page, "match", ["Anna", "Ben"])
    page.get_by_text("Every rule (change any)").click()
    page.get_by_role("spinbutton", name="Best of").fill("3")
    submit_start(page)

    standing = page.locator(".standing")
    expect(standing).to_have_text("Match (best of 3): Anna 0 – Ben 0")
    for number, (kind, knocker, dk, dd, game, anna, ben) in enumerate(MATCH, 1):
        expect(status(page)).to_contain_text(f"Game {game}, hand {number}:")
        record(page, number, kind, knocker, dk, dd)
        expect_totals(page, number, anna, ben)
        if number == 3:
            expect(standing).to_have_text("Match (best of 3): Anna 1 – Ben 0")
            expect(page.locator("caption .result")).to_have_text(["Anna won by 230 points."])
            expect(status(page)).to_have_text("Game 2, hand 4: Ben deals.")
            expect(game_titles(page)).to_have_text(["Game 1"])
        if number == 4:  # the first hand of game 2 opens its own table
            expect(game_titles(page)).to_have_text(["Game 1", "Game 2"])
        if number == 6:
            expect(standing).to_have_text("Match (best of 3): Anna 1 – Ben 1")

    expect(game_titles(page)).to_have_text(["Game 1", "Game 2", "Game 3"])
    expect(status(page)).to_have_text("The partie is over: Anna won.")
    expect(standing).to_have_text("Match (best of 3): Anna 2 – Ben 1")
    expect(page.locator("caption .result")).to_have_text(
        ["Anna won by 230 points.", "Ben won by 230 points.", "Anna won by 320 points."]
    )
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.locator(".settlement .pays")).to_have_text(
        [
            "Game 1: Ben pays Anna 230 points",
            "Game 2: Anna pays Ben 230 points",
            "Game 3: Ben pays Anna 320 points",
            "In all: Ben pays Anna 320 points",  # the first two cancel out
        ]
    )
    screenshot(page, "match")


def table(page: Page, number: int) -> Locator:
    return page.locator("form.hand-form fieldset.table-hand").nth(number - 1)


def enter_round(page: Page, rows: int, first: tuple, second: tuple) -> None:
    """Fill both tables' hands and record the round."""
    fill_hand(table(page, 1), *first)
    fill_hand(table(page, 2), *second)
    page.locator("form.hand-form").get_by_role("button", name="Record the hand").click()
    expect(hand_rows(page)).to_have_count(rows)
    expect_table_swapped(page)


def test_a_partnership_records_both_tables_and_settles_between_opposite_numbers(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    third, fourth = seat(page, 3), seat(page, 4)
    expect(third).to_be_hidden()
    expect(fourth).to_be_hidden()
    page.goto("/parties/new/")
    fill_start(page, "partnership", ["Anna", "Ben", "Cleo", "Dan"], preset="partnership")
    expect(third).to_be_visible()
    expect(fourth).to_be_visible()
    expect(page.get_by_label("Target", exact=True)).to_have_value("125")
    submit_start(page)

    expect(page.locator("table.sheet thead th.num")).to_have_text(["Anna & Cleo", "Ben & Dan"])
    expect(page.locator("form.hand-form legend").filter(has_text="Table")).to_have_text(
        ["Table 1: Anna v Ben", "Table 2: Cleo v Dan"]
    )
    expect(status(page)).to_have_text("Round 1: Anna deals at table 1, Cleo at table 2.")

    # A knock over the limit at table 2 refuses the round, beside table 2's field.
    fill_hand(table(page, 1), "knock", "Anna", 2, 18)
    fill_hand(table(page, 2), "knock", "Cleo", 13, 15)
    page.locator("form.hand-form").get_by_role("button", name="Record the hand").click()
    error = table(page, 2).locator(".field-knocker_deadwood .error")
    expect(error).to_have_text("A knock with 13 deadwood is over the knock limit of 10.")
    expect_table_swapped(page)
    expect(page.locator("form.hand-form .error")).to_have_count(1)
    expect(table(page, 1).get_by_label("Defender's deadwood")).to_have_value("18")
    expect(hand_rows(page)).to_have_count(0)

    # Anna beats Ben by 16, Cleo beats Dan by 12: Anna & Cleo score 28.
    table(page, 2).get_by_label("Knocker's deadwood").fill("3")
    page.locator("form.hand-form").get_by_role("button", name="Record the hand").click()
    expect(hand_rows(page)).to_have_count(1)
    expect_table_swapped(page)
    expect_totals(page, 1, 28, 0)
    expect(hand_rows(page).first.locator(".gain")).to_have_text(["+28"])
    # Ben's gin (30) against Cleo's undercut of Dan (12): Ben & Dan score the difference.
    enter_round(page, 2, ("gin", "Ben", None, 10), ("knock", "Dan", 5, 3))
    expect_totals(page, 2, 28, 18)
    expect(hand_rows(page).nth(1)).to_contain_text("Table 2: Undercut Dan 5 v 3")
    # Two gins: 70 and 50, and 148 passes the target of 125.
    enter_round(page, 3, ("gin", "Anna", None, 50), ("gin", "Cleo", None, 30))
    expect_totals(page, 3, 148, 18)

    expect(status(page)).to_have_text("The partie is over: Anna & Cleo won.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(["288", "38"])
    expect(page.locator("tfoot tr.foot-net td.num")).to_have_text(["+250", "−250"])
    expect(page.locator(".settlement .pays")).to_have_text(
        ["Ben pays Anna 250 points", "Dan pays Cleo 250 points"]
    )
    screenshot(page, "partnership")


def test_oklahoma_the_upcard_sets_the_knock_limit_and_spades_double(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    fill_start(page, "two_player", ["Anna", "Ben"], preset="oklahoma")
    submit_start(page)
    expect(page.locator(".rules-line")).to_contain_text("Rules: Oklahoma")

    enter_hand(page, "knock", "Anna", 6, 26, upcard="5S")
    error = page.locator("form.hand-form .field-knocker_deadwood .error")
    expect(error).to_have_text("A knock with 6 deadwood is over the knock limit of 5.")
    expect_table_swapped(page)
    expect(hand_rows(page)).to_have_count(0)

    form = page.locator("form.hand-form")  # the refused hand is still filled in
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("6")
    form.get_by_label("Upcard").fill("KS")
    form.get_by_role("button").click()
    expect(hand_rows(page)).to_have_count(1)
    expect_table_swapped(page)
    expect_totals(page, 1, 40, 0)  # (26 - 6) doubled by the spade
    expect(hand_rows(page).first).to_contain_text("×2")
    expect(page.locator("form.hand-form .error")).to_have_count(0)

    record(page, 2, "gin", "Ben", dd=30, upcard="7H")
    expect_totals(page, 2, 40, 55)  # 30 + gin bonus 25, a heart: not doubled
    record(page, 3, "gin", "Anna", dd=50, upcard="KS")
    expect_totals(page, 3, 190, 55)  # (50 + 25) doubled: past the target of 150

    expect(status(page)).to_have_text("The partie is over: Anna won.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(["340", "80"])
    expect(page.locator(".settlement .pays")).to_have_text("Ben pays Anna 260 points")


@pytest.fixture
def running_partie(owner: User) -> Partie:
    """Anna against Ben, classic rules: Anna knocks 5 v 27, Ben gins v 16 (22 to 36)."""
    partie = services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic"), stake=Decimal(0)
    )
    for hand in (engine.Hand.knock(5, 27, knocker="Anna"), engine.Hand.gin(16, knocker="Ben")):
        services.hand_record(partie=partie, hand=hand, user=owner)
    return partie


def test_changing_the_rules_shows_the_effect_before_it_is_applied(
    logged_in_page: Page, running_partie: Partie
) -> None:
    page = logged_in_page
    page.goto(running_partie.get_absolute_url())
    expect_totals(page, 2, 22, 36)

    page.get_by_role("link", name="Change the rules").click()
    expect(page.get_by_role("heading", name="Change the rules")).to_be_visible()
    expect(page.get_by_label("Gin bonus", exact=True)).to_have_value("20")
    page.get_by_label("Gin bonus", exact=True).fill("30")
    page.get_by_role("button", name="Show the effect").click()

    compare = page.locator("table.compare")
    expect(compare.locator("tbody tr")).to_have_text(
        [re.compile(r"^Anna\s*22\s*22$"), re.compile(r"^Ben\s*36\s*46$"), re.compile("running")]
    )
    expect(page.get_by_label("Gin bonus", exact=True)).to_have_value("30")
    page.get_by_role("button", name="Apply the new rules").click()

    expect(page).to_have_url(re.compile(rf"/parties/{running_partie.pk}/$"))
    expect(page.locator(".rules-line")).to_contain_text("Gin bonus 30")
    expect_totals(page, 2, 22, 46)  # Ben's gin is worth 10 more
    page.locator("details.trail summary").click()
    change = page.locator("#trail-list li").first
    expect(change).to_contain_text("rules changed")
    expect(change.locator("ins")).to_have_text("Gin bonus 20 → 30")
    # The new rules hold for the next hand too.
    mark_page(page)
    record(page, 3, "gin", "Anna", dd=10)
    expect_totals(page, 3, 62, 46)
