"""The club's roster in the browser, on a 360 px phone and a desktop, in English and
German: a typo at the start form ("ben") is asked about and the roster's Ben is chosen;
a merge asks which name stays, shows what moves and is undone from the roster; the
standings on a phone show the columns that decide the rank in its width.

Set SCREENSHOTS to a folder (docs/screenshots) to keep the pages as pictures.
"""

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.league import services as league_services
from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player, PlayerMerge
from tests.browser.conftest import (
    PHONE,
    expect_console_error,
    expect_no_sideways_scroll,
    screenshot,
)

G = engine.Hand.gin
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"360": PHONE, "1280": DESKTOP}

WORDS = {
    "en": {
        "player": "Player {n}",
        "start": "Start the partie",
        "asked": "“ben” is on the roster as Ben: choose the name.",
        "ben": "Ben, on the roster",
        "same": "The same person as",
        "merge": "Merge…",
        "merge_heading": "Merge Benn and Ben?",
        "stays": "Which name stays?",
        "confirm": "Merge the two players",
        "merged": "Benn is merged into Ben.",
        "undo": "Undo: Benn back on the roster",
        "undone": "The merge is undone: Benn and Ben are two players again.",
        "more": "More columns",
    },
    "de": {
        "player": "Spieler {n}",
        "start": "Partie beginnen",
        "asked": "„ben“ steht als Ben auf der Spielerliste: Namen wählen.",
        "ben": "Ben, auf der Spielerliste",
        "same": "Dieselbe Person wie",
        "merge": "Zusammenführen …",
        "merge_heading": "Benn und Ben zusammenführen?",
        "stays": "Welcher Name bleibt?",
        "confirm": "Die beiden Spieler zusammenführen",
        "merged": "Benn ist mit Ben zusammengeführt.",
        "undo": "Rückgängig: Benn zurück auf die Spielerliste",
        "undone": (
            "Die Zusammenführung ist rückgängig gemacht: Benn und Ben sind wieder zwei Spieler."
        ),
        "more": "Weitere Spalten",
    },
}


@pytest.fixture
def club(owner: User):
    """The Skat Club: Ben beat Carl twice; Benn (Ben entered again) beat Dora once."""
    club_services.personal_club(owner)  # as on sign-up: the start form offers a choice
    club = club_services.club_create(name="Skat Club", owner=owner)
    for names in (("Ben", "Carl"), ("Ben", "Carl"), ("Benn", "Dora")):
        partie = services.partie_start(
            owner=owner, club=club, names=list(names), rules=engine.preset("classic")
        )
        services.hand_record(partie=partie, hand=G(90, knocker=names[0]), user=owner)
    return club


@pytest.fixture
def browse(open_context: Callable[..., BrowserContext], log_in, owner: User):
    """`browse(language, size)`: the owner's page of that language and width, logged in."""

    def browse(language: str, size: str) -> Page:
        page = open_context(viewport=SIZES[size]).new_page()
        log_in(page, owner.username, language)
        return page

    return browse


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", WORDS)
def test_a_typo_at_the_start_form_is_asked_about_and_the_roster_player_chosen(
    browse, club, language: str, size: str
):
    words = WORDS[language]
    page = browse(language, size)
    ben = Player.objects.get(club=club, name="Ben")
    page.goto(f"{reverse('partie_new')}?club={club.pk}")

    first = page.get_by_role("combobox", name=words["player"].format(n=1), exact=True)
    expect(first).to_have_attribute("list", "roster-names")
    expect(page.locator("datalist#roster-names option")).to_have_count(4)
    first.fill("Carl")
    page.get_by_role("combobox", name=words["player"].format(n=2), exact=True).fill("ben")
    page.get_by_role("button", name=words["start"]).click()

    expect(page.get_by_text(words["asked"])).to_be_visible()
    question = page.locator(".name-question")
    expect(question.locator("input[type=radio]")).to_have_count(1)  # no second "ben"
    expect_no_sideways_scroll(page)
    page.get_by_text(words["asked"]).scroll_into_view_if_needed()  # the rules follow: long
    screenshot(page, f"roster-question-{language}-{size}", full_page=False)
    question.locator("label.choice").filter(has_text=words["ben"]).click()
    page.get_by_role("button", name=words["start"]).click()

    expect(page).to_have_url(re.compile(r"/parties/\d+/$"))
    partie = Partie.objects.latest("pk")
    assert [seat.player_id for seat in partie.seats.order_by("position")][1] == ben.pk
    assert not Player.objects.filter(name="ben").exists()


