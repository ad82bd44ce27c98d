"""Rulesets and presets (RULES.md §8): every column of the table, overrides and errors."""

import dataclasses
import json
from decimal import Decimal

import pytest

from scorekeeper.engine.rules import (
    PARAMETERS,
    PRESETS,
    UPCARD,
    DealerRule,
    OklahomaAce,
    RulesError,
    Ruleset,
    Shutout,
    SpadeDouble,
    preset,
)

# RULES.md §8, column by column, as the engine spells the values.
CLASSIC = {
    "knock_limit": 10,
    "undercut_bonus": 10,
    "tie_is_undercut": True,
    "gin_bonus": 20,
    "big_gin_bonus": None,
    "box_bonus": 20,
    "game_bonus": 100,
    "target": 100,
    "shutout": Shutout.BONUS,
    "shutout_bonus": 100,
    "dealer_rule": DealerRule.LOSER,
    "spade_double": SpadeDouble.OFF,
    "extra_boxes_gin": 0,
    "extra_boxes_undercut": 0,
    "round_the_corner": False,
    "hollywood_game3_double": False,
    "best_of": 5,
    "money_unit": Decimal("0.01"),
}
MODERN = CLASSIC | {
    "undercut_bonus": 25,
    "gin_bonus": 25,
    "big_gin_bonus": 31,
    "box_bonus": 25,
    "shutout": Shutout.DOUBLE_TOTAL,
    "dealer_rule": DealerRule.WINNER,
}
OKLAHOMA = MODERN | {
    "knock_limit": UPCARD,
    "target": 150,
    "spade_double": SpadeDouble.POINTS,
    "oklahoma_ace": OklahomaAce.GIN_ONLY,
}
# "Other presets" below the table.
OTHERS = {
    "hollywood": CLASSIC,
    "straight": CLASSIC | {"knock_limit": 0},
    "partnership": CLASSIC | {"target": 125},
    "round_the_corner": CLASSIC
    | {
        "undercut_bonus": 20,
        "gin_bonus": 20,
        "box_bonus": 20,
        "target": 125,
        "round_the_corner": True,
    },
}
TABLE = {"classic": CLASSIC, "modern": MODERN, "oklahoma": OKLAHOMA} | OTHERS


@pytest.mark.parametrize("name", TABLE)
def test_preset_matches_every_column_of_the_rules_table(name):
    rules = preset(name)
    assert rules.preset == name
    assert {p: getattr(rules, p) for p in TABLE[name]} == TABLE[name]


def test_every_preset_of_the_engine_is_in_the_rules_table():
    assert set(PRESETS) == set(TABLE)


def test_every_parameter_of_the_rules_table_is_a_parameter_of_the_engine():
    assert set(OKLAHOMA) <= set(PARAMETERS)


def test_only_oklahoma_takes_its_knock_limit_from_the_upcard():
    assert [name for name in PRESETS if preset(name).is_oklahoma] == ["oklahoma"]


def test_a_ruleset_without_a_preset_is_classic():
    assert Ruleset() == preset("classic")
    assert Ruleset.from_dict({}) == preset("classic")


def test_an_override_changes_only_the_named_parameter():
    rules = preset("modern", gin_bonus=20, tie_is_undercut=False)
    assert rules.gin_bonus == 20
    assert rules.tie_is_undercut is False
    assert rules.preset == "modern"
    others = {p: getattr(rules, p) for p in MODERN if p not in ("gin_bonus", "tie_is_undercut")}
    assert others == {p: v for p, v in MODERN.items() if p not in ("gin_bonus", "tie_is_undercut")}


def test_override_values_are_brought_to_engine_types():
    rules = preset(
        "classic",
        shutout="double_hands",
        dealer_rule="alternate",
        spade_double="points_and_boxes",
        oklahoma_ace="one",
        money_unit="0.05",
    )
    assert rules.shutout is Shutout.DOUBLE_HANDS
    assert rules.dealer_rule is DealerRule.ALTERNATE
    assert rules.spade_double is SpadeDouble.POINTS_AND_BOXES
    assert rules.oklahoma_ace is OklahomaAce.ONE
    assert rules.money_unit == Decimal("0.05")


@pytest.mark.parametrize("off", [None, "off", False])
def test_big_gin_can_be_turned_off(off):
    assert preset("modern", big_gin_bonus=off).big_gin_bonus is None


def test_big_gin_can_be_turned_on_with_its_bonus():
    assert preset("classic", big_gin_bonus=50).big_gin_bonus == 50


def test_replace_gives_a_new_ruleset_and_leaves_the_old_one_alone():
    classic = preset("classic")
    changed = classic.replace(target=250)
    assert changed.target == 250
    assert classic.target == 100


