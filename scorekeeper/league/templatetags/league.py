"""Template helpers of the standings: sort links, each column's figures and rates
(numbers elsewhere: the table library's ``number`` and ``signed``); a change of a
season's settings in words."""

from datetime import date
from decimal import Decimal
from html import escape

from django import template
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from scorekeeper import engine
from scorekeeper.engine import HandStats
from scorekeeper.engine.league import Line, StandingsColumn
from scorekeeper.formats import figure_text, number_text, percent_text
from scorekeeper.table.templatetags.table import rule_changes
from scorekeeper.vocabulary import kind_name, points_formula, preset_name

from ..models import Season, SeasonChange

register = template.Library()

# The hand statistics that a rate goes with, on the season's page: a count, then its rate.
RATES = {"gins": "gin_rate", "undercuts": "undercut_rate"}

# A new column sorts its best first: the most points, wins, gins ...; a name or a rank
# from the top.
ASCENDING_FIRST = ("rank", "player")


@register.simple_tag
def sort_link(key: str, label: str, sort: str, descending: bool, short: str = "") -> str:
    """The column head as a link that sorts by it (again: the other way round); HTMX swaps
    the standings in place, and the link works without it. ``short``: the head a phone
    shows (app.css), the whole label still read out."""
    if short:
        label = format_html(
            '<span class="long">{}</span><span class="short" aria-hidden="true">{}</span>',
            label,
            short,
        )
    if key == sort:
        order = "asc" if descending else "desc"
        arrow = " ▼" if descending else " ▲"
    else:
        order = "asc" if key in ASCENDING_FIRST else "desc"
        arrow = ""
    url = f"?sort={key}&order={order}"
    return format_html(
        '<a href="{}" hx-get="{}" hx-target="#standings" hx-swap="outerHTML">{}{}</a>',
        url,
        url,
        label,
        arrow,
    )


@register.filter
def percent(rate: float | None) -> str:
    """A rate as a whole percentage, rounded half up; nothing before the first hand."""
    return percent_text(rate)


@register.simple_tag
def standings_figure(column: StandingsColumn, line: Line, stats: HandStats | None = None) -> str:
    """A player's figure in a column of the standings, as every page writes it ("–":
    none): bold where it ranks the players; the rating with its μ and σ on hover; a
    count of gins or undercuts with its rate beside it."""
    return mark_safe(_figure_html(column, line, stats))


# The standings' cells are written with f-strings and the standard library's escape:
# a page of a hundred rows of fifteen cells spends most of its time in format_html.


def _figure_html(column: StandingsColumn, line: Line, stats: HandStats | None) -> str:
    figure = escape(figure_text(column, column.read(line, stats)) or "–")
    if column.strong:
        return f"<strong>{figure}</strong>"
    if column.key == "rating":
        mu, sigma = number_text(line.rating.mu, places=2), number_text(line.rating.sigma, places=2)
        return f'<span title="μ {mu} · σ {sigma}">{figure}</span>'
    if column.key in RATES and stats is not None:
        return f"{figure} <small>{percent(getattr(stats, RATES[column.key]))}</small>"
    return figure


@register.simple_tag
def standings_row(row, columns, key_columns, public: bool) -> SafeString:
    """One player's row of the season's table (``season_detail.html``'s columns): his
    name, linked to his page but on the public page, with his games pending; each
    figure; his last results. Written here, not in the template: a page of a hundred
    rows of fifteen cells costs the template engine ten times as much."""
    line = row.line
    cells = []
    for key, _label, _short, column in columns:
        if key == "player":
            cells.append(_player_cell(row, public))
        elif key == "trend":
            cells.append(f'<td class="trend extra">{_trend(row.trend)}</td>')
        else:
            extra = "" if key in key_columns else " extra"
            cells.append(f'<td class="num{extra}">{_figure_html(column, line, row.stats)}</td>')
    unranked = ' class="unranked"' if line.rank is None else ""
    return mark_safe(f"<tr{unranked}>{''.join(cells)}</tr>")


def _player_cell(row, public: bool) -> str:
    name = escape(row.line.player)
    shown = name
    if not public and row.linked:
        shown = f'<a href="{reverse("player_detail", args=[row.player_id])}">{name}</a>'
    pending = ""
    if row.pending:
        text = ngettext("%(games)s pending", "%(games)s pending", row.pending)
        pending = f'<small class="pending">{escape(text % {"games": row.pending})}</small>'
    return f'<th scope="row" class="player" title="{name}">{shown}{pending}</th>'


def _trend(results: tuple[bool, ...]) -> str:
    won, lost = escape(pgettext("won", "W")), escape(pgettext("lost", "L"))
    return "".join(
        f'<span class="won">{won}</span>' if w else f'<span class="lost">{lost}</span>'
        for w in results
    )


@register.simple_tag
def meeting_cells(meetings) -> SafeString:
    """A line of the head-to-head matrix: each meeting's wins–losses and its points."""
    return mark_safe("".join(f'<td class="num">{_meeting(m)}</td>' for m in meetings))


def _meeting(meeting) -> str:
    if meeting is None:
        return ""
    net = number_text(meeting.net_points, sign=True)
    return f"{meeting.won}–{meeting.lost}<small>{net}</small>"


@register.filter
def season_points(season: Season) -> str:
    """The season's league points in words: 'win 2, shutout win 3, loss −1'."""
    return points_formula(season.points)


@register.simple_tag
def season_change(change: SeasonChange) -> str:
    """The settings a change altered, in words, each named as the season's form names it,
    in the order of the form: 'last day 30/11/2026 → 31/12/2026; points for a loss 0 → −1'."""
    return "; ".join(
        f"{field.verbose_name} {_setting(field.name, change.before.get(field.name))}"
        f" → {_setting(field.name, change.after[field.name])}"
        for field in Season._meta.concrete_fields  # a JSON object keeps no order (jsonb)
        if field.name in change.after
    )


def _setting(field: str, value: object) -> str:
    """A season's setting as the audit trail keeps it, in words and numbers as every page
    writes them (a date in the reader's form, a lost point "−1")."""
    if value is None:
        return "–"
    if field in ("starts_on", "ends_on"):
        return date_format(date.fromisoformat(str(value)), "SHORT_DATE_FORMAT")
    if field == "kinds":
        return ", ".join(kind_name(kind) for kind in value) or gettext("every kind counts")
    if field == "night_kind":
        return kind_name(str(value))
    if field == "night_rules":
        return _rules_text(value)
    if field == "night_stake":
        return number_text(Decimal(str(value)))
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return number_text(value)
    return str(value)


def _rules_text(value: object) -> str:
    """A night's rules as the trail keeps them: the preset's name and what differs."""
    if not value:
        return gettext("the kind's preset")
    try:
        rules = engine.Ruleset.from_dict(value)
    except engine.RulesError:  # rules of an older engine: as they are
        return str(value)
    changes = rule_changes(rules)
    return preset_name(rules.preset) + (f" ({changes})" if changes else "")
