"""Template helpers for score sheets: a hand in words, a card with its suit."""

import uuid
from decimal import Decimal
from html import escape

from django import template
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scorekeeper import engine, vocabulary
from scorekeeper.formats import number_text
from scorekeeper.table.models import HandChange
from scorekeeper.vocabulary import describe_rule, rule_label, rules_to_name

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


@register.filter
def number(value: int | float | Decimal | None, places: int | None = None) -> str:
    """A number in the reader's language (formats.number_text): points as they are, a
    minus sign (−85); money with its cents however it was stored (45.00, 5,40, not 45,
    5.4 or 5.4000); ``places`` decimals where given (a rating: ``|number:1``)."""
    return number_text(value, places=places)


@register.filter
def signed(value: int | float | Decimal | None, places: int | None = None) -> str:
    """A number won (+) or paid (−), as every sheet writes it: +462, −85, +8,75."""
    return number_text(value, sign=True, places=places)


register.filter("outcome_label", vocabulary.outcome_name)
register.filter("preset_name", vocabulary.preset_name)
register.filter("team_name", vocabulary.side_name)
register.filter("column_name", vocabulary.column_name)
register.filter("game_name", vocabulary.game_name)
register.filter("kind_name", vocabulary.kind_name)


PLAIN = Context()  # how a template writes {{ value }}: escaped, localized


def _value(value: object) -> str:
    return render_value_in_context(value, PLAIN)


@register.simple_tag
def line_text(line: engine.Play, roles: engine.Roles | None = None, tables: bool = False) -> str:
    """A hand line of the sheet in words: 'Anna 2 v 9 · Ben dealt', with the outcome
    first at a partnership's tables, the multiplier and the roles where there are any.

    Drawn here, not by a template included for every row: that include was half of a
    row's cost on the score sheet (bench/README.md). Each value is escaped as a template
    would; the words are the catalogue's, as ``{% blocktranslate %}`` gave them."""
    text = f"{_value(vocabulary.outcome_name(line.score.outcome))} " if tables else ""
    hand = line.hand
    if line.knocker:
        text += _value(line.knocker)
        if hand.kind == "knock":
            text += f" {_value(hand.knocker_deadwood)}"
        against = pgettext("a knocker's deadwood against the defender's", "v")
        text += f" {escape(against)} {_value(hand.defender_deadwood)}"  # Anna 2 gegen 9
        if hand.upcard:
            text += f" · {_value(hand.upcard)}"
        if line.score.multiplier > 1:
            text += f" ×{_value(line.score.multiplier)}"
        text += " · "
    if roles:
        text += _("%(box)s box, %(captain)s captain") % {
            "box": _value(roles.box),
            "captain": _value(roles.captain),
        }
        if roles.out:
            out = conditional_escape(", ").join(conditional_escape(name) for name in roles.out)
            text += " · " + ngettext("%(out)s out", "%(out)s out", len(roles.out)) % {"out": out}
        text += " · "
    text += _("%(dealer)s dealt") % {"dealer": _value(line.dealer)}
    return mark_safe(text + "\n")  # noqa: S308 (every value escaped above)


@register.filter
def action_name(action: str) -> str:
    """A change's action in words, as ``get_action_display`` says it: without building
    the field's choices anew for every line of the Changes list (90 µs a line, against 5)."""
    try:
        return str(HandChange.Action(action).label)
    except ValueError:  # not one of the choices: as it is stored
        return action


@register.simple_tag
def rule_changes(rules: engine.Ruleset) -> str:
    """The rules that differ from the preset, in words, comma-separated."""
    changes, values = rules.changes_from_preset(), rules.to_dict()
    return ", ".join(describe_rule(n, values[n]) for n in rules_to_name(changes, rules))


@register.filter
def foot_label(item: engine.Foot, rules: engine.Ruleset) -> str:
    return vocabulary.foot_label(item, rules)


@register.filter
def foot_value(value: int | Decimal | None, item: engine.Foot) -> str:
    """A figure under the hands in the reader's language: the net and the money signed
    (won +, paid −), money with its cents; nothing where the game has no such figure."""
    return number_text(value, sign=item in (engine.Foot.NET, engine.Foot.MONEY))


@register.simple_tag
def rule_diff(before: dict, after: dict) -> str:
    """The rules a change altered, in words: 'Gin bonus 25 → 30'."""
    names = [name for name in engine.PARAMETERS if before.get(name) != after.get(name)]
    if before.get("preset") != after.get("preset"):
        names.insert(0, "preset")
    parts = []
    for name in names:
        if name == "preset":
            old, new = before.get(name), after.get(name)
            parts.append(f"{vocabulary.preset_name(old)} → {vocabulary.preset_name(new)}")
        else:
            old, new = describe_rule(name, before.get(name)), describe_rule(name, after.get(name))
            parts.append(f"{old} → {new.removeprefix(rule_label(name)).strip()}")
    if "stake" in after:  # kept only when the stake changed with the rules
        stake = _("Stake per point")
        old, new = number_text(Decimal(before["stake"])), number_text(Decimal(after["stake"]))
        parts.append(f"{stake} {old} → {new}")
    return ", ".join(parts)


@register.filter
def card_html(card: engine.Card) -> str:
    """A card as players read it, red for hearts and diamonds: <span class="card red">7♥</span>."""
    colour = "card red" if card.suit.is_red else "card"
    rank = "10" if card.rank == 10 else str(card)[:-1]  # as the picker shows it
    return format_html('<span class="{}">{}{}</span>', colour, rank, card.suit.symbol)


@register.filter
def cards(cards: list[engine.Card]) -> str:
    return format_html_join("", "{}", ((card_html(card),) for card in cards))


@register.simple_tag
def new_entry_key() -> str:
    """A fresh idempotency key for a hand form (services.hand_record records it once)."""
    return str(uuid.uuid4())


@register.filter
def locked_in(number: int, locked: dict[int, int] | None) -> int | None:
    """The locked game that hand ``number`` was played in (``locked``: the page's, from
    ``views.parties._locked_hands``), or None: it may be corrected."""
    return (locked or {}).get(number)


@register.filter
def with_games(values, part: engine.Part) -> list[tuple[object, int]]:
    """Each of a table's columns (a row's cells, a foot line's values, the heads) with the
    number of its game: on a phone, Hollywood's sheet shows one game at a time."""
    games = [game.number for game in part.games for _column in game.columns]
    return list(zip(values, games, strict=True))


@register.filter
def shown_game(part: engine.Part) -> int:
    """The game a phone shows first: the first still running, else the last."""
    running = (game.number for game in part.games if not game.tally.closed)
    return next(running, part.games[-1].number)


@register.simple_tag
def roster_options(names: list[str]) -> SafeString:
    """The club's names as a datalist's options: joined here, not in a template loop (a
    club of thousands of players would spend most of the page's time on them)."""
    return mark_safe("".join(f'<option value="{escape(name)}">' for name in names))
