"""Entering hands without a network, in Chromium (static/js/offline.js, templates/pwa/sw.js).

The phone goes offline (`context.set_offline`), hands are entered, the page is closed and
opened again from the copy the service worker kept; back online, the hands that waited
are sent in order and the database holds each once. A hand the server refuses waits with
its reason, and those after it wait behind it.

Set SCREENSHOTS to a folder (docs/screenshots) to keep pictures of the offline state at
360 px in both languages.
"""

import itertools
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import EntryKey, Hand, HandChange, Partie
from tests.browser.conftest import (
    enter_hand,
    fill_hand,
    hand_rows,
    log_in_by_form,
    serious_violations,
)

WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""


@pytest.fixture
def log_in() -> Callable[..., None]:
    """Through the login form, as a phone does: the service worker is installed on the
    login page, before the pages it keeps are opened (the other modules log in by a
    cookie, tests/browser/conftest.py)."""
    return log_in_by_form


@pytest.fixture
def phone(open_context: Callable[..., BrowserContext]) -> BrowserContext:
    """A phone whose pages report what the content security policy blocks, any uncaught
    script error and any error in the console, in `phone.errors`. Its service worker
    runs (the other tests' contexts block it)."""
    context = open_context(service_workers="allow")
    context.add_init_script(WATCH)
    context.errors = []

    def watch(page: Page) -> None:
        page.on("pageerror", lambda error: context.errors.append(str(error)))
        page.on(
            "console",
            lambda message: message.type == "error" and context.errors.append(message.text),
        )

    context.on("page", watch)
    return context


def expect_no_error(page: Page, context: BrowserContext) -> None:
    assert page.evaluate("window.cspViolations") == []
    assert context.errors == []


def open_partie(context: BrowserContext, partie: Partie) -> Page:
    page = context.new_page()
    page.goto(partie.get_absolute_url())
    return page


WAITS = itertools.count()


def wait_until(page: Page, check: str, arg: object = None) -> None:
    """Wait until `check`, an async JavaScript function of `arg`, answers true: it is asked
    again after each answer. (`wait_for_function` takes the promise of an async function
    for a true answer at once, whatever it resolves to.)"""
    key = f"waited{next(WAITS)}"
    page.wait_for_function(
        f"""(arg) => {{
          const state = window.{key} || (window.{key} = {{ done: false, asking: false }});
          if (!state.done && !state.asking) {{
            state.asking = true;
            Promise.resolve(({check})(arg)).then(
              (answer) => {{ state.done = !!answer; state.asking = false; }},
              () => {{ state.asking = false; }});
          }}
          return state.done;
        }}""",
        arg=arg,
    )


def wait_until_kept(page: Page) -> None:
    """The service worker is active, so it answers the phone's next navigations, and has
    kept a copy of the page on the phone. (Not that it controls this page: a page whose
    navigation began while the worker was still installing may stay uncontrolled until
    the next one, as the page after the login form did about every other time; the page
    asks to be kept all the same.)"""
    wait_until(
        page,
        """async () => {
             const registration = await navigator.serviceWorker.getRegistration();
             return !!(registration && registration.active
               && registration.active.state === "activated"
               && await caches.match(location.pathname));
           }""",
    )


def wait_until_draft_kept(page: Page, name: str, value: str) -> None:
    """The phone has stored the half-typed form with `name` set to `value`."""
    wait_until(
        page,
        """([name, value]) => new Promise((resolve) => {
             const opening = indexedDB.open("scorekeeper");
             opening.onsuccess = () => {
               const read = opening.result.transaction("drafts").objectStore("drafts").getAll();
               read.onsuccess = () => resolve(read.result.some((draft) =>
                 draft.fields.some(([n, v]) => n === name && v === value)));
             };
           })""",
        [name, value],
    )


def waiting(page: Page):
    return page.locator("#sheet-body tr.waiting")


def recorded(partie: Partie) -> list[tuple]:
    """The partie's hands in the database: number, result, knocker and deadwoods."""
    hands = Hand.objects.filter(partie=partie).order_by("number", "table")
    return [
        (h.number, h.kind, h.knocker and h.knocker.name, h.knocker_deadwood, h.defender_deadwood)
        for h in hands.select_related("knocker")
    ]


