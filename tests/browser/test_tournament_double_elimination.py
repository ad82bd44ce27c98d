"""An 8-player double elimination from the check-in to its champion (issue 30, item 5).

The organiser, at a desktop, creates it through the form, checks the players in from
the roster, seeds them by hand and starts round 1. Anna and Ben, members linked to their
players, score their own parties on their phones (Ben's in German, chosen with the
header's language switch); the screen in the bar, never reloaded, follows every result
by its polls. Ben loses his first match, wins the losers' bracket and beats Anna, the
winners' bracket's winner, in the grand final, so the final is played again; he wins
that too, and the screen and his phone name him champion.

Set SCREENSHOTS to a folder to keep the screen at the end, in English and German."""

from collections.abc import Callable
from contextlib import AbstractContextManager

from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs.models import Role
from scorekeeper.table import services as table_services
from scorekeeper.tournaments.models import Tournament, TournamentMatch
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    browser_of,
    expect_no_sideways_scroll,
    expect_same_page,
    expect_table_swapped,
    go_to,
    hand_rows,
    mark_page,
    record,
    screenshot,
    small_screenshot,
    status,
    tap,
)
from tests.browser.test_club_board import BAR
from tests.browser.test_league_night_end_to_end import a_club
from tests.browser.test_tournament_screen import fits

LONG = "Maximiliane Hohenzollern-Sigmaringen"
SEEDED = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gus", LONG]  # seed 1 first
# A partie to 100 closes on its winner's second gin: 2 × (25 + 40 deadwood).
GINS = 2


def at_the_other_tables(
    tournament: Tournament, owner: User, winners: dict[str, str], server: AbstractContextManager
) -> None:
    """The parties of the tables without a phone in this test, each won by two gins, given
    through the services as those tables' phones would record them: scoring them on the
    organiser's desktop too would add a minute and test nothing the phones do not."""
    with server:
        for match, winner in winners.items():
            row = TournamentMatch.objects.select_related("partie").get(
                tournament=tournament, match=match
            )
            for _ in range(GINS):
                table_services.hand_record(
                    partie=row.partie, hand=engine.Hand.gin(40, knocker=winner), user=owner
                )


def work(server: AbstractContextManager) -> None:
    """The worker beside the web server: the winners of the parties over move on, the next
    matches start at the tables freed."""
    with server:
        call_command("worker", until_idle=True)


def open_my_partie(phone: Page, my_games: str) -> None:
    """From the header's *My games* (``my_games``, in the phone's language), the partie
    the phone's player is playing now."""
    go_to(phone, my_games)
    expect(phone.get_by_role("heading", name=my_games, level=1)).to_be_visible()
    running = phone.locator("ul.parties li").filter(has=phone.locator(".badge.running"))
    expect(running).to_have_count(1)
    running.get_by_role("link").click()
    expect(phone.locator("form.hand-form")).to_be_visible()
    mark_page(phone)


def gin_in_german(phone: Page, rows: int, winner: str) -> None:
    """A gin of ``winner`` (40 the defender's deadwood) on a German partie page."""
    form = phone.locator("form.hand-form")
    tap(form, "kind", "Gin")
    tap(form, "knocker", winner)
    form.get_by_label("Restpunkte des Gegners").fill("40")
    form.get_by_role("button", name="Spiel eintragen").click()
    expect(hand_rows(phone)).to_have_count(rows)
    expect_table_swapped(phone)


def anna_wins_her_partie(anna: Page) -> None:
    """Anna, in English, scores her partie: a knock, then a gin that takes her past 100."""
    open_my_partie(anna, "My games")
    record(anna, 1, "knock", knocker="Anna", dk=2, dd=30)  # 28
    record(anna, 2, "gin", knocker="Anna", dd=60)  # 28 + 85: 113
    expect(status(anna)).to_have_text("The partie is over: Anna won.")


