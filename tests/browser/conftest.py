"""Playwright against Debian's Chromium and pytest-django's live server.

Every test in this folder is marked `browser`. Without Chromium the tests skip,
except under CI=true, where a missing browser is a broken build.

Chromium's headless shell (Debian's chromium-headless-shell, `make browser`) starts and
draws pages faster than the whole browser does in its headless mode; the whole browser
stands in where the shell is not installed.
"""

import contextlib
import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client
from django.utils import timezone
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    expect,
    sync_playwright,
)

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.conftest import PASSWORD

# Playwright's sync API keeps an event loop running in this thread, so Django
# takes every ORM call made from a test as a call from async code and refuses it.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",  # we run as root in a container
    "--disable-gpu",
    # Nothing but the live server may be contacted from the test browser.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# A wait ends as soon as what it waits for is there, so a long limit costs a passing
# test nothing; on a machine shared with other work (load 12 on 2 cores) an HTMX swap
# has taken more than 3 s. Promises of the app itself ("within 3 seconds") keep their
# own limits in their tests.
TIMEOUT_MS = 10_000
expect.set_options(timeout=TIMEOUT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = next((path for path in (HEADLESS_SHELL, CHROMIUM) if path.exists()), None)
    if executable is None:
        reason = f"Chromium not found at {CHROMIUM} (run `make browser`)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
    yield browser
    browser.close()
    playwright.stop()


@pytest.fixture(scope="session", autouse=True)
def one_request_at_a_time_on_sqlite() -> Iterator[contextlib.AbstractContextManager]:
    """On SQLite the live server answers one request at a time.

    There the tests' database is in memory, and the live server's threads share the one
    connection to it (pytest-django hands them the test's): two requests at once run in
    one connection, a read beside another's write fails with "database table is locked"
    (the board's poll while a phone confirms a result: 500, one run in seven of
    test_league_night_members.py). Production's file database has a connection a
    thread, its write lock and WAL; PostgreSQL's run of these tests keeps them concurrent.

    It gives what a test holds while it writes beside the live server itself (the worker
    it runs, a partie it plays through the services): the lock on SQLite, for the same
    reason; nothing elsewhere.
    """
    if connection.vendor != "sqlite":
        yield contextlib.nullcontext()
        return
    lock = threading.Lock()
    answer = WSGIHandler.__call__

    def one_at_a_time(self, environ, start_response):
        with lock:
            return answer(self, environ, start_response)

    with mock.patch.object(WSGIHandler, "__call__", one_at_a_time):
        yield lock


@pytest.fixture
def console_errors() -> Iterator[list[str]]:
    """What went wrong in the browser while the test ran: every console error (a content
    security policy violation, a failed load, a script's error) and every uncaught
    exception of every page the test opened. The test fails at teardown on any.

    A test that provokes an error on purpose (a lost connection) removes the one it
    expects with ``expect_console_error``; any other still fails it.
    """
    errors: list[str] = []
    yield errors
    if errors:
        pytest.fail("errors in the browser's console:\n" + "\n".join(errors), pytrace=False)


def watch_console(context: BrowserContext, errors: list[str]) -> None:
    """Collect the console errors and uncaught exceptions of every page of ``context``."""

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def watch(page: Page) -> None:
        page.on("console", on_console)
        page.on("pageerror", lambda error: errors.append(f"uncaught: {error} ({page.url})"))

    context.on("page", watch)


def expect_console_error(errors: list[str], *fragments: str) -> None:
    """Take out of ``errors`` those that the test provoked: each must contain one of
    ``fragments``, and at least one must be there."""
    expected = [error for error in errors if any(f in error for f in fragments)]
    assert expected, f"no console error with {fragments}: {errors}"
    errors[:] = [error for error in errors if error not in expected]


@pytest.fixture
def open_context(
    browser: Browser, live_server, console_errors: list[str]
) -> Iterator[Callable[..., BrowserContext]]:
    """Open phone-sized browser contexts (own cookies, JavaScript on or off), closed at the
    end; their pages' console errors fail the test (``console_errors``).

    The service worker is blocked unless a test allows it (``service_workers="allow"``,
    the offline tests): installing it fetches and caches the app's files beside the
    page's own requests, which only the offline tests need."""
    contexts: list[BrowserContext] = []

    def open_context(**options) -> BrowserContext:
        options.setdefault("viewport", PHONE)
        options.setdefault("service_workers", "block")
        context = browser.new_context(base_url=live_server.url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        watch_console(context, console_errors)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_context: Callable[..., BrowserContext]) -> Page:
    """A phone-sized page whose relative URLs go to the live server."""
    return open_context().new_page()


# axe-core, the accessibility checker, from the npm registry (`make axe`).
AXE = Path(__file__).resolve().parents[2] / ".cache/axe/node_modules/axe-core/axe.min.js"
SERIOUS = {"serious", "critical"}


def axe_context(open_context: Callable[..., BrowserContext], **options) -> BrowserContext:
    """A context whose every page has axe-core loaded before its own scripts, for
    ``serious_violations``. Without axe the test skips (fails under CI=true)."""
    if not AXE.exists():
        reason = f"axe-core not found at {AXE} (run `make axe`: it needs npm)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    context = open_context(**options)
    context.add_init_script(path=str(AXE))
    return context


def serious_violations(page: Page) -> list[str]:
    """axe's serious and critical findings on the page (of an ``axe_context``), one line
    per offending element."""
    results = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    found = []
    for violation in json.loads(results)["violations"]:
        if violation["impact"] in SERIOUS:
            for node in violation["nodes"]:
                found.append(f"{violation['id']} ({violation['impact']}): {node['html'][:160]}")
    return found


def log_in_by_form(page: Page, username: str, password: str = PASSWORD) -> None:
    """Log in through the real login form, as a player would; the home page opens."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("heading", name="Your parties")).to_be_visible()


def log_in_with_cookie(
    page: Page, username: str, server_url: str, language: str | None = None
) -> None:
    """Give the page's context a session of ``username`` (and, given a ``language``, its
    language cookie). The page stays where it is: each test opens the page it needs, two
    page loads and a password check sooner than through the form. Where the form matters
    the tests use ``log_in_by_form``: a friend who logs in to join a club, and the offline
    phones, whose service worker comes with the login page."""
    client = Client()
    client.force_login(User.objects.get(username=username))
    cookies = {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
    if language:
        cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page.context.add_cookies(
        [{"name": name, "value": value, "url": server_url} for name, value in cookies.items()]
    )


@pytest.fixture
def log_in(live_server) -> Callable[..., None]:
    """`log_in(page, username, language=None)`: the page's browser is logged in as
    ``username`` (in ``language``); the page stays where it is."""
    return lambda page, username, language=None: log_in_with_cookie(
        page, username, live_server.url, language
    )


@pytest.fixture
def logged_in_page(page: Page, owner: User, log_in: Callable[..., None]) -> Page:
    """The phone page of the owner, logged in; blank, until the test opens a page."""
    log_in(page, owner.username)
    return page


@pytest.fixture
def axe_page(open_context: Callable[..., BrowserContext], log_in, owner: User) -> Page:
    """The owner's phone page with axe-core (``serious_violations``), logged in."""
    page = axe_context(open_context).new_page()
    log_in(page, owner.username)
    return page