def test_three_hands_entered_offline_are_recorded_once_and_in_order_back_online(
    phone: BrowserContext, log_in, owner: User, partie: Partie
):
    page = phone.new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())
    wait_until_kept(page)

    phone.set_offline(True)
    enter_hand(page, "knock", "Anna", 5, 27)
    expect(waiting(page)).to_have_count(1)
    expect(page.locator("#entry-status")).to_have_text(
        "No connection: hand 1 is kept on this phone and sent when the connection returns."
    )
    form = page.locator("form.hand-form")
    expect(form.get_by_label("Defender's deadwood")).to_have_value("")  # the next one, at once
    expect(form.locator("input[name=knocker]").first).to_be_focused()
    enter_hand(page, "gin", "Ben", dd=16)
    enter_hand(page, "knock", "Anna", 7, 7)

    expect(waiting(page)).to_have_count(3)
    expect(waiting(page).locator("td:first-child")).to_have_text(["1", "2", "3"])
    expect(waiting(page).nth(1)).to_contain_text("Gin")
    expect(waiting(page).nth(1)).to_contain_text("Ben")
    expect(waiting(page).nth(2)).to_contain_text("Waiting to be sent")
    expect(page.locator("#offline-queue")).to_contain_text("3 hands wait on this phone to be sent.")
    # A fourth hand, half typed, when the phone is put away.
    fill_hand(form, "knock", "Ben", 4)
    wait_until_draft_kept(page, "knocker_deadwood", "4")
    page.close()

    page = phone.new_page()
    response = page.goto(partie.get_absolute_url())
    assert response is not None and response.from_service_worker  # the copy on the phone
    expect(waiting(page)).to_have_count(3)
    form = page.locator("form.hand-form")
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("4")
    expect(form.locator("input[name=knocker][value=Ben]")).to_be_checked()
    assert recorded(partie) == []

    phone.set_offline(False)

    expect(hand_rows(page)).to_have_count(3)
    expect(waiting(page)).to_have_count(0)
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("#entry-status")).to_have_text("The hands that waited are recorded.")
    assert recorded(partie) == [
        (1, "knock", "Anna", 5, 27),
        (2, "gin", "Ben", None, 16),
        (3, "knock", "Anna", 7, 7),
    ]
    assert EntryKey.objects.filter(partie=partie).count() == 3
    assert HandChange.objects.filter(partie=partie, action="recorded").count() == 3
    # What was half typed is still in the form, and the fourth hand goes straight through.
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("4")
    form.get_by_label("Defender's deadwood").fill("30")
    form.get_by_role("button", name="Record the hand").click()
    expect(hand_rows(page)).to_have_count(4)
    assert recorded(partie)[-1] == (4, "knock", "Ben", 4, 30)
    page.reload()
    expect(page.locator("form.hand-form").get_by_label("Knocker's deadwood")).to_have_value("")
    expect_no_error(page, phone)


def test_a_refused_hand_waits_with_its_reason_and_holds_back_the_next(
    phone: BrowserContext, log_in, owner: User, partie: Partie
):
    page = phone.new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())
    phone.set_offline(True)
    enter_hand(page, "knock", "Anna", 5, 27)
    enter_hand(page, "knock", "Ben", 6)  # no defender's deadwood: the server refuses it
    enter_hand(page, "gin", "Ben", dd=16)
    expect(waiting(page)).to_have_count(3)

    phone.set_offline(False)

    expect(hand_rows(page)).to_have_count(1)
    refused = page.locator("#sheet-body tr.waiting.refused")
    expect(refused).to_contain_text("Not recorded: Defender's deadwood: Enter the deadwood.")
    expect(refused.locator("td").first).to_have_text("2")
    expect(waiting(page)).to_have_count(2)
    expect(waiting(page).nth(1)).to_contain_text("Waiting to be sent")
    expect(page.locator("#offline-queue")).to_contain_text(
        "Hand 2 was not recorded: correct it or discard it. The hands after it wait."
    )
    expect(page.get_by_role("button", name="Send now")).to_be_hidden()
    assert recorded(partie) == [(1, "knock", "Anna", 5, 27)]
    # A page opened again says the same: the refusal is kept on the phone.
    page.reload()
    expect(page.locator("#sheet-body tr.waiting.refused")).to_contain_text("Enter the deadwood.")
    assert recorded(partie) == [(1, "knock", "Anna", 5, 27)]

    page.locator("#sheet-body tr.waiting.refused").get_by_role("button", name="Correct").click()
    form = page.locator("form.hand-form")
    expect(form.get_by_label("Knocker's deadwood")).to_have_value("6")
    expect(page.locator("#entry-status")).to_have_text("Correct hand 2 here, then record it again.")
    form.get_by_label("Defender's deadwood").fill("20")
    form.get_by_role("button", name="Record the hand").click()

    expect(hand_rows(page)).to_have_count(3)
    expect(waiting(page)).to_have_count(0)
    assert recorded(partie) == [
        (1, "knock", "Anna", 5, 27),
        (2, "knock", "Ben", 6, 20),
        (3, "gin", "Ben", None, 16),
    ]
    expect_no_error(page, phone)


