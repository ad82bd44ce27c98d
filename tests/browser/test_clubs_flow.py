"""A club on a phone: founded, a link made and accepted, a role given, all by HTMX swaps
where there is JavaScript; the same forms work without it."""

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scorekeeper.clubs.models import Membership, Role
from tests.browser.conftest import expect_same_page, go_to, log_in_by_form, mark_page
from tests.conftest import PASSWORD


def found_club(page: Page, name: str) -> None:
    go_to(page, "Clubs")
    page.get_by_label("Name of the club").fill(name)
    page.get_by_role("button", name="Found the club").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()


def test_a_club_is_founded_and_a_friend_joins_by_link_and_becomes_scorer(
    open_context, log_in, owner: User, django_user_model
):
    friend = django_user_model.objects.create_user("friend", password=PASSWORD)
    page = open_context().new_page()
    log_in(page, owner.username)
    page.goto("/")
    found_club(page, "Skat Club")

    mark_page(page)
    page.get_by_label("Joins as").select_option("member")
    page.get_by_role("button", name="Create an invitation link").click()
    link = page.get_by_label("Invitation link")
    expect(link).to_have_count(1)
    expect_same_page(page)
    address = link.input_value()

    guest = open_context().new_page()
    log_in_by_form(guest, friend.username)  # the one test that types into the login form
    guest.goto(address)
    expect(guest.get_by_text("You are invited to join Skat Club as member.")).to_be_visible()
    guest.get_by_role("button", name="Join the club").click()
    expect(guest.get_by_role("heading", name="Skat Club", level=1)).to_be_visible()
    expect(guest.get_by_text("Your role here: member.")).to_be_visible()

    page.reload()
    mark_page(page)
    page.get_by_label("Role of friend").select_option("scorer")
    with page.expect_response(lambda response: "/role/" in response.url):
        page.locator("#members li", has_text="friend").get_by_role("button").first.click()
    expect(page.locator("#members .htmx-settling, #members.htmx-settling")).to_have_count(0)
    expect(page.get_by_label("Role of friend")).to_have_value("scorer")
    expect_same_page(page)
    assert Membership.objects.get(user=friend).role == Role.SCORER


def test_without_javascript_the_owner_withdraws_a_link(open_context, log_in, owner: User):
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)
    page.goto("/")
    found_club(page, "Rummy Friends")
    page.get_by_role("button", name="Create an invitation link").click()
    expect(page.get_by_label("Invitation link")).to_have_count(1)

    page.get_by_role("button", name="Withdraw").click()

    expect(page.get_by_text("No open invitation links.")).to_be_visible()