def test_a_ruleset_cannot_be_changed_in_place():
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset("classic").target = 500


def test_unknown_preset_raises_rules_error_naming_the_choices():
    with pytest.raises(RulesError) as error:
        preset("canasta")
    assert str(error.value).startswith("unknown preset 'canasta': choose one of classic, modern")


def test_preset_name_that_is_not_text_raises_rules_error():
    with pytest.raises(RulesError, match="unknown preset"):
        preset(["classic"])
    with pytest.raises(RulesError, match="unknown preset"):
        Ruleset.from_dict({"preset": {"name": "classic"}})


def test_unknown_parameter_raises_rules_error_naming_it():
    with pytest.raises(RulesError, match="unknown rule parameter 'gin_bonsu'"):
        preset("classic", gin_bonsu=25)


def test_replace_refuses_an_unknown_parameter():
    with pytest.raises(RulesError, match="unknown rule parameter 'jokers'"):
        preset("classic").replace(jokers=2)


def test_rules_that_are_not_an_object_raise_rules_error():
    with pytest.raises(RulesError, match="rules must be an object"):
        Ruleset.from_dict(["classic"])


@pytest.mark.parametrize(
    ("parameter", "value", "message"),
    [
        ("gin_bonus", "lots", "gin_bonus must be a whole number, not 'lots'"),
        ("gin_bonus", 2.5, "gin_bonus must be a whole number, not 2.5"),
        ("gin_bonus", True, "gin_bonus must be a whole number, not True"),
        ("undercut_bonus", -1, "undercut_bonus must be at least 0, not -1"),
        ("target", 0, "target must be at least 1, not 0"),
        ("knock_limit", 11, "knock_limit must be between 0 and 10, not 11"),
        ("knock_limit", "seven", "knock_limit must be a whole number, not 'seven'"),
        ("best_of", 4, "best_of must be odd so that a match has a winner, not 4"),
        ("tie_is_undercut", "yes", "tie_is_undercut must be true or false, not 'yes'"),
        ("tie_is_undercut", 1, "tie_is_undercut must be true or false, not 1"),
        ("shutout", "triple", "shutout must be one of bonus, double_total, double_hands, none"),
        ("dealer_rule", "random", "dealer_rule must be one of loser, winner, alternate"),
        ("spade_double", "hearts", "spade_double must be one of off, points, points_and_boxes"),
        ("oklahoma_ace", "eleven", "oklahoma_ace must be one of gin_only, one"),
        ("money_unit", "0", "money_unit must be a positive decimal like 0.01, not '0'"),
        ("money_unit", "cents", "money_unit must be a positive decimal like 0.01, not 'cents'"),
        ("money_unit", "-0.01", "money_unit must be a positive decimal like 0.01"),
    ],
)
def test_a_bad_value_raises_rules_error_saying_what_is_expected(parameter, value, message):
    with pytest.raises(RulesError) as error:
        preset("classic", **{parameter: value})
    assert str(error.value).startswith(message)


@pytest.mark.parametrize("name", PRESETS)
def test_to_dict_and_from_dict_round_trip_every_preset(name):
    rules = preset(name)
    data = json.loads(json.dumps(rules.to_dict()))
    assert Ruleset.from_dict(data) == rules


def test_to_dict_and_from_dict_round_trip_overrides():
    rules = preset(
        "oklahoma",
        oklahoma_ace="one",
        spade_double="points_and_boxes",
        big_gin_bonus=None,
        money_unit="0.05",
        extra_boxes_gin=2,
    )
    data = json.loads(json.dumps(rules.to_dict()))
    assert Ruleset.from_dict(data) == rules


def test_to_dict_names_the_preset_and_every_parameter_with_plain_values():
    data = preset("modern").to_dict()
    assert list(data) == ["preset", *PARAMETERS]
    assert data["shutout"] == "double_total"
    assert data["money_unit"] == "0.01"
    assert data["big_gin_bonus"] == 31
    assert preset("oklahoma").to_dict()["knock_limit"] == "upcard"


def test_changes_from_preset_is_empty_for_a_plain_preset():
    for name in PRESETS:
        assert preset(name).changes_from_preset() == {}


def test_changes_from_preset_lists_only_the_changed_parameters_as_plain_values():
    rules = preset("modern", gin_bonus=25, shutout="bonus", big_gin_bonus="off")
    assert rules.changes_from_preset() == {"shutout": "bonus", "big_gin_bonus": None}


def test_changes_from_preset_are_the_overrides_that_rebuild_the_ruleset():
    rules = preset("classic", target=250, dealer_rule="winner", money_unit="0.5")
    rebuilt = Ruleset.from_dict({"preset": "classic", **rules.changes_from_preset()})
    assert rebuilt == rules
