"""Chouette and the three-player rotation through the real views (RULES.md §6, §10.10–11).

Only the box and the captain play a hand; the page says before each hand who is box,
captain, out and who deals, and the hand form offers only the two at the table.
"""

import io
import json
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import resolve, reverse

from scorekeeper.engine.record import loads, tally
from scorekeeper.table import selectors
from scorekeeper.table.models import Hand, Partie, Seat
from tests.table.helpers import page, post_hand, record, start, start_fields, state_of, wins

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

# RULES.md §6, chouette [C]: X box, Y captain, Z. Y+20, Y+15, X+30, Z+40, Z+30.
CHOUETTE_EXAMPLE = (("Y", 20), ("Y", 15), ("X", 30), ("Z", 40), ("Z", 30))
# RULES.md §6, three players [C]: P box, Q captain, R out. P+20, R+15, R+12.
THREE_PLAYER_EXAMPLE = (("P", 20), ("R", 15), ("R", 12))


def status(html):
    """The sentence above the hand form, whitespace folded."""
    block = html[html.index('<p id="status"') :]
    block = block[block.index(">") + 1 : block.index("</p>")]
    return " ".join(block.split())


def knocker_choices(html):
    """The values of the knocker radio buttons of the hand form."""
    return re.findall(r'<input type="radio" name="knocker" value="([^"]*)"', html)


def field_errors(html, name):
    block = html[html.index(f'<div class="field field-{name}') :]
    block = block[: block.index('<div class="field ', 10)]
    return re.findall(r'<p class="error" role="alert">(.*?)</p>', block)


def row_texts(html):
    """What each row of the sheet, in every game's table, says about its hand (knocker,
    roles, dealer)."""
    bodies = re.findall(r"<tbody.*?</tbody>", html, re.S)
    return [
        " ".join(text.split())
        for body in bodies
        for text in re.findall(r"<small>(.*?)</small>", body, re.S)
    ]


def totals_in(html):
    """The running totals in the table of the game being played."""
    start = html.index('<tbody id="sheet-body">')
    body = html[start : html.index("</tbody>", start)]
    return [int(total) for total in re.findall(r'<span class="total">(-?\d+)</span>', body)]


def foot_line(html, label):
    """The figures of one line of the sheet's footer."""
    start = html.index('<tfoot id="sheet-foot"')
    foot = html[start : html.index("</tfoot>", start)]
    line = foot[foot.index(f">{label}</th>") :]
    line = line[: line.index("</tr>")]
    return [int(n) for n in re.findall(r'<td class="num">(-?\d+)</td>', line)]


