"""Template helpers for score sheets: a hand in words, a card with its suit."""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper import engine
from scorekeeper.table.forms import PRESET_NAMES, describe_rule

register = template.Library()


@register.filter
def hand_text(data: dict | None) -> str:
    """A hand as recorded (FORMAT.md form) in a few words: 'Anna knocks 5 – 27'."""
    if not data:
        return "–"
    if data.get("no_game"):
        return _("no game")
    params = {
        "knocker": data.get("knocker"),
        "dk": data.get("knocker_deadwood"),
        "dd": data.get("defender_deadwood"),
    }
    if data.get("big_gin"):
        text = _("%(knocker)s big gin – %(dd)s") % params
    elif data.get("gin"):
        text = _("%(knocker)s gin – %(dd)s") % params
    else:
        text = _("%(knocker)s knocks %(dk)s – %(dd)s") % params
    if data.get("upcard"):
        text += " (" + card(data["upcard"]) + ")"
    return text


@register.filter
def card(code: str) -> str:
    """'7S' as '7♠'; an unreadable code as it is."""
    try:
        return str(engine.Card.parse(code))
    except engine.CardError:
        return code


OUTCOME_LABELS = {
    "knock": gettext_lazy("Knock"),
    "undercut": gettext_lazy("Undercut"),
    "gin": gettext_lazy("Gin"),
    "big_gin": gettext_lazy("Big gin"),
    "no_game": gettext_lazy("No game"),
    "void": gettext_lazy("Void"),
}


@register.filter
def outcome_label(outcome: engine.Outcome) -> str:
    return str(OUTCOME_LABELS[outcome])


@register.simple_tag
def rule_changes(rules: engine.Ruleset) -> str:
    """The rules that differ from the preset, in words, comma-separated."""
    return ", ".join(describe_rule(n, v) for n, v in rules.changes_from_preset().items())


@register.filter
def preset_name(preset: str) -> str:
    return str(PRESET_NAMES.get(preset, preset))
