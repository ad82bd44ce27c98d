"""The import page and the repair page speak the reader's language: every problem of a
game record, and the reason a stored partie cannot be scored, in German for a German
reader (the engine's English lines stay the commands' output, FORMAT.md).

The German sentences come from the German catalogue (messages.py's msgids).
"""

import html
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scorekeeper.engine import bounds
from scorekeeper.engine.record import RecordError, loads, replay
from scorekeeper.table.models import Partie, Player

pytestmark = pytest.mark.django_db

# A small good record: Anna and Ben, three hands, the partie still running.
RECORD: dict[str, Any] = {
    "kind": "two_player",
    "rules": {"preset": "classic"},
    "players": ["Anna", "Ben"],
    "first_dealer": "Ben",
    "stake": "0.05",
    "hands": [
        {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27},
        {"knocker": "Ben", "gin": True, "defender_deadwood": 16},
        {"knocker": "Anna", "knocker_deadwood": 7, "defender_deadwood": 7},
    ],
}


def with_hand(number: int, hand: dict[str, Any]) -> dict[str, Any]:
    """RECORD with its hand ``number`` (1-based) replaced."""
    hands = list(RECORD["hands"])
    hands[number - 1] = hand
    return {"hands": hands}


def english_lines(text: str) -> list[str]:
    """The engine's English lines for a record's text: what the commands print."""
    try:
        replay(loads(text))
    except RecordError as error:
        return error.errors
    raise AssertionError("the record was accepted")


def post_import(client: Client, text: str, language: str = "de"):
    return client.post(reverse("partie_import"), {"text": text}, HTTP_ACCEPT_LANGUAGE=language)


def assert_refused_in(response, sentence: str, english: list[str]) -> list[str]:
    """The page refused the record with ``sentence`` among its errors, shown on the page,
    no English line of the engine anywhere, and nothing saved."""
    assert response.status_code == 400
    errors = response.context["form"].non_field_errors()
    page = html.unescape(response.content.decode())
    assert sentence in errors, errors
    assert sentence in page
    for line in english:
        assert line not in errors
        assert line not in page
    assert (Partie.objects.count(), Player.objects.count()) == (0, 0)
    return errors


@pytest.mark.parametrize(
    ("change", "german"),
    [
        pytest.param(
            {"kind": "poker"},
            "Die Art 'poker' ist unbekannt: eine von two_player, hollywood, chouette, "
            "three_player, partnership, match wählen.",
            id="unknown kind",
        ),
        pytest.param(
            {"players": ["Anna ", "Ben"]},
            "Spieler: der Name 'Anna ' beginnt oder endet mit einem Leerzeichen: bitte entfernen.",
            id="a name with a space",
        ),
        pytest.param(
            {"players": ["Anna", "Ben", "Carl"]},
            "Spieler: ein Spielbericht der Art „Zwei Spieler“ nennt 2 verschiedene Spieler.",
            id="three names for two players",
        ),
        pytest.param(
            {"first_dealer": "Zoe"},
            "Der erste Geber 'Zoe' ist keiner der Spieler.",
            id="bad first dealer",
        ),
        pytest.param(
            {"stake": "1e9"},
            "Der Einsatz '1e9' ist kein Geldbetrag pro Punkt wie 0.05: nur Ziffern und einen "
            "Dezimalpunkt angeben (kein Vorzeichen, kein Exponent, keine Wörter).",
            id="bad stake",
        ),
        pytest.param(
            {"stake": "250"},
            "Der Einsatz '250' ist kein Geldbetrag pro Punkt wie 0.05: der Wert darf höchstens "
            "100 sein.",
            id="stake over the bound",
        ),
        pytest.param(
            {"stakes": {"Ben": "0.10"}},
            "Einen Einsatz je Spieler gibt es nur bei einer Chouette: einen Einsatz angeben.",
            id="member stakes outside a chouette",
        ),
        pytest.param(
            {"rules": {"preset": "classic", "game_bonus": 10**15}},
            "Regeln: „Partie-Prämie“ kann nicht 1000000000000000 sein: der Wert darf höchstens "
            "1000 sein.",
            id="bad rules value",
        ),
        pytest.param(
            {"rules": {"preset": "classic", "money_unit": "1e-30"}},
            "Regeln: Die Geldeinheit '1e-30' ist keine Dezimalzahl von 0.0001 bis 100 wie 0.01: "
            "nur Ziffern und einen Dezimalpunkt angeben (kein Vorzeichen, kein Exponent, keine "
            "Wörter).",
            id="bad money unit",
        ),
        pytest.param(
            {"rules": {"preset": "classic", "colour": 1}},
            "Regeln: Eine Regel 'colour' gibt es nicht: entfernen oder ihren Namen korrigieren.",
            id="unknown rule",
        ),
        pytest.param(
            with_hand(3, {"knocker": "Anna", "knocker_deadwood": 11, "defender_deadwood": 20}),
            "Spiel 3: Klopfen mit 11 Restpunkten liegt über der Klopfgrenze von 10.",
            id="hand 3 over the knock limit",
        ),
        pytest.param(
            with_hand(2, {"knocker": "Zed", "knocker_deadwood": 1, "defender_deadwood": 20}),
            "Spiel 2: Zed spielt in dieser Partie nicht mit.",
            id="hand 2 knocked by a stranger",
        ),
        pytest.param(
            with_hand(1, {"no_game": "Zed"}),
            "Spiel 1: no_game muss true oder false sein.",
            id="hand 1 with a flag that is no boolean",
        ),
        pytest.param(
            with_hand(
                3,
                {
                    "knocker": "Anna",
                    "knocker_cards": "AS 2S 3S 4H 5H 6H 7C 8C 9C 9C",
                    "defender_cards": "KD QD JD TD 9D 8D 7D 6D 5D 4D",
                },
            ),
            "Spiel 3: 9C ist doppelt angegeben: jede Karte gibt es im Spiel nur einmal.",
            id="hand 3 with a card twice",
        ),
        pytest.param(
            {"hands": [{"no_game": True}] * (bounds.MAX_HANDS + 1)},
            "Spiele: eine Partie hat höchstens 500 Spiele, dieser Spielbericht hat 501.",
            id="too many hands",
        ),
    ],
)
def test_each_problem_of_a_record_is_said_in_german_naming_its_hand_or_field(
    client_owner, change, german
):
    text = json.dumps(RECORD | change)
    english = english_lines(text)

    response = post_import(client_owner, text)

    errors = assert_refused_in(response, german, english)
    assert len(errors) == len(english)  # one sentence per problem, none dropped


