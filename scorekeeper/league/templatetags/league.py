"""Template helpers of the standings: sort links, each column's figures and rates
(numbers elsewhere: the table library's ``number`` and ``signed``); a change of a
season's settings in words."""

from datetime import date

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext

from scorekeeper.engine import HandStats
from scorekeeper.engine.league import Line, StandingsColumn
from scorekeeper.formats import figure_text, number_text
from scorekeeper.vocabulary import kind_name

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
    """A rate as a whole percentage; nothing before the first hand."""
    return "" if rate is None else f"{round(rate * 100)} %"


@register.simple_tag
def standings_figure(column: StandingsColumn, line: Line, stats: HandStats | None = None) -> str:
    """A player's figure in a column of the standings, as every page writes it ("–":
    none): bold where it ranks the players; the rating with its μ and σ on hover; a
    count of gins or undercuts with its rate beside it."""
    figure = figure_text(column, column.read(line, stats)) or "–"
    if column.strong:
        return format_html("<strong>{}</strong>", figure)
    if column.key == "rating":
        rating = line.rating
        return format_html(
            '<span title="μ {} · σ {}">{}</span>',
            number_text(rating.mu, places=2),
            number_text(rating.sigma, places=2),
            figure,
        )
    if column.key in RATES and stats is not None:
        return format_html(
            "{} <small>{}</small>", figure, percent(getattr(stats, RATES[column.key]))
        )
    return figure


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
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return number_text(value)
    return str(value)
