"""Push notifications in Chromium: allowed on the settings page, shown by the service
worker, and nobody's on a shared phone after a logout (static/js/push.js,
templates/pwa/sw.js, scorekeeper/notices/push.py).

What Chromium here cannot do, and what stands in for it:
- Subscribing needs the browser vendor's push service, over the network: the whole
  browser waits for it for ever, a browser context of Playwright (incognito) refuses
  ("Chrome currently does not support the Push API in incognito mode"), and the headless
  shell denies notifications altogether. So the page's ``pushManager.subscribe`` answers
  with a subscription made here (an https endpoint and a browser's keys, as Chromium's
  ``toJSON()`` gives them); everything else is the browser's own: the permission asked
  and granted, the page's script, its POST with the CSRF token, the server's row.
- A real push would come from that push service: DevTools' ``deliverPushMessage`` hands
  the service worker the very payload the worker would encrypt and send
  (``push.notice_payload``), and the worker shows it with ``showNotification``, which
  ``registration.getNotifications()`` reads back.
- No DevTools command taps a notification. The service worker's ``notificationclick``
  hands the notification to its ``noticeTapped``, and the test calls that in the worker
  (Playwright's ``worker.evaluate``) with the notification shown: the page it opens is
  the browser's own navigation. Outside a real tap Chromium refuses a worker a new
  window ("Not allowed to open a window"), so the last resort of a tap with no window
  of the site open, ``clients.openWindow``, is left untested here.

The whole Chromium runs these (not the headless shell, which has no notifications), in a
context of its own so that its refusal of the real push service is not taken for a fault
of the page.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.notices.models import Notice, PushSubscription
from scorekeeper.notices.push import notice_payload
from scorekeeper.notices.services import Device, push_subscribe
from scorekeeper.notices.vapid import b64url, new_key_pair
from tests.browser.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    TIMEOUT_MS,
    expect_same_page,
    log_in_by_form,
    mark_page,
)
from tests.browser.test_offline import wait_until
from tests.conftest import PASSWORD
from tests.league.conftest import accounts, club, member, season  # noqa: F401 (fixtures)
from tests.notices.conftest import release, roster  # noqa: F401 (a fixture)
from tests.notices.test_push import Phone

VAPID_PUBLIC, VAPID_PRIVATE = new_key_pair()
ENDPOINT = "https://push.example.net/send/annas-phone"

# The page's pushManager as Chromium's would be with its push service at hand: the
# subscription it makes is the one given, and the browser keeps it from page to page
# (in the tab's sessionStorage) until it is unsubscribed.
FAKE_PUSH_SERVICE = """
(() => {
  if (typeof PushManager === "undefined") return;
  const given = %s;
  const subscription = () => ({
    endpoint: given.endpoint,
    toJSON: () => given,
    unsubscribe: async () => { sessionStorage.removeItem("subscribed"); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    if (!(options.applicationServerKey instanceof Uint8Array)
        || options.applicationServerKey.length !== 65 || !options.userVisibleOnly) {
      throw new DOMException("a subscription needs the site's key", "InvalidAccessError");
    }
    sessionStorage.setItem("subscribed", "1");
    return subscription();
  };
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem("subscribed") ? subscription() : null;
  };
})();
"""


@pytest.fixture
def whole_chromium(browser: Browser) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"the whole Chromium is not at {CHROMIUM}")
    whole = browser.browser_type.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield whole
    whole.close()


@pytest.fixture
def device(whole_chromium: Browser, live_server) -> Iterator[BrowserContext]:
    """A phone whose service worker runs, notifications allowed for the site."""
    phone = Phone("annas-phone")
    given = {"endpoint": ENDPOINT, "expirationTime": None}
    given["keys"] = {"p256dh": phone.p256dh, "auth": b64url(phone.auth)}
    with override_settings(
        VAPID_PUBLIC_KEY=VAPID_PUBLIC,
        VAPID_PRIVATE_KEY=VAPID_PRIVATE,
        VAPID_SUBJECT="mailto:scores@gin.example",
    ):
        context = whole_chromium.new_context(
            base_url=live_server.url, viewport=PHONE, service_workers="allow"
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(FAKE_PUSH_SERVICE % json.dumps(given))
        context.errors = []
        context.on(
            "page",
            lambda page: page.on("pageerror", lambda error: context.errors.append(str(error))),
        )
        yield context
        context.close()


@pytest.fixture
def anna(accounts):  # noqa: F811 (the league's accounts)
    user = accounts["Anna"]
    user.set_password(PASSWORD)
    user.save()
    return user


def worker_ready(page: Page) -> None:
    """The service worker is active and has answered a navigation of this page's account
    (so it knows who the phone's person is)."""
    wait_until(
        page,
        """async () => {
             const registration = await navigator.serviceWorker.getRegistration();
             return !!(registration && registration.active
               && registration.active.state === "activated" && navigator.serviceWorker.controller);
           }""",
    )
    page.reload()


def deliver(context: BrowserContext, page: Page, payload: dict) -> None:
    """The push a push service would deliver, handed to the service worker by DevTools."""
    cdp = context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    wait_until(page, "async () => true")  # lets the registrations' events in
    while not registrations:
        page.wait_for_timeout(50)
    [registration] = [r for r in registrations if not r["isDeleted"]]
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": page.evaluate("location.origin"),
            "registrationId": registration["registrationId"],
            "data": json.dumps(payload, ensure_ascii=False),
        },
    )


