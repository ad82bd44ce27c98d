"""Share links and the live boards of a club night (live.py): a shared partie, a partie
or an evening shared, the boards of an evening and of a club."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseStopPolling

from scorekeeper import vocabulary
from scorekeeper.clubs.access import Role, club_of
from scorekeeper.inputs import number_param
from scorekeeper.league import selectors as league
from scorekeeper.league.models import Season

from .. import live, selectors
from ..access import evening_for, partie_for
from ..models import Evening, Partie
from ..services import sharing as share_services
from .common import HtmxHttpRequest
from .parties import _render_ruleset, _render_table


@require_safe
def shared_partie(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The read-only view behind a share link: no form, no edit links. It follows the
    table by itself, and answers "unchanged" from the version alone (live.py)."""
    shared = Partie.objects.filter(share_token=token, club__deleted_at=None)
    row = shared.values("pk", "version", "state").first()
    if row is None:
        return _link_gone(request, "table")
    if not_modified := live.unchanged(request, live.partie_live(**row)):
        return not_modified
    queryset = selectors.partie_with_players(Partie.objects.all())
    partie = get_object_or_404(queryset, pk=row["pk"], share_token=token)
    shown = live.partie_live(partie.pk, partie.version, partie.state)
    sheet = selectors.partie_sheet(partie)
    response = _render_table(request, sheet, shared=True, live_headers=shown.headers)
    return live.answer(request, response, shown)


@require_safe
def shared_partie_ruleset(request: HttpRequest, token: str) -> HttpResponse:
    """The rules behind a share link, as its players read them at the table."""
    shared = Partie.objects.select_related("club").filter(club__deleted_at=None)
    partie = get_object_or_404(shared, share_token=token)
    return _render_ruleset(request, partie, shared=True)


def _link_gone(request: HtmxHttpRequest, region: str) -> HttpResponse:
    """A share link that does not work (any more): 404; a page that polled it is told
    so in place of its region, and stops polling."""
    if not request.htmx:
        raise Http404(_("This link does not work: it was withdrawn or replaced."))
    content = render_to_string("table/_link_gone.html", {"region": region}, request)
    return HttpResponseStopPolling(content)


@login_required
@require_POST
def partie_share(request: HttpRequest, pk: int) -> HttpResponse:
    """A new read-only link for the partie, which ends the old one; ``shared=0``: none."""
    partie = partie_for(request, pk, Role.SCORER)
    share_services.partie_share(partie=partie, shared=request.POST.get("shared") != "0")
    return redirect(partie)


@login_required
@require_POST
def evening_share(request: HttpRequest, pk: int) -> HttpResponse:
    """A read-only link to the evening's board (a new one ends the old); ``shared=0``: none."""
    evening = evening_for(request, pk, Role.SCORER)
    share_services.evening_share(evening=evening, shared=request.POST.get("shared") != "0")
    return redirect("evening_board", evening.pk)


@login_required
@require_safe
def evening_board(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every table of the evening, following the hands as they are recorded."""
    evening = evening_for(request, pk)
    role = Role(evening.club_role)
    return _render_board(request, live.evening_board(evening), scorer=role.includes(Role.SCORER))


@require_safe
def shared_evening_board(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The evening's board behind its read-only link: for anyone, logged in or not."""
    evening = Evening.objects.filter(share_token=token, club__deleted_at=None).first()
    if evening is None:
        return _link_gone(request, "board")
    return _render_board(request, live.evening_board(evening), shared=True)


@login_required
@require_safe
def club_board(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's running tables, whichever evening they belong to, and the top of the
    table of its season under way."""
    club, _role = club_of(request, slug)
    today = timezone.localdate()
    season = league.board_season(club, today)
    standings = league.standings_version(season)
    board = live.club_board(club, standings, tonight=league.tonight_parties(club, today))
    return _render_board(request, board, season=season)


def _render_board(
    request: HtmxHttpRequest,
    board: live.Board,
    shared: bool = False,
    scorer: bool = False,
    season: Season | None = None,
) -> HttpResponse:
    """The board, or its region for the page polling it; "unchanged" from the versions
    (and the standings' version, where it shows a season's)."""
    follow, page, arrangement = board.live(_chosen_page(request), league.night_seated)
    if not_modified := live.unchanged(request, follow):
        return not_modified
    layout = board.layout(page, arrangement, league.night_byes)
    context = {
        "board": board,
        "tables": layout.cards,
        "rounds": layout.rounds,
        "page": page,
        "season": season,
        "standings": league.season_top(season) if season else None,
        "standings_columns": vocabulary.board_standings_columns(),
        "shared": shared,
        "scorer": scorer,
        "live_headers": follow.headers,
    }
    template = "table/board.html#board" if request.htmx else "table/board.html"
    return live.answer(request, render(request, template, context), follow)


def _chosen_page(request: HttpRequest) -> int | None:
    """The page of tables the reader chose (``?page=2``); None: they take turns."""
    return number_param(request.GET, "page")  # a page that is no number: they take turns
