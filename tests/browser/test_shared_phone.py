"""One phone, two people, in Chromium: nothing one of them left on it reaches the other
(templates/pwa/sw.js, static/js/offline.js, scorekeeper/pwa/account.py).

Ben and Carla score for the same club on one browser context. Ben's pages are kept (and
stay his when a deploy brings a new worker), his hands wait on the phone; then his session
ends, or Carla logs in over it, or she logs out.
Carla never gets a page kept for Ben (offline she gets the offline page), nor his half-typed
hand, and his hands are not sent in her session: she is told they wait for Ben. Ben back,
they are sent as his. A hand leaves the phone only on the server's word that it is stored:
a refusal for good (404) stops its sending and says why, and the repair path's answer
(200 with HX-Redirect) does not drop it.

Set SCREENSHOTS to a folder to keep pictures of "waits for Ben" at 360 and 1280 px in
English and German.
"""

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.pwa import views
from scorekeeper.table import services
from scorekeeper.table.models import Hand, HandChange, Partie
from tests.browser.conftest import (
    enter_hand,
    expect_console_error,
    fill_hand,
    hand_rows,
    log_in_by_form,
    log_in_with_cookie,
)
from tests.browser.test_offline import (
    expect_no_error,
    phone,  # noqa: F401 (a fixture)
    recorded,
    wait_until,
    wait_until_draft_kept,
    wait_until_kept,
    waiting,
)
from tests.clubs.conftest import join
from tests.conftest import PASSWORD

LONG_NAME = "Benedikt_Maximilian_von_Hohenzollern_Sig"  # 40 characters, no place to break


