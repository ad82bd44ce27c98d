"""The rules of a partie or a pad as a form, and the fields the other forms share: a plain
decimal, a stake, one field per rule value (a name: ``scorekeeper.inputs.NameField``)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.vocabulary import CHOICE_WORDS, PRESET_LABELS, RULE_HELP

CHOICE_ENUMS = {
    "shutout": engine.Shutout,
    "dealer_rule": engine.DealerRule,
    "spade_double": engine.SpadeDouble,
    "oklahoma_ace": engine.OklahomaAce,
}


_PLAIN_NUMBER = re.compile(r"[0-9.,'\u00a0\u202f ]*[0-9][0-9.,'\u00a0\u202f ]*")


class PlainDecimalField(forms.DecimalField):
    """An amount as people write it: digits and a decimal point (or comma), within the
    bounds of engine/bounds.py. An exponent (``1e3``), a sign or a word is refused:
    DecimalField alone would take ``1e3`` for 1000."""

    default_error_messages = {
        "plain": _("Enter a number like 0.05: digits and a decimal point only."),
    }

    def __init__(self, *, min_value: Decimal, max_value: Decimal, **kwargs: Any):
        # No max_digits: max_value says the same, and one message is enough.
        super().__init__(
            min_value=min_value,
            max_value=max_value,
            decimal_places=bounds.MONEY_PLACES,
            **kwargs,
        )

    def to_python(self, value: Any) -> Decimal | None:
        if isinstance(value, str) and value.strip() and not _PLAIN_NUMBER.fullmatch(value.strip()):
            raise forms.ValidationError(self.error_messages["plain"], code="plain")
        return super().to_python(value)


def stake_field(**options: Any) -> PlainDecimalField:
    return PlainDecimalField(min_value=Decimal(0), max_value=bounds.MAX_STAKE, **options)


def rule_field(name: str) -> forms.Field:
    """The form field for one rule parameter, labelled and explained."""
    label, help_text = RULE_HELP[name]
    options = {"label": label, "help_text": help_text}
    if name == "knock_limit":
        choices = [(str(n), str(n)) for n in range(11)] + [(engine.UPCARD, _("upcard"))]
        return forms.ChoiceField(choices=choices, **options)
    if name in CHOICE_ENUMS:
        return forms.ChoiceField(choices=list(CHOICE_WORDS[name].items()), **options)
    if name in ("tie_is_undercut", "round_the_corner", "hollywood_game3_double"):
        return forms.BooleanField(required=False, **options)
    if name == "money_unit":
        return PlainDecimalField(
            min_value=bounds.MIN_MONEY_UNIT, max_value=bounds.MAX_MONEY_UNIT, **options
        )
    low, high = bounds.RULE_INTEGERS[name]
    if name == "big_gin_bonus":
        return forms.IntegerField(min_value=low, max_value=high, required=False, **options)
    return forms.IntegerField(min_value=low, max_value=high, **options)


def rule_initial(ruleset: engine.Ruleset) -> dict[str, Any]:
    values = ruleset.to_dict()
    values["knock_limit"] = str(values["knock_limit"])
    return values


class RulesForm(forms.Form):
    """A preset and every rule, each overridable; cleans into ``cleaned_data["ruleset"]``."""

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=list(PRESET_LABELS.items()),
        initial="classic",
        error_messages={
            "invalid_choice": _("%(value)s is not a preset: choose one from the list."),
            "required": _("Choose the rules: one of the presets."),
        },
    )
    # The preset whose values fill the rule fields; differs from `preset` only when
    # the preset was changed without JavaScript, which then reloads the values.
    shown_preset = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name in engine.PARAMETERS:
            self.fields[name] = rule_field(name)
        if not self.is_bound and "shown_preset" not in self.initial:
            self.initial.update(rule_initial(engine.preset("classic")), shown_preset="classic")

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in engine.PARAMETERS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        if preset and data.get("shown_preset") != preset:
            raise forms.ValidationError(_("The preset changed."), code="preset_changed")
        if preset and not any(name in self.errors for name in engine.PARAMETERS):
            try:
                data["ruleset"] = engine.preset(preset, **self._overrides(data))
            except engine.RulesError as error:
                raise forms.ValidationError(str(error)) from error
        return data

    def preset_values(self) -> dict[str, Any]:
        """The form's values again with the chosen preset's rules (the form's initial
        values once the preset changed): without JavaScript a new preset arrives with the
        old rule values, which the page must not keep."""
        preset = self.cleaned_data["preset"]
        rules = rule_initial(engine.preset(preset))
        return {**self.data.dict(), **rules, "shown_preset": preset}

    def _overrides(self, data: dict[str, Any]) -> dict[str, Any]:
        values = {name: data[name] for name in engine.PARAMETERS}
        if values["knock_limit"] != engine.UPCARD:
            values["knock_limit"] = int(values["knock_limit"])
        return values


class PartieRulesForm(RulesForm):
    """A running partie's rules and its stake per point, changed together (*Change the
    rules*): both change what every hand of it is worth."""

    # Not required: a form without it (sent before it was there) keeps the stake.
    stake = stake_field(
        label=_("Stake per point"),
        help_text=_("Money per point, e.g. 0.05; 0 to play for honour."),
        required=False,
    )
