"""Hollywood, match and partnership through the real views: start, play, correct, export."""

import io
import json
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.engine.record import loads, tally
from scorekeeper.table import selectors, services
from scorekeeper.table.models import Hand, HandChange, Partie, Player
from tests.table.helpers import (
    at,
    page,
    post_hand,
    record,
    rows_of,
    start,
    start_fields,
    state_of,
    wins,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
K, G, R = engine.Hand.knock, engine.Hand.gin, engine.Round

# RULES.md §4 (GRC): You+18, Opp+12, You+25, Opp+30, You+15, You+22, Opp+20.
HOLLYWOOD_EXAMPLE = (
    ("You", 18),
    ("Opp", 12),
    ("You", 25),
    ("Opp", 30),
    ("You", 15),
    ("You", 22),
    ("Opp", 20),
)


def knock(knocker, dk, dd):
    return {
        "kind": "knock",
        "knocker": knocker,
        "knocker_deadwood": str(dk),
        "defender_deadwood": str(dd),
    }


def gin(knocker, dd):
    return {"kind": "gin", "knocker": knocker, "defender_deadwood": str(dd)}


def round_of(first, second):
    return at(1, first) | at(2, second)


def foot_line(html, label):
    """The cells of one line under the hands of the table being played, as text."""
    foot = html[html.index('<tfoot id="sheet-foot"') :]
    line = foot[foot.index(f">{label}</th>") :]
    line = line[: line.index("</tr>")]
    return re.findall(r'<td class="num"(?: data-game="\d")?>([^<]*)</td>', line)


def last_row(html):
    row = html[html.rindex('<tr class="hand') :]
    return row[: row.index("</tr>")]


def totals_in(html):
    return [int(total) for total in re.findall(r'<span class="total">(-?\d+)</span>', html)]


def field_html(html, name, start=0):
    """The field's block (label, input and errors) of the form in ``html``."""
    block = html[html.index(f'<div class="field field-{name}', start) :]
    return block[: block.index("</div>")]


def table_fieldset(html, number):
    """The fields of one table of the round form: up to the next table, or the button."""
    block = html[html.index(f"<legend>Table {number}: ") :]
    end = "<legend>Table 2: " if number == 1 else '<button type="submit">'
    return block[: block.index(end)]


# Starting each kind through the start form


def test_the_start_form_offers_every_kind_as_a_radio_button(client_owner):
    html = client_owner.get(reverse("partie_new")).content.decode()

    for kind in ("two_player", "hollywood", "match", "partnership"):
        assert f'<input type="radio" name="kind" value="{kind}"' in html


def test_starting_a_hollywood_partie_through_the_start_form(client_owner, owner):
    partie = start(client_owner, start_fields("hollywood", ("You", "Opp"), "hollywood"))

    assert (partie.owner, partie.kind, partie.state) == (owner, "hollywood", "running")
    assert partie.rules == engine.preset("hollywood").to_dict()
    assert partie.player_names == ["You", "Opp"]
    assert partie.first_dealer.name == "You"
    html = page(client_owner, partie)
    assert "Hand 1: You deals." in html
    assert 'class="sheet side-by-side"' in html


def test_starting_a_match_through_the_start_form_keeps_best_of(client_owner):
    partie = start(client_owner, start_fields("match", best_of=3))

    assert partie.kind == "match"
    assert partie.rules == engine.preset("classic", best_of=3).to_dict()
    assert partie.player_names == ["Anna", "Ben"]
    html = page(client_owner, partie)
    assert "Game 1, hand 1: Anna deals." in html
    assert "Match (best of 3):\n      Anna 0 – Ben 0</p>" in html


def test_starting_a_partnership_seats_four_and_names_both_dealers(client_owner):
    names = ("Anna", "Ben", "Clara", "David")
    data = start_fields("partnership", names, "partnership", first_dealer="2")

    partie = start(client_owner, data)

    assert partie.kind == "partnership"
    assert partie.rules == engine.preset("partnership").to_dict()
    assert partie.rules["target"] == 125
    assert partie.player_names == ["Anna", "Ben", "Clara", "David"]
    assert partie.first_dealer.name == "Ben"
    html = page(client_owner, partie)
    assert "Round 1: Ben deals at table 1, David at table 2." in html
    assert '<th scope="col" class="num" title="Anna &amp; Clara">' in html
    assert '<th scope="col" class="num" title="Ben &amp; David">' in html
    assert "<legend>Table 1: Anna v Ben</legend>" in html
    assert "<legend>Table 2: Clara v David</legend>" in html
    assert 'name="t1-knocker"' in html and 'name="t2-knocker"' in html


@pytest.mark.parametrize("kind", ["two_player", "hollywood", "match"])
def test_a_two_player_kind_with_a_third_name_is_refused_beside_the_third_player(client_owner, kind):
    data = start_fields(kind) | {"player_3": "Clara"}

    response = client_owner.post(reverse("partie_new"), data)

    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["player_3"]
    [message] = form.errors["player_3"]
    assert "seats" in message  # "Only a partnership seats four players." or the like
    assert message in field_html(response.content.decode(), "player_3")
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


def test_a_partnership_without_a_fourth_name_is_refused_beside_the_fourth_player(client_owner):
    data = start_fields("partnership", ("Anna", "Ben", "Clara"), "partnership")

    response = client_owner.post(reverse("partie_new"), data)

    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors == {"player_4": ["Enter a name."]}
    assert "Enter a name." in field_html(response.content.decode(), "player_4")
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


def test_a_partnership_whose_teams_would_have_one_name_is_refused_not_a_server_error(client_owner):
    # Anna & Ben + Clara and Anna + Ben & Clara: both columns "Anna & Ben & Clara"
    names = ("Anna & Ben", "Anna", "Clara", "Ben & Clara")
    data = start_fields("partnership", names, "partnership")

    response = client_owner.post(reverse("partie_new"), data)

    assert response.status_code == 200
    message = "Both teams would be called Anna &amp; Ben &amp; Clara: rename a player."
    assert response.context["form"].errors == {"player_4": [message.replace("&amp;", "&")]}
    assert message in field_html(response.content.decode(), "player_4")
    assert Partie.objects.count() == 0
    assert Player.objects.count() == 0


# Hollywood


@pytest.fixture
def hollywood(client_owner):
    return start(client_owner, start_fields("hollywood", ("You", "Opp"), "hollywood"))


@pytest.fixture
def hollywood_example(client_owner, hollywood):
    """RULES.md §4's seven hands recorded by plain POST."""
    return record(client_owner, hollywood, *(wins(who, p) for who, p in HOLLYWOOD_EXAMPLE))


def test_the_hollywood_example_of_the_rules_gives_each_game_its_totals(
    client_owner, hollywood_example
):
    summary = hollywood_example.summary
    assert [dict(game) for game in summary["games"]] == [
        {"You": 80, "Opp": 62},
        {"You": 62, "Opp": 50},
        {"You": 37, "Opp": 20},
    ]
    assert summary["hands"] == 7
    assert hollywood_example.state == "running"

    html = page(client_owner, hollywood_example)
    headers = re.findall(
        r'<th scope="colgroup" colspan="2" data-game="\d" class="group">(Game \d)</th>', html
    )
    assert headers == ["Game 1", "Game 2", "Game 3"]
    heads = re.findall(r'<th scope="col" class="num" title="(\w+)" data-game="\d">', html)
    assert heads == ["You", "Opp"] * 3
    assert totals_in(last_row(html)) == [80, 62, 62, 50, 37, 20]
    # Opp's second win (hand 4) goes to games 1 and 2, not to game 3
    sheet = selectors.partie_sheet(hollywood_example)
    (table,) = sheet.tables
    assert [(c.gain, c.total) for c in table.part.rows[3].cells] == [
        (None, 43),
        (30, 42),
        (None, 25),
        (30, 30),
        (None, 0),
        (None, 0),
    ]
    assert "✓" not in html


def test_a_hollywood_hand_by_htmx_appends_its_row_while_no_game_closes(client_owner, hollywood):
    record(client_owner, hollywood, wins("You", 18))

    response = post_hand(client_owner, hollywood, wins("Opp", 12), **HTMX)

    assert response.status_code == 200
    assert "HX-Retarget" not in response
    assert "hand-recorded" in response["HX-Trigger"]
    html = response.content.decode()
    assert "<html" not in html
    assert "Hand 3: You deals." in html  # Opp won, You lost: You deals (out of band)
    assert html.count('<tr class="hand') == 1  # only the new row
    assert totals_in(last_row(html)) == [18, 12, 0, 0, 0, 0]
    assert '<tfoot id="sheet-foot" hx-swap-oob="true">' in html
    assert "hand 2 recorded" in html
    assert Hand.objects.filter(partie=hollywood).count() == 2


def test_a_hollywood_game_that_closes_is_marked_and_its_net_shows(client_owner, hollywood_example):
    # You +20: game 1 reaches 100 and closes; games 2 and 3 run on.
    response = post_hand(client_owner, hollywood_example, wins("You", 20), **HTMX)

    html = response.content.decode()
    assert response["HX-Retarget"] == "#table"  # a closed game changes the headers
    assert 'colspan="2" data-game="1" class="group closed">Game 1 ✓' in html
    assert 'colspan="2" data-game="2" class="group">Game 2</th>' in html
    assert 'colspan="2" data-game="3" class="group">Game 3</th>' in html
    assert totals_in(last_row(html)) == [100, 62, 82, 50, 57, 20]
    # G1: You 100 + 5 boxes × 20 + 100 = 300, Opp 62 + 3 × 20 = 122
    assert '<td class="num" data-game="1">300</td><td class="num" data-game="1">122</td>' in html
    # the net and money lines: game 1's columns only, games 2 and 3 still running
    net = foot_line(html, "Net")
    assert net == ["+178", "−178", "", "", "", ""]
    assert "Game 1: Opp pays You 178 points</strong> = 8.90" in html
    assert "Game 2: " not in html and "Game 3: " not in html
    hollywood_example.refresh_from_db()
    assert hollywood_example.state == "running"
    assert hollywood_example.game_totals[0] == [("You", 300), ("Opp", 122)]


def test_once_all_three_hollywood_games_closed_a_further_hand_is_refused(
    client_owner, hollywood_example
):
    # G1 closes at 100; then one gin of 80 closes G2 (162) and G3 (137) at once.
    record(client_owner, hollywood_example, wins("You", 20), gin("You", 60))
    assert hollywood_example.state == "closed"
    html = page(client_owner, hollywood_example)
    assert re.findall(r'class="group closed">(Game \d) ✓', html) == ["Game 1", "Game 2", "Game 3"]
    assert "The partie is over." in html
    assert '<form id="hand-form"' not in html
    before = state_of(hollywood_example)

    response = post_hand(client_owner, hollywood_example, wins("Opp", 10))

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The partie is over: it takes no more hands."
    ]
    assert "The partie is over: it takes no more hands." in response.content.decode()
    assert state_of(hollywood_example) == before

    response = post_hand(
        client_owner, hollywood_example, wins("Opp", 10), HTTP_ACCEPT_LANGUAGE="de"
    )

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Die Partie ist zu Ende: es können keine Spiele mehr eingetragen werden."
    ]
    assert state_of(hollywood_example) == before


