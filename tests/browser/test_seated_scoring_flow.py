"""A player scores his own table, on his 360 px phone: a plain member seated at a partie the
organiser started enters its hands himself; a member who confirmed a result by mistake takes
the confirmation back, from *My games* and from the game's page; a hand of a locked game
offers the way to the game instead of an edit.

Set SCREENSHOTS to a folder to keep the seated member's partie page and the locked hand's
page as pictures, in English and German, at 360 and 1280 px, with a long name.
"""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame
from scorekeeper.table.services import confirmations
from tests.browser.conftest import (
    PHONE,
    expect_console_error,
    expect_no_sideways_scroll,
    record,
    screenshot,
    status,
)
from tests.browser.test_confirm_flow import started  # as a league night starts it
from tests.browser.test_overflow import problems
from tests.clubs.conftest import join
from tests.conftest import PASSWORD

K, G = engine.Hand.knock, engine.Hand.gin
DESKTOP = {"width": 1280, "height": 800}
LONG = "Maximiliane Hohenzollern-Sigmaringen"
LOCKED = "status of 409"  # the browser notes the locked hand's page, which says why


def gin_club(owner: User, django_user_model: type[User], names: tuple[str, str]) -> Club:
    """The Gin Club: its owner organises; two plain members, each linked to his player."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    for username, name in zip(("anna", "ben"), names, strict=True):
        user = django_user_model.objects.create_user(username, password=PASSWORD)
        join(club, user, Role.MEMBER)
        player = services.player_add(club=club, name=name, owner=owner)
        services.player_link(player=player, user=user)
    return club


@pytest.fixture
def club(owner: User, django_user_model: type[User]) -> Club:
    return gin_club(owner, django_user_model, ("Anna", "Ben"))


def phone(open_context: Callable[..., BrowserContext], log_in, username: str, **options) -> Page:
    language = options.pop("language", None)
    options.setdefault("viewport", PHONE)
    page = open_context(**options).new_page()
    log_in(page, username, language)
    return page


def test_a_member_seated_at_his_table_enters_a_hand_on_his_phone(
    open_context: Callable[..., BrowserContext], log_in, owner: User, club: Club
):
    partie = started(club, owner)
    anna = phone(open_context, log_in, "anna")
    anna.goto(reverse("partie_detail", args=[partie.pk]))
    anna.evaluate("window.marker = 1")

    expect(anna.locator("#who-scores")).to_have_count(0)
    record(anna, 1, "knock", knocker="Anna", dk=5, dd=27)
    record(anna, 2, "gin", knocker="Ben", dd=16)

    expect(status(anna)).to_contain_text("Hand 3")
    expect(anna.locator("table.sheet tbody tr .row-actions a")).to_have_text(["Edit", "Edit"])
    expect(anna.get_by_role("link", name="Change the rules")).to_have_count(0)
    expect(anna.get_by_role("link", name="Delete the partie")).to_have_count(0)
    assert list(problems(anna, "seated member's partie")) == []
    stored = partie.hands.order_by("number").values_list("number", "knocker__name")
    assert list(stored) == [(1, "Anna"), (2, "Ben")]
    assert set(partie.changes.values_list("user__username", flat=True)) == {"anna"}


def test_a_member_takes_back_a_confirmation_he_gave_by_mistake(
    open_context: Callable[..., BrowserContext], log_in, owner: User, club: Club
):
    partie = started(club, owner, hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    game = ClosedGame.objects.get(partie=partie)
    ben = phone(open_context, log_in, "ben")
    ben.goto(reverse("my_games"))
    ben.evaluate("window.marker = 1")
    to_confirm = ben.locator("#to-confirm")

    to_confirm.get_by_role("button", name="Confirm the result").click()
    expect(to_confirm).to_contain_text("Result confirmed: thank you.")
    to_confirm.get_by_role("button", name="Take back my confirmation").click()

    expect(to_confirm).to_contain_text("Your confirmation is taken back")
    expect(to_confirm.get_by_role("button", name="Confirm the result")).to_be_visible()
    assert ben.evaluate("window.marker") == 1, "the list was not swapped in place"
    assert game.confirmations.get(player__name="Ben").state == "pending"
    expect_no_sideways_scroll(ben)

    # On the game's page: confirmed, and taken back there until Anna confirms or disputes.
    ben.goto(reverse("game_detail", args=[partie.pk, 1]))
    ben.get_by_role("button", name="Confirm the result").click()
    expect(ben.locator(".your-confirmation")).to_have_text("You have confirmed this result.")
    ben.get_by_role("button", name="Take back my confirmation").click()
    expect(ben.locator(".messages")).to_contain_text("Your confirmation is taken back")
    expect(ben.get_by_role("button", name="Confirm the result")).to_be_visible()
    assert list(problems(ben, "game page")) == []
    actions = partie.changes.filter(user__username="ben").values_list("action", flat=True)
    assert sorted(actions) == ["confirmed", "confirmed", "withdrawn", "withdrawn"]


def test_a_hand_of_a_locked_game_leads_to_the_game_not_to_an_edit(
    open_context: Callable[..., BrowserContext], log_in, owner: User, club: Club, console_errors
):
    partie = started(club, owner, hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    game = ClosedGame.objects.get(partie=partie)
    for username in ("anna", "ben"):
        confirmations.result_confirm(game=game, user=User.objects.get(username=username))
    anna = phone(open_context, log_in, "anna")
    anna.goto(reverse("partie_detail", args=[partie.pk]))

    expect(anna.locator(".row-actions a")).to_have_text(["Locked", "Locked"])
    anna.goto(reverse("hand_edit", args=[partie.pk, 1]))

    expect(anna.get_by_role("heading", level=1)).to_have_text("Hand 1 is locked")
    expect(anna.locator("main")).to_contain_text("Only the club's owner can unlock it")
    expect(anna.locator("form.hand-form")).to_have_count(0)
    assert list(problems(anna, "locked hand")) == []
    anna.get_by_role("link", name="Back to the partie").click()
    expect(anna).to_have_url(f"{anna.url.split('/parties/')[0]}/parties/{partie.pk}/")
    expect_console_error(console_errors, LOCKED)  # the page says why, with its 409


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_the_seated_member_s_table_and_a_locked_hand(
    open_context: Callable[..., BrowserContext],
    log_in,
    owner: User,
    django_user_model: type[User],
    language: str,
    console_errors,
):
    club = gin_club(owner, django_user_model, (LONG, "Ben"))
    running = started(club, owner, names=(LONG, "Ben"), hands=[K(5, 27, knocker=LONG)])
    done = started(club, owner, names=(LONG, "Ben"), hands=[G(90, knocker=LONG)])
    asked = started(club, owner, names=(LONG, "Ben"), hands=[G(90, knocker="Ben")])
    game = ClosedGame.objects.get(partie=done)
    for username in ("anna", "ben"):
        confirmations.result_confirm(game=game, user=User.objects.get(username=username))
    for size, width in ((PHONE, 360), (DESKTOP, 1280)):
        page = phone(open_context, log_in, "anna", viewport=size, language=language)
        page.goto(reverse("partie_detail", args=[running.pk]))
        expect(page.locator("form.hand-form")).to_be_visible()
        assert list(problems(page, f"partie {language} {width}")) == []
        screenshot(page, f"seated/partie-{language}-{width}")
        page.goto(reverse("partie_detail", args=[done.pk]))
        expect(page.locator(".row-actions a")).to_have_count(1)
        screenshot(page, f"seated/locked-partie-{language}-{width}")
        page.goto(reverse("hand_edit", args=[done.pk, 1]))
        expect(page.locator("h1")).to_be_visible()
        assert list(problems(page, f"locked {language} {width}")) == []
        screenshot(page, f"seated/locked-hand-{language}-{width}")
        # Confirmed from My games by mistake: the notice offers to take it back.
        page.goto(reverse("my_games"))
        page.locator("#to-confirm").get_by_role("button").first.click()
        taking_back = page.locator("#to-confirm .notice button")
        expect(taking_back).to_be_visible()
        assert list(problems(page, f"my games {language} {width}")) == []
        screenshot(page, f"seated/taken-back-{language}-{width}")
        taking_back.click()
        expect(page.locator("#to-confirm .notice button")).to_have_count(0)
    assert asked.closed_games.get().confirmations.get(player__name=LONG).state == "pending"
    expect_console_error(console_errors, LOCKED)


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_an_invitation_saying_what_the_role_may_do(
    open_context: Callable[..., BrowserContext], log_in, owner: User, outsider: User, language
):
    club = club_services.club_create(name="Gin Club", owner=owner)
    invitation = club_services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    for size, width in ((PHONE, 360), (DESKTOP, 1280)):
        page = phone(open_context, log_in, owner.username, viewport=size, language=language)
        page.goto(club.get_absolute_url())
        expect(page.locator("#invitations .helptext, #invitations .help").last).to_be_visible()
        assert list(problems(page, f"club {language} {width}")) == []
        screenshot(page, f"seated/club-invitations-{language}-{width}")
        guest = phone(open_context, log_in, outsider.username, viewport=size, language=language)
        guest.goto(invitation.get_absolute_url())
        assert list(problems(guest, f"invitation {language} {width}")) == []
        screenshot(guest, f"seated/invitation-{language}-{width}")
