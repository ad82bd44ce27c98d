"""Players on a phone: the search swaps the list as one types (and works without
JavaScript), the player's page with its rating chart fits 360 px, a rename and a merge."""

import re

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper import engine
from scorekeeper.clubs.services import personal_club
from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player
from tests.browser.conftest import PHONE, expect_same_page, mark_page
from tests.league.conftest import work

G = engine.Hand.gin


def players_page(page: Page, owner: User) -> None:
    page.goto(f"/clubs/{personal_club(owner).slug}/players/")


def test_typing_in_the_search_swaps_the_list(logged_in_page: Page, owner: User, partie: Partie):
    page = logged_in_page
    players_page(page, owner)
    mark_page(page)

    page.get_by_label("Search by name").press_sequentially("an", delay=20)

    names = page.locator("#players li a")
    expect(names).to_have_text(["Anna"])
    expect_same_page(page)
    expect(page).to_have_url(re.compile(r"\?q=an$"))


def test_without_javascript_the_search_loads_the_page_again(
    open_context, log_in, owner: User, partie: Partie
):
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)
    players_page(page, owner)

    page.get_by_label("Search by name").fill("BE")
    page.get_by_role("button", name="Search", exact=True).click()

    expect(page.locator("#players li a")).to_have_text(["Ben"])


def test_the_player_page_fits_a_phone_and_a_scorer_renames_and_merges(
    logged_in_page: Page, owner: User, partie: Partie
):
    services.hand_record(partie=partie, hand=G(90, knocker="Anna"), user=owner)
    twice = services.partie_start(
        owner=owner, names=["Annie", "Carl"], rules=engine.preset("classic")
    )
    services.hand_record(partie=twice, hand=G(90, knocker="Annie"), user=owner)
    work()  # the worker beside the server rates the games
    page = logged_in_page
    page.goto(f"/players/{Player.objects.get(name='Anna').pk}/")

    chart = page.get_by_role("img", name="The rating of Anna after his game")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] <= PHONE["width"] and box["height"] > 100
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_label("Name", exact=True).fill("Anna B.")
    page.get_by_role("button", name="Rename").click()
    expect(page.get_by_role("heading", name="Anna B.", level=1)).to_be_visible()

    page.get_by_label("The same person as").fill("Annie")
    page.get_by_role("button", name="Merge…").click()
    expect(page.get_by_role("heading", name="Merge Anna B. and Annie?")).to_be_visible()
    page.get_by_role("button", name="Merge the two players").click()

    expect(page.get_by_role("heading", name="Anna B.", level=1)).to_be_visible()
    expect(page.locator(".player-results tbody tr")).to_have_count(2)
    assert not Player.objects.filter(name="Annie").exists()
