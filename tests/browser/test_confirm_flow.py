"""Results both players confirm, in two browsers: the scorer records the hand that closes
a game on his phone; the opponent, on a 360 px phone of his own, finds the notice on his
next page, confirms the game from *My games* in place, and the scorer, who plays too,
confirms it on the game's page: the game is locked.

Set SCREENSHOTS to a folder (docs/screenshots) to keep the pages as pictures, in English
and German, at 360 and 1280 px, with long names.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Role
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, Partie, Player, ResultConfirmation
from scorekeeper.table.services import confirmations
from tests.browser.conftest import (
    PHONE,
    axe_context,
    mark_page,
    record,
    serious_violations,
    status,
)
from tests.browser.test_overflow import problems
from tests.clubs.conftest import join
from tests.conftest import PASSWORD

K, G = engine.Hand.knock, engine.Hand.gin
DESKTOP = {"width": 1280, "height": 800}
LONG = "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen"  # 51 letters


@pytest.fixture
def club(owner: User, django_user_model: type[User]) -> Club:
    """The Gin Club: its owner scores and plays as Anna; Ben is a member with his player."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    ben = django_user_model.objects.create_user("ben", password=PASSWORD)
    join(club, ben, Role.MEMBER)
    for name, user in (("Anna", owner), ("Ben", ben)):
        player = services.player_add(club=club, name=name, owner=owner)
        services.player_link(player=player, user=user)
    return club


def started(club: Club, owner: User, names=("Anna", "Ben"), hands=()) -> Partie:
    partie = services.partie_start(
        owner=owner,
        club=club,
        names=list(names),
        rules=engine.preset("classic"),
        stake=Decimal("0.05"),
        first_dealer=names[1],
    )
    for hand in hands:
        services.hand_record(partie=partie, hand=hand, user=owner)
    return partie


def phone(
    open_context: Callable[..., BrowserContext], log_in, username: str, size=PHONE, **options
) -> Page:
    """A browser of the user's own, logged in; ``options`` of its context."""
    page = open_context(viewport=size, **options).new_page()
    log_in(page, username)
    return page


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
    assert width <= 0, f"the page scrolls {width} px sideways"


def test_the_opponent_confirms_on_his_phone_what_the_scorer_recorded_on_his(
    open_context: Callable[..., BrowserContext], log_in, owner: User, club: Club
):
    partie = started(club, owner, hands=[K(5, 27, knocker="Anna")])
    scorer = phone(open_context, log_in, owner.username)
    scorer.goto(reverse("partie_detail", args=[partie.pk]))
    mark_page(scorer)

    record(scorer, 2, "gin", knocker="Anna", dd=90)  # 22 + 110: the game is over

    expect(status(scorer)).to_contain_text("Anna won")
    ben = phone(open_context, log_in, "ben")
    ben.goto("/")
    notice = ben.locator(".confirmation-notice")
    expect(notice).to_have_text("1 game to confirm")
    with ben.expect_navigation():  # to its load: htmx wires the buttons up by then
        notice.get_by_role("link").click()
    item = ben.locator("#to-confirm li").filter(has_text="Anna – Ben")
    expect(item).to_contain_text("Anna won.")
    expect(item).to_contain_text("Ben: … not answered yet")
    no_sideways_scroll(ben)
    mark_page(ben)

    item.get_by_role("button", name="Confirm the result").click()

    expect(ben.locator("#to-confirm")).to_contain_text("Result confirmed: thank you.")
    expect(ben.locator("#to-confirm")).to_contain_text("Nothing left to confirm.")
    assert ben.evaluate("window.marker") == 1, "the list was not swapped in place"
    game = ClosedGame.objects.get(partie=partie)
    states = dict(game.confirmations.values_list("player__name", "state"))
    assert states == {"Anna": "pending", "Ben": "confirmed"}

    # The scorer plays too: his next page asks him, and his confirmation locks the game.
    scorer.goto(reverse("home"))
    scorer.locator(".confirmation-notice").get_by_role("link").click()
    scorer.locator("#to-confirm").get_by_role("link", name="The hands · dispute").click()
    expect(scorer.locator("table.sheet tbody tr")).to_have_count(2)  # the game's hands
    scorer.get_by_role("button", name="Confirm the result").click()
    expect(scorer.locator(".locked")).to_have_text("Confirmed by every player: the game is locked.")
    expect(scorer.locator(".confirmation-notice")).to_have_count(0)
    states = set(game.confirmations.values_list("state", flat=True))
    assert states == {ResultConfirmation.State.CONFIRMED}


