"""The small things of a player's evening: the rules link goes with the partie's end, the
new-partie form speaks of the names typed and shows the seats asked for, the favicon."""

from playwright.sync_api import Page, expect

from scorekeeper.table.models import Partie
from tests.browser.conftest import expect_table_swapped, mark_page, record

# The worked example of RULES.md §9, the last hand closing the partie.
HANDS = [
    ("knock", "Anna", 5, 27),
    ("gin", "Ben", None, 16),
    ("knock", "Anna", 7, 7),
    ("gin", "Anna", None, 31),
    ("no_game", None, None, None),
    ("knock", "Anna", 2, 30),
]


def test_the_rules_link_goes_when_the_last_hand_closes_the_partie(
    logged_in_page: Page, partie: Partie
):
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)
    rules_link = page.get_by_role("link", name="Change the rules")
    expect(rules_link).to_be_visible()

    for number, (kind, knocker, dk, dd) in enumerate(HANDS, 1):
        record(page, number, kind, knocker, dk, dd)  # the next hand waits for this one's row

    expect(page.locator("#status")).to_have_text("The partie is over: Anna won.")
    expect(rules_link).to_have_count(0)  # swapped away, without a reload
    expect_table_swapped(page)


def test_the_first_dealer_is_offered_by_the_names_typed(logged_in_page: Page):
    page = logged_in_page
    page.goto("/parties/new/")
    dealers = page.locator(".field-first_dealer label.choice:visible")
    expect(dealers).to_have_text(["Player 1", "Player 2"])

    page.get_by_role("combobox", name="Player 1", exact=True).fill("Alexandra")
    page.get_by_role("combobox", name="Player 2", exact=True).fill("Maximilian")

    expect(dealers).to_have_text(["Alexandra", "Maximilian"])
    page.get_by_role("combobox", name="Player 1", exact=True).fill("")
    expect(dealers).to_have_text(["Player 1", "Maximilian"])


def test_a_chouette_shows_the_seats_asked_for_and_one_more_on_demand(logged_in_page: Page):
    page = logged_in_page
    page.goto("/parties/new/")
    page.locator(".field-kind label.choice").filter(has_text="Chouette").click()

    seats = page.locator(".partie-form .seat:visible")
    expect(seats).to_have_count(3)
    help_text = "this member's stake against the box, if not the partie's"
    expect(page.get_by_text(help_text)).to_have_count(1)

    page.get_by_role("button", name="Add a player").click()
    expect(seats).to_have_count(4)
    expect(page.get_by_role("combobox", name="Player 4", exact=True)).to_be_focused()
    for _ in range(4):
        page.get_by_role("button", name="Add a player").click()
    expect(seats).to_have_count(8)
    expect(page.get_by_role("button", name="Add a player")).to_be_hidden()

    # Back to two players: their two seats only, and nothing to add.
    page.locator(".field-kind label.choice").filter(has_text="Two players").click()
    expect(seats).to_have_count(2)
    expect(page.get_by_role("button", name="Add a player")).to_be_hidden()


def test_the_new_partie_form_fits_a_phone(logged_in_page: Page):
    page = logged_in_page
    page.goto("/parties/new/")
    select = page.locator("select[name=preset]")
    box = select.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_favicon_is_linked_and_answers(page: Page):
    page.goto("/")
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert page.request.get(icon).status == 200
    response = page.request.get("/favicon.ico")
    assert response.status == 200
    assert "svg" in response.headers["content-type"]
