"""Undo at hand, on a phone: a hand deleted by mistake is put back from where it was,
with HTMX in place and without JavaScript by a page load."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.browser.conftest import (
    expect_table_swapped,
    expect_totals,
    hand_rows,
    mark_page,
)

K, G = engine.Hand.knock, engine.Hand.gin


@pytest.fixture
def three(partie: Partie, owner: User) -> Partie:
    """Anna knocks 5 – 27, Ben gins against 16, Anna knocks 7 – 7 (an undercut)."""
    for hand in (K(5, 27, knocker="Anna"), G(16, knocker="Ben"), K(7, 7, knocker="Anna")):
        services.hand_record(partie=partie, hand=hand, user=owner)
    return partie


def delete_hand(page: Page, number: int) -> None:
    """Delete hand ``number`` as a player does: Edit, Delete this hand, confirm."""
    hand_rows(page).nth(number - 1).get_by_role("link", name="Edit").click()
    page.get_by_role("link", name="Delete this hand").click()
    page.get_by_role("button", name="Delete the hand").click()


def sheet_lines(page: Page) -> list[str]:
    """The sheet body's rows as shown: the hands' numbers and the notice's words."""
    rows = page.locator("#sheet-body tr:not(.empty)")
    return [
        " ".join(text.split()) if "deleted" in text else text.split()[0]
        for text in rows.all_inner_texts()
    ]


def test_a_deleted_hand_comes_back_from_where_it_was(logged_in_page: Page, three: Partie):
    page = logged_in_page
    page.goto(three.get_absolute_url())

    delete_hand(page, 2)

    expect(page).to_have_url(three.get_absolute_url() + "#undo-notice")
    notice = page.locator("#undo-notice")
    expect(notice).to_be_in_viewport()
    assert sheet_lines(page) == ["1", "Hand 2 deleted. Undo", "2"]
    undo = notice.get_by_role("button", name="Undo")
    assert undo.bounding_box()["height"] >= 44

    mark_page(page)
    undo.click()

    expect(page.locator("#undo-notice")).to_have_count(0)
    expect(hand_rows(page)).to_have_count(3)
    expect_table_swapped(page)
    expect(page.locator("#entry-status")).to_have_text("Hand 2 is back in its place.")
    expect_totals(page, 2, 22, 36)
    expect_totals(page, 3, 22, 46)
    trail = page.locator("#trail-list")
    expect(trail).to_contain_text("hand 2 restored")
    expect(trail.get_by_role("button", name="Undo: put the hand back")).to_have_count(0)


def test_the_undo_works_without_javascript(
    open_context: Callable[..., BrowserContext], log_in, owner: User, three: Partie
):
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)
    page.goto(three.get_absolute_url())

    delete_hand(page, 3)
    assert sheet_lines(page) == ["1", "2", "Hand 3 deleted. Undo"]
    page.locator("#undo-notice").get_by_role("button", name="Undo").click()

    expect(page.locator(".messages")).to_have_text("Hand 3 is back in its place.")
    expect(page.locator("#undo-notice")).to_have_count(0)
    expect(hand_rows(page)).to_have_count(3)
    expect_totals(page, 3, 22, 46)


def test_the_undo_speaks_german(logged_in_page: Page, three: Partie):
    page = logged_in_page
    page.goto(three.get_absolute_url())
    page.locator("header form.language-switch").get_by_role("button", name="Deutsch").click()
    hand_rows(page).nth(0).get_by_role("link", name="Ändern").click()
    page.get_by_role("link", name="Dieses Spiel löschen").click()
    page.get_by_role("button", name="Spiel löschen").click()
    expect(page.locator("#undo-notice")).to_contain_text("Spiel 1 gelöscht.")
    page.locator("#undo-notice").get_by_role("button", name="Rückgängig").click()
    expect(page.locator("#entry-status")).to_have_text("Spiel 1 ist wieder an seinem Platz.")
