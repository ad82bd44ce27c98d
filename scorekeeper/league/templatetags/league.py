"""Template helpers of the standings: sort links and rates (numbers: the table library's
``number`` and ``signed``)."""

from django import template
from django.utils.html import format_html

register = template.Library()

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
