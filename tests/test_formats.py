"""Money as the reader reads it: the one helper behind pages, PDFs and texts to copy."""

from decimal import Decimal

import pytest
from django.utils import translation

from scorekeeper.formats import money_text, plain_amount


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
        assert money_text(Decimal(amount)) == shown
        assert money_text(Decimal(amount), signed=True) == signed


def test_an_int_is_money_with_cents_too():
    assert money_text(45) == "45.00"