# Match


@pytest.fixture
def match(client_owner):
    return start(client_owner, start_fields("match", best_of=3))


# Game 1: Anna 22, Ben 36, Anna 80 → Anna 102 wins; 242 to 56, net 186.
MATCH_GAME_1 = (knock("Anna", 5, 27), gin("Ben", 16), gin("Anna", 60))


def test_a_match_game_that_closes_leaves_the_next_hand_to_game_2(client_owner, match):
    record(client_owner, match, *MATCH_GAME_1[:2])

    response = post_hand(client_owner, match, MATCH_GAME_1[2], **HTMX)

    assert response["HX-Retarget"] == "#table"
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="table"')
    assert "Game 2, hand 4: Ben deals." in html
    assert "Match (best of 3):\n      Anna 1 – Ben 0</p>" in html
    assert '<strong>Game 1</strong> · <span class="result">Anna won by 186 points.</span>' in html
    assert "Game 1: Ben pays Anna 186 points" in html
    assert '<form id="hand-form"' in html
    match.refresh_from_db()
    assert match.state == "running"

    record(client_owner, match, knock("Ben", 3, 20))  # Ben +17, the first hand of game 2

    html = page(client_owner, match)
    # every game whole: game 1 stays a table of its own, with its bonuses and total
    assert re.findall(r"<caption><strong>(Game \d)</strong>", html) == ["Game 1", "Game 2"]
    assert html.count("<tfoot") == 2
    assert html.count('<tbody id="sheet-body">') == 1  # new hands go to game 2's table
    assert "Game 2, hand 5: Anna deals." in html
    assert "Anna 1 – Ben 0</p>" in html
    assert totals_in(last_row(html)) == [0, 17]  # game 2's running totals
    assert match.game_totals == [[("Anna", 242), ("Ben", 56)], [("Anna", 0), ("Ben", 17)]]
    assert match.summary["totals"] == {"Anna": 0, "Ben": 17}


