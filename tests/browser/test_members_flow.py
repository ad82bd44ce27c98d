"""Members on a phone (360 px): the invitation link copied with one tap (and, without
JavaScript, a read-only field to copy by hand); the club deleted by typing its name, and
restored from the clubs page; a removed member finding his open debt and its evening; a
member opening the link he joined with.

Set SCREENSHOTS to a folder to keep pictures of the steps.
"""

from datetime import date

from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.browser.conftest import (
    expect_console_error,
    expect_no_sideways_scroll,
    expect_same_page,
    go_to,
    mark_page,
    screenshot,
    serious_violations,
)
from tests.clubs.conftest import G, join, start
from tests.conftest import PASSWORD


def test_the_owner_copies_the_invitation_link_with_one_tap(open_context, log_in, owner: User):
    club = club_services.club_create(name="Skat Club", owner=owner)
    context = open_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    log_in(page, owner.username)
    page.goto(club.get_absolute_url())

    mark_page(page)
    page.get_by_role("button", name="Create an invitation link").click()
    field = page.get_by_label("Invitation link")
    expect(field).to_have_count(1)
    expect_same_page(page)  # swapped in by HTMX, its button shown all the same
    copy = page.get_by_role("button", name="Copy the link")
    expect(copy).to_be_visible()

    copy.click()

    expect(page.get_by_role("status").filter(has_text="Link copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == field.input_value()
    assert "/invite/" in field.input_value()
    expect_no_sideways_scroll(page)
    screenshot(page, "invitation-copied-360")


def test_without_the_clipboard_the_link_is_selected_to_copy_by_hand(
    open_context, log_in, owner: User
):
    club = club_services.club_create(name="Skat Club", owner=owner)
    club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    page = open_context().new_page()  # no clipboard permission: writing is refused
    log_in(page, owner.username)
    page.goto(club.get_absolute_url())
    # As a browser refuses it (no permission, an insecure address): the promise rejects.
    page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }"
    )

    page.get_by_role("button", name="Copy the link").click()

    expect(page.get_by_role("status").filter(has_text="The link is selected")).to_be_visible()
    field = page.get_by_label("Invitation link")
    expect(field).to_be_focused()
    selected = page.evaluate(
        "(() => { const f = document.activeElement;"
        " return f.value.slice(f.selectionStart, f.selectionEnd); })()"
    )
    assert selected == field.input_value()


def test_without_javascript_the_link_is_a_field_to_copy_and_no_button(
    open_context, log_in, owner: User
):
    club = club_services.club_create(name="Skat Club", owner=owner)
    invitation = club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    page = open_context(java_script_enabled=False).new_page()
    log_in(page, owner.username)
    page.goto(club.get_absolute_url())

    field = page.get_by_label("Invitation link")
    expect(field).to_be_visible()
    expect(field).to_have_attribute("readonly", "")
    assert field.input_value().endswith(invitation.get_absolute_url())
    expect(page.get_by_role("button", name="Copy the link")).to_be_hidden()
    expect_no_sideways_scroll(page)
    screenshot(page, "invitation-no-js-360")


def test_the_owner_deletes_the_club_by_its_name_and_restores_it(
    open_context, log_in, owner: User, django_user_model, console_errors
):
    friend = django_user_model.objects.create_user("friend", password=PASSWORD)
    club = club_services.club_create(name="Skat Club", owner=owner)
    join(club, friend, Role.SCORER)
    page = open_context().new_page()
    log_in(page, owner.username)
    page.goto(club.get_absolute_url())

    page.get_by_role("link", name="Delete the club").click()
    expect(page.get_by_role("heading", name="Delete Skat Club?")).to_be_visible()
    page.get_by_label("The club's name").fill("Skat")
    page.get_by_role("button", name="Delete the club").click()
    expect(page.get_by_text("That is not the club's name: type Skat Club")).to_be_visible()
    expect_console_error(console_errors, "400 (Bad Request)")  # the form's answer: 400
    expect_no_sideways_scroll(page)
    screenshot(page, "club-delete-360")
    page.get_by_label("The club's name").fill("skat club")
    page.get_by_role("button", name="Delete the club").click()

    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()
    expect(page.get_by_text("Skat Club was deleted.")).to_be_visible()
    deleted = page.locator("#deleted-clubs")
    expect(deleted.get_by_text("can be restored until")).to_be_visible()
    expect(page.locator(f'a[href="{club.get_absolute_url()}"]')).to_have_count(0)
    assert not Club.objects.filter(pk=club.pk).exists()
    expect_no_sideways_scroll(page)
    screenshot(page, "club-deleted-360")

    deleted.get_by_role("button", name="Restore Skat Club").click()

    expect(page.get_by_role("heading", name="Skat Club", level=1)).to_be_visible()
    expect(page.get_by_text("Skat Club is back.")).to_be_visible()
    expect(page.locator("#members").get_by_text("friend", exact=True)).to_be_visible()
    go_to(page, "Clubs")
    expect(page.locator("#deleted-clubs")).to_have_count(0)
    expect(page.get_by_role("link", name="Skat Club")).to_be_visible()


