"""Entering a hand on a bad connection: a send that never reaches the server keeps the
hand on the phone (static/js/offline.js) and the form takes the next one; a server error
keeps what was typed and says why; a retry after a lost answer records the hand once."""

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from scorekeeper.table.models import Hand, Partie
from tests.browser.conftest import (
    expect_console_error,
    expect_table_swapped,
    fill_hand,
    hand_rows,
    mark_page,
)

HANDS = "**/parties/*/hands/"
# What the browser and htmx write to the console when a request fails: the test provokes it.
LOST = ("Failed to load resource", "htmx:sendError", "htmx:afterRequest")


@pytest.fixture
def page(open_context: Callable[..., BrowserContext]) -> Page:
    """A phone page without the service worker: page.route() does not see the requests of
    a page the worker runs, and these tests route the hand form's. (The hands kept on
    the phone do not need the worker: static/js/offline.js.)"""
    return open_context(service_workers="block").new_page()


def send(page: Page) -> None:
    page.locator("form.hand-form").get_by_role("button", name="Record the hand").click()


def expect_typed_values_kept(page: Page) -> None:
    form = page.locator("form.hand-form")
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("5")
    expect(form.get_by_label("Defender's deadwood")).to_have_value("27")
    expect(form.locator("input[name=knocker][value=Anna]")).to_be_checked()


def test_no_connection_keeps_the_hand_on_the_phone_and_says_so(
    logged_in_page: Page, partie: Partie, console_errors: list[str]
):
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)
    page.route(HANDS, lambda route: route.abort("internetdisconnected"))

    fill_hand(page.locator("form.hand-form"), "knock", "Anna", 5, 27)
    send(page)

    status = page.locator("#entry-status")
    expect(status).to_have_text(
        "No connection: hand 1 is kept on this phone and sent when the connection returns."
    )
    expect(status).to_have_attribute("role", "status")
    waiting = page.locator("#sheet-body tr.waiting")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Waiting to be sent")
    expect(page.locator("form.hand-form").get_by_label("Knocker's deadwood")).to_have_value("")
    assert not Hand.objects.filter(partie=partie).exists()

    page.unroute(HANDS)
    page.get_by_role("button", name="Send now").click()
    expect(hand_rows(page)).to_have_count(1)
    expect(waiting).to_have_count(0)
    expect(status).to_have_text("The hands that waited are recorded.")
    expect_table_swapped(page)
    assert Hand.objects.filter(partie=partie).count() == 1
    expect_console_error(console_errors, *LOST)


def test_a_server_error_keeps_the_hand_and_says_so(
    logged_in_page: Page, partie: Partie, console_errors: list[str]
):
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    page.route(HANDS, lambda route: route.fulfill(status=502, body="Bad gateway"))

    fill_hand(page.locator("form.hand-form"), "knock", "Anna", 5, 27)
    send(page)

    expect(page.locator("#entry-status")).to_have_text(
        "The hand was not saved: the server answered with an error. "
        "What you entered is still here: send it again. (502)"
    )
    expect_typed_values_kept(page)
    assert not Hand.objects.filter(partie=partie).exists()
    expect_console_error(console_errors, "502")


def test_a_retry_after_a_lost_answer_records_the_hand_once(
    logged_in_page: Page, partie: Partie, console_errors: list[str]
):
    """The server records the hand, but its answer never arrives: the hand waits on the
    phone with its key, and sending it again (same key) leaves the one hand."""
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)

    def lose_the_answer(route: Route) -> None:
        route.fetch()  # the server gets the request and records the hand
        route.abort("connectionreset")

    page.route(HANDS, lose_the_answer)
    fill_hand(page.locator("form.hand-form"), "knock", "Anna", 5, 27)
    send(page)
    expect(page.locator("#entry-status")).to_contain_text("hand 1 is kept on this phone")
    expect(page.locator("#sheet-body tr.waiting")).to_have_count(1)
    expect(hand_rows(page)).to_have_count(0)
    assert Hand.objects.filter(partie=partie).count() == 1

    page.unroute(HANDS)
    page.get_by_role("button", name="Send now").click()

    expect(page.locator("#entry-status")).to_have_text("The hands that waited are recorded.")
    expect(hand_rows(page)).to_have_count(1)
    expect(page.locator("#sheet-body tr.waiting")).to_have_count(0)
    expect_table_swapped(page)
    assert Hand.objects.filter(partie=partie).count() == 1
    # The next hand is a new one: the form has a key of its own.
    fill_hand(page.locator("form.hand-form"), "knock", "Anna", 5, 27)
    send(page)
    expect(hand_rows(page)).to_have_count(2)
    assert Hand.objects.filter(partie=partie).count() == 2
    expect_console_error(console_errors, *LOST)