def test_a_dispute_on_the_phone_shows_the_scorer_the_game_with_its_note(
    open_context: Callable[..., BrowserContext], log_in, owner: User, club: Club
):
    partie = started(club, owner, hands=[K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    ben = phone(open_context, log_in, "ben")
    ben.goto(reverse("game_detail", args=[partie.pk, 1]))

    ben.locator("summary", has_text="Dispute the result").click()  # opens the note
    ben.get_by_label("What is wrong?").fill("Hand 1 was 5 against 17, not 27.")
    ben.get_by_role("button", name="Dispute the result").click()

    expect(ben.locator(".messages")).to_contain_text("Result disputed")
    scorer = phone(open_context, log_in, owner.username)
    scorer.goto("/")
    expect(scorer.locator(".confirmation-notice")).to_contain_text("1 disputed game to look at")
    scorer.locator(".confirmation-notice").get_by_role(
        "link", name="1 disputed game to look at"
    ).click()
    disputed = scorer.locator("#disputed")
    expect(disputed).to_contain_text("Hand 1 was 5 against 17, not 27.")
    disputed.get_by_role("link", name="Anna – Ben").click()
    expect(scorer.locator(".confirmation-disputed")).to_contain_text("Ben: ✗ disputed")
    expect(scorer.locator("table.sheet")).to_contain_text("Anna 5 v 27")


@dataclass(frozen=True)
class LongNames:
    """Ben renamed to a long name; a season that counts only confirmed games; three
    games of Anna's and his: one pending, one confirmed by both, one he disputes; and a
    fourth that both confirmed, locked."""

    season: Season
    pending: Partie
    disputed: Partie
    locked: Partie
    ben: User


@pytest.fixture
def long_names(owner: User, club: Club) -> LongNames:
    Player.objects.filter(club=club, name="Ben").update(name=LONG)
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league,
        name="Autumn",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
        confirmed_games_only=True,
    )
    ben = User.objects.get(username="ben")
    pending = started(
        club, owner, ("Anna", LONG), [K(5, 27, knocker="Anna"), G(90, knocker="Anna")]
    )
    confirmed = started(club, owner, ("Anna", LONG), [G(90, knocker=LONG)])
    disputed = started(club, owner, ("Anna", LONG), [G(90, knocker="Anna")])
    locked = started(club, owner, ("Anna", LONG), [G(80, knocker=LONG)])
    for partie in (confirmed, locked):
        for user in (ben, owner):
            confirmations.result_confirm(game=ClosedGame.objects.get(partie=partie), user=user)
    confirmations.result_dispute(
        game=ClosedGame.objects.get(partie=disputed), user=ben, note="Hand 1 was a knock."
    )
    return LongNames(season, pending, disputed, locked, ben)


def pages_of(world: LongNames) -> dict[str, tuple[str, str]]:
    """Each page by its picture's name: who sees it (ben, or the owner) and where."""
    return {
        "confirm-list": ("ben", reverse("my_games")),
        "confirm-game": ("ben", reverse("game_detail", args=[world.disputed.pk, 1])),
        "confirm-standings": ("ben", reverse("season_detail", args=[world.season.pk])),
        "confirm-locked": ("owner", reverse("game_detail", args=[world.locked.pk, 1])),
        "confirm-disputes": ("owner", reverse("my_games")),
        "confirm-partie": ("owner", reverse("partie_detail", args=[world.locked.pk])),
    }


def test_the_pages_fit_a_phone_with_long_names_and_every_target_is_big(
    open_context: Callable[..., BrowserContext], log_in, long_names: LongNames, live_server
):
    """In English, then in German."""
    found = []
    phones = {}
    for language in ("en", "de"):
        for name, (who, url) in pages_of(long_names).items():
            if who not in phones:
                phones[who] = phone(open_context, log_in, who, has_touch=True)
            page = phones[who]
            cookie = {"name": "django_language", "value": language, "url": live_server.url}
            page.context.add_cookies([cookie])
            assert page.goto(url).ok, name
            expect(page.locator("html")).to_have_attribute("lang", language)
            found.extend(problems(page, f"{name} ({language})"))
    assert not found, "\n".join(found)


@pytest.mark.skipif(not os.environ.get("SCREENSHOTS"), reason="SCREENSHOTS names no folder")
def test_screenshots_of_the_games_to_confirm_with_long_names(
    open_context: Callable[..., BrowserContext], log_in, long_names: LongNames
):
    """The pages in both languages at 360 and 1280 px, with a long name; axe finds
    nothing serious on any."""
    folder = Path(os.environ["SCREENSHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    for language in ("en", "de"):
        for width, size in ((360, PHONE), (1280, DESKTOP)):
            phones = {}
            for name, (who, url) in pages_of(long_names).items():
                if who not in phones:
                    phones[who] = axe_context(open_context, viewport=size).new_page()
                    log_in(phones[who], who, language)
                page = phones[who]
                page.goto(url)
                page.screenshot(path=str(folder / f"{name}-{language}-{width}.png"), full_page=True)
                no_sideways_scroll(page)
                assert serious_violations(page) == [], (name, language, width)
