"""A typed name against the club's roster: case, accents and one-letter slips."""

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.names import is_near, is_one_edit, is_same_name, name_key, near_names

ROSTER = ["Anna", "Ben", "Bea", "Carl", "Zoé", "Jürgen"]


def levenshtein(one: str, other: str) -> int:
    """The edit distance, by the textbook table: the oracle of is_one_edit."""
    row = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        previous, row[0] = row[0], i
        for j, b in enumerate(other, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (a != b))
    return row[-1]


def test_a_name_on_the_roster_as_written_has_no_suggestion():
    assert near_names("Ben", ROSTER) == ()


def test_a_name_in_another_case_suggests_the_roster_name():
    assert near_names("ben", ROSTER) == ("Ben",)
    assert near_names("ANNA", ROSTER) == ("Anna",)


def test_a_name_without_its_accents_suggests_the_accented_one():
    assert near_names("Zoe", ROSTER) == ("Zoé",)
    assert near_names("jurgen", ROSTER) == ("Jürgen",)
    assert near_names("Juergen", ROSTER) == ("Jürgen",)  # one letter more than Jurgen


def test_one_letter_added_dropped_or_changed_is_a_slip():
    assert near_names("Benn", ROSTER) == ("Ben",)
    assert near_names("Carll", ROSTER) == ("Carl",)
    assert near_names("Car", ROSTER) == ("Carl",)
    assert near_names("Karl", ROSTER) == ("Carl",)


def test_the_same_name_in_another_case_hides_the_one_letter_slips():
    assert near_names("bea", ["Ben", "Bea"]) == ("Bea",)
    assert near_names("bem", ["Bea", "Ben", "Bern"]) == ("Bea", "Ben")


def test_a_name_two_letters_away_is_a_new_player():
    assert near_names("Dora", ROSTER) == ()
    assert near_names("Bne", ["Ben"]) == ()  # two letters swapped: two edits
    assert near_names("Carla", ["Carl"]) == ("Carl",)
    assert near_names("Carlos", ["Carl"]) == ()


def test_at_most_three_names_are_suggested():
    assert len(near_names("Al", ["Ab", "Ac", "Ad", "Ae", "Af"])) == 3


def test_the_key_drops_case_accents_and_repeated_spaces():
    assert name_key(" Anna  Maria ") == name_key("anna maria") == "anna maria"
    assert name_key("Ångström") == "angstrom"


def test_an_identical_name_is_not_near_but_the_same_name_in_another_case_is():
    assert not is_near("Ben", "Ben")
    assert is_near("ben", "Ben")
    assert is_same_name("ben", "Ben") and not is_same_name("Zoe", "Zoé")


@given(st.text(alphabet="abn", max_size=6), st.text(alphabet="abn", max_size=6))
def test_one_edit_agrees_with_the_edit_distance(one, other):
    assert is_one_edit(one, other) == (levenshtein(one, other) == 1)
