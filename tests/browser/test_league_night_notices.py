"""A league night's notices, by mail and by push, read as the players read them: the
organiser starts the round at his desktop, the worker (``work()``) sends what it made
due to a real SMTP server (aiosmtpd) and to a push service of the tests' own (https, each
push decrypted with ``http_ece`` by the keys of the device it was for), and each player
follows his notice in his own browser.

Anna, Ben and Carl are members who gave their addresses (verified) and allowed
notifications on their phones, on the settings page, as the organiser did on his
desktop. Ben reads the app in German, chosen with the header's switch on his phone, so
his mails and pushes are German. Each seated member is told his table once by each
channel; the game's close asks its players to confirm it (Ben taps the push on his
phone: it opens the game); Ben's dispute is told to Anna and to the club's owner. Carl,
who unsubscribed from the mails with his mail's one-click link and stopped the
notifications on his phone, is told nothing more.

The phones and the organiser's desktop are the whole Chromium (the headless shell
denies notifications), and their ``pushManager`` hands out the subscription the test
made (Chromium's own would need the vendor's push service): see test_push_flow.py.
"""

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from email.message import EmailMessage

from django.contrib.auth.models import User
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from scorekeeper import engine
from scorekeeper.clubs.models import Role
from scorekeeper.league.models import NightTable
from scorekeeper.notices.models import Notice, PushSubscription
from scorekeeper.notices.vapid import b64url
from scorekeeper.table import services
from tests.browser.conftest import PHONE, TIMEOUT_MS, mark_page, record, status, watch_console
from tests.browser.test_language_switch import switch
from tests.browser.test_league_night_end_to_end import (
    DESKTOP,
    a_club,
    a_listed_season,
    seat_together,
)
from tests.browser.test_push_flow import (
    FAKE_PUSH_SERVICE,
    deliver,
    tap,
    wait_until_shown,
    whole_chromium,  # noqa: F401 (a fixture)
    worker_ready,
)
from tests.league.conftest import work
from tests.notices.conftest import Inbox, address_verified, inbox  # noqa: F401 (a fixture)
from tests.notices.test_push import Phone, PushService, https_push_service  # noqa: F401

ADDRESSES = {"anna": "anna@gin.example", "ben": "ben@gin.example", "carl": "carl@gin.example"}
OWNER = "owner@gin.example"


def the_one_mail(received: Inbox, address: str) -> EmailMessage:
    """The mail that came to ``address`` last, having checked that none came twice."""
    mails = received.to(address)
    subjects = [mail["Subject"] for mail in mails]
    assert len(set(subjects)) == len(subjects), f"a mail came twice to {address}: {subjects}"
    return mails[-1]


def the_one_push(service: PushService, device: Phone) -> dict:
    """The push that came to ``device`` last, decrypted, having checked that none came
    twice."""
    pushes = service.to(device)
    titles = [push["title"] for push in pushes]
    assert len(set(titles)) == len(titles), f"a push came twice to {device.name}: {titles}"
    return pushes[-1]


def open_link(page: Page, mail: EmailMessage) -> None:
    """Open the mail's first link (the page where he acts) in the reader's browser."""
    link = next(word for word in mail.get_content().split() if word.startswith("http"))
    page.goto(link)


def device_of(
    browser: Browser,
    live_server,
    log_in: Callable[..., None],
    console_errors: list[str],
    service: PushService,
    username: str,
    size: dict[str, int],
) -> tuple[Page, Phone]:
    """The person's own phone or desktop, logged in: its service worker runs and it may
    show notifications; a subscription it makes has the push service of the tests and
    the keys of the ``Phone`` returned, which reads what it is pushed."""
    device = Phone(username)
    given = {"endpoint": service.endpoint(device), "expirationTime": None}
    given["keys"] = {"p256dh": device.p256dh, "auth": b64url(device.auth)}
    context = browser.new_context(base_url=live_server.url, viewport=size, service_workers="allow")
    context.set_default_timeout(TIMEOUT_MS)
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(FAKE_PUSH_SERVICE % json.dumps(given))
    watch_console(context, console_errors)
    page = context.new_page()
    log_in(page, username)
    return page, device


def allow_push(page: Page, allow: str, shown: str) -> None:
    """On his notification settings, this device is allowed to show his notifications
    (the button ``allow``; the page then says ``shown``)."""
    page.goto(reverse("notices_settings"))
    worker_ready(page)
    page.get_by_role("button", name=allow).click()
    expect(page.locator(".push-device").get_by_role("status")).to_have_text(shown)


ALLOW, SHOWN = "Allow notifications on this device", "This device shows your notifications."