def browser_of(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    username: str,
    size: dict[str, int],
    language: str = "en",
) -> Page:
    """A browser of the person's own, at his screen's size, logged in, in his language."""
    page = open_context(viewport=size).new_page()
    log_in(page, username, language)
    return page


def go_to(page: Page, link: str) -> None:
    """Follow a link of the header, opening its menu first where a phone folds it."""
    menu = page.locator("header .menu-button")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    page.locator("header nav").get_by_role("link", name=link, exact=True).click()


# Helpers for a club's pages, shared by the flow modules.


def sign_up_from_the_link(page: Page, username: str, sign_up: str = "Sign up") -> None:
    """On an invitation's page, logged out: sign up from it (``sign_up``: the words of its
    link and button, in the page's language) and come back to the invitation."""
    invitation = page.url
    page.locator("main").get_by_role("link", name=sign_up, exact=True).click()
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("main").get_by_role("button", name=sign_up).click()
    expect(page).to_have_url(invitation)


def start_league_and_season(page: Page, league: str, season: str) -> None:
    """From the club's page: a league, and its season from a week ago to two months on;
    the season's page opens."""
    page.get_by_role("link", name="Leagues and standings").click()
    page.get_by_label("Name").fill(league)
    page.get_by_role("button", name="Start a league").click()
    expect(page.get_by_role("heading", name=f"New season of {league}")).to_be_visible()
    today = timezone.localdate()
    page.get_by_label("Name").fill(season)
    page.get_by_label("First day").fill((today - timedelta(days=7)).isoformat())
    page.get_by_label("Last day").fill((today + timedelta(days=60)).isoformat())
    page.get_by_role("button", name="Start the season").click()
    expect(page.get_by_role("heading", name=f"{league}: {season}", level=1)).to_be_visible()