def test_a_best_of_3_match_played_to_the_end(client_owner, match):
    record(
        client_owner,
        match,
        *MATCH_GAME_1,
        knock("Ben", 3, 20),  # game 2: Ben 17
        gin("Ben", 80),  # Ben 117 wins game 2: 117 + 40 + 100 + shutout 100 = 357
        gin("Anna", 80),  # Anna 100 wins game 3 at once: 100 + 20 + 100 + 100 = 320
    )

    assert match.state == "closed"
    assert match.closed_at is not None
    assert match.summary["winner"] == "Anna"
    assert match.game_totals == [
        [("Anna", 242), ("Ben", 56)],
        [("Anna", 0), ("Ben", 357)],
        [("Anna", 320), ("Ben", 0)],
    ]
    html = page(client_owner, match)
    assert "The partie is over: Anna won." in html
    assert "Match (best of 3):\n      Anna 2 – Ben 1</p>" in html
    assert '<strong>Game 2</strong> · <span class="result">Ben won by 357 points.</span>' in html
    assert '<strong>Game 3</strong> · <span class="result">Anna won by 320 points.</span>' in html
    assert '<form id="hand-form"' not in html
    # one settlement line per closed game
    assert re.findall(r'<p class="pays"><strong>([^<]*)</strong>', html) == [
        "Game 1: Ben pays Anna 186 points",
        "Game 2: Anna pays Ben 357 points",
        "Game 3: Ben pays Anna 320 points",
    ]
    sheet = selectors.partie_sheet(match)
    assert [(p.payer, p.payee, p.points) for p in sheet.payments] == [
        ("Ben", "Anna", 186),
        ("Anna", "Ben", 357),
        ("Ben", "Anna", 320),
    ]
    before = state_of(match)

    response = post_hand(client_owner, match, knock("Ben", 2, 30))

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The match is over: it takes no more hands."
    ]
    assert "The match is over: it takes no more hands." in response.content.decode()
    assert state_of(match) == before


