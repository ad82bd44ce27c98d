"""A partie at the table, end to end: a phone, Chromium, the live server.

The players tap the labels of the knocker and result choices (the radio inputs
themselves are hidden behind them) and type the deadwoods. The worked example
is RULES.md §9: Anna and Ben, classic values, Ben deals first, 0.05 a point.
"""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Hand, Partie
from tests.browser.conftest import (
    enter_hand,
    expect_same_page,
    expect_table_swapped,
    expect_totals,
    hand_rows,
    mark_page,
    screenshot,
    tap,
)

# RULES.md §9, one hand a line: kind, knocker, knocker's and defender's deadwood,
# who dealt it, then Anna's and Ben's running totals after it.
WORKED_EXAMPLE = [
    ("knock", "Anna", 5, 27, "Ben", 22, 0),
    ("gin", "Ben", None, 16, "Ben", 22, 36),
    ("knock", "Anna", 7, 7, "Anna", 22, 46),  # a tie is an undercut: Ben +10
    ("gin", "Anna", None, 31, "Anna", 73, 46),
    ("no_game", None, None, None, "Ben", 73, 46),
    ("knock", "Anna", 2, 30, "Ben", 101, 46),  # the dealer after a no game deals again
]
ENGINE_HANDS = {
    "knock": lambda knocker, dk, dd: engine.Hand.knock(dk, dd, knocker=knocker),
    "gin": lambda knocker, dk, dd: engine.Hand.gin(dd, knocker=knocker),
    "no_game": lambda knocker, dk, dd: engine.Hand.no_game(),
}


def play(partie: Partie, owner: User, hands: int) -> None:
    """Record the first `hands` hands of the worked example through the services."""
    for kind, knocker, dk, dd, *_ in WORKED_EXAMPLE[:hands]:
        services.hand_record(partie=partie, hand=ENGINE_HANDS[kind](knocker, dk, dd), user=owner)


def test_worked_example_from_sign_up_to_settlement(page: Page) -> None:
    page.goto("/")
    page.get_by_role("main").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("anna")
    page.get_by_label("Password", exact=True).fill("gin rummy at the kitchen table")
    page.get_by_label("Password confirmation").fill("gin rummy at the kitchen table")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Your parties")).to_be_visible()

    page.get_by_role("link", name="Start a partie").click()
    page.get_by_role("combobox", name="Player 1", exact=True).fill("Anna")
    page.get_by_role("combobox", name="Player 2", exact=True).fill("Ben")
    tap(page, "first_dealer", "Ben")  # the choices show the names typed
    page.get_by_label("Stake per point").fill("0.05")
    expect(page.get_by_label("Rules", exact=True)).to_have_value("classic")
    page.get_by_role("button", name="Start the partie").click()

    expect(page).to_have_url(re.compile(r"/parties/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna – Ben")
    expect(page.locator(".rules-line")).to_contain_text("stake 0.05 per point")
    expect(page.locator("#table .status")).to_have_text("Hand 1: Ben deals.")
    mark_page(page)

    for number, (kind, knocker, dk, dd, dealer, anna, ben) in enumerate(WORKED_EXAMPLE, 1):
        expect(page.locator("#table .status")).to_have_text(f"Hand {number}: {dealer} deals.")
        enter_hand(page, kind, knocker, dk, dd)
        expect(hand_rows(page)).to_have_count(number)
        expect_table_swapped(page)
        expect_totals(page, number, anna, ben)
        expect(hand_rows(page).nth(number - 1)).to_contain_text(f"{dealer} dealt")
        if number < len(WORKED_EXAMPLE):  # the form is empty again for the next hand
            form = page.locator("form.hand-form")
            expect(form.get_by_label("Defender's deadwood")).to_have_value("")
            expect(form.locator("input[name=knocker]:checked")).to_have_count(0)
    expect(hand_rows(page).nth(2)).to_contain_text("Undercut")
    expect(hand_rows(page).nth(4)).to_contain_text("No game")

    expect(page.locator("#table .status")).to_have_text("The partie is over: Anna won.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(["261", "86"])
    expect(page.locator("tfoot tr.foot-net td.num")).to_have_text(["+175", "−175"])
    expect(page.locator("tfoot tr.foot-money td.num")).to_have_text(["+8.75", "−8.75"])
    expect(page.locator(".settlement .pays")).to_have_text("Ben pays Anna 175 points = 8.75")
    screenshot(page, "finished")


def test_knock_over_the_limit_shows_the_error_beside_the_deadwood(
    logged_in_page: Page, partie: Partie
) -> None:
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)

    enter_hand(page, "knock", "Anna", 12, 20)

    field = page.locator("form.hand-form .field-knocker_deadwood")
    expect(field.locator(".error")).to_contain_text("over the knock limit")
    expect(field.locator(".error")).to_be_visible()
    expect_table_swapped(page)
    expect(hand_rows(page)).to_have_count(0)
    expect(page.locator("table.sheet tbody")).to_contain_text("No hands yet.")
    assert not Hand.objects.filter(partie=partie).exists()


def test_after_an_error_a_valid_hand_clears_the_form_and_joins_the_changes(
    logged_in_page: Page, partie: Partie
) -> None:
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)
    enter_hand(page, "knock", "Anna", 12, 20)
    expect(page.locator("form.hand-form .error")).to_have_count(1)
    expect_table_swapped(page)

    page.locator("form.hand-form").get_by_label("Knocker's deadwood").fill("5")
    page.locator("form.hand-form").get_by_role("button").click()

    expect(hand_rows(page)).to_have_count(1)
    expect_table_swapped(page)
    expect(page.locator("form.hand-form .error")).to_have_count(0)
    expect(page.locator("form.hand-form").get_by_label("Knocker's deadwood")).to_have_value("")
    expect(page.locator("form.hand-form").get_by_label("Defender's deadwood")).to_have_value("")
    expect(page.locator("table.sheet tbody")).not_to_contain_text(
        "No hands yet.", use_inner_text=True
    )
    expect(page.locator("#status")).to_have_text("Hand 2: Ben deals.")  # the loser deals
    page.locator(".trail summary").click()
    expect(page.locator("#trail-list li").first).to_contain_text("hand 1 recorded")
    expect(page.locator("#trail-list li").first).to_contain_text("Anna knocks 5 – 20")
    expect(page.locator("#trail-list")).not_to_contain_text("No changes yet.", use_inner_text=True)