def set_night_tables(page: Page, preset: str, stake: str) -> None:
    """On the season's settings page: its nights' tables play ``preset`` (its rules
    swapped in by HTMX) at ``stake`` a point; saved, the season's page opens."""
    with page.expect_response(lambda response: "/parties/new/rules/" in response.url):
        page.get_by_label("Rules", exact=True).select_option(preset)
    expect(page.locator("#rules input[name=shown_preset]")).to_have_value(preset)
    page.get_by_label("Stake per point").fill(stake)
    page.get_by_role("button", name="Save the settings").click()
    expect(page).to_have_url(re.compile(r"/seasons/\d+/$"))


def tables_proposed(page: Page) -> list[list[str]]:
    """The league night's proposed tables' players, table 1 first."""
    texts = page.locator(".proposal li").all_inner_texts()
    return [re.sub(r"^Table \d+\s*", "", text).split(" – ") for text in texts]


# Helpers for playing a partie through the UI, shared by the flow modules.

KINDS = {  # each kind's choice on the start form
    "two_player": "Two players",
    "hollywood": "Hollywood (three games at once)",
    "match": "Match (best of several games)",
    "partnership": "Partnership (four players, two tables)",
    "chouette": "Chouette (one in the box against a team)",
    "three_player": "Three players (box, captain, out)",
}
KIND_LABELS = {"knock": "Knock", "gin": "Gin", "big_gin": "Big gin", "no_game": "No game"}


def tap(scope: Page | Locator, field: str, text: str) -> None:
    """Tap a choice by its label text, as a thumb would: the radio input is invisible.

    `scope` is the page (any form on it) or a part of it, such as one table's fieldset.
    """
    page = scope if isinstance(scope, Page) else scope.page
    choices = scope.locator(f"{'form ' if scope is page else ''}.field-{field} label.choice")
    choices.filter(has=page.get_by_text(text, exact=True)).click()


def seat(page: Page, number: int) -> Locator:
    """The start form's name field of player ``number``: a combo box, it offers the roster."""
    return page.get_by_role("combobox", name=f"Player {number}", exact=True)


def choose_kind(page: Page, kind: str) -> None:
    """Tap a kind on the start form and wait for the rules it brings: HTMX swaps the rule
    fields in, and a rule filled before they arrive would be lost (on a busy machine,
    "Best of" 3 became the default 5)."""
    if page.locator(f"input[name=kind][value={kind}]").is_checked():
        return  # no change, no swap
    with page.expect_response(lambda response: "/parties/new/rules/" in response.url):
        tap(page, "kind", KINDS[kind])
    expect(
        page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")
    ).to_have_count(0)


def fill_start(
    page: Page, kind: str, names: list[str], stake: str = "0", preset: str = "classic"
) -> None:
    """Fill the start form (on the page already): the kind, the names in cut order, a
    stake, and the preset (swapped in by HTMX)."""
    choose_kind(page, kind)
    for number, name in enumerate(names, 1):
        if not seat(page, number).is_visible():  # a chouette shows the seats asked for
            page.get_by_role("button", name="Add a player").click()
        seat(page, number).fill(name)
    page.get_by_label("Stake per point").fill(stake)
    if preset != "classic":
        page.get_by_label("Rules", exact=True).select_option(preset)
        # The preset's values have arrived when the rules say which preset they show.
        expect(page.locator("#rules input[name=shown_preset]")).to_have_value(preset)


