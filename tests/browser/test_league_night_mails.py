"""A league night's mails, read as the players read them: the organiser starts the round
at his desktop, the worker (``work()``) sends what it made due to a real SMTP server
(aiosmtpd), and each player opens the link of his mail in his own browser.

Anna, Ben and Carl are members who gave their addresses (verified); Ben reads the app in German,
chosen with the header's switch on his phone, so his mails are German. Each seated
member is told his table once; the game's close asks its players to confirm it; Ben's
dispute is told to Anna and to the club's owner; Carl, who unsubscribed with his mail's
one-click link, is told nothing more.
"""

from collections.abc import Callable
from email.message import EmailMessage

from django.contrib.auth.models import User
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs.models import Role
from scorekeeper.league.models import NightTable
from scorekeeper.table import services
from tests.browser.conftest import PHONE, mark_page, record, status
from tests.browser.test_language_switch import switch
from tests.browser.test_league_night_end_to_end import (
    DESKTOP,
    a_club,
    a_listed_season,
    browser_of,
    seat_together,
)
from tests.league.conftest import work
from tests.notices.conftest import Inbox, address_verified, inbox  # noqa: F401 (a fixture)

ADDRESSES = {"anna": "anna@gin.example", "ben": "ben@gin.example", "carl": "carl@gin.example"}


def the_one_mail(received: Inbox, address: str) -> EmailMessage:
    """The mail that came to ``address`` last, having checked that none came twice."""
    mails = received.to(address)
    subjects = [mail["Subject"] for mail in mails]
    assert len(set(subjects)) == len(subjects), f"a mail came twice to {address}: {subjects}"
    return mails[-1]


def open_link(page: Page, mail: EmailMessage) -> None:
    """Open the mail's first link (the page where he acts) in the reader's browser."""
    link = next(word for word in mail.get_content().split() if word.startswith("http"))
    page.goto(link)


def test_each_player_reads_his_table_his_game_and_its_dispute_by_mail_once_in_his_language(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    inbox: Inbox,  # noqa: F811
    live_server,
):
    club = a_club(owner, {name: Role.MEMBER for name in ADDRESSES})
    for username, address in {**ADDRESSES, owner.username: "owner@gin.example"}.items():
        address_verified(User.objects.get(username=username), address)
    accounts = {name.capitalize(): name for name in ADDRESSES}
    season = a_listed_season(club, owner, ["Anna", "Ben", "Carl", "Dora"], accounts)
    with override_settings(SITE_URL=live_server.url):  # the mails' links lead here
        ben = browser_of(open_context, log_in, "ben", PHONE)
        ben.goto("/")
        switch(ben).get_by_role("button", name="Deutsch").click()
        expect(ben.locator("html")).to_have_attribute("lang", "de")

        # The organiser, at his desktop, seats Anna against Ben and starts the round.
        organiser = browser_of(open_context, log_in, owner.username, DESKTOP)
        organiser.goto(reverse("league_night", args=[season.pk]))
        organiser.get_by_role("button", name="Propose tables").click()
        number = seat_together(organiser, "Anna", "Ben")
        organiser.get_by_role("button", name="Start round 1: 2 parties").click()
        expect(organiser.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
        assert inbox.mails == []  # the request only wrote what is due
        work()

        # Each seated member has his table by mail, once, in his language (Dora has no
        # account; the owner does not play).
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
        partie = NightTable.objects.get(night__season=season, number=number).partie

        # Ben's link opens his table on his phone, in German.
        open_link(ben, to_ben)
        expect(ben).to_have_url(f"{live_server.url}{reverse('partie_detail', args=[partie.pk])}")
        expect(ben.locator("html")).to_have_attribute("lang", "de")
        expect(ben.locator("form.hand-form")).to_be_visible()

        # Carl unsubscribes with his mail's link: the page asks, one tap does it.
        to_carl = the_one_mail(inbox, ADDRESSES["carl"])
        carl = open_context().new_page()  # a mail's link works without a login
        carl.goto(to_carl["List-Unsubscribe"].strip()[1:-1])
        carl.get_by_role("button", name="Unsubscribe from all mails").click()
        expect(carl.locator("main")).to_contain_text(
            "Done: Scorekeeper sends no more mails to carl@gin.example."
        )

        # Anna opens her table from her mail and scores the game to its end; Carl's
        # game ends too (his table's scorer enters it).
        anna = browser_of(open_context, log_in, "anna", PHONE)
        open_link(anna, to_anna)
        mark_page(anna)
        record(anna, 1, "knock", knocker="Anna", dk=3, dd=23)  # Anna 20
        record(anna, 2, "gin", knocker="Anna", dd=40)  # 20 + 60: 80
        record(anna, 3, "gin", knocker="Anna", dd=10)  # 80 + 30: 110, a shutout
        expect(status(anna)).to_contain_text("Anna won")
        carls = NightTable.objects.get(night__season=season, number=3 - number).partie
        services.hand_record(partie=carls, hand=engine.Hand.gin(90, knocker="Carl"), user=owner)
        work()

        # Anna and Ben are asked by mail to confirm the game; Carl, unsubscribed, is not.
        confirm = inbox.mails[3:]
        assert sorted(mail["To"] for mail in confirm) == [ADDRESSES["anna"], ADDRESSES["ben"]]
        assert len(inbox.to(ADDRESSES["carl"])) == 1
        assert the_one_mail(inbox, ADDRESSES["anna"])["Subject"] == (
            "Gin Club: A result waits for your confirmation"
        )
        to_ben = the_one_mail(inbox, ADDRESSES["ben"])
        assert to_ben["Subject"] == "Gin Club: Ein Ergebnis wartet auf Ihre Bestätigung"

        # Ben's link opens the game on his phone; he disputes it there.
        open_link(ben, to_ben)
        game_page = f"{live_server.url}{reverse('game_detail', args=[partie.pk, 1])}"
        expect(ben).to_have_url(game_page)
        ben.locator("summary", has_text="Ergebnis anfechten").click()
        ben.get_by_label("Was stimmt nicht?").fill("Hand 1 was 3 against 13, not 23.")
        ben.get_by_role("button", name="Ergebnis anfechten").click()
        expect(ben.locator(".messages")).to_contain_text("Ergebnis angefochten")
        work()

        # Anna is told her result was disputed, with Ben's note; the owner is told a
        # dispute is open, and his link leads him to the game; Ben is told nothing.
        told = {mail["To"]: mail for mail in inbox.mails[5:]}
        assert sorted(told) == [ADDRESSES["anna"], "owner@gin.example"]
        disputed = told[ADDRESSES["anna"]]
        assert disputed["Subject"] == "Gin Club: Your result was disputed"
        assert "Ben disputed game 1 of" in disputed.get_content()
        assert "Hand 1 was 3 against 13, not 23." in disputed.get_content()
        assert told["owner@gin.example"]["Subject"] == "Gin Club: Ben disputed a result"
        open_link(organiser, told["owner@gin.example"])
        expect(organiser).to_have_url(game_page)
        expect(organiser.locator(".answer-disputed")).to_contain_text("Ben: ✗ disputed")

        work()  # the worker again: nothing is sent twice
        assert len(inbox.mails) == 7
        assert len(inbox.to(ADDRESSES["carl"])) == 1