def test_each_player_gets_his_table_his_game_and_its_dispute_by_mail_and_push_once(
    whole_chromium: Browser,  # noqa: F811
    log_in: Callable[..., None],
    console_errors: list[str],
    one_request_at_a_time_on_sqlite: AbstractContextManager,
    owner: User,
    inbox: Inbox,  # noqa: F811
    https_push_service: PushService,  # noqa: F811
    live_server,
):
    club = a_club(owner, {name: Role.MEMBER for name in ADDRESSES})
    for username, address in {**ADDRESSES, owner.username: OWNER}.items():
        address_verified(User.objects.get(username=username), address)
    accounts = {name.capitalize(): name for name in ADDRESSES}
    season = a_listed_season(club, owner, ["Anna", "Ben", "Carl", "Dora"], accounts)
    pushes = https_push_service

    def device(username: str, size: dict[str, int] = PHONE) -> tuple[Page, Phone]:
        return device_of(
            whole_chromium, live_server, log_in, console_errors, pushes, username, size
        )

    def worker() -> None:
        """The worker beside the server (on SQLite, between two of its requests)."""
        with one_request_at_a_time_on_sqlite:
            work()

    with override_settings(SITE_URL=live_server.url):  # the notices' links lead here
        # Each allows notifications on his own device; Ben reads Scorekeeper in German.
        ben, bens_phone = device("ben")
        ben.goto("/")
        switch(ben).get_by_role("button", name="Deutsch").click()
        expect(ben.locator("html")).to_have_attribute("lang", "de")
        allow_push(
            ben,
            "Benachrichtigungen auf diesem Gerät erlauben",
            "Dieses Gerät zeigt Ihre Benachrichtigungen an.",
        )
        anna, annas_phone = device("anna")
        allow_push(anna, ALLOW, SHOWN)
        carl, carls_phone = device("carl")
        allow_push(carl, ALLOW, SHOWN)
        organiser, organisers_desktop = device(owner.username, DESKTOP)
        allow_push(organiser, ALLOW, SHOWN)
        subscribed = PushSubscription.objects.values_list("user__username", "endpoint")
        assert sorted(subscribed) == sorted(
            (name, pushes.endpoint(device))
            for name, device in (
                ("anna", annas_phone),
                ("ben", bens_phone),
                ("carl", carls_phone),
                (owner.username, organisers_desktop),
            )
        )

        # The organiser, at his desktop, seats Anna against Ben and starts the round.
        organiser.goto(reverse("league_night", args=[season.pk]))
        organiser.get_by_role("button", name="Propose tables").click()
        number = seat_together(organiser, "Anna", "Ben")
        organiser.get_by_role("button", name="Start round 1: 2 parties").click()
        expect(organiser.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
        assert inbox.mails == [] and pushes.received == []  # the request only wrote what is due
        worker()

        # Each seated member has his table by mail and by push, once, in his language
        # (Dora has no account; the owner does not play).
        tables = {t.number: t.partie for t in NightTable.objects.filter(night__season=season)}
        partie, carls = tables[number], tables[3 - number]
        table_of = {
            p: f"{live_server.url}{reverse('partie_detail', args=[p.pk])}" for p in tables.values()
        }
        assert sorted(mail["To"] for mail in inbox.mails) == sorted(ADDRESSES.values())
        to_anna = the_one_mail(inbox, ADDRESSES["anna"])
        assert to_anna["Subject"] == f"Gin Club: Table {number}: you against Ben"
        assert to_anna["Content-Language"] == "en"
        to_ben = the_one_mail(inbox, ADDRESSES["ben"])
        assert to_ben["Subject"] == f"Gin Club: Tisch {number}: Sie gegen Anna"
        assert to_ben["Content-Language"] == "de"
        body = to_ben.get_content()
        assert f"Runde 1 von Autumn hat begonnen: Sie spielen an Tisch {number}" in body
        assert "Ihren Tisch öffnen" in body
        assert len(pushes.received) == 3
        push = the_one_push(pushes, annas_phone)
        assert (push["title"], push["lang"]) == (f"Gin Club: Table {number}: you against Ben", "en")
        assert push["url"] == table_of[partie]
        push = the_one_push(pushes, bens_phone)
        assert (push["title"], push["lang"]) == (f"Gin Club: Tisch {number}: Sie gegen Anna", "de")
        assert push["body"].startswith(
            f"Runde 1 von Autumn hat begonnen: Sie spielen an Tisch {number}"
        )
        assert push["url"] == table_of[partie]
        push = the_one_push(pushes, carls_phone)
        assert push["title"] == f"Gin Club: Table {3 - number}: you against Dora"
        assert push["url"] == table_of[carls]

        # Ben's mail's link opens his table on his phone, in German.
        open_link(ben, to_ben)
        expect(ben).to_have_url(table_of[partie])
        expect(ben.locator("html")).to_have_attribute("lang", "de")
        expect(ben.locator("form.hand-form")).to_be_visible()

        # Carl unsubscribes with his mail's link (the page asks, one tap does it), and
        # stops the notifications on his phone.
        carl.goto(the_one_mail(inbox, ADDRESSES["carl"])["List-Unsubscribe"].strip()[1:-1])
        carl.get_by_role("button", name="Unsubscribe from all mails").click()
        expect(carl.locator("main")).to_contain_text(
            "Done: Scorekeeper sends no more mails to carl@gin.example."
        )
        carl.goto(reverse("notices_settings"))
        carl.get_by_role("button", name="Stop notifications on this device").click()
        expect(carl.locator(".push-device").get_by_role("status")).to_have_text(
            "This device shows no notifications."
        )
        assert not PushSubscription.objects.filter(user__username="carl").exists()

        # Anna opens her table from her mail and scores the game to its end; Carl's
        # game ends too (his table's scorer enters it).
        open_link(anna, to_anna)
        mark_page(anna)
        record(anna, 1, "knock", knocker="Anna", dk=3, dd=23)  # Anna 20
        record(anna, 2, "gin", knocker="Anna", dd=40)  # 20 + 60: 80
        record(anna, 3, "gin", knocker="Anna", dd=10)  # 80 + 30: 110, a shutout
        expect(status(anna)).to_contain_text("Anna won")
        with one_request_at_a_time_on_sqlite:
            services.hand_record(partie=carls, hand=engine.Hand.gin(90, knocker="Carl"), user=owner)
        worker()

        # Anna and Ben are asked to confirm the game, by mail and by push; Carl, who
        # opted out of both, is asked nothing.
        game_page = f"{live_server.url}{reverse('game_detail', args=[partie.pk, 1])}"
        confirm = inbox.mails[3:]
        assert sorted(mail["To"] for mail in confirm) == [ADDRESSES["anna"], ADDRESSES["ben"]]
        assert the_one_mail(inbox, ADDRESSES["anna"])["Subject"] == (
            "Gin Club: A result waits for your confirmation"
        )
        to_ben = the_one_mail(inbox, ADDRESSES["ben"])
        assert to_ben["Subject"] == "Gin Club: Ein Ergebnis wartet auf Ihre Bestätigung"
        assert len(pushes.received) == 5
        push = the_one_push(pushes, annas_phone)
        assert push["title"] == "Gin Club: A result waits for your confirmation"
        assert push["url"] == game_page
        bens_push = the_one_push(pushes, bens_phone)
        assert bens_push["title"] == "Gin Club: Ein Ergebnis wartet auf Ihre Bestätigung"
        assert (bens_push["lang"], bens_push["url"]) == ("de", game_page)
        assert len(inbox.to(ADDRESSES["carl"])) == len(pushes.to(carls_phone)) == 1
        assert Notice.objects.filter(recipient__username="carl").count() == 1

        # Ben's phone shows the push; his tap opens the game, and he disputes it there.
        deliver(ben.context, ben, bens_push)
        wait_until_shown(ben, bens_push["title"])
        assert tap(ben.context, bens_push["title"]) == game_page
        expect(ben).to_have_url(game_page)
        ben.locator("summary", has_text="Ergebnis anfechten").click()
        ben.get_by_label("Was stimmt nicht?").fill("Hand 1 was 3 against 13, not 23.")
        ben.get_by_role("button", name="Ergebnis anfechten").click()
        expect(ben.locator(".messages")).to_contain_text("Ergebnis angefochten")
        worker()

        # Anna is told her result was disputed, with Ben's note; the owner is told a
        # dispute is open, and his mail's link leads him to the game; each by mail and
        # by push. Ben is told nothing.
        told = {mail["To"]: mail for mail in inbox.mails[5:]}
        assert sorted(told) == [ADDRESSES["anna"], OWNER]
        disputed = told[ADDRESSES["anna"]]
        assert disputed["Subject"] == "Gin Club: Your result was disputed"
        assert "Ben disputed game 1 of" in disputed.get_content()
        assert "Hand 1 was 3 against 13, not 23." in disputed.get_content()
        assert told[OWNER]["Subject"] == "Gin Club: Ben disputed a result"
        assert len(pushes.received) == 7
        push = the_one_push(pushes, annas_phone)
        assert push["title"] == "Gin Club: Your result was disputed"
        assert "Hand 1 was 3 against 13, not 23." in push["body"]
        assert push["url"] == game_page
        push = the_one_push(pushes, organisers_desktop)
        assert (push["title"], push["url"]) == ("Gin Club: Ben disputed a result", game_page)
        open_link(organiser, told[OWNER])
        expect(organiser).to_have_url(game_page)
        expect(organiser.locator(".confirmation-disputed")).to_contain_text("Ben: ✗ disputed")

        worker()  # the worker again: nothing is sent twice
        assert len(inbox.mails) == 7 and len(pushes.received) == 7
        assert [len(pushes.to(d)) for d in (annas_phone, bens_phone, carls_phone)] == [3, 2, 1]
