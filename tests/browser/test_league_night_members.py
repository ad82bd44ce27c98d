"""The whole league night of a club of members (issue 29), each person in a browser of his
own: the organiser at a desktop (1280 px), five friends on their phones (360 px, Dora's in
German), and the board on the screen in the bar (1920, then 1280 px), logged in as the
owner, the club's only scorer.

The organiser founds the club and makes an invitation link for each friend; each opens
his link logged out, signs up from it, comes back and joins: he is on the roster, his
account linked, a member, and nobody touches a role or the roster. The organiser starts a
league and its season, whose nights' tables play Modern rules at 0.10 a point. Three
rounds of five players, a bye each: Tick all, Propose tables, Start round; the app cuts for
each table's deal, and the members seated at a table enter its hands on their own phones.
Round 2 is proposed while a table of round 1 still plays: its players are left out, listed
as still playing. The board tells the room each round's tables and byes, the running table
first, and no private notice. A member disputes a result: the night's settle-up waits for
that game, named, until the owner decides that it stands; the night's money is then
settled in one tap, in the fewest transfers, each amount the engine's for the same hands.

Set SCREENSHOTS to a folder to keep the board with three rounds at 1920 and 1280 px (in 64
colours, as docs/board-1920.png and docs/board-1280.png, which come from here).
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs.models import Membership, Role
from scorekeeper.engine.hand import HandKind
from scorekeeper.formats import number_text
from scorekeeper.table.models import Player
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    browser_of,
    expect_table_swapped,
    go_to,
    hand_rows,
    mark_page,
    set_night_tables,
    sign_up_from_the_link,
    small_screenshot,
    start_league_and_season,
    status,
    tables_proposed,
    tap,
)
from tests.browser.test_club_board import BAR, SMALL_BAR, fits_the_screen
from tests.browser.test_clubs_flow import found_club

FRIENDS = {"anna": "Anna", "ben": "Ben", "carl": "Carl", "dora": "Dora", "emil": "Emil"}
GERMAN = "dora"  # her phone speaks German; the others English
RULES, STAKE = "modern", Decimal("0.10")
TABLES_PLAY = "The tables play: Two players, Modern rules, stake 0.10 per point"
K, G = engine.Hand.knock, engine.Hand.gin
WORDS = {  # what a member's phone says that the test reads, in his language
    "en": {
        "invitation": "Invitation to Gin Club",
        "sign_up": "Sign up",
        "name": "Your name in the club",
        "join": "Join the club",
        "joined": "You joined Gin Club. You play as {name} on its roster.",
        "my_games": "My games",
        "cut": "Cut for the deal: {dealer} deals first.",
        "knock": "Knock",
        "gin": "Gin",
        "knocker_deadwood": "Knocker's deadwood",
        "defender_deadwood": "Defender's deadwood",
        "over": "The partie is over: {winner} won.",
        "result": "The result",
        "dispute": "Dispute the result",
        "note": "What is wrong?",
    },
    "de": {
        "invitation": "Einladung zu Gin Club",
        "sign_up": "Registrieren",
        "name": "Ihr Name im Club",
        "join": "Dem Club beitreten",
        "joined": "Sie sind Gin Club beigetreten und stehen als {name} auf seiner Spielerliste.",
        "my_games": "Meine Partien",
        "cut": "Gezogen: {dealer} gibt zuerst.",
        "knock": "Klopfen",
        "gin": "Gin",
        "knocker_deadwood": "Restpunkte des Klopfers",
        "defender_deadwood": "Restpunkte des Gegners",
        "over": "Die Partie ist zu Ende: {winner} hat gewonnen.",
        "result": "Das Ergebnis",
        "dispute": "Ergebnis anfechten",
        "note": "Was stimmt nicht?",
    },
}


@dataclass
class Member:
    """A friend on his phone: his name on the roster, his page, his language's words."""

    name: str
    page: Page
    words: dict[str, str]
    hands: int = 0  # the hands he entered himself


@dataclass
class Seated:
    """A table of a round as the night page shows it once started."""

    number: int
    players: list[str]
    dealer: str  # the cut's first dealer
    hands: list[engine.Hand] = field(default_factory=list)  # as entered on the phones


def invitation_links(page: Page, count: int) -> list[str]:
    """On the club's page: a link to join as a member, one for each friend."""
    links = page.get_by_label("Invitation link")
    for made in range(1, count + 1):
        page.get_by_label("Joins as").select_option("member")
        page.get_by_role("button", name="Create an invitation link").click()
        expect(links).to_have_count(made)
    return [link.input_value() for link in links.all()]


