"""More than two at the table, end to end on a phone: the chouette, the three-player
rotation (RULES.md §6, §10.10–§10.11), and an evening that settles its parties up.

Before every hand the status says who is in the box, who captains, who sits out and
who deals, and the hand form offers only the two at the table as knocker. A knock
of 1 against points + 1 scores exactly `points` for the knocker.
"""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.browser.conftest import (
    KINDS,
    enter_hand,
    expect_no_sideways_scroll,
    expect_same_page,
    expect_table_swapped,
    expect_totals,
    go_to,
    hand_rows,
    mark_page,
    seat,
    start_partie,
    status,
    tap,
)


def knockers(page: Page) -> Locator:
    return page.locator("form.hand-form .field-knocker label.choice")


def expect_roles(page: Page, number: int, box: str, captain: str, out: str, dealer: str) -> None:
    """The status before hand `number`, and a knocker choice of the box and the captain only."""
    expect(status(page)).to_have_text(
        f"Hand {number}: {box} in the box against {captain} (captain); {dealer} deals. Out: {out}."
    )
    expect(knockers(page)).to_have_text([box, captain])


def knock(page: Page, rows: int, winner: str, points: int) -> None:
    """`winner` knocks 1 against points + 1 and wins `points`; wait for the swap."""
    enter_hand(page, "knock", winner, 1, points + 1)
    expect(hand_rows(page)).to_have_count(rows)
    expect_table_swapped(page)


# RULES.md §6: X box, Y captain, Z; classic values. Before each hand: box, captain,
# out, dealer (the loser deals, §10.10); then the winner, his points, and the box's
# and the team's running totals.
CHOUETTE = [
    ("X", "Y", "Z", "Y", "Y", 20, 0, 20),
    ("X", "Y", "Z", "X", "Y", 15, 0, 35),
    ("X", "Y", "Z", "X", "X", 30, 30, 35),  # Y loses: Z captains, in Y's seat, and deals
    ("X", "Z", "Y", "Z", "Z", 40, 30, 75),
    ("X", "Z", "Y", "X", "Z", 30, 30, 105),  # the team reaches the target
]


