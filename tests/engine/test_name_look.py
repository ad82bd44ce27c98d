"""What a name looks like: invisible characters removed, look-alike letters of other
scripts taken for the letters they look like (Unicode's confusables data)."""

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.bounds import name_trouble
from scorekeeper.engine.names import INVISIBLE, looks_same, near_names, skeleton, visible


def test_visible_removes_direction_controls_zero_width_characters_and_byte_order_marks():
    for char in INVISIBLE:
        assert visible(f"An{char}na") == "Anna", f"U+{ord(char):04X}"


def test_visible_keeps_a_joiner_between_letters_and_drops_it_elsewhere():
    assert visible("a\u200db") == "a\u200db"
    assert visible("\u200da b\u200c") == "a b"
    assert visible("a \u200d b") == "a  b"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # an emoji sequence
    assert visible(family) == family


@given(st.text())
def test_visible_is_done_once(text):
    once = visible(text)
    assert visible(once) == once
    assert not set(once) & INVISIBLE


def test_letters_of_other_scripts_that_look_latin_have_the_latin_skeleton():
    assert skeleton("\u0410nna") == skeleton("Anna")  # Cyrillic А
    assert skeleton("\u0391nna") == skeleton("Anna")  # Greek Α
    assert skeleton("\uff21nna") == skeleton("Anna")  # fullwidth Ａ
    assert skeleton("B\u0435n") == skeleton("Ben")  # Cyrillic е


def test_different_names_keep_different_skeletons():
    assert skeleton("Ben") != skeleton("Bea")
    assert skeleton("Zoe") != skeleton("Zoé")  # an accent is seen
    assert skeleton("Дмитрий") != skeleton("Dmitri")


def test_a_look_alike_is_the_same_name_and_suggests_it():
    assert looks_same("\u0410nna", "Anna")
    assert not looks_same("Anna", "Ann")
    assert near_names("\u0410nn\u0430", ["Anna", "Ann", "Ben"]) == ("Anna",)


def test_a_record_naming_a_player_with_an_invisible_character_is_refused():
    assert name_trouble("\u202eAnna") == "name_invisible"
    assert name_trouble("\u0dc1\u0dca\u200d\u0dbb\u0dd3") is None  # a ZWJ a script needs
