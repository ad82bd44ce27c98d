"""The card picker on a phone: tap the cards (or type them), find the melds, record.

Anna knocks with T-J-Q♥, 4-4-4, 7-8-9♣ and 2♦; Ben melds his kings and lays off 9♥
and 8♥ on her hearts: deadwood 2 against 17, Anna +15 (classic rules).
"""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Locator, Page, expect

from scorekeeper.table.models import Hand, Partie
from tests.browser.conftest import (
    PHONE,
    expect_same_page,
    expect_table_swapped,
    expect_totals,
    hand_rows,
    mark_page,
    tap,
)

ANNA = ["TH", "JH", "QH", "4S", "4D", "4C", "7C", "8C", "9C", "2D"]
BEN = ["9H", "8H", "KS", "KD", "KC", "3S", "5D", "6D", "AC", "2S"]
RED_SUIT = "rgb(192, 38, 45)"  # --red-suit: #c0262d


@pytest.fixture
def touch_page(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User
) -> Page:
    """The owner's phone page with a touch screen: Locator.tap() sends real taps."""
    page = open_context(has_touch=True, is_mobile=True).new_page()
    log_in(page, owner.username)
    return page


def hand_form(page: Page) -> Locator:
    return page.locator("form.hand-form")


def pick(form: Locator, code: str) -> Locator:
    """The picker's button of one card, by its code (7H, TD ...)."""
    return form.locator(f"[data-card-picker] button[data-code='{code}']")


def open_cards(page: Page) -> Locator:
    """Open "Or enter the cards": the picker shows above the two cards fields."""
    form = hand_form(page)
    form.get_by_text("Or enter the cards").click()
    expect(form.locator("[data-card-picker]")).to_be_visible()
    expect(form.locator("[data-card-picker] button.pick")).to_have_count(52)
    return form


def colours(form: Locator) -> dict[str, str]:
    """The computed text colour of every picker button, by card code."""
    return form.locator("[data-card-picker] button.pick").evaluate_all(
        "buttons => Object.fromEntries("
        "  buttons.map(b => [b.dataset.code, getComputedStyle(b).color]))"
    )


def expect_evaluated(page: Page) -> None:
    """The answer to "Find the melds": the lay-offs shown, the deadwoods filled in."""
    form = hand_form(page)
    outcome = form.locator("section.outcome")
    expect(outcome).to_be_visible()
    expect(outcome).to_contain_text("lays off 9♥8♥")
    expect(outcome).to_contain_text("= 17 (34 before lay-offs)")
    expect(outcome).to_contain_text("Knock: the knocker +15.")
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("2")
    expect(form.get_by_label("Defender's deadwood")).to_have_value("17")
    expect(form.get_by_role("radio", name="Knock", exact=True)).to_be_checked()
    expect(form.get_by_role("radio", name="Anna", exact=True)).to_be_checked()
    expect_table_swapped(page)  # the form was swapped in place and HTMX has settled
    assert not Hand.objects.exists()


def record_and_expect_a_clean_form(page: Page, number: int, anna: int) -> None:
    hand_form(page).get_by_role("button", name="Record the hand").click()

    expect(hand_rows(page)).to_have_count(number)
    expect_table_swapped(page)
    expect_totals(page, number, anna, 0)
    expect(hand_rows(page).nth(number - 1).locator(".gain")).to_have_text("+15")
    form = hand_form(page)
    expect(form.locator("section.outcome")).to_have_count(0)
    expect(form.locator("input[name=knocker_cards]")).to_have_value("")
    expect(form.locator("input[name=defender_cards]")).to_have_value("")
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("")
    expect(form.get_by_label("Defender's deadwood")).to_have_value("")
    expect(form.locator("input[name=knocker]:checked")).to_have_count(0)