def test_a_three_player_chouette_plays_the_rules_example_and_changes_box(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    expect(seat(page, 3)).to_be_hidden()
    tap(page, "kind", KINDS["chouette"])
    # A chouette seats three to eight: three shown, one more for each "Add a player".
    expect(seat(page, 3)).to_be_visible()
    expect(seat(page, 4)).to_be_hidden()
    expect(page.get_by_role("button", name="Add a player")).to_be_visible()
    expect(page.locator(".field-first_dealer")).to_be_hidden()  # the roles say who deals
    tap(page, "kind", KINDS["two_player"])
    expect(seat(page, 3)).to_be_hidden()
    start_partie(page, "chouette", ["X", "Y", "Z"], stake="0.10")

    expect(page.get_by_role("heading", level=1)).to_have_text("X – Y – Z")
    expect(page.locator("table.sheet thead th.num")).to_have_text(["X", "Team"])
    expect(page.locator("table.sheet caption")).to_have_text("Game 1 · X in the box against Y, Z")
    for number, (box, captain, out, dealer, winner, points, *totals) in enumerate(CHOUETTE, 1):
        expect_roles(page, number, box, captain, out, dealer)
        knock(page, number, winner, points)
        expect_totals(page, number, *totals)
        row = hand_rows(page).nth(number - 1)
        expect(row).to_contain_text(f"{box} box, {captain} captain · {out} out · {dealer} dealt")

    # Team 105 + 4 boxes × 20 + 100 = 285; X 30 + 20 = 50; X pays 235 to each member.
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(["50", "285"])
    settlement = page.locator(".settlement")
    expect(page.locator("tfoot tr.foot-net td.num")).to_have_text(["−470", "+235"])  # to each
    expect(settlement.locator(".pays")).to_have_text(
        ["Game 1: X pays Y 235 points = 23.50", "Game 1: X pays Z 235 points = 23.50"]
    )
    # The box lost the last hand: Z becomes box against his former partner, who deals.
    expect_roles(page, 6, "Z", "Y", "X", "Y")
    page.screenshot(path="/tmp/chouette.png", full_page=True)
    expect_no_sideways_scroll(page)

    knock(page, 6, "Z", 10)  # the first hand of game 2, in fresh columns
    # game 1 stays whole above, with X in its box; game 2 has its own table
    expect(page.locator("table.sheet caption")).to_have_text(
        [
            "Game 1 · X in the box against Y, Z · the team won by 235 points.",
            "Game 2 · Z in the box against Y, X",
        ]
    )
    expect(page.locator("table.sheet thead th.num")).to_have_text(["X", "Team", "Z", "Team"])
    expect_totals(page, 6, 10, 0)
    expect(settlement.locator(".pays")).to_have_text(
        ["Game 1: X pays Y 235 points = 23.50", "Game 1: X pays Z 235 points = 23.50"]
    )
    expect_roles(page, 7, "Z", "X", "Y", "X")  # the box won: X captains, in Y's seat


# Five players: A box, then B, C, D, E captain in turn. The box wins four hands
# running, so the captaincy goes once round the team and back to B.
FIVE = [
    # box, captain, out, dealer, winner, points
    ("A", "B", "C, D, E", "B", "B", 10),
    ("A", "B", "C, D, E", "A", "A", 10),  # B loses: C captains, in B's seat, and deals
    ("A", "C", "D, E, B", "C", None, None),  # a no game: the same roles, the same dealer
    ("A", "C", "D, E, B", "C", "A", 10),
    ("A", "D", "E, B, C", "D", "A", 10),
    ("A", "E", "B, C, D", "E", "A", 10),
    ("A", "B", "C, D, E", "B", "B", 10),  # round the team and back to the first captain
]


def test_a_five_player_chouette_passes_the_captaincy_round_the_team(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    start_partie(page, "chouette", ["A", "B", "C", "D", "E"])

    for number, (box, captain, out, dealer, winner, points) in enumerate(FIVE, 1):
        expect_roles(page, number, box, captain, out, dealer)
        if winner is None:
            enter_hand(page, "no_game")
            expect(hand_rows(page)).to_have_count(number)
            expect_table_swapped(page)
        else:
            knock(page, number, winner, points)
    expect_totals(page, len(FIVE), 40, 20)
    expect_roles(page, len(FIVE) + 1, "A", "B", "C, D, E", "A")


# RULES.md §6: P box, Q captain, R out; the box deals every hand. Then R's gin of 80
# (100 points) takes him past the target.
ROTATION = [
    # box, captain, out, winner, points, then P's, Q's and R's running totals
    ("P", "Q", "R", "P", 20, 20, 0, 0),
    ("P", "R", "Q", "R", 15, 20, 0, 15),
    ("R", "Q", "P", "R", 12, 20, 0, 27),
]


def test_a_three_player_rotation_turns_the_roles_and_settles_pairwise(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/parties/new/")
    tap(page, "kind", KINDS["three_player"])
    expect(seat(page, 3)).to_be_visible()
    expect(seat(page, 4)).to_be_hidden()
    start_partie(page, "three_player", ["P", "Q", "R"], stake="0.05")

    expect(page.locator("table.sheet thead th.num")).to_have_text(["P", "Q", "R"])
    for number, (box, captain, out, winner, points, *totals) in enumerate(ROTATION, 1):
        expect_roles(page, number, box, captain, out, box)
        knock(page, number, winner, points)
        expect_totals(page, number, *totals)
    expect_roles(page, 4, "R", "P", "Q", "R")

    enter_hand(page, "gin", "R", dd=80)
    expect(hand_rows(page)).to_have_count(4)
    expect_table_swapped(page)
    expect(status(page)).to_have_text("The partie is over: R won.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    # P 20 + a box; Q shut out; R 127 + 3 boxes + the game + 100 for shutting Q out.
    expect(page.locator("tfoot tr.grand td.num")).to_have_text(["40", "0", "387"])
    # Pairwise: the shutout counts only between R and Q.
    expect(page.locator(".settlement .pays")).to_have_text(
        [
            "Q pays P 40 points = 2.00",
            "P pays R 247 points = 12.35",
            "Q pays R 387 points = 19.35",
            # netted, two transfers do: P gets 2.00 from Q and pays 12.35 to R
            "In all: P pays R 10.35",
            "In all: Q pays R 21.35",
        ]
    )


@pytest.fixture
def rotation(owner: User) -> Partie:
    """The §6 rotation after its three hands: R box against P, Q out."""
    partie = services.partie_start(
        owner=owner,
        names=["P", "Q", "R"],
        rules=engine.preset("classic"),
        kind=Partie.Kind.THREE_PLAYER,
    )
    for winner, points in (("P", 20), ("R", 15), ("R", 12)):
        hand = engine.Hand.knock(1, points + 1, knocker=winner)
        services.hand_record(partie=partie, hand=hand, user=owner)
    return partie


def test_editing_an_early_rotation_hand_turns_the_later_roles_and_totals(
    logged_in_page: Page, rotation: Partie
) -> None:
    page = logged_in_page
    page.goto(rotation.get_absolute_url())
    expect(hand_rows(page).nth(1)).to_contain_text("P box, R captain · Q out")
    expect_roles(page, 4, "R", "P", "Q", "R")

    hand_rows(page).first.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    expect(knockers(page)).to_have_text(["P", "Q"])  # hand 1's table: P box, Q captain
    tap(page, "knocker", "Q")  # Q won it, not P
    page.get_by_role("button", name="Save the hand").click()

    expect(page).to_have_url(re.compile(rf"/parties/{rotation.pk}/$"))
    # Q wins hand 1 and takes the box; R and P follow him round.
    expect(hand_rows(page).nth(1)).to_contain_text("Q box, R captain · P out · Q dealt")
    expect(hand_rows(page).nth(2)).to_contain_text("R box, P captain · Q out · R dealt")
    expect_totals(page, 1, 0, 20, 0)
    expect_totals(page, 3, 0, 20, 27)
    expect_roles(page, 4, "R", "Q", "P", "R")


def test_an_evening_settles_its_parties_and_carries_the_open_debt(
    logged_in_page: Page,
) -> None:
    page = logged_in_page
    page.goto("/")
    go_to(page, "Evenings")
    page.get_by_label("Name").fill("Friday")
    page.get_by_role("button", name="Start an evening").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")
    evening_url = page.url

    # Modern values, 0.10 a point. Anna's big gin of 69 (100) shuts Ben out: 450 points.
    # Ben's two big gins of 20 (51 each) shut Cleo out: 504 points.
    for names, big_gins in ((["Anna", "Ben"], [69]), (["Ben", "Cleo"], [20, 20])):
        page.get_by_role("link", name="Start a partie in this evening").click()
        expect(page.get_by_text("It belongs to the evening Friday")).to_be_visible()
        start_partie(page, "two_player", names, stake="0.10", preset="modern")
        for number, deadwood in enumerate(big_gins, 1):
            enter_hand(page, "big_gin", names[0], dd=deadwood)
            expect(hand_rows(page)).to_have_count(number)
            expect_table_swapped(page)
        expect(status(page)).to_have_text(f"The partie is over: {names[0]} won.")
        page.goto(evening_url)

    parties = page.locator("ul.parties li")
    expect(parties).to_have_count(2)
    expect(parties.nth(0)).to_contain_text("Ben pays Anna 450 points = 45.00")
    expect(parties.nth(1)).to_contain_text("Cleo pays Ben 504 points = 50.40")
    expect(page.locator("table.compare tbody tr")).to_have_text(
        [
            # points and money signed the one way: + won, − (not a hyphen) paid
            re.compile(r"^Anna\s*\+450\s*\+45\.00$"),
            re.compile(r"^Ben\s*\+54\s*\+5\.40$"),
            re.compile(r"^Cleo\s*−504\s*−50\.40$"),
        ]
    )
    # The fewest transfers: Cleo pays both, and Ben does not pay Anna at all.
    expect(page.locator("ul.payments li")).to_have_text(
        ["Cleo pays Anna 45.00", "Cleo pays Ben 5.40"]
    )
    page.get_by_role("button", name="Settle up").click()

    expect(page).to_have_url(evening_url)
    expect(page.get_by_role("link", name="Start a partie in this evening")).to_have_count(0)
    payments = page.locator("li.payment")
    expect(payments).to_have_count(2)
    mark_page(page)
    payments.nth(0).get_by_role("button", name="Mark paid").click()
    expect(payments.nth(0)).to_have_class(re.compile(r"\bpaid\b"))
    expect(payments.nth(0).locator(".badge")).to_have_text("paid")
    expect(payments.nth(1)).not_to_have_class(re.compile(r"\bpaid\b"))
    expect(payments.nth(0).locator("span").first).to_have_text("Cleo pays Anna 45.00")
    expect(payments.nth(1).locator("span").first).to_have_text("Cleo pays Ben 5.40")
    expect(page.locator("#settle-text")).to_have_value("Cleo → Anna: 45.00\nCleo → Ben: 5.40")
    expect_same_page(page)
    page.screenshot(path="/tmp/evening.png", full_page=True)
    expect_no_sideways_scroll(page)

    page.get_by_role("link", name="Cleo", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cleo")
    expect(page.locator("main ul").first.locator("li")).to_have_text(
        [re.compile(r"^owes Ben 5\.40 \(Friday")]
    )

    # A second evening with Ben and Cleo: the unpaid 5.40 comes along.
    go_to(page, "Evenings")
    expect(page.locator("ul.parties li").filter(has_text="Friday")).to_contain_text("settled")
    page.get_by_label("Name").fill("Saturday")
    page.get_by_role("button", name="Start an evening").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Saturday")
    saturday_url = page.url
    page.get_by_role("link", name="Start a partie in this evening").click()
    start_partie(page, "two_player", ["Ben", "Cleo"])
    page.goto(saturday_url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Saturday")
    expect(page.get_by_text("Open debts from earlier evenings")).to_be_visible()
    expect(page.locator("main li").filter(has_text="owes")).to_have_text(
        [re.compile(r"^Cleo owes Ben 5\.40 \(Friday")]
    )
    # this evening's balances alone (nothing played yet), then the debt, then the transfer
    expect(page.locator("table.compare tbody tr")).to_have_text(
        [re.compile(r"^Ben\s*0\s*0\.00$"), re.compile(r"^Cleo\s*0\s*0\.00$")]
    )
    expect(page.locator("ul.payments li")).to_have_text(["Cleo pays Ben 5.40"])


LONG = ["Maximiliane", "Bartholomew", "Christabella", "Dorotheanna"]


def _crowded_chouette(owner: User) -> Partie:
    """Eight players with long names, a finished game and one of the next."""
    names = LONG + ["Evangelista", "Fitzwilliam", "Gwendolynne", "Hieronymus"]
    partie = services.partie_start(
        owner=owner,
        names=names,
        rules=engine.preset("classic"),
        kind=Partie.Kind.CHOUETTE,
        stake=Decimal("0.25"),
    )
    for points in (40, 40, 40, 10):
        hand = engine.Hand.knock(1, points + 1, knocker=names[1])
        services.hand_record(partie=partie, hand=hand, user=owner)
    return partie


def _settled_evening(owner: User) -> str:
    evening = services.evening_start(owner=owner, name="Long Friday night", played_on=date.today())
    for first, second in ((LONG[0], LONG[1]), (LONG[2], LONG[3])):
        partie = services.partie_start(
            owner=owner,
            names=[first, second],
            rules=engine.preset("classic"),
            stake=Decimal("1.25"),
            evening=evening,
        )
        for _ in range(2):  # 50 each: two gins end the partie
            hand = engine.Hand.gin(30, knocker=first)
            services.hand_record(partie=partie, hand=hand, user=owner)
    services.evening_settle(evening=evening)
    return evening.get_absolute_url()


@pytest.mark.parametrize("where", ["chouette", "evening"])
def test_long_names_do_not_make_the_page_scroll_sideways(
    logged_in_page: Page, owner: User, where: str
) -> None:
    if where == "chouette":
        page_url = _crowded_chouette(owner).get_absolute_url()
    else:
        page_url = _settled_evening(owner)
    page = logged_in_page
    page.goto(page_url)
    expect(page.locator("main h1")).to_be_visible()
    expect_no_sideways_scroll(page)
