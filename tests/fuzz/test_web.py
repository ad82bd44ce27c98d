"""The forms and the import view under malformed and extreme values: a clear refusal
and nothing saved, or a partie whose page, PDF and evening all work. Never a 500.

The test client raises any exception of a view, so an example that would answer 500
fails here with its traceback.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import bounds
from scorekeeper.table import services
from scorekeeper.table.models import Evening, Hand, HandChange, Partie
from tests.fuzz.strategies import FUZZ_WEB, RECORD, as_text, record_texts
from tests.table.helpers import PARTIE_FIELDS, start_form_data

pytestmark = pytest.mark.django_db

RULE_INTEGER_FIELDS = sorted(bounds.RULE_INTEGERS.keys() - {"knock_limit"})
# Numbers as people type them, and as an attacker might.
typed_numbers = (
    st.sampled_from(
        [
            "",
            "0",
            "0.05",
            "0,05",
            "1e3",
            "1E3",
            "-1",
            "+1",
            "NaN",
            "Infinity",
            "1_000",
            "0x10",
            "999999.9999",
            "100",
            "100.0001",
            "0.00001",
            "9" * 5000,
            " 7 ",
            "\u0661",  # ARABIC-INDIC DIGIT ONE
            "1" * 25,
        ]
    )
    | st.text(max_size=12)
    | st.integers(-(10**20), 10**20).map(str)
    | st.decimals(allow_nan=True, allow_infinity=True).map(str)
)


def post_start(client: Client, **fields: Any):
    """The start form with rule fields (``target="7"``) or others (``stake="1"``) as given."""
    form = {name: value for name, value in fields.items() if name not in PARTIE_FIELDS}
    data = start_form_data(**form) | {k: v for k, v in fields.items() if k in PARTIE_FIELDS}
    return client.post(reverse("partie_new"), data)


def assert_refused_or_started(response, before: int) -> Partie | None:
    """A refusal re-shows the form with its errors and saves nothing; a start redirects
    to a partie whose page and PDF answer."""
    if response.status_code == 302:
        assert Partie.objects.count() == before + 1
        return Partie.objects.latest("pk")
    assert response.status_code in (200, 400)
    assert response.context["form"].errors
    assert Partie.objects.count() == before
    return None


def assert_partie_works(client: Client, partie: Partie) -> None:
    assert client.get(reverse("partie_detail", args=[partie.pk])).status_code == 200
    pdf = client.get(reverse("partie_pdf", args=[partie.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


@FUZZ_WEB
@given(stake=typed_numbers)
def test_the_start_form_takes_only_a_plain_stake_within_the_bounds(client_owner, stake):
    before = Partie.objects.count()
    partie = assert_refused_or_started(post_start(client_owner, stake=stake), before)
    if partie is not None:
        assert Decimal(0) <= partie.stake <= bounds.MAX_STAKE
        assert "e" not in stake.lower()


@FUZZ_WEB
@given(name=st.sampled_from(RULE_INTEGER_FIELDS + ["money_unit"]), value=typed_numbers)
def test_the_start_form_takes_only_rules_within_the_bounds(client_owner, name, value):
    before = Partie.objects.count()
    partie = assert_refused_or_started(post_start(client_owner, **{name: value}), before)
    if partie is not None:
        stored = partie.ruleset.to_dict()[name]
        if name == "money_unit":
            assert bounds.MIN_MONEY_UNIT <= Decimal(stored) <= bounds.MAX_MONEY_UNIT
        elif stored is not None:
            low, high = bounds.RULE_INTEGERS[name]
            assert low <= stored <= high


@FUZZ_WEB
@given(
    player=st.sampled_from(["player_1", "player_2"]),
    name=st.text(max_size=70).map(as_text) | st.sampled_from(["A\tB", "A\nB", "\x7f", "x" * 61]),
)
def test_the_start_form_takes_only_names_that_can_be_stored(client_owner, player, name):
    before = Partie.objects.count()
    data = start_form_data() | {player: name}
    partie = assert_refused_or_started(client_owner.post(reverse("partie_new"), data), before)
    if partie is not None:
        for stored in partie.player_names:
            assert bounds.name_problem(stored) is None


@pytest.fixture
def partie(client_owner) -> Partie:
    response = post_start(client_owner)
    assert response.status_code == 302
    return Partie.objects.latest("pk")


@FUZZ_WEB
@given(
    kind=st.sampled_from(["knock", "gin", "big_gin", "no_game", "", "x"]),
    knocker=st.sampled_from(["Anna", "Ben", "", "Zed"]),
    knocker_deadwood=typed_numbers,
    defender_deadwood=typed_numbers,
)
def test_the_hand_form_records_or_refuses_with_a_message(
    client_owner, partie, kind, knocker, knocker_deadwood, defender_deadwood
):
    before = Hand.objects.filter(partie=partie).count()
    data = {
        "kind": kind,
        "knocker": knocker,
        "knocker_deadwood": knocker_deadwood,
        "defender_deadwood": defender_deadwood,
    }
    response = client_owner.post(reverse("hand_create", args=[partie.pk]), data)
    if response.status_code == 302:
        assert Hand.objects.filter(partie=partie).count() == before + 1
        hand = Hand.objects.filter(partie=partie).latest("number")
        if kind in ("gin", "big_gin"):  # a number was never dropped silently
            assert knocker_deadwood.strip() in ("", "0")
            assert hand.knocker_deadwood is None
    else:
        assert response.status_code in (200, 400)
        assert b'class="error"' in response.content
        assert Hand.objects.filter(partie=partie).count() == before
    assert_partie_works(client_owner, partie)


def test_a_gin_posted_with_a_knocker_deadwood_is_refused_with_a_message(client_owner, partie):
    data = {"kind": "gin", "knocker": "Anna", "knocker_deadwood": "5", "defender_deadwood": "20"}
    response = client_owner.post(reverse("hand_create", args=[partie.pk]), data)
    assert response.status_code in (200, 400)
    errors = response.context["form"].errors["knocker_deadwood"]
    assert errors == [
        "A gin has no deadwood, but the knocker's deadwood is 5: clear it, or enter the hand "
        "as a knock."
    ]
    assert not Hand.objects.filter(partie=partie).exists()


def test_a_stake_of_1e3_is_refused_as_not_a_plain_number(client_owner):
    response = post_start(client_owner, stake="1e3")
    assert response.context["form"].errors["stake"] == [
        "Enter a number like 0.05: digits and a decimal point only."
    ]
    assert not Partie.objects.exists()


def test_a_stake_over_the_bound_is_refused_naming_the_bound(client_owner):
    response = post_start(client_owner, stake="999999.9999")
    assert response.context["form"].errors["stake"] == [
        "Ensure this value is less than or equal to 100."
    ]


def test_a_bad_preset_is_refused_with_a_message_beside_the_menu(client_owner):
    data = start_form_data() | {"preset": "poker"}
    response = client_owner.post(reverse("partie_new"), data)
    assert response.context["form"].errors["preset"] == [
        "poker is not a preset: choose one from the list."
    ]
    assert b"poker is not a preset: choose one from the list." in response.content
    assert not Partie.objects.exists()


# The import view.


def post_import(client: Client, text: str):
    return client.post(reverse("partie_import"), {"text": text})


@FUZZ_WEB
@given(text=record_texts())
def test_the_import_refuses_any_bad_record_and_saves_nothing(client_owner, text):
    counts = Partie.objects.count(), Hand.objects.count(), HandChange.objects.count()
    response = post_import(client_owner, as_text(text))
    if response.status_code == 302:  # accepted: the partie works everywhere
        partie = Partie.objects.latest("pk")
        assert_partie_works(client_owner, partie)
        evening = Evening.objects.create(
            club=partie.club, owner=partie.owner, name="Fuzz", played_on="2026-11-23"
        )
        services.partie_evening_set(partie=partie, evening=evening)
        settle = client_owner.post(reverse("evening_settle", args=[evening.pk]))
        assert settle.status_code == 302
        assert client_owner.get(reverse("evening_detail", args=[evening.pk])).status_code == 200
        assert client_owner.get(reverse("evening_pdf", args=[evening.pk])).status_code == 200
        return
    assert response.status_code == 400
    assert response.context["form"].errors
    assert (Partie.objects.count(), Hand.objects.count(), HandChange.objects.count()) == counts


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[" * 1000 + "]" * 1000,
            "The JSON nests deeper than 32 levels: a game record never does.",
        ),
        ('{"stake": ' + "1" * 5000 + "}", "The number 111111111111… (5000 characters) is too"),
        ('{"players": ["\\ud800", "B"]}', "The record holds \\ud800, a broken character"),
        ('{"stake": NaN}', "NaN is not a number: JSON has no NaN or Infinity."),
        ('{"players": [', "broken JSON at line 1 column 14: this is not a game record"),
    ],
)
def test_the_import_says_why_a_text_is_no_record(client_owner, text, message):
    response = post_import(client_owner, text)
    assert response.status_code == 400
    assert any(error.startswith(message) for error in response.context["form"].non_field_errors())
    assert not Partie.objects.exists()


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"rules": {"money_unit": "1e-30"}}, "Rules: The money unit '1e-30' is not a decimal"),
        ({"stake": "1e9"}, "The stake '1e9' is not a money amount per point"),
        ({"stake": 1e308}, "The stake 1e+308 is not a money amount per point"),
        ({"rules": {"game_bonus": 10**15}}, "Rules: Game bonus cannot be 1000000000000000"),
        ({"players": ["A\x00", "B"]}, None),  # NUL: refused as text, before the record
        ({"hands": [{"no_game": "Zed"}]}, "Hand 1: no_game must be true or false."),
        ({"rules": {"preset": "classic", "colour": 1}}, "Rules: There is no rule 'colour'"),
        ({"hands": [{"no_game": True}] * (bounds.MAX_HANDS + 1)}, "Hands: a partie holds at most"),
    ],
)
def test_the_import_refuses_what_poisoned_a_partie_before(client_owner, change, line):
    response = post_import(client_owner, json.dumps(RECORD | change))
    assert response.status_code == 400
    errors = response.context["form"].non_field_errors()
    if line is not None:
        assert any(error.startswith(line) for error in errors), errors
    assert not Partie.objects.exists()


def test_an_upload_larger_than_the_bound_is_refused_unread(client_owner):
    from django.core.files.uploadedfile import SimpleUploadedFile

    big = SimpleUploadedFile("big.json", b" " * (bounds.MAX_RECORD_BYTES + 1))
    response = client_owner.post(reverse("partie_import"), {"file": big})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "The record is larger than 1 MB: a partie holds at most 500 hands."
    ]
