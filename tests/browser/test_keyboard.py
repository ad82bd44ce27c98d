"""A whole partie entered with the keyboard alone: Tab between the fields, the arrow keys
in a radio group, Enter to send; after each hand the focus is back on the form's first
field and the status line says the hand was saved."""

from playwright.sync_api import Page, expect

from scorekeeper.table.models import Hand, Partie
from tests.browser.conftest import expect_table_swapped, mark_page

# The worked example of RULES.md §9: (knocker, result, knocker's and defender's deadwood).
HANDS = [
    ("Anna", "knock", 5, 27),
    ("Ben", "gin", None, 16),
    ("Anna", "knock", 7, 7),
    ("Anna", "gin", None, 31),
    (None, "no_game", None, None),
    ("Anna", "knock", 2, 30),
]


def focused(page: Page) -> str:
    """The focused element as name=value (a radio) or its name."""
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e.type === 'radio' ? `${e.name}=${e.value}` : (e.name || e.id || e.tagName); }"
    )


def tab_to(page: Page, name: str, limit: int = 40) -> None:
    for _ in range(limit):
        if focused(page).split("=")[0] == name:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {name}; focus is on {focused(page)}")


def key_in_hand(page: Page, knocker, kind: str, dk, dd) -> None:
    """Starting on the knocker group: choose, Tab on, type, and send with Enter."""
    assert focused(page).startswith("knocker="), focused(page)
    if knocker == "Ben":
        page.keyboard.press("ArrowRight")  # moves to Ben and chooses him
    elif knocker == "Anna":
        page.keyboard.press("Space")  # the first button of a group without a choice
    page.keyboard.press("Tab")
    assert focused(page) == "kind=knock", focused(page)  # the group's chosen button
    # The group's buttons in order (big gin only where the rules score it).
    kinds = page.evaluate(
        "() => [...document.querySelectorAll('#hand-form input[name=kind]')]"
        ".filter((e) => e.getClientRects().length).map((e) => e.value)"
    )
    for _ in range(kinds.index(kind)):
        page.keyboard.press("ArrowRight")
    assert focused(page) == f"kind={kind}"
    if dk is not None:
        page.keyboard.press("Tab")
        assert focused(page) == "knocker_deadwood"
        page.keyboard.type(str(dk))
    if dd is not None:
        page.keyboard.press("Tab")
        assert focused(page) == "defender_deadwood"  # a gin's knocker deadwood is skipped
        page.keyboard.type(str(dd))
    page.keyboard.press("Enter")


def test_a_whole_partie_is_entered_with_the_keyboard_alone(
    logged_in_page: Page, partie: Partie
) -> None:
    page = logged_in_page
    page.goto(partie.get_absolute_url())
    mark_page(page)
    tab_to(page, "knocker")

    for number, hand in enumerate(HANDS, start=1):
        key_in_hand(page, *hand)
        expect(page.locator("table.sheet tbody tr.hand")).to_have_count(number)
        expect_table_swapped(page)
        if number < len(HANDS):
            expect(page.locator("#entry-status")).to_have_text(f"Hand {number} saved.")
            # Back on the first field of the emptied form, ready for the next hand.
            assert focused(page).startswith("knocker="), focused(page)

    # The last hand closed the partie: the focus is on the line that says who won.
    expect(page.locator("#status")).to_have_text("The partie is over: Anna won.")
    expect(page.locator("#status")).to_be_focused()
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(["261", "86"])
    assert Hand.objects.filter(partie=partie).count() == 6


def test_the_sheet_is_a_table_with_headers_and_a_caption(
    logged_in_page: Page, partie: Partie
) -> None:
    page = logged_in_page
    page.goto(partie.get_absolute_url())

    table = page.get_by_role("table", name="Score sheet: Anna, Ben")
    expect(table.get_by_role("columnheader")).to_have_text(["#", "Hand", "Anna", "Ben", "Change"])
    expect(table.get_by_role("rowheader").first).to_be_attached()