def test_a_partnership_hand_names_its_table_in_german(client_owner):
    record = {
        "kind": "partnership",
        "rules": {"preset": "partnership"},
        "players": ["A", "B", "C", "D"],
        "hands": [
            {
                "tables": [
                    {"knocker": "A", "knocker_deadwood": 4, "defender_deadwood": 20},
                    {"knocker": "C", "knocker_deadwood": 12, "defender_deadwood": 30},
                ]
            }
        ],
    }
    text = json.dumps(record)

    response = post_import(client_owner, text)

    assert_refused_in(
        response,
        "Spiel 1, Tisch 2: Klopfen mit 12 Restpunkten liegt über der Klopfgrenze von 10.",
        english_lines(text),
    )


def test_every_problem_of_a_record_gets_its_own_german_sentence(client_owner):
    text = json.dumps(RECORD | {"kind": "poker", "first_dealer": "Zoe", "stake": "-1"})

    response = post_import(client_owner, text)

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Die Art 'poker' ist unbekannt: eine von two_player, hollywood, chouette, "
        "three_player, partnership, match wählen.",
        "Der erste Geber 'Zoe' ist keiner der Spieler.",
        "Der Einsatz '-1' ist kein Geldbetrag pro Punkt wie 0.05: nur Ziffern und einen "
        "Dezimalpunkt angeben (kein Vorzeichen, kein Exponent, keine Wörter).",
    ]


def test_broken_json_is_said_in_german(client_owner):
    response = post_import(client_owner, '{"players": ["Anna",')

    assert response.status_code == 400
    [error] = response.context["form"].non_field_errors()
    assert error.startswith("Fehlerhaftes JSON in Zeile 1, Spalte ")
    assert not Partie.objects.exists()


def test_an_english_reader_gets_the_same_sentences_in_english(client_owner):
    text = json.dumps(RECORD | with_hand(3, {"no_game": "Zed"}) | {"first_dealer": "Zoe"})

    response = post_import(client_owner, text, language="en")

    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The first dealer 'Zoe' is not one of the players.",
        "Hand 3: no_game must be true or false.",
    ]


def test_the_commands_keep_the_engines_english_lines(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            RECORD
            | with_hand(3, {"no_game": "Zed"})
            | {"rules": {"preset": "classic", "colour": 1}, "stake": "1e9"}
        )
    )
    stderr = io.StringIO()

    with pytest.raises(SystemExit) as exit_:
        call_command("tally", str(path), stdout=io.StringIO(), stderr=stderr)

    assert exit_.value.code == 2
    assert stderr.getvalue().splitlines() == [
        "error: rules: unknown rule parameter 'colour'",
        "error: stake: '1e9' is not a money amount per point like \"0.05\": digits and a "
        "decimal point only (no sign, exponent or words)",
        "error: hand 3: no_game must be true or false, not 'Zed'",
    ]


def test_each_record_line_has_its_code_beside_it():
    text = json.dumps(RECORD | {"kind": "poker", "rules": {"gin_bonus": "lots"}})

    with pytest.raises(RecordError) as refusal:
        loads(text)

    codes = [code for code, _ in refusal.value.problems]
    assert codes == ["unknown_kind", "rules"]
    assert len(refusal.value.problems) == len(refusal.value.errors)
    rules = refusal.value.problems[1][1]["error"]
    assert (rules.code, rules.params["name"]) == ("bounds", "gin_bonus")


def test_the_repair_page_says_why_in_german(client_owner, closed_partie):
    Partie.objects.filter(pk=closed_partie.pk).update(
        rules={**closed_partie.rules, "game_bonus": 10**15}
    )

    response = client_owner.get(closed_partie.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de")

    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert (
        "Ihre Regeln werden nicht mehr angenommen („Partie-Prämie“ kann nicht "
        "1000000000000000 sein: der Wert darf höchstens 1000 sein): Ändern Sie sie, um die "
        "Partie zu reparieren." in page
    )
    assert "game_bonus must be" not in page