# Partnership


@pytest.fixture
def partnership(client_owner):
    names = ("Anna", "Ben", "Clara", "David")
    return start(client_owner, start_fields("partnership", names, "partnership"))


# RULES.md §6: A beats B by 16 and C beats D by 12 → A/C score 28.
BOTH_WIN = round_of(knock("Anna", 4, 20), knock("Clara", 2, 14))
# One partner wins by 12, the other loses by 10 → the side scores 2.
SPLIT = round_of(knock("Anna", 2, 14), knock("David", 3, 13))


def test_a_round_that_both_partners_win_scores_the_sum(client_owner, owner, partnership):
    response = post_hand(client_owner, partnership, BOTH_WIN)

    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partnership.pk])
    assert rows_of(partnership) == [
        (1, 1, "knock", "Anna", 4, 20),
        (1, 2, "knock", "Clara", 2, 14),
    ]
    partnership.refresh_from_db()
    assert partnership.summary["totals"] == {"Anna & Clara": 28, "Ben & David": 0}
    change = HandChange.objects.get(partie=partnership)
    assert (change.action, change.hand_number, change.user) == ("recorded", 1, owner)
    assert change.after == {
        "tables": [
            {"knocker": "Anna", "knocker_deadwood": 4, "defender_deadwood": 20},
            {"knocker": "Clara", "knocker_deadwood": 2, "defender_deadwood": 14},
        ]
    }
    html = page(client_owner, partnership)
    assert '<span class="gain">+28</span><span class="total">28</span>' in last_row(html)
    assert "Table 1: Knock Anna 4 v 20" in html and "Table 2: Knock Clara 2 v 14" in html