@pytest.fixture
def ben(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("Ben", password=PASSWORD)


@pytest.fixture
def carla(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("Carla", password=PASSWORD)


@pytest.fixture
def club(ben: User, carla: User) -> Club:
    """Ben's club, where Carla scores too: a hand of his sent in her session would be
    recorded, as hers."""
    club = club_services.club_create(name="Thursday club", owner=ben)
    join(club, carla, Role.SCORER)
    return club


def start(owner: User, names: list[str], club: Club | None = None) -> Partie:
    return services.partie_start(
        owner=owner, club=club, names=names, rules=engine.preset("classic"), first_dealer=names[1]
    )


@pytest.fixture
def partie(ben: User, club: Club) -> Partie:
    """Anna against Dora in the club: Ben's and Carla's to score."""
    return start(ben, ["Anna", "Dora"], club)


@pytest.fixture
def his_own(ben: User) -> Partie:
    """Xaver against Yvonne in Ben's personal club: Carla may not see it."""
    return start(ben, ["Xaver", "Yvonne"])


def phone_hands(page: Page):
    return page.locator("#phone-hands")


def kept_pages(page: Page) -> list[str]:
    """The worker's caches of pages, by name (`scorekeeper-pages-<version>-<account>`)."""
    names = page.evaluate("caches.keys()")
    return [name for name in names if name.startswith("scorekeeper-pages-")]


def wait_until_kept_hands(page: Page, check: str) -> None:
    """Wait until `check`, a JavaScript expression of `hands` (those IndexedDB holds), is
    true."""
    wait_until(
        page,
        f"""() => new Promise((resolve) => {{
             const opening = indexedDB.open("scorekeeper");
             opening.onsuccess = () => {{
               const read = opening.result.transaction("hands").objectStore("hands").getAll();
               read.onsuccess = () => {{ const hands = read.result; resolve({check}); }};
             }};
           }})""",
    )


def account(page: Page) -> str:
    return page.locator("body").get_attribute("data-account")


def keep(page: Page, *parties: Partie) -> None:
    for partie in parties:
        page.goto(partie.get_absolute_url())
        wait_until_kept(page)


def expect_offline_page_not_his(page: Page, partie: Partie) -> None:
    page.goto(partie.get_absolute_url())
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Xaver")


def expect_nothing_of_his(page: Page, partie: Partie) -> None:
    """Carla on the partie's page: none of Ben's hands or half-typed hand, but the word
    that his hands wait for him."""
    page.goto(partie.get_absolute_url())
    expect(page.locator("form.hand-form")).to_be_visible()
    expect(waiting(page)).to_have_count(0)
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("form.hand-form").get_by_label("Knocker's deadwood")).to_have_value("")


def test_a_login_over_another_shows_none_of_his_pages_or_hands(
    phone: BrowserContext,  # noqa: F811
    ben: User,
    carla: User,
    partie: Partie,
    his_own: Partie,
    monkeypatch: pytest.MonkeyPatch,
):
    page = phone.new_page()
    log_in_by_form(page, "Ben")
    keep(page, his_own, partie)
    # A deploy: the new version of the worker takes his pages in, still his.
    (before,) = kept_pages(page)
    kept = views._kept_pages
    monkeypatch.setattr(views, "_kept_pages", lambda: kept() + "(?:)")  # a new digest
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    wait_until(
        page,
        """async (before) => {
             const names = (await caches.keys()).filter((n) => n.startsWith("scorekeeper-pages-"));
             return names.length === 1 && names[0] !== before;
           }""",
        before,
    )
    assert kept_pages(page)[0].endswith(f"-{account(page)}")
    phone.set_offline(True)
    enter_hand(page, "knock", "Anna", 6)  # no defender's deadwood: refused when sent
    enter_hand(page, "gin", "Dora", dd=16)  # waits behind it
    fill_hand(page.locator("form.hand-form"), "knock", "Dora", 4)
    wait_until_draft_kept(page, "knocker_deadwood", "4")
    phone.set_offline(False)
    expect(page.locator("#sheet-body tr.waiting.refused")).to_have_count(1)
    expect(waiting(page)).to_have_count(2)

    log_in_by_form(page, "Carla")  # over Ben's session

    expect(phone_hands(page)).to_have_text(
        "2 hands from Ben wait on this phone to be sent when Ben logs in."
    )
    carla_account = account(page)
    wait_until(
        page,
        """async (mine) => (await caches.keys())
             .filter((name) => name.startsWith("scorekeeper-pages-"))
             .every((name) => name.endsWith(`-${mine}`))""",
        carla_account,
    )
    expect_nothing_of_his(page, partie)
    expect(phone_hands(page)).to_contain_text("2 hands from Ben wait")
    enter_hand(page, "knock", "Anna", 5, 27)  # her own hand goes straight through
    expect(hand_rows(page)).to_have_count(1)
    assert recorded(partie) == [(1, "knock", "Anna", 5, 27)]
    assert HandChange.objects.get(partie=partie).user == carla
    wait_until_kept(page)

    phone.set_offline(True)
    expect_offline_page_not_his(page, his_own)
    response = page.goto(partie.get_absolute_url())
    assert response is not None and response.from_service_worker  # her copy, not his
    expect(page.locator("form.hand-form")).to_be_visible()
    expect(waiting(page)).to_have_count(0)
    assert all(name.endswith(f"-{carla_account}") for name in kept_pages(page))
    phone.set_offline(False)
    assert Hand.objects.filter(partie=partie).count() == 1  # none of Ben's
    expect_no_error(page, phone)


def test_an_ended_session_and_a_logout_keep_his_hand_for_him_alone(
    phone: BrowserContext,  # noqa: F811
    ben: User,
    carla: User,
    partie: Partie,
    his_own: Partie,
):
    page = phone.new_page()
    log_in_by_form(page, "Ben")
    keep(page, his_own, partie)
    Session.objects.all().delete()  # his session ends on the server

    # Sent at once (online, nothing waiting): the answer is the login page, a 200 that
    # does not say the hand is stored. It stays on the phone; the page is not replaced.
    enter_hand(page, "knock", "Anna", 5, 27)
    expect(page.locator("#entry-status")).to_have_text("Log in again to send the hands that wait.")
    expect(waiting(page)).to_have_count(1)
    expect(page.get_by_role("heading", name="Log in")).to_have_count(0)
    fill_hand(page.locator("form.hand-form"), "knock", "Dora", 4)
    wait_until_draft_kept(page, "knocker_deadwood", "4")
    assert recorded(partie) == []

    page.goto("/accounts/login/")  # Carla takes the phone
    expect(phone_hands(page)).to_have_text(
        "1 hand from Ben waits on this phone to be sent when Ben logs in."
    )
    assert kept_pages(page) == []  # the login page is nobody's: Ben's pages went
    log_in_by_form(page, "Carla")
    expect(phone_hands(page)).to_contain_text("1 hand from Ben waits")
    expect_nothing_of_his(page, partie)
    phone.set_offline(True)
    expect_offline_page_not_his(page, his_own)
    phone.set_offline(False)
    assert recorded(partie) == []

    page.goto("/")
    page.locator("header .menu-button").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("header nav").get_by_role("link", name="Log in")).to_be_visible()
    expect(phone_hands(page)).to_contain_text("1 hand from Ben waits")
    assert kept_pages(page) == []

    log_in_by_form(page, "Ben")  # his hand is sent, as his
    wait_until_kept_hands(page, "hands.length === 0")
    page.goto(partie.get_absolute_url())
    expect(hand_rows(page)).to_have_count(1)
    expect(waiting(page)).to_have_count(0)
    expect(phone_hands(page)).to_be_hidden()
    assert recorded(partie) == [(1, "knock", "Anna", 5, 27)]
    assert HandChange.objects.get(partie=partie).user == ben
    expect_no_error(page, phone)


