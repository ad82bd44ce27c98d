"""Every main page works under the content security policy, in Chromium.

The policy (settings.CONTENT_SECURITY_POLICY) is in force in tests as in production. The
browser reports each thing it blocks as a `securitypolicyviolation` event and a console
error; both are collected on every page and must stay empty, while htmx swaps in place.
"""

from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Evening, Partie
from tests.browser.conftest import enter_hand, expect_table_swapped, hand_rows, mark_page

WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""


@pytest.fixture
def watched(open_context: Callable[..., BrowserContext]) -> tuple[Page, list[str]]:
    """A page whose CSP violations (events and console errors) end up in a list."""
    context = open_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return page, console


def visit(page: Page, console: list[str], path: str) -> None:
    response = page.goto(path, timeout=10_000)  # several pages in a row, on a busy machine
    assert response is not None and response.ok, path
    assert "script-src 'self'" in response.headers["content-security-policy"], path
    expect_no_violation(page, console, path)


def expect_no_violation(page: Page, console: list[str], where: str) -> None:
    page.wait_for_load_state("load")
    assert page.evaluate("window.cspViolations") == [], where
    assert console == [], where


def test_the_pages_of_a_visitor_break_no_rule(watched: tuple[Page, list[str]]) -> None:
    page, console = watched
    for path in ("/", "/accounts/login/", "/signup/"):
        visit(page, console, path)


def test_the_pages_of_a_player_break_no_rule(
    watched: tuple[Page, list[str]], log_in: Callable[..., None], owner: User, partie: Partie
) -> None:
    page, console = watched
    log_in(page, owner.username)
    evening = services.evening_start(owner=owner, name="Friday", played_on=date.today())
    services.partie_evening_set(partie=partie, evening=evening)
    paths = ["/", "/parties/new/", "/evenings/", Evening.objects.get().get_absolute_url()]
    paths += ["/clubs/", "/pads/", "/me/", partie.get_absolute_url()]
    for path in paths:
        visit(page, console, path)

    # htmx at work under the policy: a hand recorded in place, the form emptied again.
    mark_page(page)
    enter_hand(page, "knock", "Anna", 5, 27)
    expect(hand_rows(page)).to_have_count(1)
    expect_table_swapped(page)
    expect(page.locator("form.hand-form").get_by_label("Defender's deadwood")).to_have_value("")
    expect_no_violation(page, console, "recording a hand")


def test_the_new_partie_form_swaps_its_rules_under_the_policy(
    watched: tuple[Page, list[str]], log_in: Callable[..., None], owner: User
) -> None:
    page, console = watched
    log_in(page, owner.username)
    visit(page, console, "/parties/new/")
    mark_page(page)
    # The kind's inline <style> (with the nonce) shows the seats a chouette has; the kind
    # brings its presets (an htmx swap), then a preset its values (another).
    with page.expect_response(lambda r: "/parties/new/rules/" in r.url):
        page.locator(".field-kind label.choice").filter(has_text="Chouette").click()
    expect(page.locator(".seat-3")).to_be_visible()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    with page.expect_response(lambda r: "/parties/new/rules/" in r.url):
        page.get_by_label("Rules", exact=True).select_option("oklahoma")
    expect(page.get_by_label("Target", exact=True)).to_have_value("150")
    assert page.evaluate("window.marker") == 1
    expect_no_violation(page, console, "choosing a kind and a preset")


@pytest.mark.parametrize("kind", [Partie.Kind.HOLLYWOOD, Partie.Kind.CHOUETTE])
def test_a_style_left_on_the_page_is_not_copied_by_a_swap(
    watched: tuple[Page, list[str]], log_in: Callable[..., None], owner: User, kind: str
) -> None:
    """A full-page screenshot (as a browser extension may) leaves ``style=""`` on elements
    of the page; htmx, settling a swap, used to copy it onto the new elements, which the
    policy blocks: ten violations in a Hollywood's or a chouette's entry."""
    page, console = watched
    log_in(page, owner.username)
    names = ["Anna", "Ben"] if kind == Partie.Kind.HOLLYWOOD else ["Anna", "Ben", "Cleo"]
    rules = engine.preset("hollywood" if kind == Partie.Kind.HOLLYWOOD else "classic")
    partie = services.partie_start(owner=owner, names=names, rules=rules, kind=kind)
    visit(page, console, partie.get_absolute_url())
    page.evaluate(
        """document.querySelectorAll('#table [id], #table input').forEach((element) => {
            element.style.outline = 'none';
            element.style.outline = '';
        })"""
    )
    assert page.locator("#table [style]").count() > 0
    mark_page(page)
    for number in range(1, 4):  # the third ends the chouette's game: the whole table swaps
        enter_hand(page, "gin", "Anna", dd=40)
        expect(hand_rows(page)).to_have_count(number)
        expect_table_swapped(page)
    expect_no_violation(page, console, f"entering {kind} hands")
