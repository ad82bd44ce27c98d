"""Playwright against Debian's Chromium and pytest-django's live server.

Every test in this folder is marked `browser`. Without Chromium the tests skip,
except under CI=true, where a missing browser is a broken build.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

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
def page(browser: Browser, live_server) -> Iterator[Page]:
    """A phone-sized page whose relative URLs go to the live server."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    yield page
    context.close()