def test_after_a_near_name_question_another_name_is_added_without_answering_it(
    browse, club, console_errors
):
    """The question about "Karl" (Carl?) stays on the page; typing another name instead
    and adding it is not blocked by the browser for the old question's unanswered
    choices, and "Karl" is not entered."""
    page = browse("en", "360")
    page.goto(reverse("player_list", args=[club.slug]))
    name = page.get_by_role("combobox", name="New player's name")
    name.fill("Karl")
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.get_by_text("New player “Karl” — or did you mean Carl?")).to_be_visible()

    name.fill("Xaver")
    page.get_by_role("button", name="Add to the roster").click()

    expect(page.get_by_text("Xaver is on the roster now.")).to_be_visible()
    assert Player.objects.filter(club=club, name="Xaver").exists()
    assert not Player.objects.filter(club=club, name="Karl").exists()
    expect_console_error(console_errors, "400 (Bad Request)")  # the question's answer: 400


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", WORDS)
def test_a_merge_asks_which_name_stays_and_is_undone(browse, club, language: str, size: str):
    words = WORDS[language]
    page = browse(language, size)
    benn, ben = (Player.objects.get(club=club, name=name) for name in ("Benn", "Ben"))
    page.goto(reverse("player_detail", args=[benn.pk]))

    page.get_by_label(words["same"]).fill("Ben")
    page.get_by_role("button", name=words["merge"]).click()

    expect(page.get_by_role("heading", name=words["merge_heading"], level=1)).to_be_visible()
    stays = page.get_by_role("group", name=words["stays"])
    expect(stays.get_by_role("radio", name="Ben", exact=True)).to_be_checked()  # more games
    expect(stays.get_by_role("radio", name="Benn", exact=True)).not_to_be_checked()
    moves = page.locator(".merge-moves tbody tr")
    expect(moves).to_have_count(2)
    expect(moves.nth(0).locator("td")).to_have_text(["1", "1", "0"])  # Benn's
    expect(moves.nth(1).locator("td")).to_have_text(["2", "2", "0"])  # Ben's
    expect_no_sideways_scroll(page)
    screenshot(page, f"roster-merge-{language}-{size}")
    page.get_by_role("button", name=words["confirm"]).click()

    expect(page).to_have_url(re.compile(rf"/players/{ben.pk}/$"))
    expect(page.get_by_text(words["merged"])).to_be_visible()
    assert not Player.objects.filter(pk=benn.pk).exists()
    expect(page.get_by_role("button", name=words["undo"])).to_be_visible()
    page.goto(reverse("player_list", args=[club.slug]))  # the roster lists it too
    expect(page.locator("#players li a")).to_have_text(["Ben", "Carl", "Dora"])
    expect_no_sideways_scroll(page)
    screenshot(page, f"roster-{language}-{size}")
    page.get_by_role("button", name=words["undo"]).click()

    expect(page).to_have_url(re.compile(rf"/players/{benn.pk}/$"))
    expect(page.get_by_text(words["undone"])).to_be_visible()
    assert Player.objects.get(pk=benn.pk).name == "Benn"
    assert PlayerMerge.objects.get().is_undone
    expect_no_sideways_scroll(page)


@pytest.fixture
def standings(club: User, owner: User):
    """A season of the club: its table has players with long names and every column."""
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
    )  # fmt: skip
    names = ("Maximilian-Alexander von Hohenstein", "Anna-Katharina Schwarzenberg")
    partie = services.partie_start(
        owner=owner, club=club, names=list(names), rules=engine.preset("classic")
    )
    services.hand_record(partie=partie, hand=G(90, knocker=names[1]), user=owner)
    return reverse("season_detail", args=[season.pk])


KEY_COLUMNS = ("Rank", "Player", "Games", "Won", "League points", "Net points")


@pytest.mark.parametrize("language", WORDS)
def test_the_phone_standings_show_the_columns_that_decide_the_rank_in_its_width(
    browse, standings, language: str
):
    page = browse(language, "360")
    page.goto(standings)

    table = page.locator("table.standings")
    heads = table.locator("thead th")
    visible = [h for h in heads.all() if h.is_visible()]
    assert len(visible) == len(KEY_COLUMNS)
    screenshot(page, f"standings-phone-{language}-360")
    for cell in [*visible, *table.locator("tbody tr").first.locator("th, td").all()]:
        if cell.is_visible():
            box = cell.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], cell.inner_text()
    assert (
        len([c for c in table.locator("tbody tr").first.locator("th, td").all() if c.is_visible()])
        == 6
    )
    if language == "en":
        expect(heads.filter(visible=True)).to_have_text(
            [re.compile(re.escape(name)) for name in KEY_COLUMNS]
        )
    expect_no_sideways_scroll(page)
    screenshot(page, f"standings-phone-{language}-360")

    page.get_by_text(WORDS[language]["more"]).click()

    expect(heads.filter(visible=True)).to_have_count(15)
    expect(table.locator("tbody tr").first.locator("td.trend")).to_be_visible()


def test_a_desktop_shows_every_column_and_no_switch(browse, standings):
    page = browse("en", "1280")
    page.goto(standings)

    expect(page.locator("table.standings thead th").filter(visible=True)).to_have_count(15)
    expect(page.get_by_text("More columns")).not_to_be_visible()
