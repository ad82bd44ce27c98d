"""Both hands' cards instead of the deadwoods, through the real views.

"Find the melds" (``evaluate=1``) plays the cards out and shows the melds, the deadwood,
the lay-offs and the result, with the form filled in and nothing saved; recording with
the cards saves the hand they give. Bad cards are shown beside their field.

The example: Anna knocks with T-J-Q♥, 4-4-4, 7-8-9♣ and 2♦ (deadwood 2); Ben melds his
kings and lays off 9♥ and then 8♥ on her hearts: 34 before lay-offs, 17 after. Classic
rules: a knock, Anna +15.
"""

import html as html_lib
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Hand, HandChange, Partie
from tests.table.helpers import at, post_hand, rows_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}

ANNA = "TH JH QH 4S 4D 4C 7C 8C 9C 2D"
BEN = "9H 8H KS KD KC 3S 5D 6D AC 2S"
# What the page says of the example, tags removed.
EXAMPLE_OUTCOME = (
    "Knocker: 10♥J♥Q♥ 7♣8♣9♣ 4♠4♦4♣ · deadwood 2♦ = 2 "
    "Defender: K♠K♦K♣ · lays off 9♥8♥ · deadwood 2♠3♠5♦6♦A♣ = 17 (34 before lay-offs) "
    "Knock: the knocker +15. Check, then record the hand."
)


def cards(knocker_cards, defender_cards, knocker="Anna", kind="knock", **extra):
    """The hand form as a browser posts it with the cards given, the deadwoods empty."""
    return {
        "kind": kind,
        "knocker": knocker,
        "knocker_deadwood": "",
        "defender_deadwood": "",
        "knocker_cards": knocker_cards,
        "defender_cards": defender_cards,
        **extra,
    }


def evaluate(knocker_cards=ANNA, defender_cards=BEN, **fields):
    return cards(knocker_cards, defender_cards, **fields) | {"evaluate": "1"}


def text(fragment):
    """What a reader sees of an HTML fragment: tags removed, whitespace folded."""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def outcome_of(html):
    """The text of the evaluation shown under the cards ('' when there is none)."""
    found = re.search(r'<section class="outcome".*?</section>', html, re.S)
    return text(found.group(0)) if found else ""


def field_block(html, name, start=0):
    """One field of the hand form: from its div to the next field (or the end of its group)."""
    begin = html.index(f'<div class="field field-{name}', start)
    ends = [
        html.find(marker, begin + 1)
        for marker in ('<div class="field ', "</details>", '<section class="outcome"', "</form>")
    ]
    return html[begin : min(end for end in ends if end > 0)]


def field_errors(html, name, start=0):
    block = field_block(html, name, start)
    return [
        html_lib.unescape(e) for e in re.findall(r'<p class="error" role="alert">(.*?)</p>', block)
    ]


def all_errors(html):
    return [
        html_lib.unescape(e) for e in re.findall(r'<p class="error" role="alert">(.*?)</p>', html)
    ]


def input_value(html, name):
    """The value attribute of the text or number input ``name`` (None: no value)."""
    tag = re.search(rf'<input type="(?:text|number)" name="{re.escape(name)}"[^>]*>', html).group(0)
    found = re.search(r'value="([^"]*)"', tag)
    return html_lib.unescape(found.group(1)) if found else None


def checked(html, name):
    found = re.search(
        rf'<input type="radio" name="{re.escape(name)}" value="([^"]*)"[^>]*checked', html
    )
    return found.group(1) if found else None


def nothing_saved(partie, hands=0):
    assert Hand.objects.filter(partie=partie).count() == hands
    assert HandChange.objects.filter(partie=partie).count() == hands


# Find the melds


def test_finding_the_melds_shows_the_evaluation_fills_in_the_form_and_saves_nothing(
    client_owner, partie
):
    response = post_hand(client_owner, partie, evaluate())

    assert response.status_code == 200
    html = response.content.decode()
    assert outcome_of(html) == EXAMPLE_OUTCOME
    # The lay-offs one after the other: 9♥ on Q-J-T♥ first, then 8♥ on the 9♥.
    assert '· lays off <span class="card red">9♥</span><span class="card red">8♥</span>' in html
    # The form comes back filled in with what the cards give, and with the cards.
    assert checked(html, "kind") == "knock"
    assert checked(html, "knocker") == "Anna"
    assert input_value(html, "knocker_deadwood") == "2"
    assert input_value(html, "defender_deadwood") == "17"
    assert input_value(html, "knocker_cards") == ANNA
    assert input_value(html, "defender_cards") == BEN
    assert '<details class="cards" open>' in html
    form = response.context["form"]
    assert form.cleaned_data["knocker_deadwood"] == 2
    assert form.cleaned_data["defender_deadwood"] == 17
    assert form.cleaned_data["hand"] == engine.Hand.knock(2, 17, knocker="Anna")
    assert all_errors(html) == []
    # The whole page: the sheet is still empty.
    assert "No hands yet." in html
    nothing_saved(partie)