def test_editing_an_early_hand_rescores_the_later_ones_and_is_in_the_changes(
    logged_in_page: Page, owner: User, partie: Partie
) -> None:
    play(partie, owner, hands=3)
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    expect_totals(page, 3, 22, 46)

    hand_rows(page).first.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    expect(page.get_by_label("Defender's deadwood")).to_have_value("27")
    page.get_by_label("Defender's deadwood").fill("37")
    page.get_by_role("button", name="Save the hand").click()

    expect(page).to_have_url(re.compile(rf"/parties/{partie.pk}/$"))
    expect_totals(page, 1, 32, 0)
    expect_totals(page, 3, 32, 46)  # was 22: the later rows follow the correction
    changes = page.locator("details.trail")
    changes.get_by_text("Changes", exact=True).click()
    edit = changes.locator("li").filter(has_text="hand 1 edited")
    expect(edit).to_be_visible()
    expect(edit.locator("del")).to_have_text("Anna knocks 5 – 27")
    expect(edit.locator("ins")).to_have_text("Anna knocks 5 – 37")


def test_a_hand_can_be_recorded_without_javascript(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    partie: Partie,
) -> None:
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())

    enter_hand(page, "knock", "Anna", 5, 27)

    expect(page).to_have_url(re.compile(rf"/parties/{partie.pk}/$"))  # redirected after the POST
    expect_totals(page, 1, 22, 0)
    expect(page.locator("#table .status")).to_have_text("Hand 2: Ben deals.")


def test_oklahoma_preset_swaps_the_rules_and_the_hand_form_asks_for_the_upcard(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    page.get_by_role("combobox", name="Player 1", exact=True).fill("Anna")
    page.get_by_role("combobox", name="Player 2", exact=True).fill("Ben")
    knock_limit = page.get_by_label("Knock limit")
    expect(knock_limit).to_be_hidden()  # the rules start folded away
    mark_page(page)

    page.get_by_label("Rules", exact=True).select_option("oklahoma")

    expect(knock_limit).to_be_visible()  # the swapped-in rules come unfolded
    expect(knock_limit.locator("option:checked")).to_have_text("upcard")
    expect(page.get_by_label("Target", exact=True)).to_have_value("150")
    expect_same_page(page)
    page.get_by_role("button", name="Start the partie").click()

    expect(page.locator(".rules-line")).to_contain_text("Rules: Oklahoma")
    form = page.locator("form.hand-form")
    expect(form.get_by_label("Upcard")).to_be_visible()
    knocker_deadwood = form.locator(".field-knocker_deadwood")
    expect(knocker_deadwood).to_be_visible()
    tap(page, "kind", "Gin")
    expect(form.get_by_role("radio", name="Gin", exact=True)).to_be_checked()
    expect(knocker_deadwood).to_be_hidden()
    tap(page, "kind", "Knock")
    expect(knocker_deadwood).to_be_visible()

    enter_hand(page, "gin", "Anna", dd=20, upcard="KS")
    expect_totals(page, 1, 90, 0)  # (20 + gin bonus 25) doubled by the spade upcard


@pytest.mark.parametrize("hands", [3, 6], ids=["running", "over"])
def test_the_partie_page_does_not_scroll_sideways_on_a_phone(
    logged_in_page: Page, owner: User, partie: Partie, hands: int
) -> None:
    play(partie, owner, hands=hands)
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    expect(hand_rows(page)).to_have_count(hands)
    page.locator("details.trail summary").click()
    expect(page.locator("details.trail li").first).to_be_visible()

    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_share_link_shows_the_sheet_to_anyone_and_no_form(
    logged_in_page: Page,
    open_context: Callable[..., BrowserContext],
    owner: User,
    partie: Partie,
) -> None:
    play(partie, owner, hands=2)
    logged_in_page.goto(partie.get_absolute_url())
    link = logged_in_page.locator("#share .public-link a")
    share_url = link.get_attribute("href")

    page = open_context().new_page()
    page.goto(share_url)

    expect(page.get_by_role("heading", level=1)).to_have_text("Anna – Ben")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()  # nobody is logged in
    expect(hand_rows(page)).to_have_count(2)
    expect_totals(page, 2, 22, 36)
    expect(page.locator("#table .status")).to_have_text("Hand 3: Anna deals.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    expect(page.get_by_role("link", name="Edit")).to_have_count(0)
    expect(page.locator("details.trail")).to_have_count(0)