def pays_lines(html):
    """The settlement lines under the sheet, tags removed."""
    lines = re.findall(r'<p class="pays">(.*?)</p>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", line).split()) for line in lines]


def seats_of(partie):
    return [
        (seat.position, seat.player.name, seat.stake)
        for seat in Seat.objects.filter(partie=partie).select_related("player")
    ]


@pytest.fixture
def chouette(client_owner):
    """X, Y and Z in cut order, at 0.10 a point; Z plays the box for 0.20 a point."""
    data = start_fields("chouette", ["X", "Y", "Z"], stake="0.10", stake_3="0.20")
    return start(client_owner, data)


@pytest.fixture
def three_player(client_owner):
    """P, Q and R in cut order, at 0.05 a point."""
    return start(client_owner, start_fields("three_player", ["P", "Q", "R"], stake="0.05"))


# Starting a chouette and a three-player rotation through the start form


def test_the_start_form_offers_chouette_and_three_players_and_eight_seats(client_owner):
    html = client_owner.get(reverse("partie_new")).content.decode()

    assert '<input type="radio" name="kind" value="chouette"' in html
    assert '<input type="radio" name="kind" value="three_player"' in html
    assert re.findall(r'name="player_(\d)"', html) == [str(n) for n in range(1, 9)]
    assert re.findall(r'name="stake_(\d)"', html) == [str(n) for n in range(2, 9)]


def test_a_three_player_chouette_seats_the_cut_order_and_the_first_captain_deals(
    client_owner, owner, chouette
):
    assert chouette.owner == owner
    assert chouette.kind == Partie.Kind.CHOUETTE
    assert seats_of(chouette) == [
        (0, "X", None),
        (1, "Y", None),
        (2, "Z", Decimal("0.2000")),
    ]
    assert chouette.stake == Decimal("0.1000")
    assert chouette.first_dealer.name == "Y"
    assert status(page(client_owner, chouette)) == (
        "Hand 1: X in the box against Y (captain); Y deals. Out: Z."
    )


def test_a_five_player_chouette_keeps_each_members_own_stake(client_owner):
    data = start_fields("chouette", ["A", "B", "C", "D", "E"], stake="0.05", stake_4="0.5")

    partie = start(client_owner, data)

    assert seats_of(partie) == [
        (0, "A", None),
        (1, "B", None),
        (2, "C", None),
        (3, "D", Decimal("0.5000")),
        (4, "E", None),
    ]
    assert status(page(client_owner, partie)) == (
        "Hand 1: A in the box against B (captain); B deals. Out: C, D, E."
    )


def test_a_three_player_rotation_seats_box_captain_out_and_the_box_deals(
    client_owner, three_player
):
    assert three_player.kind == Partie.Kind.THREE_PLAYER
    assert seats_of(three_player) == [(0, "P", None), (1, "Q", None), (2, "R", None)]
    assert three_player.first_dealer.name == "P"
    assert status(page(client_owner, three_player)) == (
        "Hand 1: P in the box against Q (captain); P deals. Out: R."
    )


def test_a_member_stake_is_kept_only_for_a_chouette(client_owner):
    data = start_fields("three_player", ["P", "Q", "R"], stake="0", stake_2="0.5")

    partie = start(client_owner, data)

    assert [stake for _, _, stake in seats_of(partie)] == [None, None, None]


@pytest.mark.parametrize("kind", ["chouette", "three_player"])
def test_two_names_are_too_few_and_the_third_player_is_asked_for(client_owner, kind):
    response = client_owner.post(reverse("partie_new"), start_fields(kind, ["X", "Y"], stake="0"))

    assert response.status_code == 200
    html = response.content.decode()
    assert field_errors(html, "player_3") == ["Enter a name."]
    assert field_errors(html, "player_1") == field_errors(html, "player_2") == []
    assert Partie.objects.count() == 0


def test_a_chouette_seats_eight_and_a_ninth_name_has_no_field_to_go_in(client_owner):
    names = [f"P{n}" for n in range(1, 10)]
    data = start_fields("chouette", names, stake="0")  # player_9 is not a field of the form

    partie = start(client_owner, data)

    assert partie.player_names == names[:8]
    assert "player_9" not in client_owner.get(reverse("partie_new")).content.decode()


def test_a_three_player_rotation_with_a_fourth_name_is_refused_beside_player_4(client_owner):
    data = start_fields("three_player", ["P", "Q", "R", "S"], stake="0")

    response = client_owner.post(reverse("partie_new"), data)

    html = response.content.decode()
    assert field_errors(html, "player_4") == ["This kind of partie seats no more players."]
    assert field_errors(html, "player_3") == []
    assert Partie.objects.count() == 0


def test_the_same_name_twice_is_refused_beside_the_second(client_owner):
    data = start_fields("chouette", ["X", "Y", "x"], stake="0")

    response = client_owner.post(reverse("partie_new"), data)

    assert field_errors(response.content.decode(), "player_3") == [
        "Each player needs a name of their own."
    ]
    assert Partie.objects.count() == 0


# Who plays each hand


def test_the_chouette_hand_form_offers_only_the_box_and_the_captain(client_owner, chouette):
    assert knocker_choices(page(client_owner, chouette)) == ["X", "Y"]


# One club's roster per test: "P" is one letter from "X", and the start form would ask.
def test_the_hand_form_offers_only_the_box_and_the_captain(client_owner, three_player):
    assert knocker_choices(page(client_owner, three_player)) == ["P", "Q"]

    record(client_owner, three_player, ("P", 20))  # the box won: captain and out swap

    html = page(client_owner, three_player)
    assert status(html) == "Hand 2: P in the box against R (captain); P deals. Out: Q."
    assert knocker_choices(html) == ["P", "R"]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_player_who_sits_out_cannot_knock_and_nothing_is_saved(client_owner, chouette, htmx):
    before = state_of(chouette)

    response = post_hand(client_owner, chouette, wins("Z", 20), **(HTMX if htmx else {}))

    html = response.content.decode()
    assert response.status_code == (200 if htmx else 400)
    assert field_errors(html, "knocker") == ["Z is not at the table: X (box) plays Y (captain)."]
    assert knocker_choices(html) == ["X", "Y"]
    assert state_of(chouette) == before


def test_the_not_at_the_table_message_is_translated(client_owner, three_player):
    response = post_hand(client_owner, three_player, wins("R", 20), HTTP_ACCEPT_LANGUAGE="de")

    assert field_errors(response.content.decode(), "knocker") == [
        "R sitzt nicht am Tisch: P (Box) spielt gegen Q (Kapitän)."
    ]
    assert Hand.objects.count() == 0


def test_a_stranger_as_knocker_is_still_not_a_valid_choice(client_owner, chouette):
    response = post_hand(client_owner, chouette, wins("Carl", 20))

    assert field_errors(response.content.decode(), "knocker") == [
        "Select a valid choice. Carl is not one of the available choices."
    ]
    assert Hand.objects.count() == 0


def test_a_chouette_hand_by_htmx_returns_the_table_with_the_next_roles(client_owner, chouette):
    response = post_hand(client_owner, chouette, wins("X", 30), **HTMX)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#table"
    html = response.content.decode()
    assert status(html) == "Hand 2: X in the box against Z (captain); Z deals. Out: Y."
    assert knocker_choices(html) == ["X", "Z"]
    assert row_texts(html) == ["X 1 v 31 · X box, Y captain · Z out · Y dealt"]


# The chouette example of RULES.md §6


def test_the_chouette_example_before_each_hand_and_in_each_row(client_owner, chouette):
    statuses, choices = [], []
    for who, points in CHOUETTE_EXAMPLE:
        html = page(client_owner, chouette)
        statuses.append(status(html))
        choices.append(knocker_choices(html))
        record(client_owner, chouette, (who, points))

    assert statuses == [
        "Hand 1: X in the box against Y (captain); Y deals. Out: Z.",
        "Hand 2: X in the box against Y (captain); X deals. Out: Z.",
        "Hand 3: X in the box against Y (captain); X deals. Out: Z.",
        "Hand 4: X in the box against Z (captain); Z deals. Out: Y.",
        "Hand 5: X in the box against Z (captain); X deals. Out: Y.",
    ]
    assert choices == [["X", "Y"], ["X", "Y"], ["X", "Y"], ["X", "Z"], ["X", "Z"]]
    html = page(client_owner, chouette)
    assert row_texts(html) == [
        "Y 1 v 21 · X box, Y captain · Z out · Y dealt",
        "Y 1 v 16 · X box, Y captain · Z out · X dealt",
        "X 1 v 31 · X box, Y captain · Z out · X dealt",
        "Z 1 v 41 · X box, Z captain · Y out · Z dealt",
        "Z 1 v 31 · X box, Z captain · Y out · X dealt",
    ]
    # box, team per hand: the team column wins with whichever member captains
    assert totals_in(html) == [0, 20, 0, 35, 30, 35, 30, 75, 30, 105]


def test_the_chouette_example_x_pays_235_to_y_and_to_z_at_each_stake(client_owner, chouette):
    record(client_owner, chouette, *CHOUETTE_EXAMPLE)

    html = page(client_owner, chouette)
    assert foot_line(html, "Boxes") == [1, 4]
    assert foot_line(html, "Points") == [30, 105]
    assert foot_line(html, "Box bonus (20 each)") == [20, 80]
    assert foot_line(html, "Game bonus") == [0, 100]
    assert foot_line(html, "Total") == [50, 285]
    assert '<td class="num">+235</td>' in html  # the team's net, for each member
    # Y plays at the partie's 0.10, Z at his own 0.20: only Z's amount differs
    assert pays_lines(html) == [
        "Game 1: X pays Y 235 points = 23.50",
        "Game 1: X pays Z 235 points = 47.00",
    ]


def test_a_member_stake_changes_that_members_amount_only(client_owner):
    data = start_fields("chouette", ["X", "Y", "Z"], stake="0.10")
    same = record(client_owner, start(client_owner, data), *CHOUETTE_EXAMPLE)
    data = start_fields("chouette", ["X", "Y", "Z"], stake="0.10", stake_2="0.01")
    own = record(client_owner, start(client_owner, data), *CHOUETTE_EXAMPLE)

    assert pays_lines(page(client_owner, same)) == [
        "Game 1: X pays Y 235 points = 23.50",
        "Game 1: X pays Z 235 points = 23.50",
    ]
    assert pays_lines(page(client_owner, own)) == [
        "Game 1: X pays Y 235 points = 2.35",
        "Game 1: X pays Z 235 points = 23.50",
    ]


def test_after_the_chouette_example_z_is_box_against_y_who_deals_and_x_joins_the_team(
    client_owner, chouette
):
    record(client_owner, chouette, *CHOUETTE_EXAMPLE)

    html = page(client_owner, chouette)
    assert status(html) == "Hand 6: Z in the box against Y (captain); Y deals. Out: X."
    assert knocker_choices(html) == ["Z", "Y"]
    assert chouette.summary["next_dealer"] == "Y"
    assert chouette.state == Partie.State.RUNNING  # a chouette goes on, game after game


def test_in_game_2_the_old_box_sits_in_the_team_and_the_rows_start_game_2(client_owner, chouette):
    record(client_owner, chouette, *CHOUETTE_EXAMPLE)
    before = state_of(chouette)

    refused = post_hand(client_owner, chouette, wins("X", 10))
    assert field_errors(refused.content.decode(), "knocker") == [
        "X is not at the table: Z (box) plays Y (captain)."
    ]
    assert state_of(chouette) == before

    record(client_owner, chouette, ("Z", 25))  # the new box beats Y: X captains

    html = page(client_owner, chouette)
    assert status(html) == "Hand 7: Z in the box against X (captain); X deals. Out: Y."
    # game 1 stays whole, with X as its box; game 2 has Z in the box
    assert re.findall(r"<caption><strong>(Game \d)</strong> · ([^<]*)", html) == [
        ("Game 1", "X in the box against Y, Z · "),
        ("Game 2", "Z in the box against Y, X"),
    ]
    heads = re.findall(r'<th scope="col" class="num" title="(\w+)">', html)
    assert heads == ["X", "Team", "Z", "Team"]
    assert row_texts(html)[-1] == "Z 1 v 26 · Z box, Y captain · X out · Y dealt"
    assert totals_in(html)[-2:] == [25, 0]  # game 2 starts from nothing
    assert foot_line(html, "Boxes") == [1, 0]
    # game 1 stays settled while game 2 runs
    assert pays_lines(html) == [
        "Game 1: X pays Y 235 points = 23.50",
        "Game 1: X pays Z 235 points = 47.00",
    ]


# A five-player chouette over two games

FIVE = ("A", "B", "C", "D", "E")
# Game 1: A wins four hands in a row, each against the next captain, round to B again;
# B wins one for the team, then A reaches 100. Game 2: C wins twice for the team.
FIVE_HANDS = (
    ("A", 20),
    ("A", 20),
    ("A", 20),
    ("A", 20),
    ("B", 10),
    ("A", 20),
    ("C", 60),
    ("C", 45),
)


@pytest.fixture
def five(client_owner):
    return start(client_owner, start_fields("chouette", FIVE, stake="0.05"))


def test_the_captaincy_goes_round_the_team_and_wraps_to_the_first_captain(client_owner, five):
    statuses = []
    for hand in FIVE_HANDS[:5]:
        statuses.append(status(page(client_owner, five)))
        record(client_owner, five, hand)
    statuses.append(status(page(client_owner, five)))

    assert statuses == [
        "Hand 1: A in the box against B (captain); B deals. Out: C, D, E.",
        "Hand 2: A in the box against C (captain); C deals. Out: D, E, B.",
        "Hand 3: A in the box against D (captain); D deals. Out: E, B, C.",
        "Hand 4: A in the box against E (captain); E deals. Out: B, C, D.",
        "Hand 5: A in the box against B (captain); B deals. Out: C, D, E.",
        # B won hand 5: he captains on, and the box, who lost it, deals
        "Hand 6: A in the box against B (captain); A deals. Out: C, D, E.",
    ]


def test_when_the_box_won_the_game_he_stays_and_the_next_member_captains_and_deals(
    client_owner, five
):
    record(client_owner, five, *FIVE_HANDS[:6])

    html = page(client_owner, five)
    assert foot_line(html, "Total") == [300, 30]  # A 100 + 100 + 5 × 20; team 10 + 20
    assert status(html) == "Hand 7: A in the box against C (captain); C deals. Out: D, E, B."
    assert knocker_choices(html) == ["A", "C"]
    assert pays_lines(html) == [f"Game 1: {m} pays A 270 points = 13.50" for m in "BCDE"]


def test_when_the_box_lost_the_game_the_captain_takes_the_box_and_the_old_box_joins_last(
    client_owner, five
):
    record(client_owner, five, *FIVE_HANDS)

    html = page(client_owner, five)
    # game 2: the team 105 + 100 + 2 × 20 and a shutout 100; A 0
    assert foot_line(html, "Total") == [0, 345]
    assert status(html) == "Hand 9: C in the box against D (captain); D deals. Out: E, B, A."
    assert knocker_choices(html) == ["C", "D"]
    assert row_texts(html)[6:] == [
        "C 1 v 61 · A box, C captain · D, E, B out · C dealt",
        "C 1 v 46 · A box, C captain · D, E, B out · A dealt",
    ]
    assert pays_lines(html) == [f"Game 1: {m} pays A 270 points = 13.50" for m in "BCDE"] + [
        f"Game 2: A pays {m} 345 points = 17.25" for m in "CDEB"
    ]
    assert five.summary["next_dealer"] == "D"


# The three-player example of RULES.md §6


def test_the_three_player_example_roles_after_every_hand_and_the_totals(client_owner, three_player):
    statuses = []
    for hand in THREE_PLAYER_EXAMPLE:
        statuses.append(status(page(client_owner, three_player)))
        record(client_owner, three_player, hand)
    html = page(client_owner, three_player)
    statuses.append(status(html))

    assert statuses == [
        "Hand 1: P in the box against Q (captain); P deals. Out: R.",
        "Hand 2: P in the box against R (captain); P deals. Out: Q.",
        "Hand 3: R in the box against Q (captain); R deals. Out: P.",
        "Hand 4: R in the box against P (captain); R deals. Out: Q.",
    ]
    assert row_texts(html) == [
        "P 1 v 21 · P box, Q captain · R out · P dealt",
        "R 1 v 16 · P box, R captain · Q out · P dealt",
        "R 1 v 13 · R box, Q captain · P out · R dealt",
    ]
    # P, Q, R after each hand: the player out never scores
    assert totals_in(html) == [20, 0, 0, 20, 0, 15, 20, 0, 27]
    assert three_player.summary["totals"] == {"P": 20, "Q": 0, "R": 27}
    assert pays_lines(html) == []  # a game still running settles nothing


def test_the_three_player_game_played_to_the_target_settles_pairwise(client_owner, three_player):
    record(client_owner, three_player, *THREE_PLAYER_EXAMPLE, ("R", 80))

    html = page(client_owner, three_player)
    assert status(html) == "The partie is over: R won."
    assert knocker_choices(html) == []  # no form once the game is over
    assert three_player.state == Partie.State.CLOSED
    assert foot_line(html, "Boxes") == [1, 0, 3]
    assert foot_line(html, "Points") == [20, 0, 107]
    assert foot_line(html, "Game bonus") == [0, 0, 100]
    assert foot_line(html, "Shutout") == [0, 0, 100]  # Q ended at 0
    assert foot_line(html, "Total") == [40, 0, 367]
    # each pair in cut order; R's shutout counts only against Q, whom he shut out
    assert pays_lines(html) == [
        "Q pays P 40 points = 2.00",
        "P pays R 227 points = 11.35",
        "Q pays R 367 points = 18.35",
    ]

    before = state_of(three_player)
    refused = post_hand(client_owner, three_player, wins("R", 5))
    assert "The partie is over: it takes no more hands." in refused.content.decode()
    assert state_of(three_player) == before


# Correcting an earlier hand turns the rotation again


def edit(client, partie, number, data):
    return client.post(reverse("hand_edit", args=[partie.pk, number]), data)


def test_the_edit_form_offers_the_two_who_played_that_hand(client_owner, three_player):
    record(client_owner, three_player, *THREE_PLAYER_EXAMPLE)

    pages = [
        client_owner.get(reverse("hand_edit", args=[three_player.pk, n])).content.decode()
        for n in (1, 2, 3)
    ]

    assert [knocker_choices(html) for html in pages] == [["P", "Q"], ["P", "R"], ["R", "Q"]]


def test_changing_the_first_hands_winner_turns_every_later_hand_and_its_totals(
    client_owner, three_player
):
    record(client_owner, three_player, *THREE_PLAYER_EXAMPLE)

    response = edit(client_owner, three_player, 1, wins("Q", 20))  # Q, not P, won hand 1

    assert response.status_code == 302
    html = page(client_owner, three_player)
    assert row_texts(html) == [
        "Q 1 v 21 · P box, Q captain · R out · P dealt",
        "R 1 v 16 · Q box, R captain · P out · Q dealt",
        "R 1 v 13 · R box, P captain · Q out · R dealt",
    ]
    assert totals_in(html) == [0, 20, 0, 0, 20, 15, 0, 20, 27]
    assert status(html) == "Hand 4: R in the box against Q (captain); R deals. Out: P."
    three_player.refresh_from_db()
    assert three_player.summary["totals"] == {"P": 0, "Q": 20, "R": 27}


def test_changing_a_chouette_hands_winner_turns_the_captaincy_of_every_later_hand(
    client_owner, chouette
):
    record(client_owner, chouette, ("X", 10), ("X", 10), ("X", 10))
    html = page(client_owner, chouette)
    assert row_texts(html) == [
        "X 1 v 11 · X box, Y captain · Z out · Y dealt",
        "X 1 v 11 · X box, Z captain · Y out · Z dealt",
        "X 1 v 11 · X box, Y captain · Z out · Y dealt",
    ]
    assert totals_in(html) == [10, 0, 20, 0, 30, 0]

    assert edit(client_owner, chouette, 1, wins("Y", 20)).status_code == 302

    html = page(client_owner, chouette)
    assert row_texts(html) == [
        "Y 1 v 21 · X box, Y captain · Z out · Y dealt",
        "X 1 v 11 · X box, Y captain · Z out · X dealt",
        "X 1 v 11 · X box, Z captain · Y out · Z dealt",
    ]
    assert totals_in(html) == [0, 20, 10, 20, 20, 20]
    assert status(html) == "Hand 4: X in the box against Y (captain); Y deals. Out: Z."


def test_an_edit_that_would_seat_a_later_knocker_out_is_refused_and_changes_nothing(
    client_owner, chouette
):
    record(client_owner, chouette, *CHOUETTE_EXAMPLE)
    before = state_of(chouette)

    # had Y won hand 3, he would still captain at hand 4, where Z knocked
    response = edit(client_owner, chouette, 3, wins("Y", 30))

    assert response.status_code == 400
    assert (
        '<p class="error" role="alert">Hand 4 would then be refused: '
        "Z is not at the table: X (box) plays Y (captain).</p>"
    ) in response.content.decode()
    assert state_of(chouette) == before


# Export, import and tally


def export(client, partie):
    response = client.get(reverse("partie_export", args=[partie.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def played_chouette(client_owner, chouette):
    return record(client_owner, chouette, *CHOUETTE_EXAMPLE, ("Z", 25))


@pytest.fixture
def played_three_player(client_owner, three_player):
    return record(client_owner, three_player, *THREE_PLAYER_EXAMPLE, ("R", 80))


EXPORTED = {
    "chouette": {
        "format": "scorekeeper/1",
        "kind": "chouette",
        "rules": {"preset": "classic"},
        "players": ["X", "Y", "Z"],
        "first_dealer": "Y",
        "stake": "0.1",
        "stakes": {"Z": "0.2"},
        "hands": [
            {"knocker": who, "knocker_deadwood": 1, "defender_deadwood": points + 1}
            for who, points in (*CHOUETTE_EXAMPLE, ("Z", 25))
        ],
    },
    "three_player": {
        "format": "scorekeeper/1",
        "kind": "three_player",
        "rules": {"preset": "classic"},
        "players": ["P", "Q", "R"],
        "first_dealer": "P",
        "stake": "0.05",
        "hands": [
            {"knocker": who, "knocker_deadwood": 1, "defender_deadwood": points + 1}
            for who, points in (*THREE_PLAYER_EXAMPLE, ("R", 80))
        ],
    },
}


@pytest.fixture(params=["chouette", "three_player"])
def played(request):
    return request.getfixturevalue(f"played_{request.param}")


def test_export_writes_the_cut_order_and_a_chouettes_member_stakes(client_owner, played):
    assert json.loads(export(client_owner, played)) == EXPORTED[played.kind]


def test_an_export_imports_again_with_the_same_seats_stakes_and_sheet(client_owner, played):
    exported = export(client_owner, played)

    response = client_owner.post(reverse("partie_import"), {"text": exported})

    assert response.status_code == 302
    copy = Partie.objects.exclude(pk=played.pk).get()
    assert response.url == copy.get_absolute_url()
    assert (copy.kind, copy.state, copy.rules, copy.stake, copy.summary) == (
        played.kind,
        played.state,
        played.rules,
        played.stake,
        played.summary,
    )
    assert [seat[1:] for seat in seats_of(copy)] == [seat[1:] for seat in seats_of(played)]
    assert copy.first_dealer.name == played.first_dealer.name
    assert export(client_owner, copy) == exported
    original, again = page(client_owner, played), page(client_owner, copy)
    assert row_texts(again) == row_texts(original)
    assert pays_lines(again) == pays_lines(original)
    assert status(again) == status(original)


def test_whole_stakes_are_exported_as_plain_numbers_and_import_again(client_owner):
    data = start_fields("chouette", ["X", "Y", "Z"], stake="10", stake_2="20")
    partie = record(client_owner, start(client_owner, data), *CHOUETTE_EXAMPLE)

    exported = json.loads(export(client_owner, partie))

    assert (exported["stake"], exported["stakes"]) == ("10", {"Y": "20"})  # not 1E+1, 2E+1
    response = client_owner.post(reverse("partie_import"), {"text": json.dumps(exported)})
    copy = Partie.objects.get(pk=resolve(response.url).kwargs["pk"])
    assert pays_lines(page(client_owner, copy)) == [
        "Game 1: X pays Y 235 points = 4700.00",
        "Game 1: X pays Z 235 points = 2350.00",
    ]


TALLIED = {
    "chouette": {
        "roles": {"box": "Z", "captain": "X", "out": ["Y"], "team": ["X", "Y"]},
        "settlement": [
            {"from": "X", "to": "Y", "points": 235, "amount": "23.50"},
            {"from": "X", "to": "Z", "points": 235, "amount": "47.00"},
        ],
        "games": [("X", ["Y", "Z"], "team", 235), ("Z", ["Y", "X"], None, 0)],
    },
    "three_player": {
        "roles": {"box": "R", "captain": "Q", "out": "P"},
        "settlement": [
            {"from": "Q", "to": "P", "points": 40, "amount": "2.00"},
            {"from": "P", "to": "R", "points": 227, "amount": "11.35"},
            {"from": "Q", "to": "R", "points": 367, "amount": "18.35"},
        ],
        "games": [(None, None, "R", 594)],
    },
}


def test_the_tally_of_an_export_carries_the_roles_and_the_settlement_the_page_shows(
    client_owner, played, tmp_path
):
    path = tmp_path / "partie.json"
    path.write_text(export(client_owner, played), encoding="utf-8")
    out = io.StringIO()

    call_command("tally", str(path), stdout=out)

    printed = json.loads(out.getvalue())
    expected = TALLIED[played.kind]
    assert printed == tally(selectors.partie_record(played))
    assert printed == tally(loads(path.read_text(encoding="utf-8")))
    assert printed["roles"] == expected["roles"]
    assert printed["settlement"] == expected["settlement"]
    assert [
        (game.get("box"), game.get("team"), game["winner"], game["net"])
        for game in printed["games"]
    ] == expected["games"]
    sheet = selectors.partie_sheet(played)
    assert printed["settlement"] == [
        {"from": p.payer, "to": p.payee, "points": p.points, "amount": str(p.amount)}
        for p in sheet.payments
    ]
    assert sum(Decimal(b["amount"]) for b in printed["balances"].values()) == 0