def test_tapping_both_hands_finds_the_melds_and_records_the_hand(
    touch_page: Page, partie: Partie
) -> None:
    page = touch_page
    page.goto(partie.get_absolute_url())
    mark_page(page)
    form = open_cards(page)
    tap(form, "knocker", "Anna")

    # Hearts and diamonds in red, spades and clubs not.
    shown = colours(form)
    assert {code for code, colour in shown.items() if colour == RED_SUIT} == {
        rank + suit for rank in "A23456789TJQK" for suit in "HD"
    }
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Every card is a 44 × 44 px target, and the grid still fits the phone.
    for box in form.locator("button.pick").evaluate_all(
        "buttons => buttons.map(b => b.getBoundingClientRect().toJSON())"
    ):
        assert box["width"] >= 44 and box["height"] >= 44, box
    knocker_cards = form.get_by_label("Knocker's cards")
    defender_cards = form.get_by_label("Defender's cards")
    # The hand is chosen with buttons, not by tapping a text field (no keyboard opens).
    knocker_hand = form.get_by_role("button", name="Knocker's hand")
    defender_hand = form.get_by_role("button", name="Defender's hand")
    expect(knocker_hand).to_have_attribute("aria-pressed", "true")
    knocker_hand.tap()
    for code in ANNA:
        pick(form, code).tap()
    expect(knocker_cards).to_have_value(" ".join(ANNA))
    expect(knocker_hand).to_have_text("Knocker's hand (10)")
    for code in ANNA:
        expect(pick(form, code)).to_have_attribute("aria-pressed", "true")

    defender_hand.tap()
    expect(defender_hand).to_have_attribute("aria-pressed", "true")
    expect(knocker_hand).to_have_attribute("aria-pressed", "false")
    expect(page.locator(":focus")).not_to_have_attribute("name", re.compile("cards$"))
    # The knocker's cards cannot go into the defender's hand; none of his is pressed yet.
    for code in ANNA:
        expect(pick(form, code)).to_be_disabled()
        expect(pick(form, code)).to_have_attribute("aria-pressed", "false")
    for code in BEN:
        pick(form, code).tap()
    expect(defender_cards).to_have_value(" ".join(BEN))
    expect(knocker_cards).to_have_value(" ".join(ANNA))  # untouched
    # Tapping a card again takes it out.
    pick(form, "2S").tap()
    expect(defender_cards).to_have_value(" ".join(BEN[:-1]))
    pick(form, "2S").tap()
    expect(defender_cards).to_have_value(" ".join(BEN))
    # Back at the knocker's hand: now the defender's cards are the disabled ones.
    knocker_hand.tap()
    for code in BEN:
        expect(pick(form, code)).to_be_disabled()
    expect(pick(form, "2D")).to_be_enabled()
    expect(pick(form, "2D")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    form.get_by_role("button", name="Find the melds").tap()

    expect_evaluated(page)
    expect_same_page(page)
    form = hand_form(page)
    expect(form.locator("[data-card-picker]")).to_be_visible()  # the new form's picker
    expect(form.get_by_label("Knocker's cards")).to_have_value(" ".join(ANNA))
    expect(form.get_by_label("Defender's cards")).to_have_value(" ".join(BEN))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    record_and_expect_a_clean_form(page, 1, 15)
    expect_same_page(page)
    assert list(Hand.objects.values_list("knocker_deadwood", "defender_deadwood")) == [(2, 17)]


def test_typed_cards_work_too_and_press_the_picker_buttons(
    logged_in_page: Page, partie: Partie
) -> None:
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)
    form = open_cards(page)
    tap(form, "knocker", "Anna")

    form.get_by_label("Knocker's cards").fill(" ".join(ANNA).lower())
    for code in ANNA:
        expect(pick(form, code)).to_have_attribute("aria-pressed", "true")
    expect(pick(form, "KS")).to_have_attribute("aria-pressed", "false")
    form.get_by_label("Defender's cards").fill("9h, 8h, ks, kd, kc, 3s, 5d, 6d, ac, 2s")
    for code in BEN:
        expect(pick(form, code)).to_have_attribute("aria-pressed", "true")
    for code in ANNA:
        expect(pick(form, code)).to_be_disabled()

    form.get_by_role("button", name="Find the melds").click()

    expect_evaluated(page)
    record_and_expect_a_clean_form(page, 1, 15)
    expect_same_page(page)