def test_a_split_round_by_htmx_scores_the_difference_and_appends_its_row(client_owner, partnership):
    record(client_owner, partnership, BOTH_WIN)

    response = post_hand(client_owner, partnership, SPLIT, **HTMX)

    assert response.status_code == 200
    assert "HX-Retarget" not in response
    html = response.content.decode()
    assert html.count('<tr class="hand') == 1
    assert "<html" not in html
    row = last_row(html)
    assert '<span class="gain">+2</span><span class="total">30</span>' in row
    assert totals_in(row) == [30, 0]
    assert "Round 3: Ben deals at table 1, Clara at table 2." in html
    assert "hand 2 recorded" in html and "Anna knocks 2 – 14 | David knocks 3 – 13" in html
    assert rows_of(partnership)[2:] == [
        (2, 1, "knock", "Anna", 2, 14),
        (2, 2, "knock", "David", 3, 13),
    ]
    partnership.refresh_from_db()
    assert partnership.summary["totals"] == {"Anna & Clara": 30, "Ben & David": 0}


def test_a_knock_over_the_limit_at_table_2_is_shown_in_table_2_and_saves_nothing(
    client_owner, partnership
):
    record(client_owner, partnership, BOTH_WIN)
    before = state_of(partnership)

    response = post_hand(
        client_owner, partnership, round_of(knock("Anna", 2, 14), knock("David", 11, 13))
    )

    assert response.status_code == 400
    message = "A knock with 11 deadwood is over the knock limit of 10."
    first, second = response.context["form"].tables
    assert first.errors == {}
    assert second.errors == {"knocker_deadwood": [message]}
    html = response.content.decode()
    assert message in field_html(table_fieldset(html, 2), "knocker_deadwood")
    assert message not in table_fieldset(html, 1)
    assert 'name="t2-knocker_deadwood" value="11"' in html  # what was typed stays
    assert state_of(partnership) == before

    response = post_hand(
        client_owner, partnership, round_of(knock("Anna", 2, 14), knock("David", 11, 13)), **HTMX
    )

    assert response["HX-Retarget"] == "#hand-form"
    assert message in table_fieldset(response.content.decode(), 2)
    assert state_of(partnership) == before


def test_editing_a_round_through_the_edit_page_scores_it_again(client_owner, owner, partnership):
    record(client_owner, partnership, BOTH_WIN, SPLIT)
    url = reverse("hand_edit", args=[partnership.pk, 1])

    response = client_owner.get(url)

    html = response.content.decode()
    assert "Correct hand 1" in html
    assert 'name="t1-knocker_deadwood" value="4"' in html
    assert 'name="t2-defender_deadwood" value="14"' in html
    assert '<input type="radio" name="t2-knocker" value="Clara" id="id_t2-knocker_0" checked>' in (
        html
    )

    # Clara went gin, David 14: 16 + 34 = 50 for round 1
    response = client_owner.post(url, round_of(knock("Anna", 4, 20), gin("Clara", 14)))

    assert response.status_code == 302
    assert rows_of(partnership) == [
        (1, 1, "knock", "Anna", 4, 20),
        (1, 2, "gin", "Clara", None, 14),
        (2, 1, "knock", "Anna", 2, 14),
        (2, 2, "knock", "David", 3, 13),
    ]
    partnership.refresh_from_db()
    assert partnership.summary["totals"] == {"Anna & Clara": 52, "Ben & David": 0}
    change = HandChange.objects.filter(partie=partnership).first()
    assert (change.action, change.hand_number, change.user) == ("edited", 1, owner)
    assert change.before["tables"][1] == {
        "knocker": "Clara",
        "knocker_deadwood": 2,
        "defender_deadwood": 14,
    }
    assert change.after["tables"][1] == {"knocker": "Clara", "gin": True, "defender_deadwood": 14}


