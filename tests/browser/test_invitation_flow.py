"""An invitation link opened by someone without an account: the page names the club, who
invites and the role; he signs up, comes back to the link, joins, and is on the club's
roster as the player it held for him, his account linked (with a name near the roster's:
asked, he picks the roster's player). On a 360 px phone and a desktop, in English and
German, with a long club name and a long inviter's name.

Set SCREENSHOTS to a folder (docs/screenshots) to keep the pages as pictures.
"""

from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Invitation, Membership, Role
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.browser.conftest import (
    PHONE,
    expect_console_error,
    expect_no_sideways_scroll,
    screenshot,
    sign_up_from_the_link,
)

DESKTOP = {"width": 1280, "height": 800}
SIZES = {"360": PHONE, "1280": DESKTOP}
CLUB = "Kartenspielfreunde Hohenzollern-Sigmaringen am Bodensee"
INVITER = "Maximiliane Hohenzollern-Sigmaringen"
WORDS = {  # what the page says that the test reads, in each language
    "en": {"heading": f"Invitation to {CLUB}", "sign_up": "Sign up", "join": "Join the club"},
    "de": {
        "heading": f"Einladung zu {CLUB}",
        "sign_up": "Registrieren",
        "join": "Dem Club beitreten",
    },
}


@pytest.fixture
def invitation(owner: User) -> Invitation:
    """A link to join the club as a member, made by its owner, whose account has his full
    name; the roster holds Anna Weber (nobody plays as her yet) and Ben."""
    owner.first_name, owner.last_name = INVITER.split(" ", 1)
    owner.save()
    club = club_services.club_create(name=CLUB, owner=owner)
    for name in ("Anna Weber", "Ben"):
        services.player_add(club=club, name=name, owner=owner)
    return club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)


@pytest.fixture
def visit(open_context: Callable[..., BrowserContext], live_server) -> Callable[..., Page]:
    """`visit(language, size)`: a browser of that language and width, logged out."""

    def visit(language: str, size: str) -> Page:
        context = open_context(viewport=SIZES[size], locale=language)
        cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}
        context.add_cookies([cookie])
        return context.new_page()

    return visit


def open_and_sign_up(page: Page, invitation: Invitation, words: dict, username: str, shot: str):
    """Open the link logged out, see what it offers, sign up from it: back on the link."""
    page.goto(invitation.get_absolute_url())
    expect(page.get_by_role("heading", name=words["heading"], level=1)).to_be_visible()
    expect(page.locator(".invited-by")).to_contain_text(INVITER)
    expect_no_sideways_scroll(page)
    screenshot(page, f"invitation-{shot}")
    sign_up_from_the_link(page, username, words["sign_up"])
    expect(page.get_by_role("button", name=words["join"])).to_be_visible()


def test_a_newcomer_signs_up_from_the_link_and_joins_as_the_roster_player_of_his_name(
    visit, invitation
):
    page = visit("en", "360")
    open_and_sign_up(page, invitation, WORDS["en"], "anna_w", "logged-out-en-360")

    page.get_by_label("Your name in the club").fill("Anna Weber")
    page.get_by_role("button", name="Join the club").click()

    expect(page.get_by_role("heading", name=CLUB, level=1)).to_be_visible()
    expect(page.get_by_text("You play as Anna Weber on its roster.")).to_be_visible()
    anna = Player.objects.get(club=invitation.club, name="Anna Weber")
    assert anna.user.username == "anna_w"
    assert Membership.objects.get(club=invitation.club, user=anna.user).role == Role.MEMBER


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", WORDS)
def test_a_name_near_the_rosters_is_asked_about_and_he_picks_the_roster_player(
    visit, invitation, console_errors, language: str, size: str
):
    words = WORDS[language]
    page = visit(language, size)
    open_and_sign_up(page, invitation, words, "annaweber", f"logged-out-{language}-{size}")
    expect(page.locator("input[name=name]")).to_have_value("annaweber")  # his account's name

    page.get_by_role("button", name=words["join"]).click()

    question = page.locator(".name-question")
    expect(question.locator("input[type=radio]")).to_have_count(2)  # Anna Weber, or new
    expect(question.locator("legend")).to_contain_text("Anna Weber")
    expect_no_sideways_scroll(page)
    screenshot(page, f"invitation-question-{language}-{size}")
    assert not Membership.objects.filter(club=invitation.club, user__username="annaweber")
    question.locator("label.choice").filter(has_text="Anna Weber,").click()
    page.get_by_role("button", name=words["join"]).click()

    expect(page.get_by_role("heading", name=CLUB, level=1)).to_be_visible()
    anna = Player.objects.get(club=invitation.club, name="Anna Weber")
    assert anna.user.username == "annaweber"
    assert not Player.objects.filter(club=invitation.club, name="annaweber").exists()
    screenshot(page, f"invitation-joined-{language}-{size}", full_page=False)
    expect_console_error(console_errors, "400 (Bad Request)")  # the question's answer: 400