def test_a_refusal_for_good_stops_the_sending_and_the_repair_path_drops_nothing(
    phone: BrowserContext,  # noqa: F811
    ben: User,
    club: Club,
    partie: Partie,
    console_errors: list[str],
):
    gone = start(ben, ["Gina", "Hugo"], club)
    broken = start(ben, ["Ida", "Jan"], club)
    services.hand_record(partie=broken, hand=engine.Hand.knock(5, 27, knocker="Ida"), user=ben)
    page = phone.new_page()
    log_in_by_form(page, "Ben")
    keep(page, gone, broken, partie)
    phone.set_offline(True)
    for each, knocker in ((gone, "Gina"), (broken, "Ida"), (partie, "Anna")):
        page.goto(each.get_absolute_url())
        enter_hand(page, "knock", knocker, 3, 20)
        expect(waiting(page)).to_have_count(1)
    services.partie_delete(partie=gone, user=ben)  # 404 from now on
    broken.hands.filter(number=1).update(defender_deadwood=500)  # the repair path answers
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))

    phone.set_offline(False)

    expect(hand_rows(page)).to_have_count(1)  # this partie's hand went through
    lines = phone_hands(page).locator("p.elsewhere")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text(
        "A hand for another partie was not recorded: "
        "This partie is not there any more, or no longer open to you (404)."
    )
    expect(lines.nth(1)).to_contain_text("This partie needs a repair before the hand can be")
    assert recorded(gone) == [] and len(recorded(broken)) == 1  # the repair path stored none
    # Both stay on the phone: the 404 to be discarded, the other to record after a repair.
    wait_until_kept_hands(
        page,
        """hands.length === 2 && hands.every((hand) => hand.state === "refused")
           && hands.filter((hand) => hand.permanent).length === 1""",
    )

    # Neither is sent again: the next round sends this partie's next hand alone.
    posts.clear()
    phone.set_offline(True)
    enter_hand(page, "gin", "Dora", dd=16)
    phone.set_offline(False)
    expect(hand_rows(page)).to_have_count(2)
    action = page.locator("#offline-queue").get_attribute("data-action")
    assert posts and all(url.endswith(action) for url in posts), posts

    lines.nth(0).get_by_role("button", name="Discard").click()
    expect(lines).to_have_count(1)
    phone.errors[:] = [e for e in phone.errors if "404" not in e]  # the refusal, provoked
    expect_console_error(console_errors, "404")
    expect_no_error(page, phone)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_hands_that_wait_for_someone_else_are_named_in_both_languages(
    open_context: Callable[..., BrowserContext],
    live_server,
    django_user_model: type[User],
    carla: User,
    club: Club,
    partie: Partie,
    language: str,
    console_errors: list[str],
):
    """A long name is wrapped, in English and German; pictures where SCREENSHOTS says."""
    long = django_user_model.objects.create_user(LONG_NAME, password=PASSWORD)
    join(club, long, Role.SCORER)
    context = open_context(service_workers="block")  # the queue needs no worker
    page = context.new_page()
    log_in_with_cookie(page, LONG_NAME, live_server.url, language)
    page.goto(partie.get_absolute_url())
    context.set_offline(True)
    for deadwood in (20, 25):
        page.locator("form.hand-form label.choice:has(input[value=knock])").click()
        page.locator("form.hand-form label.choice:has(input[value=Anna])").click()
        page.locator("form.hand-form input[name=knocker_deadwood]").fill("3")
        page.locator("form.hand-form input[name=defender_deadwood]").fill(str(deadwood))
        page.locator("form.hand-form > button[type=submit]:visible").click()
    expect(waiting(page)).to_have_count(2)
    # Carla logs in (in another tab, say) while his page is open: back online, his page
    # sends his hands naming him, and her session refuses them (409); they stay.
    log_in_with_cookie(page, "Carla", live_server.url, language)  # her session cookie
    context.set_offline(False)
    log_in_again = {
        "en": "Log in again to send the hands that wait.",
        "de": "Melden Sie sich erneut an, um die wartenden Spiele zu senden.",
    }[language]
    expect(page.locator("#entry-status")).to_have_text(log_in_again)
    expect(waiting(page)).to_have_count(2)
    expect_console_error(console_errors, "409")

    page.goto(partie.get_absolute_url())

    expected = {
        "en": f"2 hands from {LONG_NAME} wait on this phone to be sent when {LONG_NAME} logs in.",
        "de": f"2 Spiele von {LONG_NAME} warten auf diesem Telefon und werden gesendet, "
        f"sobald {LONG_NAME} sich anmeldet.",
    }[language]
    expect(phone_hands(page)).to_have_text(expected)
    expect(waiting(page)).to_have_count(0)
    assert recorded(partie) == []
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if folder := os.environ.get("SCREENSHOTS"):
            path = Path(folder) / f"shared-phone-{language}-{width}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))