def ben_scores_his_partie(ben: Page, winner: str) -> None:
    """Ben, in German, scores his partie: two gins of ``winner``."""
    open_my_partie(ben, "Meine Partien")
    for rows in range(1, GINS + 1):
        gin_in_german(ben, rows, winner)
    expect(status(ben)).to_have_text(f"Die Partie ist zu Ende: {winner} hat gewonnen.")


def expect_match(screen: Page, match: str, *players: str) -> None:
    """The screen's box of ``match`` holds two players, ``players`` among them."""
    box = screen.locator(f"#screen-{match} .screen-player")
    expect(box).to_have_count(2)
    for player in players:
        expect(screen.locator(f"#screen-{match}")).to_contain_text(player)


def expect_winner(screen: Page, match: str, winner: str) -> None:
    expect(screen.locator(f"#screen-{match} .screen-player.winner")).to_contain_text(winner)


def test_an_eight_player_double_elimination_from_check_in_to_champion_through_a_reset(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
    one_request_at_a_time_on_sqlite: AbstractContextManager,
):
    server = one_request_at_a_time_on_sqlite
    club = a_club(owner, {"bar": Role.MEMBER, "anna": Role.MEMBER, "ben": Role.MEMBER})
    for name in SEEDED:
        player = table_services.player_add(club=club, name=name, owner=owner)
        if name in ("Anna", "Ben"):
            table_services.player_link(player=player, user=User.objects.get(username=name.lower()))

    # The organiser, at a desktop, creates the tournament from the club's page.
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP)
    organiser.goto(club.get_absolute_url())
    organiser.get_by_role("link", name="Tournaments", exact=True).click()
    organiser.get_by_label("Name").fill("Club championship")
    organiser.get_by_label("Double elimination").check()
    organiser.get_by_role("button", name="Create the tournament").click()

    # The check-in from the roster, then the seeds by hand, Anna first.
    expect(organiser.get_by_role("heading", name="Check-in")).to_be_visible()
    for name in SEEDED:
        organiser.get_by_label(name, exact=True).check()
    organiser.get_by_role("button", name="Save the check-in").click()
    expect(organiser.locator(".seeds li")).to_have_count(8)
    seeding = organiser.locator("form.seed-form")
    seeding.get_by_label("By hand, in the order given").check()
    seeding.get_by_text("Seeds by hand").click()
    for seed, name in enumerate(SEEDED, 1):
        seeding.get_by_label(name, exact=True).fill(str(seed))
    seeding.get_by_role("button", name="Seed the players").click()
    expect(organiser.locator(".seeds li .player")).to_have_text(SEEDED)
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.get_by_role("heading", name="Winners' quarter-finals")).to_be_visible()
    expect(organiser.locator(".match .badge.running")).to_have_count(4)
    with server:
        tournament = Tournament.objects.get()

    # The screen in the bar: both brackets at once, round 1 at four tables.
    screen = browser_of(open_context, log_in, "bar", BAR)
    screen.goto(reverse("tournament_screen", args=[tournament.pk]))
    expect(screen.get_by_role("heading", name="Winners' bracket")).to_be_visible()
    expect(screen.get_by_role("heading", name="Losers' bracket and grand final")).to_be_visible()
    expect(screen.locator(".screen-match.running")).to_have_count(4)
    expect_match(screen, "W1-1", "Anna", LONG)
    mark_page(screen)  # all that follows comes by its polls, never by a reload

    # Anna's phone in English; Ben switches his to German.
    anna = browser_of(open_context, log_in, "anna", PHONE)
    ben = browser_of(open_context, log_in, "ben", PHONE)
    anna.goto("/")
    ben.goto("/")
    ben.locator("header form.language-switch").get_by_role("button", name="Deutsch").click()
    expect(ben.locator("html")).to_have_attribute("lang", "de")

    # Round 1: Anna beats the long name; Ben loses to Gus and drops to the losers' bracket.
    anna_wins_her_partie(anna)
    ben_scores_his_partie(ben, "Gus")
    expect_no_sideways_scroll(ben)
    at_the_other_tables(tournament, owner, {"W1-2": "Dora", "W1-4": "Carl"}, server)
    work(server)
    expect_winner(screen, "W1-3", "Gus")
    expect_match(screen, "W2-1", "Anna", "Dora")
    expect_match(screen, "L1-2", "Ben", "Fritz")
    expect_match(screen, "L1-1", LONG, "Emil")

    # Round 2 and the losers' first round.
    anna_wins_her_partie(anna)
    ben_scores_his_partie(ben, "Ben")
    at_the_other_tables(tournament, owner, {"W2-2": "Gus", "L1-1": LONG}, server)
    work(server)
    expect_match(screen, "W3-1", "Anna", "Gus")
    expect_match(screen, "L2-2", "Ben", "Dora")
    expect_match(screen, "L2-1", LONG, "Carl")

    # The winners' final: Anna is unbeaten. Ben goes on in the losers' bracket.
    anna_wins_her_partie(anna)
    ben_scores_his_partie(ben, "Ben")
    at_the_other_tables(tournament, owner, {"L2-1": LONG}, server)
    work(server)
    expect_winner(screen, "W3-1", "Anna")
    expect_match(screen, "L3-1", LONG, "Ben")
    expect(screen.locator("#screen-GF")).to_contain_text("Anna")
    ben_scores_his_partie(ben, "Ben")
    work(server)
    expect_match(screen, "L4-1", "Ben", "Gus")
    ben_scores_his_partie(ben, "Ben")
    work(server)
    expect_match(screen, "GF", "Anna", "Ben")
    expect(screen.locator("#screen-GF2")).to_have_count(0)  # no reset unless Ben wins

    # The grand final, both at one table, each entering a hand: Ben wins it, so it is
    # played again.
    open_my_partie(anna, "My games")
    record(anna, 1, "gin", knocker="Ben", dd=40)
    open_my_partie(ben, "Meine Partien")
    expect(hand_rows(ben)).to_have_count(1)
    gin_in_german(ben, 2, "Ben")
    work(server)
    expect_winner(screen, "GF", "Ben")
    expect_match(screen, "GF2", "Anna", "Ben")
    expect(screen.locator(".champion")).to_have_count(0)

    # The deciding match: Ben again.
    open_my_partie(ben, "Meine Partien")
    gin_in_german(ben, 1, "Ben")
    open_my_partie(anna, "My games")
    expect(hand_rows(anna)).to_have_count(1)
    record(anna, 2, "gin", knocker="Ben", dd=40)
    expect(status(anna)).to_have_text("The partie is over: Ben won.")
    work(server)

    # The screen names the champion, every box of both brackets whole on it.
    expect(screen.locator(".champion")).to_have_text("Champion: Ben")
    expect_winner(screen, "GF2", "Ben")
    expect_same_page(screen)
    fits(screen, boxes=7 + 6 + 2)
    small_screenshot(screen, "tournament-screen-double-en-1920", full_page=False)

    # Ben's phone, in German: the champion and the placings, on the deciding match's round.
    ben.goto(tournament.get_absolute_url())
    expect(ben.get_by_role("heading", name="Großes Finale (Entscheidungsspiel)")).to_be_visible()
    expect(ben.locator(".champion")).to_have_text("Turniersieger: Ben")
    expect(ben.get_by_role("heading", name="Endplatzierungen")).to_be_visible()
    expect(ben.locator(".placings li")).to_have_text(
        ["1 Ben", "2 Anna", "3 Gus", f"4 {LONG}", "5 Carl, Dora", "7 Emil, Fritz"]
    )
    expect_no_sideways_scroll(ben)
    screenshot(ben, "tournament-double-over-de-360")

    # The screen in German names him too.
    german = browser_of(open_context, log_in, "bar", BAR, "de")
    german.goto(reverse("tournament_screen", args=[tournament.pk]))
    expect(german.get_by_role("heading", name="Turnierbaum der Gewinner")).to_be_visible()
    expect(german.locator(".champion")).to_have_text("Turniersieger: Ben")
    small_screenshot(german, "tournament-screen-double-de-1920", full_page=False)
