"""The header's language switch in Chromium: each language named in its own words.

A visitor on the login page taps "Deutsch" and reads German, on this page and the next
one he opens, until he taps "English". A player logged in on a 360 px phone finds the
switch beside the menu button, not folded away inside the menu.
"""

from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import go_to


def switch(page: Page) -> Locator:
    """The header's language switch."""
    return page.locator("header form.language-switch")


def test_a_visitor_switches_the_login_page_to_german_and_back(page: Page):
    page.goto(reverse("login"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Log in", exact=True)).to_be_visible()

    page.get_by_role("button", name="Deutsch").click()

    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.url.endswith(reverse("login"))  # back on the page he switched on
    expect(page.get_by_role("heading", name="Anmelden")).to_be_visible()
    expect(page.get_by_role("button", name="Anmelden", exact=True)).to_be_visible()
    expect(page.get_by_label("Benutzername")).to_be_visible()
    expect(page.locator("main").get_by_role("link", name="Registrieren")).to_be_visible()
    # the switch now offers the other language, in its own words
    expect(page.get_by_role("button", name="Deutsch")).to_have_count(0)
    expect(page.get_by_role("button", name="English")).to_have_attribute("lang", "en")

    # the choice sticks: a new page load, and another page, are German too
    page.reload()
    expect(page.get_by_role("button", name="Anmelden", exact=True)).to_be_visible()
    page.locator("main").get_by_role("link", name="Registrieren").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.url.endswith(reverse("signup"))

    page.get_by_role("button", name="English").click()

    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url.endswith(reverse("signup"))
    page.goto(reverse("login"))
    expect(page.get_by_role("button", name="Log in", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Deutsch")).to_be_visible()


def test_a_player_on_a_phone_switches_language_without_opening_the_menu(
    logged_in_page: Page, owner: User
):
    page = logged_in_page
    page.goto(reverse("evening_list"))
    menu = page.locator("header .menu-button")
    expect(menu).to_be_visible()
    expect(page.locator("header nav")).to_be_hidden()  # the links are folded away...
    deutsch = switch(page).get_by_role("button", name="Deutsch")
    expect(deutsch).to_be_visible()  # ...the switch is not
    assert_within_the_phone(page, deutsch)

    deutsch.click()

    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.url.endswith(reverse("evening_list"))  # still on the evenings
    expect(page.get_by_role("heading", name="Abende")).to_be_visible()
    expect(menu).to_have_accessible_name("Menü")
    expect(page.locator("header nav")).to_be_hidden()
    english = switch(page).get_by_role("button", name="English")
    expect(english).to_be_visible()
    assert_within_the_phone(page, english)
    # the menu opens on German links; the choice holds on the page they lead to
    go_to(page, "Meine Partien")
    expect(page.get_by_role("heading", name="Meine Partien")).to_be_visible()
    assert_within_the_phone(page, english)

    english.click()

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    expect(menu).to_have_accessible_name("Menu")
    go_to(page, "Evenings")
    expect(page.get_by_role("heading", name="Evenings")).to_be_visible()
    expect(switch(page).get_by_role("button", name="Deutsch")).to_be_visible()


def assert_within_the_phone(page: Page, button: Locator) -> None:
    """The button is on the screen as the page opens, level with the brand, a 44 px target."""
    box = button.bounding_box()
    brand = page.locator("header .brand").bounding_box()
    assert box is not None and brand is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], box
    assert brand["y"] <= box["y"] + box["height"] / 2 <= brand["y"] + brand["height"], box
    assert box["height"] >= 44 and box["width"] >= 44, box