WHO_IS_NOT_ANNA = """async () => {
  const kept = await caches.match("/.well-known/scorekeeper-who", { cacheName: "scorekeeper-who" });
  return kept !== undefined && (await kept.text()) !== "anna";
}"""
SHOWN_RAW = "async () => (await navigator.serviceWorker.ready).getNotifications()"
SHOWN = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((n) => ({ title: n.title, body: n.body, lang: n.lang, url: (n.data || {}).url }))"""


def shown(page: Page) -> list[dict]:
    return page.evaluate(SHOWN)


def wait_until_shown(page: Page, title: str) -> dict:
    wait_until(
        page,
        f"async () => ({SHOWN})().then((all) => all.some((n) => n.title === {json.dumps(title)}))",
    )
    return next(n for n in shown(page) if n["title"] == title)


def test_allowed_on_the_settings_page_a_push_shows_and_a_logout_leaves_nothing_of_it(
    device: BrowserContext,
    anna,
    season,  # noqa: F811 (the league's fixture)
    owner,
    roster,  # noqa: F811
):
    page = device.new_page()
    log_in_by_form(page, "anna")
    page.goto("/me/notices/")
    worker_ready(page)
    block = page.locator(".push-device")
    expect(block.get_by_role("status")).to_have_text("This device shows no notifications.")

    page.get_by_role("button", name="Allow notifications on this device").click()

    expect(block.get_by_role("status")).to_have_text("This device shows your notifications.")
    subscription = PushSubscription.objects.get()
    assert (subscription.user, subscription.endpoint) == (anna, ENDPOINT)
    assert "Chrome" in subscription.user_agent
    expect(page.get_by_role("button", name="Stop notifications on this device")).to_be_visible()

    # The round is out: the worker's push, as the service worker receives it.
    [partie] = release(season, owner, ("Anna", "Carl"))
    payload = notice_payload(Notice.objects.get(recipient=anna))
    deliver(device, page, payload)
    notification = wait_until_shown(page, "Gin Club: Table 1: you against Carl")
    assert notification["body"].startswith("Round 1 of Autumn has started")
    assert notification["url"].endswith(f"/parties/{partie.pk}/")
    assert notification["lang"] == "en"

    # Anna logs out: the device's subscription goes, in the browser and on the server.
    page.evaluate(f"async () => ({SHOWN_RAW})().then((all) => all.forEach((n) => n.close()))")
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#site-nav").get_by_role("link", name="Log in")).to_be_visible()
    assert not PushSubscription.objects.exists()
    assert page.evaluate("sessionStorage.getItem('subscribed')") is None

    # A push of hers still under way shows nothing of what it says on the phone now, once
    # the phone knows she left (the service worker notes whom the network answered for
    # as the login page comes, beside the page: the test waits for it, not for the page).
    wait_until(page, WHO_IS_NOT_ANNA)
    deliver(device, page, payload)
    wait_until_shown(page, "Scorekeeper")
    assert [n["title"] for n in shown(page)] == ["Scorekeeper"]
    assert shown(page)[0]["body"] == ""
    assert device.errors == []


def test_a_device_that_refuses_notifications_is_told_how_to_allow_them(
    whole_chromium: Browser, live_server, anna
):
    with override_settings(
        VAPID_PUBLIC_KEY=VAPID_PUBLIC,
        VAPID_PRIVATE_KEY=VAPID_PRIVATE,
        VAPID_SUBJECT="mailto:scores@gin.example",
    ):
        context = whole_chromium.new_context(base_url=live_server.url, viewport=PHONE)
        try:
            page = context.new_page()
            log_in_by_form(page, "anna")
            page.goto("/me/notices/")
            # No permission granted: a headless browser answers the question with "no".
            page.get_by_role("button", name="Allow notifications on this device").click()
            expect(page.locator(".push-device").get_by_role("status")).to_contain_text(
                "Notifications are blocked for this site"
            )
            assert not PushSubscription.objects.exists()
        finally:
            context.close()


def tap(context: BrowserContext, title: str) -> str | None:
    """Tap the notification shown with ``title``, as its ``notificationclick`` does (the
    service worker's ``noticeTapped``): the address of the window it brought up."""
    [worker] = context.service_workers
    return worker.evaluate(
        """async (title) => {
             const shown = await self.registration.getNotifications();
             const client = await noticeTapped(shown.find((n) => n.title === title));
             return client ? client.url : null;
           }""",
        title,
    )


def test_a_tapped_notification_opens_its_page_in_the_window_of_the_site(
    device: BrowserContext,
    anna,
    season,  # noqa: F811 (the league's fixture)
    owner,
    roster,  # noqa: F811
    live_server,
):
    page = device.new_page()
    log_in_by_form(page, "anna")  # her parties' page, as the phone was left
    worker_ready(page)
    phone = Phone("annas-phone")
    push_subscribe(user=anna, device=Device(ENDPOINT, phone.p256dh, b64url(phone.auth)))
    [partie] = release(season, owner, ("Anna", "Carl"))
    # The worker writes its links with the site's public address; the tap opens the page
    # on the site the phone uses.
    with override_settings(SITE_URL="https://gin.example"):
        payload = notice_payload(Notice.objects.get(recipient=anna))
    assert payload["url"] == f"https://gin.example/parties/{partie.pk}/"
    title = "Gin Club: Table 1: you against Carl"
    deliver(device, page, payload)
    wait_until_shown(page, title)

    table = f"{live_server.url}/parties/{partie.pk}/"
    assert tap(device, title) == table
    expect(page).to_have_url(table)  # the window she had open shows her table
    expect(page.locator("form.hand-form")).to_be_visible()
    assert len(device.pages) == 1
    wait_until(page, "async () => (await navigator.serviceWorker.ready).getNotifications()"
               ".then((all) => all.length === 0)")  # fmt: skip

    # The same page pushed again while the window shows it: the tap leaves it as it is.
    mark_page(page)
    deliver(device, page, payload)
    wait_until_shown(page, title)
    assert tap(device, title) == table
    expect_same_page(page)
    assert len(device.pages) == 1
    assert device.errors == []


@pytest.mark.skipif(not os.environ.get("SCREENSHOTS"), reason="set SCREENSHOTS to a folder")
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [360, 1280])
def test_screenshots_of_the_settings_page(device: BrowserContext, anna, language, width):
    anna.username = "Maximiliane Hohenzollern-Sigmaringen"[:30]
    anna.save()
    page = device.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    log_in_by_form(page, anna.username)
    if language == "de":
        page.get_by_role("button", name="Deutsch").click()
    page.goto("/me/notices/")
    worker_ready(page)
    page.locator("[data-push-allow]").click()
    expect(page.locator("[data-push-stop]")).to_be_visible()
    page.reload()
    folder = Path(os.environ["SCREENSHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=folder / f"push-settings-{language}-{width}.png", full_page=True)
