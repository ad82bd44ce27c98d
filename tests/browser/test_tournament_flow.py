"""An 8-player single elimination from the check-in to its champion: the organiser at a
desktop creates it, checks the players in from the roster, draws the seeds and starts
round 1; the tables play their parties (through the services, as the phones at the
tables do); the worker moves each winner on; a member follows the bracket on a phone,
a round at a time, as it changes by itself, in English and in German."""

from collections.abc import Callable
from datetime import date

from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs.models import Role
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Player
from scorekeeper.tournaments import selectors, services
from scorekeeper.tournaments.models import Tournament, TournamentMatch
from tests.browser.conftest import (
    PHONE,
    expect_console_error,
    expect_no_sideways_scroll,
    mark_page,
    screenshot,
)
from tests.browser.test_league_night_end_to_end import DESKTOP, a_club, browser_of
from tests.browser.test_tournament_screen import started
from tests.tournaments.conftest import settings

LONG = "Maximiliane Hohenzollern-Sigmaringen"
NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gus", LONG]


def play_out(tournament: Tournament, owner: User) -> None:
    """Every match to play now played to its end, the better seed ginning twice; then
    the worker beside the web server moves the winners on."""
    state = selectors.tournament_state(tournament)
    seeds = {e.player.name: e.seed for e in selectors.field_of(tournament)}
    for match in state.playable():
        row = TournamentMatch.objects.get(tournament=tournament, match=match.id)
        winner = min(match.players, key=seeds.__getitem__)
        for _ in range(2):
            table_services.hand_record(
                partie=row.partie, hand=engine.Hand.gin(30, knocker=winner), user=owner
            )
    call_command("worker", until_idle=True)


def test_an_eight_player_knockout_from_check_in_to_champion(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    console_errors: list[str],
):
    club = a_club(owner, {"bar": Role.MEMBER})
    for name in NAMES:
        table_services.player_add(club=club, name=name, owner=owner)

    # The organiser, at a desktop, creates the tournament from the club's page.
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP)
    organiser.goto(club.get_absolute_url())
    organiser.get_by_role("link", name="Tournaments", exact=True).click()
    organiser.get_by_label("Name").fill("Club championship")
    organiser.get_by_label("A match for third place (single elimination)").check()
    organiser.get_by_role("button", name="Create the tournament").click()

    # The check-in from the roster: everyone is here.
    expect(organiser.get_by_role("heading", name="Check-in")).to_be_visible()
    for name in NAMES:
        organiser.get_by_label(name, exact=True).check()
    organiser.get_by_role("button", name="Save the check-in").click()
    expect(organiser.locator(".seeds li")).to_have_count(8)

    # Seeds drawn at random with a seed, then round 1 starts.
    organiser.get_by_label("At random").check()
    organiser.get_by_label("Seed of the draw").fill("7")
    organiser.get_by_role("button", name="Seed the players").click()
    expect(organiser.locator(".seeds li .badge").first).to_have_text("1")
    screenshot(organiser, "tournament-check-in-en-1280")
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.get_by_role("heading", name="Quarter-finals")).to_be_visible()
    expect(organiser.locator(".match")).to_have_count(4)
    expect(organiser.locator(".match .badge.running")).to_have_count(4)
    tournament = Tournament.objects.get()
    screenshot(organiser, "tournament-round-1-en-1280")

    # A member follows the bracket on his phone; it changes by itself as the tables end,
    # and stays on the round he reads.
    phone = browser_of(open_context, log_in, "bar", PHONE)
    phone.goto(tournament.get_absolute_url())
    expect(phone.get_by_role("heading", name="Quarter-finals")).to_be_visible()
    expect_no_sideways_scroll(phone)
    mark_page(phone)
    play_out(tournament, owner)
    expect(phone.locator(".match-players li.winner")).to_have_count(4)
    assert phone.evaluate("window.marker") == 1  # updated in place, not reloaded
    screenshot(phone, "tournament-round-1-done-en-360")

    # The next round, a tap away: the semi-finals at the tables freed.
    phone.get_by_role("link", name="Semi-finals ›").click()
    expect(phone.get_by_role("heading", name="Semi-finals")).to_be_visible()
    expect(phone.locator(".match .badge.running")).to_have_count(2)
    expect_no_sideways_scroll(phone)

    play_out(tournament, owner)  # the semi-finals
    play_out(tournament, owner)  # the final and the match for third place
    tournament.refresh_from_db()
    assert tournament.is_over
    champion = selectors.tournament_view(tournament).champion
    phone.reload()
    expect(phone.locator(".champion")).to_have_text(f"Champion: {champion}")
    expect(phone.locator(".placings li")).to_have_count(5)  # 1 to 4, then four share 5th
    expect_no_sideways_scroll(phone)
    screenshot(phone, "tournament-over-en-360")

    # The organiser corrects nothing that the final depends on: the page says what to void.
    organiser.goto(tournament.get_absolute_url() + "?round=1")
    organiser.locator(".match").first.get_by_role("link", name="Correct the result").click()
    loser = organiser.locator("input[name=winner]:not(:checked)").first
    loser.check()
    organiser.get_by_role("button", name="Save the result").click()
    expect(organiser.get_by_role("alert")).to_contain_text("first.")
    expect_console_error(console_errors, "/matches/W1-1/")  # the refusal's 400
    screenshot(organiser, "tournament-refused-en-1280")


def test_the_bracket_in_german_on_a_phone(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User
):
    club = a_club(owner, {"bar": Role.MEMBER})
    players = [table_services.player_add(club=club, name=n, owner=owner) for n in NAMES]
    tournament = services.tournament_create(
        club=club,
        owner=owner,
        name="Vereinsmeisterschaft",
        played_on=date(2026, 11, 28),
        system="single_elimination",
        settings=settings(),
    )
    services.entries_check_in(tournament=tournament, players=players)
    services.entries_seed(tournament=tournament, method="random", seed=7)
    services.tournament_start(tournament=tournament, owner=owner)
    phone: Page = browser_of(open_context, log_in, "bar", PHONE, "de")
    phone.goto(tournament.get_absolute_url())
    expect(phone.get_by_role("heading", name="Viertelfinale")).to_be_visible()
    expect(phone.locator(".match .badge").first).to_have_text("Tisch 1")
    expect_no_sideways_scroll(phone)
    screenshot(phone, "tournament-round-1-de-360")


def test_a_long_name_in_the_placings_wraps_beside_its_place_on_a_phone(
    open_context: Callable[..., BrowserContext], log_in: Callable[..., None], owner: User
):
    club = a_club(owner, {"bar": Role.MEMBER})
    tournament = started(club, owner, "single_elimination", 4)  # the long names seeded 1 to 3
    while playable := selectors.tournament_state(tournament).playable():
        for match in playable:  # the better seed wins, given by the organiser
            winner = Player.objects.get(club=club, name=match.players[0])
            services.result_correct(tournament=tournament, match=match.id, winner=winner, by=owner)
    phone = browser_of(open_context, log_in, "bar", PHONE)
    phone.goto(tournament.get_absolute_url())
    expect(phone.locator(".placings li")).to_have_count(3)  # 1, 2, then two share 3rd
    line = phone.locator(".placings li").first
    expect(line).to_contain_text(LONG)
    place, name = line.locator(".badge").bounding_box(), line.locator(".player").bounding_box()
    assert name["y"] < place["y"] + place["height"], "the name fell under its place"
    assert name["x"] > place["x"] + place["width"], "the name is not beside its place"
    expect_no_sideways_scroll(phone)
