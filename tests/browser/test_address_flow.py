"""A member's mail address verified on his phone: he gives it on his notification
settings, the page says no mail goes to it yet, the worker mails the link to a real SMTP
server (aiosmtpd), and he opens it from the mail in his browser and taps the button;
his settings then show the address verified."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, go_to
from tests.league.conftest import work
from tests.notices.conftest import Inbox, inbox  # noqa: F401 (the SMTP server's fixture)

LONG_ADDRESS = "maximiliane.hohenzollern-sigmaringen@kartenspielverein-gruenwald.example"


def link_of(inbox: Inbox, address: str) -> str:  # noqa: F811 (the fixture's name)
    [mail] = inbox.to(address)
    return next(word for word in mail.get_content().split() if "/me/address/" in word)


def give_address(page: Page, address: str) -> None:
    page.locator("input[name=email]").fill(address)
    page.locator("#notices-form button[type=submit]").click()


def test_a_member_verifies_his_address_from_the_mail_on_his_phone(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    inbox: Inbox,  # noqa: F811
    live_server,
):
    page = open_context(viewport=PHONE).new_page()
    log_in(page, owner.username)
    page.goto("/")
    go_to(page, "Notifications")
    expect(page.locator("main")).to_contain_text("Your account has no mail address")

    give_address(page, "owner@gin.example")
    main = page.locator("main")
    expect(main.locator(".messages")).to_contain_text(
        "A link to verify owner@gin.example is on its way"
    )
    state = main.locator("#address-state")
    expect(state).to_contain_text("owner@gin.example is not verified yet")
    expect(state).to_contain_text("The link is on its way.")
    expect(main.locator("thead")).to_contain_text("(waiting for verification)")
    assert inbox.mails == []  # the page only wrote that it is due

    with override_settings(SITE_URL=live_server.url):  # the mail's link leads here
        work()
    page.reload()
    expect(state).to_contain_text("follow it from your mail")

    page.goto(link_of(inbox, "owner@gin.example"))
    expect(main).to_contain_text("Is owner@gin.example your mail address?")
    page.get_by_role("button", name="Yes, verify this address").click()
    expect(page).to_have_url(f"{live_server.url}/me/notices/")
    expect(main.locator(".messages")).to_contain_text("owner@gin.example is verified")
    expect(main.locator(".address-state")).to_have_text(
        "Your mails go to owner@gin.example, a verified address. ✓"
    )
    expect(main.locator("thead")).not_to_contain_text("waiting")
    assert len(inbox.mails) == 1


@pytest.mark.skipif(not os.environ.get("SCREENSHOTS"), reason="set SCREENSHOTS to a folder")
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [PHONE["width"], DESKTOP["width"]])
def test_screenshots_of_an_address_being_verified(
    open_context,
    log_in,
    owner,
    inbox,  # noqa: F811
    live_server,
    language,
    width,
):
    folder = Path(os.environ["SCREENSHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    page = open_context(viewport={"width": width, "height": 900}).new_page()
    log_in(page, owner.username, language)
    page.goto("/me/notices/")
    give_address(page, LONG_ADDRESS)
    with override_settings(SITE_URL=live_server.url):
        work()
    page.reload()
    page.screenshot(path=folder / f"address-waiting-{language}-{width}.png", full_page=True)
    page.goto(link_of(inbox, LONG_ADDRESS))
    page.screenshot(path=folder / f"address-link-{language}-{width}.png", full_page=True)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main .address-state")).to_be_visible()
    page.screenshot(path=folder / f"address-verified-{language}-{width}.png", full_page=True)