def test_a_refused_hand_can_be_discarded(
    phone: BrowserContext, log_in, owner: User, partie: Partie
):
    page = phone.new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())
    phone.set_offline(True)
    enter_hand(page, "knock", "Anna")  # no deadwoods at all
    enter_hand(page, "gin", "Ben", dd=16)
    phone.set_offline(False)
    refused = page.locator("#sheet-body tr.waiting.refused")
    expect(refused).to_contain_text("Enter the deadwood.")

    refused.get_by_role("button", name="Discard").click()

    expect(hand_rows(page)).to_have_count(1)
    expect(waiting(page)).to_have_count(0)
    assert recorded(partie) == [(1, "gin", "Ben", None, 16)]
    expect_no_error(page, phone)


def test_the_rounds_of_a_partnership_wait_and_are_recorded_in_order(
    phone: BrowserContext, log_in, owner: User
):
    partie = services.partie_start(
        owner=owner,
        names=["Anna", "Ben", "Cleo", "Dan"],
        rules=engine.preset("partnership"),
        kind=Partie.Kind.PARTNERSHIP,
        first_dealer="Ben",
    )
    page = phone.new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())
    tables = page.locator("form.hand-form fieldset.table-hand")
    phone.set_offline(True)
    for first, second in (((2, 18), (3, 15)), ((4, 30), (1, 11))):
        fill_hand(tables.nth(0), "knock", "Anna", *first)
        fill_hand(tables.nth(1), "knock", "Cleo", *second)
        page.locator("form.hand-form").get_by_role("button", name="Record the hand").click()
    expect(waiting(page)).to_have_count(2)
    expect(waiting(page).first).to_contain_text("Knock | Knock")

    phone.set_offline(False)

    expect(hand_rows(page)).to_have_count(2)
    assert recorded(partie) == [
        (1, "knock", "Anna", 2, 18),
        (1, "knock", "Cleo", 3, 15),
        (2, "knock", "Anna", 4, 30),
        (2, "knock", "Cleo", 1, 11),
    ]
    expect_no_error(page, phone)


def test_the_queue_works_without_the_service_worker(
    open_context: Callable[..., BrowserContext], log_in, owner: User, partie: Partie
):
    context = open_context(service_workers="block")
    page = context.new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())
    context.set_offline(True)
    enter_hand(page, "knock", "Anna", 5, 27)
    enter_hand(page, "gin", "Ben", dd=16)
    expect(waiting(page)).to_have_count(2)

    context.set_offline(False)

    expect(hand_rows(page)).to_have_count(2)
    assert recorded(partie) == [(1, "knock", "Anna", 5, 27), (2, "gin", "Ben", None, 16)]


def test_nothing_entered_is_not_kept(phone: BrowserContext, log_in, owner: User, partie: Partie):
    page = phone.new_page()
    log_in(page, owner.username)
    page.goto(partie.get_absolute_url())
    phone.set_offline(True)

    page.locator("form.hand-form").get_by_role("button", name="Record the hand").click()

    expect(page.locator("#entry-status")).to_have_text(
        "Nothing entered yet: enter the hand, then record it."
    )
    expect(waiting(page)).to_have_count(0)
    expect_no_error(page, phone)


# The worker takes the page over (clients.claim() on its activation) before the page
# hears that it is ready: an order the browser may choose, made certain here.
CLAIMED_BEFORE_READY = """
if (window.ServiceWorkerContainer && navigator.serviceWorker) {  // not on about:blank
  const container = navigator.serviceWorker;
  const ready = Object.getOwnPropertyDescriptor(ServiceWorkerContainer.prototype, "ready").get;
  Object.defineProperty(container, "ready", {
    get: () => ready.call(container).then((registration) => container.controller
      ? registration
      : new Promise((resolve) => container.addEventListener(
          "controllerchange", () => resolve(registration), { once: true }))),
  });
}
"""


def test_the_first_page_opened_is_kept_when_the_worker_takes_it_over_first(
    phone: BrowserContext, owner: User, partie: Partie, live_server
):
    client = Client()
    client.force_login(owner)  # no page of the site opened yet: no worker on this phone
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    phone.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    phone.add_init_script(CLAIMED_BEFORE_READY)
    page = phone.new_page()

    page.goto(partie.get_absolute_url())  # fetched before the worker was there
    wait_until_kept(page)
    page.close()
    phone.set_offline(True)
    page = phone.new_page()
    response = page.goto(partie.get_absolute_url())

    assert response is not None and response.from_service_worker  # the copy on the phone
    expect(page.locator("form.hand-form")).to_be_visible()
    expect_no_error(page, phone)


