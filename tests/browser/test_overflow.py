"""Every page on a 360 px phone, with the longest names players give, in English and German.

No page may be wider than the phone: long names wrap or shorten (the full name in a title),
a 60-character name without a space breaks anywhere. Every button, nav link, Edit link,
choice, card of the card picker and field (text, date and file inputs, selects, a
checkbox's label) is a tap target of at least 44 × 44 px, with long names and short. The Hollywood
sheet shows one game at a time on a phone, with a switch; the card picker fills the hand
chosen with buttons; table mode (large type, high contrast) is remembered.

Set SCREENSHOTS to a folder (docs/screenshots) to keep pictures of the main pages at phone
and desktop widths in English and German.
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.league import night_services
from scorekeeper.league import services as league_services
from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player
from tests.browser.conftest import PHONE, screenshot

LONG = "Alexandra-Maximiliane von Hohenzollern"
UNBROKEN = ("Bartholomäusfriedrichwilhelm" * 3)[:60]  # 60 characters, not one space
THIRD = "Christabella Fitzwilliam-Montgomery"
FOURTH = "Dorotheanna Wittelsbach-Habsburg"
DESKTOP = {"width": 1280, "height": 800}
TAP = 44  # px: the smallest tap target (WCAG 2.5.5, Apple and Google guidelines)

# What a thumb taps: buttons, the header's links, the sheet's Edit links, the links under
# a page, the choices of a form, the cards of the picker, what opens a <details>, and every
# field: text, number, date and file inputs, selects and text areas (a choice's radio is
# hidden behind its label, which is the target).
TARGETS = (
    "button, .button, header a, .row-actions a, p.actions a, label.choice, summary, "
    "input[type=submit], main a, select, textarea, "
    "input:not([type=hidden]):not(label.choice input)"
)

G = engine.Hand.gin
K = engine.Hand.knock


@dataclass(frozen=True)
class World:
    """Everything a club with long-named players has, as the addresses of its pages."""

    pages: dict[str, str]  # the owner's pages, by a name for the failure message
    public: dict[str, str]  # pages for anyone: login, signup, shared links
    parties: dict[str, Partie]


def _play(partie: Partie, owner: User, *entries) -> Partie:
    for entry in entries:
        services.hand_record(partie=partie, hand=entry, user=owner)
    partie.refresh_from_db()
    return partie


def _start(owner: User, kind: str, names: list[str], **options) -> Partie:
    rules = options.pop("rules", None) or engine.preset(
        "hollywood" if kind == Partie.Kind.HOLLYWOOD else "classic"
    )
    return services.partie_start(owner=owner, names=names, rules=rules, kind=kind, **options)


def _parties(owner: User, club, evening, names: tuple[str, ...]) -> dict[str, Partie]:
    """A partie of every kind, some games over and some running."""
    LONG, UNBROKEN, THIRD, FOURTH = names  # noqa: N806 (the names of the module's default)
    two, six = [LONG, UNBROKEN], [LONG, UNBROKEN, THIRD]
    return {
        "two players": _play(
            _start(owner, Partie.Kind.TWO_PLAYER, two, club=club, stake=Decimal("0.05")),
            owner,
            K(5, 27, knocker=LONG),
            G(16, knocker=UNBROKEN),
        ),
        "hollywood": _play(
            _start(owner, Partie.Kind.HOLLYWOOD, two, club=club, stake=Decimal("0.05")),
            owner,
            G(60, knocker=LONG),
            G(60, knocker=UNBROKEN),
            G(40, knocker=LONG),  # closes game 1
            K(2, 62, knocker=UNBROKEN),
        ),
        "match": _play(
            _start(
                owner,
                Partie.Kind.MATCH,
                two,
                club=club,
                rules=engine.preset("classic", best_of=3),
            ),
            owner,
            G(90, knocker=UNBROKEN),  # game 1 over
            K(3, 20, knocker=LONG),
        ),
        "partnership": _play(
            _start(owner, Partie.Kind.PARTNERSHIP, [*two, THIRD, FOURTH], club=club),
            owner,
            engine.Round((K(5, 27, knocker=LONG), G(16, knocker=FOURTH))),
        ),
        "chouette": _play(
            _start(
                owner,
                Partie.Kind.CHOUETTE,
                [*six, FOURTH],
                club=club,
                stake=Decimal("0.25"),
            ),
            owner,
            *(K(1, points + 1, knocker=UNBROKEN) for points in (40, 40, 40, 10)),
        ),
        "three players": _play(
            _start(owner, Partie.Kind.THREE_PLAYER, six, club=club),
            owner,
            K(1, 21, knocker=LONG),
            K(1, 16, knocker=THIRD),
            K(1, 13, knocker=THIRD),
        ),
        "evening partie": _play(
            _start(owner, Partie.Kind.TWO_PLAYER, two, evening=evening, stake=Decimal("1.25")),
            owner,
            G(90, knocker=UNBROKEN),
        ),
    }


def build_world(owner: User, names: tuple[str, ...] = (LONG, UNBROKEN, THIRD, FOURTH)) -> World:
    """A club with an evening settled, one running, a league season and parties of every
    kind, played by `names` (the long names by default)."""
    club = club_services.club_create(name="Kartenfreunde Sankt Petersburg-Ording e.V.", owner=owner)
    settled = services.evening_start(
        owner=owner, name="Donnerstagabend im Hinterzimmer", played_on=date.today(), club=club
    )
    parties = _parties(owner, club, settled, names)
    # The three players' last hand deleted: its sheet offers the undo where it was.
    services.hand_delete(partie=parties["three players"], number=3, user=owner)
    payment = services.evening_settle(evening=settled)[0]
    services.evening_payment_paid(payment=payment)  # "not paid after all" shows
    running = services.evening_start(
        owner=owner,
        name="Freitagabend bei Alexandra-Maximiliane",
        played_on=date.today(),
        club=club,
    )
    _play(
        _start(owner, Partie.Kind.TWO_PLAYER, [names[1], names[3]], evening=running),
        owner,
        K(2, 30, knocker=names[3]),
    )
    league = league_services.league_create(club=club, name="Dienstagsliga der Kartenfreunde")
    season = league_services.season_create(
        league=league,
        name="Herbstsaison",
        starts_on=date.today() - timedelta(days=30),
        ends_on=date.today() + timedelta(days=30),
    )
    season = league_services.season_share(season=season, shared=True)
    summer = league_services.season_create(
        league=league,
        name="Sommersaison der Kartenfreunde",
        starts_on=date.today() - timedelta(days=120),
        ends_on=date.today() + timedelta(days=30),  # its parties count: a closed table
    )
    summer = league_services.season_share(season=summer, shared=True)
    league_services.season_close(season=summer, user=owner)
    # The season lists two long names and a player without a game: the lines under its
    # table name them (one without a game, one who played without being listed).
    listed = Player.objects.filter(club=club, name__in=[names[0], names[1]])
    newcomer = Player.objects.create(club=club, name=f"{names[2]} der Jüngere")
    league_services.season_players_set(
        season=season, players_from="roster", players=[*listed, newcomer]
    )
    # The season's nights: one planned today (its link to the night), one next week.
    today = timezone.localdate()  # the day the services take as today
    night_services.nights_plan(season=season, days=[today, today + timedelta(days=7)])
    invitation = club_services.invitation_create(club=club, role=Role.SCORER, created_by=owner)
    long_player = Player.objects.get(club=club, name=names[0])
    unbroken_player = Player.objects.get(club=club, name=names[1])

    pages = {
        "home": "/",
        "my games": reverse("my_games"),
        "new partie": reverse("partie_new"),
        "import": reverse("partie_import"),
        "pads": reverse("pad"),
        "evenings": reverse("evening_list"),
        "evening (settled)": settled.get_absolute_url(),
        "evening (running)": running.get_absolute_url(),
        "clubs": reverse("club_list"),
        "club": club.get_absolute_url(),
        "players": reverse("player_list", args=[club.slug]),
        "player": reverse("player_detail", args=[long_player.pk]),
        "player (unbroken name)": reverse("player_detail", args=[unbroken_player.pk]),
        "leagues": reverse("league_list", args=[club.slug]),
        "evening board": reverse("evening_board", args=[settled.pk]),
        "evening board (running)": reverse("evening_board", args=[running.pk]),
        "club board": reverse("club_board", args=[club.slug]),
        "standings": season.get_absolute_url(),
        "new season": reverse("season_new", args=[league.pk]),
        "close the season": reverse("season_close", args=[season.pk]),
        "closed season": summer.get_absolute_url(),
        "reopen the season": reverse("season_reopen", args=[summer.pk]),
        "next season": reverse("season_next", args=[summer.pk]),
        "past seasons": reverse("league_archive", args=[league.pk]),
        "season's players": reverse("season_players", args=[season.pk]),
        "season's players (closed)": reverse("season_players", args=[summer.pk]),
        "season's settings": reverse("season_settings", args=[season.pk]),
        "season's settings (closed)": reverse("season_settings", args=[summer.pk]),
        "league night": reverse("league_night", args=[season.pk]),
        "season's nights": reverse("season_nights", args=[season.pk]),
        "season's nights (closed)": reverse("season_nights", args=[summer.pk]),
    }
    public = {
        "login": reverse("login"),
        "signup": reverse("signup"),
        "public standings": reverse("season_public", args=[season.share_token]),
        "public standings (closed)": reverse("season_public", args=[summer.share_token]),
        "invitation": invitation.get_absolute_url(),
    }
    for name, partie in parties.items():
        pages[name] = partie.get_absolute_url()
        pages[f"{name}: edit hand 1"] = reverse("hand_edit", args=[partie.pk, 1])
        pages[f"{name}: delete hand 1"] = reverse("hand_delete", args=[partie.pk, 1])
        pages[f"{name}: league season"] = reverse("partie_season", args=[partie.pk])
        pages[f"{name}: rules"] = reverse("partie_ruleset", args=[partie.pk])
        if partie.is_running:
            pages[f"{name}: change the rules"] = reverse("partie_rules_change", args=[partie.pk])
        public[f"{name}: shared"] = reverse("shared_partie", args=[partie.share_token])
        public[f"{name}: shared rules"] = reverse(
            "shared_partie_ruleset", args=[partie.share_token]
        )
    running = services.evening_share(evening=running)
    public["evening board: shared"] = reverse("shared_evening_board", args=[running.share_token])
    return World(pages, public, parties)


@pytest.fixture
def world(owner: User) -> World:
    return build_world(owner)


@pytest.fixture
def phone(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], live_server
) -> Callable[..., Page]:
    """`phone(language, logged_in=...)`: a 360 px page in that language."""

    def phone(language: str = "en", user: User | None = None) -> Page:
        context = open_context(has_touch=True)
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page = context.new_page()
        if user is not None:
            log_in(page, user.username)
        return page

    return phone


def page_width(page: Page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def small_targets(page: Page) -> list[str]:
    """The tap targets shown smaller than 44 × 44 px, described."""
    return page.locator(TARGETS).evaluate_all(
        """(elements, least) => elements.flatMap(element => {
            // a checkbox is tapped by the label around it
            const target = element.type === 'checkbox' ? element.closest('label') || element
                                                       : element;
            const box = target.getBoundingClientRect();
            if (!element.checkVisibility({visibilityProperty: true})) return [];  // not shown
            if (box.width >= least - 0.5 && box.height >= least - 0.5) return [];
            const text = (element.innerText || element.value || '').trim().slice(0, 30);
            return [`${element.tagName.toLowerCase()} "${text}" ` +
                    `${Math.round(box.width)}×${Math.round(box.height)}`];
        })""",
        TAP,
    )


def too_wide(page: Page) -> list[str]:
    """The innermost elements that reach past the right edge of the viewport, described
    (not those inside a box that scrolls sideways on its own, such as a wide sheet's)."""
    return page.locator("body").evaluate(
        """(body, width) => {
            const past = (element) => element.getBoundingClientRect().right > width + 0.5;
            const clipped = (element) => {
                for (let box = element.parentElement; box !== body; box = box.parentElement) {
                    if (getComputedStyle(box).overflowX !== 'visible' && !past(box)) return true;
                }
                return false;
            };
            const wide = [...body.querySelectorAll('*')].filter(
                (element) => past(element) && element.checkVisibility() && !clipped(element));
            return wide.filter((element) => !wide.some((other) => other !== element &&
                                                              element.contains(other)))
                .map((element) => {
                    const name = element.tagName.toLowerCase() + (element.className ?
                        '.' + String(element.className).trim().replace(/ +/g, '.') : '');
                    const text = (element.textContent || '').trim().slice(0, 20);
                    const right = Math.round(element.getBoundingClientRect().right);
                    return `${name} "${text}" to ${right} px`;
                });
        }""",
        page.viewport_size["width"],
    )


def spilling_links(page: Page) -> list[str]:
    """The links that reach out of the box they stand in (a name over the figures beside
    it): a link drawn as a box (a 44 px target) whose words do not break."""
    return page.locator("main a").evaluate_all(
        """(links) => links.flatMap(link => {
            if (getComputedStyle(link).display === 'inline' || !link.checkVisibility()) return [];
            const box = link.parentElement.getBoundingClientRect();
            const right = link.getBoundingClientRect().right;
            if (right <= box.right + 1) return [];
            return [`a "${link.innerText.trim().slice(0, 30)}" ` +
                    `${Math.round(right - box.right)} px out of its ${link.parentElement.tagName}`];
        })"""
    )


def problems(page: Page, name: str) -> Iterator[str]:
    """What is wrong with the page shown: its width, its small tap targets, its links whose
    words spill out."""
    width = page_width(page)
    if width > page.viewport_size["width"]:
        yield f"{name}: {width} px wide ({', '.join(too_wide(page)[:5])})"
    for target in small_targets(page)[:6]:
        yield f"{name}: {target}"
    for link in spilling_links(page)[:3]:
        yield f"{name}: {link}"


def open_card_picker(page: Page) -> bool:
    cards = page.locator("form.hand-form details.cards summary")
    if not cards.count():
        return False
    cards.first.click()
    expect(page.locator("[data-card-picker] button.pick").first).to_be_visible()
    return True


def test_no_page_is_wider_than_a_phone_and_every_target_is_big(
    phone: Callable[..., Page], owner: User, world: World, live_server
) -> None:
    """In English, then in German: one world, one phone for the owner and one for a
    stranger, the language switched by its cookie."""
    found: list[str] = []
    page, stranger = phone("en", owner), phone("en")
    for language in ("en", "de"):
        cookie = {"name": "django_language", "value": language, "url": live_server.url}
        for each in (page, stranger):
            each.context.add_cookies([cookie])
        for name, address in world.pages.items():
            response = page.goto(address)
            assert response.ok, f"{name}: {address} answered {response.status}"
            assert page.locator("html").get_attribute("lang") == language
            found.extend(problems(page, f"{name} ({language})"))
            if open_card_picker(page):
                found.extend(problems(page, f"{name} with the card picker ({language})"))
        for name, address in world.public.items():
            response = stranger.goto(address)
            assert response.ok, f"{name}: {address} answered {response.status}"
            found.extend(problems(stranger, f"{name} ({language})"))
    assert not found, "\n".join(found)


def test_short_names_leave_every_target_big(phone: Callable[..., Page], owner: User) -> None:
    """Long names wrap links onto two lines, which hides a link one line high: the same
    pages with short names (a board's partie links were 20 px high)."""
    world = build_world(owner, ("Anna", "Ben", "Cleo", "Dieter"))
    page = phone("en", owner)
    found: list[str] = []
    for name, address in world.pages.items():
        page.goto(address)
        found.extend(f"{name}: {target}" for target in small_targets(page)[:6])
    assert not found, "\n".join(found)


# The pages the README shows, at a phone's width and a desktop's, in English and German.
SCREENSHOTS = {
    "home": "home",
    "new-partie": "new partie",
    "partie": "two players",
    "hollywood": "hollywood",
    "chouette": "chouette",
    "evening": "evening (settled)",
    "player": "player",
}


def test_screenshots_of_the_main_pages(phone: Callable[..., Page], owner: User) -> None:
    """In English, then in German, each on a phone of its own (what one half typed stays
    on its phone); the pictures where SCREENSHOTS names a folder."""
    world = build_world(owner, ("Anna-Katharina Schwarzenberg", "Ben", "Cleo", "Dieter"))
    for language in ("en", "de"):
        page = phone(language, owner)
        for picture, name in SCREENSHOTS.items():
            for width, size in (("360", PHONE), ("1280", DESKTOP)):
                page.set_viewport_size(size)
                page.goto(world.pages[name])
                expect(page.locator("main h1").first).to_be_visible()
                assert page_width(page) <= size["width"], f"{name} at {width} px"
                screenshot(page, f"{picture}-{language}-{width}")
        # The card picker open on a phone, the knocker's hand half chosen.
        page.set_viewport_size(PHONE)
        page.goto(world.pages["two players"])
        open_card_picker(page)
        for code in ("TH", "JH", "QH", "4S", "4D", "4C"):
            page.locator(f"button.pick[data-code='{code}']").click()
        page.locator("details.cards").scroll_into_view_if_needed()
        assert page_width(page) <= PHONE["width"]
        screenshot(page, f"cards-{language}-360", full_page=False)
        # Undo at hand, where the hand was; the rules of a partie, to read at the table.
        page.goto(world.pages["three players"] + "#undo-notice")
        expect(page.locator("#undo-notice")).to_be_in_viewport()
        page.locator("#undo-notice").evaluate("row => row.scrollIntoView({block: 'center'})")
        screenshot(page, f"undo-{language}-360", full_page=False)
        page.goto(world.pages["hollywood: rules"])
        screenshot(page, f"rules-{language}-360", full_page=False)


def test_the_hollywood_sheet_shows_one_game_at_a_time_on_a_phone(
    phone: Callable[..., Page], owner: User
) -> None:
    partie = _parties(owner, None, None, (LONG, UNBROKEN, THIRD, FOURTH))["hollywood"]
    page = phone("en", owner)
    page.goto(partie.get_absolute_url())
    heads = page.locator("table.sheet thead th.num")
    switch = page.locator(".game-switch")

    # Game 1 is over: the phone opens on game 2, the first still running.
    expect(switch.get_by_role("radio", name="Game 2")).to_be_checked()
    expect(switch.locator("label.choice")).to_have_text(["Game 1 ✓", "Game 2", "Game 3"])
    expect(heads.filter(visible=True)).to_have_count(2)
    expect(page.locator("tfoot tr.grand td.num").filter(visible=True)).to_have_text(["60", "60"])
    # Each head names its player in full in its title, however short it is drawn.
    expect(heads.first).to_have_attribute("title", LONG)
    expect(heads.nth(1)).to_have_attribute("title", UNBROKEN)
    assert page_width(page) <= PHONE["width"]

    switch.locator("label.choice").filter(has_text="Game 1").click()
    expect(page.locator("tfoot tr.grand td.num").filter(visible=True)).to_have_text(["280", "100"])
    expect(page.locator("thead th.group").filter(visible=True)).to_have_text("Game 1 ✓ over")
    assert page_width(page) <= PHONE["width"]

    # A desktop shows the three games side by side and needs no switch.
    page.set_viewport_size(DESKTOP)
    expect(switch).to_be_hidden()
    expect(heads.filter(visible=True)).to_have_count(6)


def test_the_german_header_is_one_line_with_a_menu_of_big_links(
    phone: Callable[..., Page], owner: User
) -> None:
    page = phone("de", owner)
    page.goto("/")
    header = page.locator("header.topbar")
    menu = header.locator(".menu-button")
    nav = header.locator("nav")
    expect(menu).to_contain_text("☰")  # "Menü" once the catalogue has it
    expect(nav).to_be_hidden()
    assert header.bounding_box()["height"] < 2 * TAP  # one line: brand, language, menu

    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    links = nav.locator("a, button")
    expect(links).to_have_count(8)  # the last: table mode
    expect(nav.locator("a, button:not([data-table-mode])")).to_have_text(
        ["Neue Partie", "Meine Partien", "Abende", "Clubs", "Blöcke", "Benachrichtigungen",
         "Abmelden"]
    )  # fmt: skip
    for box in links.evaluate_all("all => all.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["height"] >= TAP and box["width"] >= TAP, box
    assert page_width(page) <= PHONE["width"]
    page.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(menu).to_be_focused()

    nav_link = nav.get_by_role("link", name="Abende")
    menu.click()
    nav_link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Abende")

    # On a desktop the links stand in the header, on one line too.
    page.set_viewport_size(DESKTOP)
    expect(menu).to_be_hidden()
    expect(nav_link).to_be_visible()
    assert header.bounding_box()["height"] < 2 * TAP


def test_table_mode_is_large_and_high_contrast_and_remembered(
    phone: Callable[..., Page], owner: User
) -> None:
    partie = _parties(owner, None, None, (LONG, UNBROKEN, THIRD, FOURTH))["two players"]
    page = phone("en", owner)
    page.goto(partie.get_absolute_url())
    html = page.locator("html")
    expect(html).not_to_have_class(re.compile(r"\btable-mode\b"))
    size = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")

    page.locator(".menu-button").click()
    button = page.get_by_role("button", name="Table mode")
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    expect(html).to_have_class(re.compile(r"\btable-mode\b"))
    expect(button).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") > size
    ink = "getComputedStyle(document.querySelector('.sheet .total')).color"
    assert page.evaluate(ink) == "rgb(0, 0, 0)"
    assert page_width(page) <= PHONE["width"]

    # Remembered on this phone: the next page opens in table mode, until it is turned off.
    page.goto("/")
    expect(html).to_have_class(re.compile(r"\btable-mode\b"))
    page.goto(partie.get_absolute_url())
    expect(html).to_have_class(re.compile(r"\btable-mode\b"))
    open_card_picker(page)
    assert not small_targets(page)
    assert page_width(page) <= PHONE["width"]
    page.locator(".menu-button").click()
    page.get_by_role("button", name="Table mode").click()
    page.reload()
    expect(html).not_to_have_class(re.compile(r"\btable-mode\b"))
