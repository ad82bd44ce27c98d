"""Template helpers for score sheets: a hand in words, a card with its suit."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper import engine
from scorekeeper.table.forms import PRESET_NAMES, RULE_HELP, describe_rule
from scorekeeper.table.selectors import plain_amount

register = template.Library()


@register.filter
def hand_text(data: dict | None) -> str:
    """A hand as recorded (FORMAT.md form) in a few words: 'Anna knocks 5 – 27'."""
    if not data:
        return "–"
    if "tables" in data:  # a partnership round
        return " | ".join(hand_text(table) for table in data["tables"])
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


# Money with its cents, however it was stored: 45.00, 5.40 (not 45, 5.4 or 5.4000).
register.filter("money", plain_amount)


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


@register.filter
def final_value(final: engine.Final, name: str) -> int:
    """One figure of a column's final totals: points, box_bonus, ..., total."""
    return getattr(final, name)


@register.simple_tag
def rule_diff(before: dict, after: dict) -> str:
    """The rules a change altered, in words: 'Gin bonus 25 → 30'."""
    names = [name for name in engine.PARAMETERS if before.get(name) != after.get(name)]
    if before.get("preset") != after.get("preset"):
        names.insert(0, "preset")
    parts = []
    for name in names:
        if name == "preset":
            parts.append(f"{preset_name(before.get(name))} → {preset_name(after.get(name))}")
        else:
            old, new = describe_rule(name, before.get(name)), describe_rule(name, after.get(name))
            parts.append(f"{old} → {new.removeprefix(str(RULE_HELP[name][0])).strip()}")
    return ", ".join(parts)


@register.filter
def compare_finals(before_cells: list, after_sheet) -> list[tuple[int, int, str]]:
    """Each column's total now and under other rules, labelled with game and name."""
    labels = [
        f"{group.label} {name}" if group.label else name
        for group in after_sheet.groups
        for name in group.columns
    ]
    after = [final.total for final, _ in after_sheet.final_cells]
    return [
        (final.total, new, label)
        for (final, _), new, label in zip(before_cells, after, labels, strict=True)
    ]


@register.filter
def team_name(name: str | None) -> str:
    """A chouette's team column is called "team" in records; say it in words."""
    return str(_("the team")) if name == "team" else name or ""


@register.filter
def card_html(card: engine.Card) -> str:
    """A card as players read it, red for hearts and diamonds: <span class="card red">7♥</span>."""
    colour = "card red" if card.suit.is_red else "card"
    rank = "10" if card.rank == 10 else str(card)[:-1]  # as the picker shows it
    return format_html('<span class="{}">{}{}</span>', colour, rank, card.suit.symbol)


@register.filter
def cards(cards: list[engine.Card]) -> str:
    return format_html_join("", "{}", ((card_html(card),) for card in cards))