def test_a_removed_member_finds_his_debt_and_reads_its_evening(
    open_context, log_in, owner: User, django_user_model
):
    former = django_user_model.objects.create_user("former", password=PASSWORD)
    club = club_services.club_create(name="Skat Club", owner=owner)
    membership = join(club, former, Role.MEMBER)
    evening = services.evening_start(
        owner=owner, club=club, name="Gin night", played_on=date(2026, 11, 6)
    )
    partie = start(club, owner, names=("Anna", "Ben"), evening=evening)
    services.player_link(player=Player.objects.get(club=club, name="Anna"), user=former)
    services.hand_record(partie=partie, hand=G(80, knocker="Ben"), user=owner)
    services.evening_settle(evening=evening)
    club_services.membership_remove(membership=membership)
    page = open_context().new_page()
    log_in(page, former.username)
    page.goto("/")

    go_to(page, "My games")
    debts = page.locator("#open-debts")
    expect(debts.get_by_text("Anna pays Ben 16.00")).to_be_visible()
    expect_no_sideways_scroll(page)
    screenshot(page, "removed-member-my-games-360")
    debts.get_by_role("link", name="Gin night").click()

    expect(page.get_by_role("heading", name="Gin night", level=1)).to_be_visible()
    expect(page.get_by_text("Anna pays Ben 16.00").first).to_be_visible()
    expect(page.get_by_role("button", name="Mark paid")).to_have_count(0)
    expect(page.get_by_role("link", name="Skat Club")).to_have_count(0)
    expect_no_sideways_scroll(page)
    screenshot(page, "removed-member-evening-360")
    page.get_by_role("link", name="Anna – Ben").click()
    expect(page.locator("table.sheet").first).to_be_visible()
    expect(page.locator("#hand-form")).to_have_count(0)


def test_a_member_opening_his_used_link_is_told_he_is_one(
    open_context, log_in, owner: User, django_user_model
):
    friend = django_user_model.objects.create_user("friend", password=PASSWORD)
    club = club_services.club_create(name="Skat Club", owner=owner)
    invitation = club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    club_services.invitation_accept(invitation=invitation, user=friend)
    page = open_context().new_page()
    log_in(page, friend.username)

    page.goto(invitation.get_absolute_url())

    expect(page.get_by_text("You are a member of this club already.")).to_be_visible()
    expect(page.get_by_text("used already")).to_have_count(0)
    screenshot(page, "invitation-member-360")
    page.get_by_role("link", name="To the club").click()
    expect(page.get_by_role("heading", name="Skat Club", level=1)).to_be_visible()


def test_the_club_pages_of_an_owner_have_no_serious_accessibility_violations(
    axe_page: Page, owner: User
):
    """In English, then in German."""
    club = club_services.club_create(name="Skat Club", owner=owner)
    club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    gone = club_services.club_create(name="Bridge Club", owner=owner)
    club_services.club_delete(club=gone)
    page = axe_page
    found = {}
    for language in ("en", "de"):
        if language == "de":
            page.get_by_role("button", name="Deutsch").click()
            page.wait_for_selector("html[lang=de]")
        for url in (club.get_absolute_url(), reverse("club_delete", args=[club.slug]), "/clubs/"):
            page.goto(url)
            if violations := serious_violations(page):
                found[f"{url} ({language})"] = violations

    assert not found, found