def test_finding_the_melds_by_htmx_answers_with_the_form_only(client_owner, partie):
    response = post_hand(client_owner, partie, evaluate(), **HTMX)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#hand-form"
    assert response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="hand-form"')
    assert html.rstrip().endswith("</form>")
    assert "<html" not in html and '<tbody id="sheet-body"' not in html
    assert outcome_of(html) == EXAMPLE_OUTCOME
    assert input_value(html, "knocker_deadwood") == "2"
    assert input_value(html, "defender_deadwood") == "17"
    # The next answer (a recorded hand) then brings a clean form.
    assert '<input type="hidden" name="form_had_errors" value="1">' in html
    nothing_saved(partie)


def test_the_cards_outweigh_the_result_and_deadwoods_typed_beside_them(client_owner, partie):
    data = evaluate(kind="gin") | {"knocker_deadwood": "9", "defender_deadwood": "40"}

    html = post_hand(client_owner, partie, data).content.decode()

    assert checked(html, "kind") == "knock"
    assert input_value(html, "knocker_deadwood") == "2"
    assert input_value(html, "defender_deadwood") == "17"
    nothing_saved(partie)


def test_the_evaluation_is_in_german_for_a_german_browser(client_owner, partie):
    html = post_hand(client_owner, partie, evaluate(), **GERMAN).content.decode()

    shown = outcome_of(html)
    assert shown.startswith("Klopfer: 10♥J♥Q♥")
    assert "legt an 9♥8♥" in shown
    assert "= 17 (34 vor dem Anlegen)" in shown
    assert "Klopfen: der Klopfer +15." in shown
    assert "Kombinationen finden" in html
    nothing_saved(partie)


# Recording from the cards


def test_recording_with_the_cards_saves_the_hand_they_give(client_owner, owner, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])  # Anna 22

    response = post_hand(client_owner, partie, cards(ANNA, BEN))

    assert response.status_code == 302
    assert response.url == reverse("partie_detail", args=[partie.pk])
    assert rows_of(partie)[1:] == [(2, 1, "knock", "Anna", 2, 17)]
    partie.refresh_from_db()
    assert partie.summary["totals"] == {"Anna": 37, "Ben": 0}
    change = HandChange.objects.filter(partie=partie).latest("pk")
    assert (change.action, change.hand_number, change.user) == ("recorded", 2, owner)
    assert change.after == {"knocker": "Anna", "knocker_deadwood": 2, "defender_deadwood": 17}