def submit_start(page: Page) -> None:
    """Start the partie: its sheet opens, marked (see ``mark_page``)."""
    page.get_by_role("button", name="Start the partie").click()
    expect(page).to_have_url(re.compile(r"/parties/\d+/$"))
    mark_page(page)


def start_partie(
    page: Page, kind: str, names: list[str], stake: str = "0", preset: str = "classic"
) -> None:
    """Fill the start form (on the page already) and start."""
    fill_start(page, kind, names, stake, preset)
    submit_start(page)


def fill_hand(scope: Locator, kind: str, knocker=None, dk=None, dd=None, upcard=None) -> None:
    """Fill one hand's fields (the result first: it decides which fields show)."""
    tap(scope, "kind", KIND_LABELS[kind])
    if knocker is not None:
        tap(scope, "knocker", knocker)
    if dk is not None:
        scope.get_by_label("Knocker's deadwood").fill(str(dk))
    if dd is not None:
        scope.get_by_label("Defender's deadwood").fill(str(dd))
    if upcard is not None:
        scope.get_by_label("Upcard").fill(upcard)


def enter_hand(page: Page, kind: str, knocker=None, dk=None, dd=None, upcard=None) -> None:
    """Fill the hand form and send it."""
    form = page.locator("form.hand-form")
    fill_hand(form, kind, knocker, dk, dd, upcard)
    form.get_by_role("button").click()


def record(page: Page, rows: int, *hand, **fields) -> None:
    """Enter a hand and wait until the sheet shows `rows` rows and HTMX has settled."""
    enter_hand(page, *hand, **fields)
    expect(hand_rows(page)).to_have_count(rows)
    expect_table_swapped(page)


def status(page: Page) -> Locator:
    """The sheet's status line: whose turn, which game, who deals."""
    return page.locator("#table .status")


def hand_rows(page: Page) -> Locator:
    """The sheet's hand rows (the 'No hands yet.' and 'Game 2' rows have no totals)."""
    return page.locator("table.sheet tbody tr").filter(has=page.locator(".total"))


def expect_totals(page: Page, number: int, *totals: int) -> None:
    """Row `number`'s running totals, left column first."""
    row = hand_rows(page).nth(number - 1)
    expect(row.locator("td").first).to_have_text(str(number))
    expect(row.locator(".total")).to_have_text([str(total) for total in totals])


def expect_no_sideways_scroll(page: Page) -> None:
    """The page is no wider than its viewport: nothing to scroll sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def screenshot(page: Page, name: str, full_page: bool = True) -> None:
    """A picture of the page, where SCREENSHOTS names a folder (docs/screenshots); else
    none: a full-page picture takes longer than the page, and no test looks at it."""
    folder = os.environ.get("SCREENSHOTS")
    if not folder:
        return
    path = Path(folder) / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)


def small_screenshot(page: Page, name: str, full_page: bool = True) -> None:
    """``screenshot``, in 64 colours: a third of the bytes, the same picture to the eye."""
    screenshot(page, name, full_page)
    if not os.environ.get("SCREENSHOTS"):
        return
    from PIL import Image  # reportlab's dependency; only the pictures need it

    path = Path(os.environ["SCREENSHOTS"]) / f"{name}.png"
    Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)


def mark_page(page: Page) -> None:
    """A marker that a navigation would wipe out and an HTMX swap keeps."""
    page.evaluate("window.marker = 1")


def expect_same_page(page: Page) -> None:
    assert page.evaluate("window.marker") == 1, "the page navigated instead of swapping"


def expect_table_swapped(page: Page) -> None:
    """The sheet was updated in place, and HTMX has wired up the new hand form.

    HTMX processes swapped-in content when it settles, 20 ms later: a robot that
    submits sooner would send the new form as a plain POST and leave the page.
    """
    expect_same_page(page)
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-request")).to_have_count(0)


@pytest.fixture
def partie(owner: User) -> Partie:
    """Anna against Ben, classic rules, 0.05 a point, Ben deals first; no hands yet."""
    return services.partie_start(
        owner=owner,
        names=["Anna", "Ben"],
        rules=engine.preset("classic"),
        stake=Decimal("0.05"),
        first_dealer="Ben",
    )