def joins_by_link(
    open_context: Callable[..., BrowserContext], link: str, username: str, name: str
) -> Member:
    """A friend opens his link on his phone, logged out (Dora switches the page to
    German first), signs up from it, comes back to it and joins as ``name``."""
    page = open_context(viewport=PHONE).new_page()
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text(WORDS["en"]["invitation"])
    language = "de" if username == GERMAN else "en"
    if language == "de":
        page.locator("header").get_by_role("button", name="Deutsch").click()
    words = WORDS[language]
    expect(page.get_by_role("heading", level=1)).to_have_text(words["invitation"])
    sign_up_from_the_link(page, username, words["sign_up"])
    page.get_by_label(words["name"]).fill(name)
    page.get_by_role("button", name=words["join"]).click()
    expect(page.locator(".messages")).to_contain_text(words["joined"].format(name=name))
    return Member(name, page, words)


def propose(organiser: Page, tables: int) -> tuple[list[list[str]], str]:
    """Tick all, Propose tables: ``tables`` tables and a bye, at the season's settings."""
    organiser.get_by_role("link", name="Tick all").click()
    expect(organiser).to_have_url(re.compile(r"[?&]tick=all\b"))
    organiser.get_by_role("button", name="Propose tables").click()
    expect(organiser.locator(".proposal li")).to_have_count(tables)
    expect(organiser.locator(".night-settings > summary")).to_contain_text(TABLES_PLAY)
    bye = organiser.locator(".night-bye")
    expect(bye).to_have_text(re.compile(r"^Bye: \w+$"))
    return tables_proposed(organiser), bye.inner_text().removeprefix("Bye: ")


def start(organiser: Page, number: int, proposed: list[list[str]], bye: str) -> list[Seated]:
    """Start round ``number`` as proposed: its tables, each with the cut's first dealer."""
    parties = "1 partie" if len(proposed) == 1 else f"{len(proposed)} parties"
    organiser.get_by_role("button", name=f"Start round {number}: {parties}").click()
    round_ = organiser.locator(".night-round").nth(number - 1)
    expect(round_.get_by_role("heading")).to_have_text(f"Round {number}")
    expect(round_).to_contain_text(f"Bye: {bye}")
    seated = []
    for table_number, players in enumerate(proposed, start=1):
        table = round_.locator("li").nth(table_number - 1)
        expect(table.get_by_role("link")).to_have_text(" – ".join(players))
        cut = table.locator(".cut")
        expect(cut).to_have_text(re.compile(r"^Cut for the deal: \w+ deals first$"))
        dealer = cut.inner_text().removeprefix("Cut for the deal: ").removesuffix(" deals first")
        assert dealer in players
        seated.append(Seated(table_number, players, dealer))
    return seated


def scorer_of(table: Seated, members: dict[str, Member]) -> Member:
    """Who enters the table's hands on his phone: Dora where she plays, else the first."""
    german = members[FRIENDS[GERMAN]]
    return german if german.name in table.players else members[table.players[0]]


def open_partie(member: Member, table: Seated) -> None:
    """The member finds the table's partie under My games on his phone."""
    page = member.page
    go_to(page, member.words["my_games"])
    link = page.locator("ul.parties").get_by_role("link", name=" – ".join(table.players))
    link.first.click()  # newest first
    expect(page).to_have_url(re.compile(r"/parties/\d+/$"))
    mark_page(page)


def enter(member: Member, table: Seated, hand: engine.Hand) -> None:
    """The member enters ``hand`` of his table on his phone's hand form, in his words."""
    page, words = member.page, member.words
    form = page.locator("form.hand-form")
    tap(form, "kind", words[hand.kind])
    tap(form, "knocker", hand.knocker)
    if hand.kind == HandKind.KNOCK:
        form.get_by_label(words["knocker_deadwood"]).fill(str(hand.knocker_deadwood))
    form.get_by_label(words["defender_deadwood"]).fill(str(hand.defender_deadwood))
    form.get_by_role("button").click()
    table.hands.append(hand)
    member.hands += 1
    expect(hand_rows(page)).to_have_count(len(table.hands))
    expect_table_swapped(page)


def plays_a_game(member: Member, table: Seated, hand: engine.Hand) -> None:
    """The member enters the hand that ends his table's game: his phone says who won."""
    enter(member, table, hand)
    expect(status(member.page)).to_have_text(member.words["over"].format(winner=hand.knocker))


def roles_in_the_club() -> dict[str, str]:
    memberships = Membership.objects.filter(club__name="Gin Club")
    return dict(memberships.values_list("user__username", "role"))


def board_cards(board: Page):
    return board.locator(".board-table .table-number")