def test_recording_the_evaluated_form_by_htmx_adds_the_row_and_brings_a_clean_form(
    client_owner, partie
):
    # What the browser sends after "Find the melds": the form filled in, cards and all.
    data = cards(ANNA, BEN) | {
        "knocker_deadwood": "2",
        "defender_deadwood": "17",
        "form_had_errors": "1",
    }

    response = post_hand(client_owner, partie, data, **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    row = html[html.rindex('<tr class="hand') :]
    assert '<span class="gain">+15</span><span class="total">15</span>' in row
    form = html[html.index('<form id="hand-form"') : html.index("</form>")]
    assert input_value(form, "knocker_cards") is None
    assert input_value(form, "defender_cards") is None
    assert input_value(form, "knocker_deadwood") is None
    assert outcome_of(form) == ""
    assert rows_of(partie) == [(1, 1, "knock", "Anna", 2, 17)]


def test_a_gin_from_the_cards_counts_the_defenders_deadwood_without_lay_offs(client_owner, partie):
    gin = "TH JH QH KH 4S 4D 4C 7C 8C 9C"  # all ten meld; 9♥ and 8♥ would fit on the hearts

    html = post_hand(client_owner, partie, evaluate(gin)).content.decode()

    shown = outcome_of(html)
    assert "= 0 (gin)" in shown
    assert "lays off" not in shown and "before lay-offs" not in shown
    assert "Defender: K♠K♦K♣ · deadwood 2♠3♠8♥9♥5♦6♦A♣ = 34 Gin" in shown
    assert "Gin: the knocker +54." in shown  # 34 + the gin bonus of 20
    assert checked(html, "kind") == "gin"
    assert input_value(html, "knocker_deadwood") in ("", None)
    assert input_value(html, "defender_deadwood") == "34"
    nothing_saved(partie)

    # Recorded as a gin although "knock" was left selected.
    response = post_hand(client_owner, partie, cards(gin, BEN, kind="knock"))

    assert response.status_code == 302
    assert rows_of(partie) == [(1, 1, "gin", "Anna", None, 34)]
    partie.refresh_from_db()
    assert partie.summary["totals"] == {"Anna": 54, "Ben": 0}


def test_eleven_knocker_cards_show_the_discard(client_owner, partie):
    html = post_hand(client_owner, partie, evaluate(ANNA + " QS")).content.decode()

    assert '· discard <span class="card">Q♠</span>' in html
    shown = outcome_of(html)
    assert "deadwood 2♦ = 2 · discard Q♠" in shown
    assert "Knock: the knocker +15." in shown
    assert input_value(html, "knocker_deadwood") == "2"
    assert input_value(html, "defender_deadwood") == "17"
    nothing_saved(partie)


def test_under_round_the_corner_a_king_ace_two_run_counts(client_owner, start_partie):
    corner = start_partie(rules=engine.preset("round_the_corner"))
    knocker, defender = "KH AH 2H 4S 4D 4C 7C 8C 9C 3D", "QS JS 5S 5H 6H 9D TD JD 2C 3C"

    html = post_hand(client_owner, corner, evaluate(knocker, defender)).content.decode()

    shown = outcome_of(html)
    assert shown.startswith("Knocker: K♥A♥2♥ 7♣8♣9♣ 4♠4♦4♣ · deadwood 3♦ = 3 ")
    assert "= 41" in shown and "Knock: the knocker +38." in shown
    assert input_value(html, "knocker_deadwood") == "3"
    assert input_value(html, "defender_deadwood") == "41"
    nothing_saved(corner)

    response = post_hand(client_owner, corner, cards(knocker, defender))

    assert response.status_code == 302
    assert rows_of(corner) == [(1, 1, "knock", "Anna", 3, 41)]


def test_under_classic_rules_the_same_king_ace_two_is_no_run(client_owner, partie):
    knocker, defender = "KH AH 2H 4S 4D 4C 7C 8C 9C 3D", "QS JS 5S 5H 6H 9D TD JD 2C 3C"

    response = post_hand(client_owner, partie, evaluate(knocker, defender))

    assert response.status_code == 400
    assert field_errors(response.content.decode(), "knocker_cards") == [
        "A knock with 16 deadwood is over the knock limit of 10."
    ]
    nothing_saved(partie)


# Bad input: beside the field, nothing saved

BAD_INPUT = [
    pytest.param(
        cards(ANNA, "9H 8H KS KD KC 3S 5D 6D AC 7X"),
        "defender_cards",
        ["7X is not a card: give a rank of A23456789TJQK and a suit of SHDC: 7S."],
        id="unknown-card",
    ),
    pytest.param(
        cards("TH TH JH QH 4S 4D 4C 7C 8C 9C", BEN),
        "knocker_cards",
        ["TH is given twice: each card of the deck appears once."],
        id="twice-in-a-hand",
    ),
    pytest.param(
        cards(ANNA, "9H 8H KS KD KC 3S 5D 6D AC 2D"),
        "defender_cards",
        ["2D is given twice: each card of the deck appears once."],
        id="in-both-hands",
    ),
    pytest.param(
        cards("TH JH QH 4S 4D 4C 7C 8C 9C", BEN),
        "knocker_cards",
        ["9 cards: the knocker holds 10 (11 before his discard)."],
        id="knocker-9-cards",
    ),
    pytest.param(
        cards(ANNA + " QS KH", BEN),
        "knocker_cards",
        ["12 cards: the knocker holds 10 (11 before his discard)."],
        id="knocker-12-cards",
    ),
    pytest.param(
        cards(ANNA, "9H 8H KS KD KC 3S 5D 6D AC"),
        "defender_cards",
        ["9 cards: the defender holds 10."],
        id="defender-9-cards",
    ),
    pytest.param(
        cards(ANNA, ""),
        "defender_cards",
        ["Enter both hands' cards, or neither."],
        id="only-the-knockers",
    ),
    pytest.param(
        cards("", BEN),
        "knocker_cards",
        ["Enter both hands' cards, or neither."],
        id="only-the-defenders",
    ),
    pytest.param(
        cards("KH QS JD 4S 4D 4C 7C 8C 9C 2D", BEN),
        "knocker_cards",
        ["A knock with 32 deadwood is over the knock limit of 10."],
        id="over-the-limit",
    ),
    pytest.param(cards(ANNA, BEN, knocker=""), "knocker", ["Say who knocked."], id="no-knocker"),
]


@pytest.mark.parametrize("evaluating", [False, True], ids=["record", "evaluate"])
@pytest.mark.parametrize(("data", "field", "errors"), BAD_INPUT)
def test_bad_cards_are_refused_beside_their_field_and_nothing_is_saved(
    client_owner, partie, data, field, errors, evaluating
):
    if evaluating:
        data = data | {"evaluate": "1"}

    response = post_hand(client_owner, partie, data)

    assert response.status_code == 400
    html = response.content.decode()
    assert field_errors(html, field) == errors
    assert all_errors(html) == errors  # and nowhere else
    assert outcome_of(html) == ""
    # What was typed stays, to be put right.
    assert input_value(html, "knocker_cards") == (data["knocker_cards"] or None)
    assert input_value(html, "defender_cards") == (data["defender_cards"] or None)
    nothing_saved(partie)


def test_bad_cards_by_htmx_come_back_in_the_form_only(client_owner, partie):
    data = cards(ANNA, "9H 8H KS KD KC 3S 5D 6D AC 7X")

    response = post_hand(client_owner, partie, data, **HTMX)

    assert response["HX-Retarget"] == "#hand-form"
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="hand-form"')
    assert field_errors(html, "defender_cards") == [
        "7X is not a card: give a rank of A23456789TJQK and a suit of SHDC: 7S."
    ]
    nothing_saved(partie)


def test_bad_cards_are_explained_in_german(client_owner, partie):
    data = cards(ANNA, "9H 8H KS KD KC 3S 5D 6D AC 7X")

    html = post_hand(client_owner, partie, data, **GERMAN).content.decode()

    assert field_errors(html, "defender_cards") == [
        "7X ist keine Karte: Rang aus A23456789TJQK und Farbe aus SHDC angeben, z. B. 7S."
    ]
    assert "Karten des Gegners" in html

    html = post_hand(client_owner, partie, cards(ANNA, ""), **GERMAN).content.decode()

    assert field_errors(html, "defender_cards") == ["Die Karten beider Hände angeben oder keine."]

    data = cards("TH JH QH 4S 4D 4C 7C 8C 9C", "9H 8H KS KD KC 3S 5D 6D AC 2D 2D")
    html = post_hand(client_owner, partie, data, **GERMAN).content.decode()

    assert field_errors(html, "knocker_cards") == [
        "9 Karten: der Klopfer hat 10 (11 vor seinem Abwurf)."
    ]
    assert field_errors(html, "defender_cards") == [
        "2D ist doppelt angegeben: jede Karte gibt es im Spiel nur einmal."
    ]
    nothing_saved(partie)


def test_no_game_ignores_the_cards(client_owner, partie):
    response = post_hand(client_owner, partie, cards("7X", "", kind="no_game", knocker=""))

    assert response.status_code == 302
    assert rows_of(partie) == [(1, 1, "no_game", None, None, None)]


# Partnership: cards at one table


@pytest.fixture
def partnership(owner):
    return services.partie_start(
        owner=owner,
        names=["Anna", "Ben", "Clara", "David"],
        rules=engine.preset("partnership"),
        kind=Partie.Kind.PARTNERSHIP,
        first_dealer="Anna",
    )


TABLE_1 = {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "4", "defender_deadwood": "20"}
TABLE_2 = cards(ANNA, BEN, knocker="Clara")


def table_block(html, number):
    block = html[html.index(f"<legend>Table {number}: ") :]
    end = "<legend>Table 2: " if number == 1 else '<button type="submit">Record the hand'
    return block[: block.index(end)]


def test_a_round_with_cards_at_table_2_only_records_both_tables(client_owner, partnership):
    response = post_hand(client_owner, partnership, at(1, TABLE_1) | at(2, TABLE_2))

    assert response.status_code == 302, response.context["form"].tables[1].errors
    assert rows_of(partnership) == [
        (1, 1, "knock", "Anna", 4, 20),
        (1, 2, "knock", "Clara", 2, 17),
    ]
    partnership.refresh_from_db()
    assert partnership.summary["totals"] == {"Anna & Clara": 31, "Ben & David": 0}  # 16 + 15


def test_finding_the_melds_of_table_2_fills_in_table_2_only(client_owner, partnership):
    data = at(1, TABLE_1) | at(2, TABLE_2) | {"evaluate": "1"}

    for extra in ({}, HTMX):
        response = post_hand(client_owner, partnership, data, **extra)

        assert response.status_code == 200
        html = response.content.decode()
        first, second = table_block(html, 1), table_block(html, 2)
        assert outcome_of(first) == ""
        assert outcome_of(second) == EXAMPLE_OUTCOME
        assert input_value(second, "t2-knocker_deadwood") == "2"
        assert input_value(second, "t2-defender_deadwood") == "17"
        assert input_value(first, "t1-knocker_deadwood") == "4"
        assert input_value(first, "t1-defender_deadwood") == "20"
        assert input_value(first, "t1-knocker_cards") is None
    nothing_saved(partnership)


def test_bad_cards_at_table_2_are_shown_at_table_2(client_owner, partnership):
    data = at(1, TABLE_1) | at(2, cards(ANNA, "9H 8H KS KD KC 3S 5D 6D AC 7X", knocker="Clara"))

    response = post_hand(client_owner, partnership, data)

    assert response.status_code == 400
    html = response.content.decode()
    assert all_errors(table_block(html, 1)) == []
    assert field_errors(table_block(html, 2), "defender_cards") == [
        "7X is not a card: give a rank of A23456789TJQK and a suit of SHDC: 7S."
    ]
    nothing_saved(partnership)


# Chouette: only the two at the table may knock


@pytest.fixture
def chouette(owner):
    """X in the box against Y (captain); Z sits out the first hand."""
    return services.partie_start(
        owner=owner,
        names=["X", "Y", "Z"],
        rules=engine.preset("classic"),
        kind=Partie.Kind.CHOUETTE,
        stake=Decimal("0.10"),
    )


@pytest.mark.parametrize("evaluating", [False, True], ids=["record", "evaluate"])
def test_in_a_chouette_the_knocker_of_the_cards_must_be_at_the_table(
    client_owner, chouette, evaluating
):
    data = cards(ANNA, BEN, knocker="Z") | ({"evaluate": "1"} if evaluating else {})

    response = post_hand(client_owner, chouette, data)

    assert response.status_code == 400
    html = response.content.decode()
    assert field_errors(html, "knocker") == ["Z is not at the table: X (box) plays Y (captain)."]
    assert outcome_of(html) == ""
    nothing_saved(chouette)


def test_in_a_chouette_the_box_records_a_hand_from_the_cards(client_owner, chouette):
    html = post_hand(client_owner, chouette, evaluate(knocker="X")).content.decode()

    assert outcome_of(html) == EXAMPLE_OUTCOME
    nothing_saved(chouette)

    response = post_hand(client_owner, chouette, cards(ANNA, BEN, knocker="X"))

    assert response.status_code == 302
    assert rows_of(chouette) == [(1, 1, "knock", "X", 2, 17)]


# The edit page has the same button


def test_finding_the_melds_on_the_edit_page_saves_nothing(client_owner, partie, play):
    play(partie, [engine.Hand.knock(5, 27, knocker="Anna")])
    url = reverse("hand_edit", args=[partie.pk, 1])

    response = client_owner.post(url, evaluate())

    assert response.status_code == 200
    html = response.content.decode()
    assert outcome_of(html) == EXAMPLE_OUTCOME
    assert input_value(html, "knocker_deadwood") == "2"
    assert input_value(html, "defender_deadwood") == "17"
    assert rows_of(partie) == [(1, 1, "knock", "Anna", 5, 27)]
    assert HandChange.objects.filter(partie=partie).count() == 1

    response = client_owner.post(url, cards(ANNA, BEN))

    assert response.status_code == 302
    assert rows_of(partie) == [(1, 1, "knock", "Anna", 2, 17)]