def test_deleting_a_round_deletes_both_tables_and_renumbers_the_rest(client_owner, partnership):
    record(client_owner, partnership, BOTH_WIN, SPLIT)

    response = client_owner.post(reverse("hand_delete", args=[partnership.pk, 1]))

    assert response.status_code == 302
    assert rows_of(partnership) == [
        (1, 1, "knock", "Anna", 2, 14),
        (1, 2, "knock", "David", 3, 13),
    ]
    partnership.refresh_from_db()
    assert partnership.summary["totals"] == {"Anna & Clara": 2, "Ben & David": 0}
    assert partnership.summary["hands"] == 1
    change = HandChange.objects.filter(partie=partnership).first()
    assert (change.action, change.hand_number) == ("deleted", 1)
    assert change.before == {
        "tables": [
            {"knocker": "Anna", "knocker_deadwood": 4, "defender_deadwood": 20},
            {"knocker": "Clara", "knocker_deadwood": 2, "defender_deadwood": 14},
        ]
    }


def test_a_partnership_played_to_the_end_settles_each_player_with_his_opposite_number(
    client_owner, partnership
):
    # Anna gins (100) and Clara gins (50): 150 in one round, over the target of 125.
    record(client_owner, partnership, round_of(gin("Anna", 80), gin("Clara", 30)))

    assert partnership.state == "closed"
    assert partnership.summary["winner"] == "Anna & Clara"
    # 150 + 1 box × 20 + 100 + shutout 100 = 370
    assert partnership.summary["totals"] == {"Anna & Clara": 370, "Ben & David": 0}
    html = page(client_owner, partnership)
    assert "The partie is over: Anna &amp; Clara won." in html
    assert re.findall(r'<p class="pays"><strong>([^<]*)</strong>', html) == [
        "Ben pays Anna 370 points",
        "David pays Clara 370 points",
    ]
    before = state_of(partnership)

    response = post_hand(client_owner, partnership, BOTH_WIN)

    assert response.status_code == 400
    assert "The partie is over: it takes no more hands." in response.content.decode()
    assert state_of(partnership) == before


# Export, import and tally of each kind


def start_hollywood(owner):
    partie = services.partie_start(
        owner=owner,
        names=["You", "Opp"],
        rules=engine.preset("hollywood", hollywood_game3_double=True),
        kind="hollywood",
        stake=Decimal("0.01"),
        first_dealer="Opp",
    )
    return partie, [K(1, points + 1, knocker=who) for who, points in HOLLYWOOD_EXAMPLE] + [
        K(1, 21, knocker="You"),  # G1 closes
        G(60, knocker="You"),  # G2 and G3 close
    ]


def start_match(owner):
    partie = services.partie_start(
        owner=owner,
        names=["Anna", "Ben"],
        rules=engine.preset("classic", best_of=3),
        kind="match",
        first_dealer="Ben",
    )
    return partie, [
        K(5, 27, knocker="Anna"),
        G(16, knocker="Ben"),
        G(60, knocker="Anna"),
        engine.Hand.no_game(),
        K(3, 20, knocker="Ben"),
    ]


def start_partnership(owner):
    partie = services.partie_start(
        owner=owner,
        names=["Anna", "Ben", "Clara", "David"],
        rules=engine.preset("partnership"),
        kind="partnership",
        stake=Decimal("0.1"),
        first_dealer="Ben",
    )
    return partie, [
        R(tables=(K(4, 20, knocker="Anna"), K(2, 14, knocker="Clara"))),
        R(tables=(K(2, 14, knocker="Anna"), K(3, 13, knocker="David"))),
        R(tables=(engine.Hand.no_game(), G(25, knocker="David"))),
    ]


