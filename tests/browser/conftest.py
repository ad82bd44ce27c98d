"""Playwright against Debian's Chromium and pytest-django's live server.

Every test in this folder is marked `browser`. Without Chromium the tests skip,
except under CI=true, where a missing browser is a broken build.
"""

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.conftest import PASSWORD

# Playwright's sync API keeps an event loop running in this thread, so Django
# takes every ORM call made from a test as a call from async code and refuses it.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
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
# The live server answers in milliseconds: a short wait fails fast instead of hanging.
TIMEOUT_MS = 3_000
expect.set_options(timeout=TIMEOUT_MS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        reason = f"Chromium not found at {CHROMIUM} (run `make browser`)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()
    playwright.stop()


@pytest.fixture
def open_context(browser: Browser, live_server) -> Iterator[Callable[..., BrowserContext]]:
    """Open phone-sized browser contexts (own cookies, JavaScript on or off), closed at the end."""
    contexts: list[BrowserContext] = []

    def open_context(**options) -> BrowserContext:
        context = browser.new_context(viewport=PHONE, base_url=live_server.url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_context: Callable[..., BrowserContext]) -> Page:
    """A phone-sized page whose relative URLs go to the live server."""
    return open_context().new_page()


def _log_in(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("heading", name="Your parties")).to_be_visible()


@pytest.fixture
def log_in() -> Callable[..., None]:
    """`log_in(page, username)`: log in through the real login form, as a player would."""
    return _log_in


@pytest.fixture
def logged_in_page(page: Page, owner: User) -> Page:
    """The phone page of the owner, logged in through the login form."""
    _log_in(page, owner.username)
    return page