def test_a_page_not_kept_shows_the_offline_page(
    phone: BrowserContext, log_in, owner: User, partie: Partie
):
    page = phone.new_page()
    log_in(page, owner.username)
    wait_until_kept(page)  # the home page, the list of parties
    phone.set_offline(True)

    page.goto("/evenings/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    page.get_by_role("link", name="Your parties").click()
    expect(page.get_by_role("heading", name="Your parties")).to_be_visible()
    expect_no_error(page, phone)


def test_the_manifest_and_the_service_worker_are_linked_and_served(
    phone: BrowserContext, log_in, owner: User, partie: Partie
):
    page = phone.new_page()
    page.goto("/accounts/login/")
    manifest = page.request.get(page.locator("link[rel=manifest]").get_attribute("href"))
    assert manifest.ok
    assert manifest.headers["content-type"] == "application/manifest+json"
    icons = manifest.json()["icons"]
    for icon in icons:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"] == "image/png"
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == page.url.removesuffix("/accounts/login/") + "/"
    worker = page.request.get("/sw.js")
    assert worker.headers["service-worker-allowed"] == "/"
    assert worker.headers["content-type"].startswith("text/javascript")
    expect_no_error(page, phone)


def enter_by_name(page: Page, kind: str, knocker: str, dk=None, dd=None) -> None:
    """Enter a hand by the fields' names, in any language."""
    form = page.locator("form.hand-form")
    form.locator(f"label.choice:has(input[name=kind][value={kind}])").click()
    form.locator(f"label.choice:has(input[name=knocker][value={knocker}])").click()
    if dk is not None:
        form.locator("input[name=knocker_deadwood]").fill(str(dk))
    if dd is not None:
        form.locator("input[name=defender_deadwood]").fill(str(dd))
    form.locator("> button[type=submit]:visible").click()


def test_the_hands_that_wait_pass_axe(axe_page: Page, partie: Partie):
    page = axe_page
    page.goto(partie.get_absolute_url())
    page.context.set_offline(True)
    enter_hand(page, "knock", "Anna")
    enter_hand(page, "gin", "Ben", dd=16)
    page.context.set_offline(False)
    expect(page.locator("#sheet-body tr.waiting.refused")).to_have_count(1)
    page.context.set_offline(True)
    enter_hand(page, "knock", "Ben", 3, 12)
    expect(waiting(page)).to_have_count(3)

    assert serious_violations(page) == []


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_the_offline_state(
    phone: BrowserContext, log_in, owner: User, partie: Partie, language: str, live_server
):
    """One hand recorded, one refused, two waiting behind it; German from the catalogue.
    The picture is taken where SCREENSHOTS names a folder."""
    page = phone.new_page()
    log_in(page, owner.username)
    phone.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(partie.get_absolute_url())
    enter_by_name(page, "knock", "Anna", 5, 27)
    expect(hand_rows(page)).to_have_count(1)
    phone.set_offline(True)
    enter_by_name(page, "knock", "Ben", 6)
    enter_by_name(page, "gin", "Anna", dd=22)
    phone.set_offline(False)
    expect(page.locator("#sheet-body tr.waiting.refused")).to_have_count(1)
    phone.set_offline(True)
    enter_by_name(page, "knock", "Ben", 3, 12)
    expect(waiting(page)).to_have_count(3)
    if language == "de":
        expect(page.locator("#offline-queue")).to_contain_text(
            "Spiel 2 wurde nicht eingetragen: Korrigieren oder verwerfen Sie es."
        )
        expect(waiting(page).nth(1)).to_contain_text("Wartet auf das Senden")
        expect(page.locator("#entry-status")).to_contain_text("Keine Verbindung: Spiel 4")
    expect_no_error(page, phone)
    if folder := os.environ.get("SCREENSHOTS"):
        # From the top to the end of the sheet: what is below it does not change offline.
        bottom = page.locator(".sheet-scroll").evaluate(
            "(sheet) => sheet.getBoundingClientRect().bottom + window.scrollY"
        )
        clip = {"x": 0, "y": 0, "width": 360, "height": bottom + 12}
        path = Path(folder) / f"offline-{language}-360.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), clip=clip, full_page=True)
