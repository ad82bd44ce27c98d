"""What the pages of the table share: the request as django-htmx's middleware leaves it,
and the choice of a club."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from scorekeeper.clubs.forms import ClubChoiceForm
from scorekeeper.inputs import number_param

from ..selectors import start_club


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says whether
    htmx sent it (and how), so a view answers with a partial or the whole page."""

    htmx: HtmxDetails


def _club_form(request: HttpRequest) -> ClubChoiceForm:
    """The club a new partie, import or evening goes to; a club page's link names it,
    else it is the user's usual club (``selectors.start_club``)."""
    data = request.POST if request.method == "POST" else None  # bound, though empty
    club = number_param(request.GET, "club")  # not a number: the usual club
    if data is None and not club:
        usual = start_club(request.user)
        club = usual.pk if usual else None
    return ClubChoiceForm(data, user=request.user, initial={"club": club})