def settle_up(tables: list[Seated]) -> list[str]:
    """The night's transfers as the engine settles the same hands at the stake: each
    table's partie replayed, their payments netted, the fewest transfers."""
    payments = []
    for table in tables:
        session = engine.session_class("two_player").replay(
            table.players, engine.preset(RULES), table.dealer, table.hands
        )
        payments += session.settle(STAKE)
    transfers = engine.settle_up(engine.balances_of(payments))
    return [f"{t.payer} pays {t.payee} {number_text(t.amount)}" for t in transfers]


def test_a_club_of_members_runs_three_rounds_and_settles_the_night_s_money(
    open_context: Callable[..., BrowserContext],
    log_in: Callable[..., None],
    owner: User,
):
    # The organiser, at a desktop: the club, and a link for each of his five friends.
    organiser = browser_of(open_context, log_in, owner.username, DESKTOP)
    organiser.goto("/")
    found_club(organiser, "Gin Club")
    club_page = organiser.url
    links = invitation_links(organiser, len(FRIENDS))

    # Each opens his link logged out on his phone, signs up, comes back and joins.
    members = {}
    for (username, name), link in zip(FRIENDS.items(), links, strict=True):
        members[name] = joins_by_link(open_context, link, username, name)
    dora = members[FRIENDS[GERMAN]]
    expect(dora.page.locator("html")).to_have_attribute("lang", "de")

    # On the roster, each linked to his account, members all: the organiser did nothing.
    organiser.get_by_role("link", name="Players").click()
    roster = organiser.locator("#players li")
    expect(roster.get_by_role("link")).to_have_text(list(FRIENDS.values()))
    expect(roster.locator(".badge")).to_have_text(list(FRIENDS))
    linked = Player.objects.values_list("name", "user__username")
    assert sorted(linked) == sorted((name, user) for user, name in FRIENDS.items())
    assert roles_in_the_club() == {owner.username: Role.OWNER} | dict.fromkeys(FRIENDS, Role.MEMBER)

    # A league and its season; its nights' tables play Modern rules at 0.10 a point.
    organiser.goto(club_page)
    start_league_and_season(organiser, "Club league", "Autumn")
    season_page = organiser.url
    organiser.get_by_role("link", name="The season's settings").click()
    set_night_tables(organiser, RULES, str(STAKE))

    # The board in the bar, logged in as the owner: tonight's night has no table yet.
    board = browser_of(open_context, log_in, owner.username, BAR)
    board.goto(club_page)
    board.get_by_role("link", name="Live board").click()
    expect(board.locator("#board")).to_contain_text("No table is being played in this club.")
    mark_page(board)  # what follows comes by the board's polls, never by a reload

    # Round 1: two tables and a bye; the app has cut for each deal.
    organiser.goto(season_page)
    organiser.get_by_role("link", name="League night").click()
    proposed, bye = propose(organiser, tables=2)
    round_one = start(organiser, 1, proposed, bye)
    first, second = round_one
    expect(board_cards(board)).to_have_text(["Round 1 · Table 1", "Round 1 · Table 2"])
    expect(board.locator("#board-round-1 .byes")).to_have_text(f"Bye: {bye}")

    # Each table's member finds his partie on his phone, the cut said, and scores it.
    for table in round_one:
        scorer = scorer_of(table, members)
        open_partie(scorer, table)
        cut = scorer.words["cut"].format(dealer=table.dealer)
        expect(scorer.page.locator("#status .cut")).to_have_text(cut)
    first_scorer = scorer_of(first, members)
    enter(first_scorer, first, K(3, 23, knocker=first_scorer.name))  # 20, the game goes on
    second_scorer = scorer_of(second, members)
    plays_a_game(second_scorer, second, G(90, knocker=second_scorer.name))
    expect(board.locator(".board-table.running .table-number")).to_have_text(["Round 1 · Table 1"])
    over = board.locator(".board-table").filter(has_text="Round 1 · Table 2")
    expect(over).to_contain_text(f"Over: {second_scorer.name} won")

    # Round 2 while table 1 still plays: its players are left out, listed as playing.
    proposed, bye = propose(organiser, tables=1)
    playing = organiser.locator(".still-playing")
    expect(playing).to_contain_text("Round 1 · Table 1")
    expect(playing).to_contain_text(" – ".join(first.players))
    assert not set(first.players) & {name for table in proposed for name in table}
    (third,) = start(organiser, 2, proposed, bye)
    # The board: the running tables first, each with its round; round 2's bye.
    expect(board_cards(board)).to_have_text(
        ["Round 1 · Table 1", "Round 2 · Table 1", "Round 1 · Table 2"]
    )
    expect(board.locator("#board-round-2 .byes")).to_have_text(f"Bye: {bye}")

    third_scorer = scorer_of(third, members)
    open_partie(third_scorer, third)
    plays_a_game(third_scorer, third, G(80, knocker=third_scorer.name))
    # Table 1 of round 1 ends: its other player enters the last hand on his phone.
    other = members[next(name for name in first.players if name != first_scorer.name)]
    open_partie(other, first)
    plays_a_game(other, first, G(85, knocker=other.name))
    expect(board.locator(".board-round.folded")).to_have_count(2)
    expect(board.locator(".board-table")).to_have_count(0)

    # Round 3: everyone again; two tables and a bye.
    organiser.reload()
    expect(organiser.locator(".still-playing")).to_have_count(0)
    proposed, bye = propose(organiser, tables=2)
    fourth, fifth = start(organiser, 3, proposed, bye)
    expect(board_cards(board)).to_have_text(["Round 3 · Table 1", "Round 3 · Table 2"])
    expect(board.locator("#board-round-3 .byes")).to_have_text(f"Bye: {bye}")
    fourth_scorer, fifth_scorer = scorer_of(fourth, members), scorer_of(fifth, members)
    open_partie(fourth_scorer, fourth)
    plays_a_game(fourth_scorer, fourth, G(95, knocker=fourth_scorer.name))
    open_partie(fifth_scorer, fifth)
    enter(fifth_scorer, fifth, K(2, 30, knocker=fifth_scorer.name))  # 28, still playing

    # The loser of table 1 disputes the result on his phone.
    loser = members[next(name for name in fourth.players if name != fourth_scorer.name)]
    open_partie(loser, fourth)
    loser.page.locator("#confirmations").get_by_role("link", name=loser.words["result"]).click()
    loser.page.locator("details.dispute > summary").click()
    loser.page.get_by_label(loser.words["note"]).fill("I had a run of four, not deadwood")
    loser.page.locator("details.dispute").get_by_role("button").click()
    expect(loser.page.locator(".confirmation-disputed")).to_have_count(1)

    # The board tells the room: round 3's running table first, rounds 2 and 1 folded
    # with their byes; and the owner's notice of the dispute stays on his own screen.
    expect(board_cards(board)).to_have_text(["Round 3 · Table 2", "Round 3 · Table 1"])
    expect(board.locator(".board-table").first).to_have_class(re.compile(r"\brunning\b"))
    expect(board.locator(".board-round.folded")).to_have_count(2)
    expect(board.locator(".board-round .byes")).to_have_count(3)
    organiser.reload()
    expect(organiser.locator(".confirmation-notice")).to_contain_text("1 disputed game to look at")
    expect(board.locator(".confirmation-notice")).to_have_count(0)
    expect(board.locator("main")).not_to_contain_text("disputed")
    for name, size in (("1920", BAR), ("1280", SMALL_BAR)):
        board.set_viewport_size(size)
        fits_the_screen(board)
        small_screenshot(board, f"board-{name}", full_page=False)

    plays_a_game(fifth_scorer, fifth, G(76, knocker=fifth_scorer.name))
    expect(board.locator(".board-round.folded")).to_have_count(3)

    # The night's money: held back for the disputed game, named, until it is resolved.
    organiser.goto(season_page)
    organiser.get_by_role("link", name="League night").click()
    organiser.get_by_role("link", name="Settle the night's money").click()
    held = organiser.locator(".held-games")
    expect(held).to_contain_text("The settle-up waits for this game")
    expect(held.locator("li")).to_have_text(f"{' – '.join(fourth.players)}: disputed")
    settle = organiser.get_by_role("button", name="Settle up: freeze these payments")
    expect(settle).to_have_count(0)
    evening_page = organiser.url

    # The owner decides that the result stands; the night's money settles in one tap.
    held.get_by_role("link").click()
    organiser.locator("details.decide > summary").click()
    organiser.get_by_label("Why does the result stand?").fill("The run was not laid off")
    organiser.get_by_role("button", name="Decide: the result stands").click()
    expect(organiser.locator(".confirmation-decided")).to_have_count(1)
    organiser.goto(evening_page)
    expect(organiser.locator(".held-games")).to_have_count(0)
    settle.click()
    transfers = settle_up([first, second, third, fourth, fifth])
    assert len(transfers) < len(FRIENDS)  # the fewest: fewer than one each
    expect(organiser.get_by_role("button", name="Mark paid")).to_have_count(len(transfers))
    expect(organiser.locator(".payments li")).to_have_count(len(transfers))
    expect(organiser.locator(".payments li")).to_contain_text(transfers)

    # The members scored every table; Dora on hers in German; the roles are as they were.
    assert dora.hands > 0
    entered = sum(member.hands for member in members.values())
    assert entered == sum(len(t.hands) for t in (first, second, third, fourth, fifth))
    assert roles_in_the_club() == {owner.username: Role.OWNER} | dict.fromkeys(FRIENDS, Role.MEMBER)
