"""Numbers as the reader reads them: the one formatter behind pages, PDFs, CSV and the
template filters (a real minus sign, a plus where a sign is shown, the language's mark)."""

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from scorekeeper.engine.league import COLUMNS
from scorekeeper.formats import MINUS, figure_text, number_text, percent_text, plain_amount


@pytest.mark.parametrize(
    ("stored", "cents"),
    [("5.4000", "5.40"), ("45", "45.00"), ("0.1250", "0.125"), ("-9.3500", "-9.35")],
)
def test_an_amount_keeps_its_cents_and_only_the_places_it_needs(stored, cents):
    assert str(plain_amount(Decimal(stored))) == cents


@pytest.mark.parametrize(
    ("language", "amount", "shown", "signed"),
    [
        ("en", "8.75", "8.75", "+8.75"),
        ("de", "8.75", "8,75", "+8,75"),
        ("en", "-9.3500", "−9.35", "−9.35"),
        ("de", "-9.3500", "−9,35", "−9,35"),
        ("de", "0", "0,00", "0,00"),
        ("en", "0.125", "0.125", "+0.125"),
    ],
)
def test_money_reads_in_the_active_language(language, amount, shown, signed):
    with translation.override(language):
        assert number_text(Decimal(amount)) == shown
        assert number_text(Decimal(amount), sign=True) == signed


@pytest.mark.parametrize(
    ("points", "shown", "signed"),
    [(462, "462", "+462"), (-85, "−85", "−85"), (0, "0", "0"), (-1203, "−1203", "−1203")],
)
def test_points_have_a_minus_sign_and_a_plus_where_a_sign_is_shown(points, shown, signed):
    with translation.override("de"):
        assert number_text(points) == shown
        assert number_text(points, sign=True) == signed


def test_no_number_is_written_with_a_hyphen():
    for value in (-85, Decimal("-10.15"), -3.25, -0.5):
        text = number_text(value)
        assert text.startswith(MINUS) and "-" not in text, text


@pytest.mark.parametrize(
    ("language", "value", "places", "shown"),
    [
        ("en", 27.1349, 2, "27.13"),
        ("de", 27.1349, 2, "27,13"),
        ("de", -3.25, 1, "−3,3"),  # half up, away from zero: the same as +3.25
        ("en", -0.04, 1, "0.0"),  # rounded to nothing: no sign
        ("en", 25.0, None, "25"),  # a float in its shortest form
        ("de", 27.5, None, "27,5"),
        ("de", Decimal("8.7"), 2, "8,70"),
    ],
)
def test_places_round_any_number(language, value, places, shown):
    with translation.override(language):
        assert number_text(value, places=places) == shown


@pytest.mark.parametrize(
    ("value", "places", "shown"),
    [
        (117 / 4, 1, "29.3"),  # points per hand won: 29.25, not Python's 29.2
        (-117 / 4, 1, "−29.3"),  # the same either side of zero
        (0.125, 2, "0.13"),
        (-0.125, 2, "−0.13"),
        (Decimal("0.125"), 2, "0.13"),
        (2.675, 2, "2.68"),  # the float nearest 2.675 lies below it: rounded as written
        (29.24, 1, "29.2"),
        (4.9449, 1, "4.9"),
    ],
)
def test_a_number_shown_to_fewer_places_is_rounded_half_up(value, places, shown):
    with translation.override("en"):
        assert number_text(value, places=places) == shown


@pytest.mark.parametrize(
    ("rate", "shown"), [(1 / 8, "13 %"), (29 / 200, "15 %"), (3 / 8, "38 %"), (0.0, "0 %")]
)
def test_a_rate_is_a_whole_percentage_rounded_half_up(rate, shown):
    assert percent_text(rate) == shown
    template = Template("{% load league %}{{ rate|percent }}")
    assert template.render(Context({"rate": rate})) == shown


def test_without_localizing_the_decimal_point_stays():
    with translation.override("de"):
        assert number_text(-27.15, places=1, localize=False) == "−27.2"


def test_nothing_is_written_as_nothing():
    assert number_text(None) == "" and number_text(None, sign=True) == ""


def test_the_template_filters_are_the_formatter():
    template = Template(
        "{% load table %}{{ points|signed }} {{ money|number }} {{ rating|number:1 }} "
        "{{ money|signed }} {{ none|number|default:'–' }}"
    )
    context = Context({"points": -203, "money": Decimal("-10.15"), "rating": -1.25, "none": None})
    with translation.override("de"):
        assert template.render(context) == "−203 −10,15 −1,3 −10,15 –"


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("rank", None, ""),  # unranked
        ("player", "Anna", "Anna"),
        ("games", 12, "12"),
        ("league_points", -3, "−3"),  # a loss may cost a point: a minus, never a hyphen
        ("net_points", 120, "+120"),
        ("money", Decimal("-6.5000"), "−6,50"),
        ("rating", 4.9449, "4,9"),
        ("mu", 27.1349, "27,13"),
        ("points_per_hand_won", None, ""),
    ],
)
def test_a_figure_of_the_standings_is_written_as_its_column_says(key, value, shown):
    with translation.override("de"):
        assert figure_text(COLUMNS[key], value) == shown
