"""Card codes read into a hand (parse_cards): any case, 10 or T, suit letters or symbols,
separated by spaces or commas; unknown, repeated or too many cards are named."""

import pytest

from scorekeeper.engine.cards import Card, CardError, Suit, parse_cards


def codes(text, count=None):
    return [card.code for card in parse_cards(text, count)]


def test_codes_are_read_in_the_order_given_in_any_case():
    assert codes("7H td 10c Q♠ a♥ 2♦ k♣") == ["7H", "TD", "TC", "QS", "AH", "2D", "KC"]


def test_spaces_and_commas_separate_codes():
    assert codes(" 7H,TD ,  9c\n2s\t3S,,4s ") == ["7H", "TD", "9C", "2S", "3S", "4S"]


def test_ten_is_t_or_10_and_suits_are_letters_or_symbols():
    assert codes("10s 10♥ T♦ tc") == ["TS", "TH", "TD", "TC"]
    assert codes("Q♠ Q♥ Q♦ Q♣") == ["QS", "QH", "QD", "QC"]


def test_the_emoji_form_of_a_suit_symbol_is_read_too():
    assert codes("A\u2660\ufe0f K\u2665\ufe0f") == ["AS", "KH"]


def test_a_list_of_codes_or_cards_is_read_alike():
    assert codes(["7h", " TD ", "q♠"]) == ["7H", "TD", "QS"]
    assert parse_cards([Card(7, Suit.HEARTS), "TD"]) == (
        Card(7, Suit.HEARTS),
        Card(10, Suit.DIAMONDS),
    )
    assert parse_cards("") == ()


def test_an_unknown_card_is_named():
    with pytest.raises(CardError) as error:
        parse_cards("7H 11S 9C")
    assert str(error.value).startswith("'11S' is not a card")
    assert (error.value.code, error.value.token) == ("unknown_card", "11S")
    for token in ("1H", "7X", "77", "H", "7", "Q♤"):
        with pytest.raises(CardError, match="is not a card"):
            parse_cards(f"AS {token}")


def test_a_repeated_card_is_named_even_when_written_differently():
    with pytest.raises(CardError) as error:
        parse_cards("TD 7H 10d")
    assert str(error.value) == "TD is given twice: each card of the deck appears once"
    assert (error.value.code, error.value.token, error.value.params) == (
        "duplicate_card",
        "10d",
        {"card": "TD"},
    )


def test_the_wrong_number_of_cards_is_refused():
    with pytest.raises(CardError) as error:
        parse_cards("AS 2S 3S", 10)
    assert str(error.value) == "3 cards given: a hand here has 10 cards"
    assert (error.value.code, error.value.params["count"]) == ("card_count", 3)
    with pytest.raises(CardError, match="1 card given: a hand here has 10 or 11 cards"):
        parse_cards("AS", (10, 11))
    assert len(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", (10, 11))) == 11


def test_a_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)