EXPORTED = {
    "hollywood": {
        "format": "scorekeeper/1",
        "kind": "hollywood",
        "rules": {"preset": "hollywood", "hollywood_game3_double": True},
        "players": ["You", "Opp"],
        "first_dealer": "Opp",
        "stake": "0.01",
        "hands": [
            {"knocker": who, "knocker_deadwood": 1, "defender_deadwood": points + 1}
            for who, points in HOLLYWOOD_EXAMPLE
        ]
        + [
            {"knocker": "You", "knocker_deadwood": 1, "defender_deadwood": 21},
            {"knocker": "You", "gin": True, "defender_deadwood": 60},
        ],
    },
    "match": {
        "format": "scorekeeper/1",
        "kind": "match",
        "rules": {"preset": "classic", "best_of": 3},
        "players": ["Anna", "Ben"],
        "first_dealer": "Ben",
        "stake": "0",
        "hands": [
            {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27},
            {"knocker": "Ben", "gin": True, "defender_deadwood": 16},
            {"knocker": "Anna", "gin": True, "defender_deadwood": 60},
            {"no_game": True},
            {"knocker": "Ben", "knocker_deadwood": 3, "defender_deadwood": 20},
        ],
    },
    "partnership": {
        "format": "scorekeeper/1",
        "kind": "partnership",
        "rules": {"preset": "partnership"},
        "players": ["Anna", "Ben", "Clara", "David"],
        "first_dealer": "Ben",
        "stake": "0.1",
        "hands": [
            {
                "tables": [
                    {"knocker": "Anna", "knocker_deadwood": 4, "defender_deadwood": 20},
                    {"knocker": "Clara", "knocker_deadwood": 2, "defender_deadwood": 14},
                ]
            },
            {
                "tables": [
                    {"knocker": "Anna", "knocker_deadwood": 2, "defender_deadwood": 14},
                    {"knocker": "David", "knocker_deadwood": 3, "defender_deadwood": 13},
                ]
            },
            {
                "tables": [
                    {"no_game": True},
                    {"knocker": "David", "gin": True, "defender_deadwood": 25},
                ]
            },
        ],
    },
}

STARTS = {"hollywood": start_hollywood, "match": start_match, "partnership": start_partnership}


@pytest.fixture(params=list(STARTS))
def played(request, owner, play):
    """A partie of each kind with its hands recorded through the services."""
    partie, hands = STARTS[request.param](owner)
    return play(partie, hands)


def test_export_of_each_kind_returns_the_record_of_format_md(client_owner, played):
    response = client_owner.get(reverse("partie_export", args=[played.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == EXPORTED[played.kind]


def test_an_exported_partie_of_each_kind_imports_again_with_the_same_summary(client_owner, played):
    exported = client_owner.get(reverse("partie_export", args=[played.pk])).content.decode()

    response = client_owner.post(reverse("partie_import"), {"text": exported})

    assert response.status_code == 302
    copy = Partie.objects.exclude(pk=played.pk).get()
    assert response.url == reverse("partie_detail", args=[copy.pk])
    assert copy.kind == played.kind
    assert copy.summary == played.summary
    assert (copy.state, copy.rules, copy.stake) == (played.state, played.rules, played.stake)
    assert copy.player_names == played.player_names
    assert copy.first_dealer == played.first_dealer
    assert rows_of(copy) == rows_of(played)
    assert client_owner.get(reverse("partie_export", args=[copy.pk])).content.decode() == exported
    assert page(client_owner, copy).count('<tr class="hand') == played.summary["hands"]


def test_the_tally_command_on_an_export_of_each_kind_equals_the_engines_tally(
    client_owner, played, tmp_path
):
    path = tmp_path / "partie.json"
    path.write_bytes(client_owner.get(reverse("partie_export", args=[played.pk])).content)
    out = io.StringIO()

    call_command("tally", str(path), stdout=out)

    printed = json.loads(out.getvalue())
    assert printed == tally(selectors.partie_record(played))
    assert printed == tally(loads(path.read_text(encoding="utf-8")))
    # and with the totals the partie shows
    totals = [
        {name: column["total"] for name, column in game["players"].items()}
        for game in printed["games"]
    ]
    assert totals == [dict(game) for game in played.game_totals]
    sheet = selectors.partie_sheet(played)
    assert printed["settlement"] == [
        {"from": p.payer, "to": p.payee, "points": p.points, "amount": str(p.amount)}
        for p in sheet.payments
    ]
