"""The tournament pages: the club's list (and a new one), the check-in and seeding, the
bracket (a round at a time on a phone, following the tables with the board's polling)
and the Swiss table, and the organiser's correction of a match. Reads are GETs that
write nothing; every write is a POST through a service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.clubs.access import Role, club_of, object_in_club
from scorekeeper.inputs import number_param
from scorekeeper.sheets.tournament import (
    bracket_sheet,
    placings_sheet,
    render_bracket,
    render_placings,
    subtitle_of,
)
from scorekeeper.table import live
from scorekeeper.table.models import Player
from scorekeeper.table.views.common import HtmxHttpRequest

from . import screen, selectors, services
from .forms import CheckInForm, CorrectionForm, MatchForm, SeedForm, TournamentForm
from .messages import band_title, refusal_text, round_title
from .models import Entry, Tournament
from .services import TournamentRefused


def _tournament(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Tournament:
    return object_in_club(request, Tournament.objects.select_related("club"), pk, need)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's tournaments; its scorers and owners start a new one here."""
    club, role = club_of(request, slug)
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        initial={"played_on": timezone.localdate()},
    )
    match = MatchForm(
        request.POST if request.method == "POST" else None,
        initial=MatchForm.initial_of(Tournament(match_kind="two_player").settings),
    )
    status = 200
    if request.method == "POST":
        club, role = club_of(request, slug, Role.SCORER)
        if match.has_error(NON_FIELD_ERRORS, "preset_changed"):  # without JavaScript
            match = MatchForm(initial=match.preset_values())
        elif form.is_valid() and match.is_valid():
            data = form.cleaned_data
            tournament = services.tournament_create(
                club=club,
                owner=request.user,
                name=data["name"],
                played_on=data["played_on"],
                system=data["system"],
                settings=match.settings,
                rounds=data["rounds"],
                top_cut=data["top_cut"],
                third_place=data["third_place"],
                consolation=data["consolation"],
                confirmed_only=data["confirmed_only"],
                rated=data["rated"],
                round_minutes=data["round_minutes"],
                at_time=data["at_time"],
            )
            return redirect("tournament_entries", tournament.pk)
        else:
            status = 400
    context = {
        "club": club,
        "organiser": role.includes(Role.SCORER),
        "tournaments": club.tournaments.all(),
        "form": form,
        "match": match,
    }
    return render(request, "tournaments/list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_entries(request: HttpRequest, pk: int) -> HttpResponse:
    """The roster's check-in and the seeding, until the start; the start itself."""
    tournament = _tournament(request, pk, Role.SCORER)
    roster = Player.objects.filter(club_id=tournament.club_id).order_by("name", "pk")
    field = selectors.field_of(tournament)
    checked = [entry.player_id for entry in field]
    check_in = CheckInForm(
        request.POST if request.method == "POST" else None,
        roster=roster,
        initial={"players": checked},
    )
    refusal = None
    if request.method == "POST" and check_in.is_valid():
        try:
            services.entries_check_in(
                tournament=tournament, players=list(check_in.cleaned_data["players"])
            )
        except TournamentRefused as refused:
            refusal = refusal_text(refused)
        else:
            return redirect("tournament_entries", tournament.pk)
    return _entries_page(request, tournament, check_in, SeedForm(entries=field), refusal)


def _entries_page(
    request: HttpRequest,
    tournament: Tournament,
    check_in: CheckInForm,
    seed: SeedForm,
    refusal: str | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "check_in": check_in,
        "seed_form": seed,
        "field": selectors.field_of(tournament),
        "withdrawn": list(
            tournament.entries.exclude(withdrawn_at=None).values_list("player__name", flat=True)
        ),
        "refusal": refusal,
    }
    status = 400 if refusal and status == 200 else status
    return render(request, "tournaments/entries.html", context, status=status)


@login_required
@require_POST
def tournament_seed(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk, Role.SCORER)
    field = selectors.field_of(tournament)
    form = SeedForm(request.POST, entries=field)
    refusal = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.entries_seed(
                tournament=tournament,
                method=data["method"],
                order=data.get("order", ()),
                seed=data["seed"],
            )
        except TournamentRefused as refused:
            refusal = refusal_text(refused)
        else:
            return redirect("tournament_entries", tournament.pk)
    roster = Player.objects.filter(club_id=tournament.club_id).order_by("name", "pk")
    check_in = CheckInForm(roster=roster, initial={"players": [e.player_id for e in field]})
    return _entries_page(request, tournament, check_in, form, refusal, status=400)


@login_required
@require_POST
def tournament_start(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk, Role.SCORER)
    try:
        services.tournament_start(tournament=tournament, owner=request.user)
    except TournamentRefused as refused:
        roster = Player.objects.filter(club_id=tournament.club_id).order_by("name", "pk")
        field = selectors.field_of(tournament)
        check_in = CheckInForm(roster=roster, initial={"players": [e.player_id for e in field]})
        return _entries_page(
            request, tournament, check_in, SeedForm(entries=field), refusal_text(refused)
        )
    return redirect(tournament)


@login_required
@require_POST
def entry_withdraw(request: HttpRequest, pk: int, entry: int) -> HttpResponse:
    """Withdraw a player: his matches still to play are forfeited to his opponents. Back
    to the players, where he is marked withdrawn."""
    tournament = _tournament(request, pk, Role.SCORER)
    withdrawn = Entry.objects.filter(tournament=tournament, pk=entry).first()
    if withdrawn is not None:
        services.entry_withdraw(entry=withdrawn, by=request.user)
    return redirect("tournament_entries", tournament.pk)


@login_required
@require_safe
def tournament_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The bracket a round at a time (``?round=``: the column, from 1), or the Swiss
    table; the region polls like the board and answers 304 while nothing changed."""
    tournament = _tournament(request, pk)
    version = selectors.tournament_version(tournament)
    asked = number_param(request.GET, "round")
    # The round asked is part of it: a link to another round sends the region's ETag too
    # (hx-headers is inherited), and must not be told "unchanged".
    follow = live.Live(
        ("tournament", version, tournament.club_role, asked), over=tournament.is_over
    )
    if not_modified := live.unchanged(request, follow):
        return not_modified
    view = selectors.tournament_view(tournament) if tournament.is_started else None
    index = None
    if view is not None:
        index = asked - 1 if asked else view.current_index()
        index = min(max(index, 0), max(len(view.rounds) - 1, 0))
    titles = [round_title(c.name) for c in view.rounds] if view is not None else []
    context = {
        "tournament": tournament,
        "view": view,
        "column": view.round_at(index) if view is not None else None,
        "title": titles[index] if titles else "",
        "earlier": (index, titles[index - 1]) if titles and index > 0 else None,
        "later": (index + 2, titles[index + 1]) if titles and index + 1 < len(titles) else None,
        "position": (index + 1, len(titles)) if titles else None,
        "organiser": tournament.club_role.includes(Role.SCORER),
        "live_headers": follow.headers,
        "field": selectors.field_of(tournament),
    }
    template = "tournaments/detail.html#bracket" if request.htmx else "tournaments/detail.html"
    return live.answer(request, render(request, template, context), follow)


@login_required
@require_POST
def tournament_time(request: HttpRequest, pk: int) -> HttpResponse:
    """Time called: the parties still played end by the tournament's rule."""
    tournament = _tournament(request, pk, Role.SCORER)
    try:
        services.round_end_at_time(tournament=tournament, by=request.user)
    except TournamentRefused as refused:
        messages.error(request, refusal_text(refused))
    return redirect(tournament)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_match(request: HttpRequest, pk: int, match: str) -> HttpResponse:
    """The organiser's result of a match: a winner given, changed or voided, with why;
    the trail of its results below."""
    tournament = _tournament(request, pk, Role.SCORER)
    state = selectors.tournament_state(tournament) if tournament.is_started else None
    found = state.match(match) if state is not None else None
    if found is None or found.bye:
        return render(request, "tournaments/match.html", {"tournament": tournament}, status=404)
    players = [p for p in found.players if p is not None]
    form = CorrectionForm(
        request.POST if request.method == "POST" else None,
        players=players,
        initial={"winner": found.winner or ""},
    )
    refusal = None
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["winner"] or None
        winner = Player.objects.filter(club_id=tournament.club_id, name=name).first()
        try:
            services.result_correct(
                tournament=tournament,
                match=match,
                winner=winner,
                by=request.user,
                reason=form.cleaned_data["reason"],
            )
        except TournamentRefused as refused:
            refusal = refusal_text(refused)
        else:
            return redirect(tournament)
    context = {
        "tournament": tournament,
        "match": found,
        "form": form,
        "refusal": refusal,
        "trail": tournament.results.filter(match=match).select_related("winner", "by"),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/match.html", context, status=status)


def _printed(request: HttpRequest, pk: int) -> tuple[Tournament, selectors.TournamentView, str]:
    """A started tournament's read model, the page's, and the subtitle of its PDFs."""
    tournament = _tournament(request, pk)
    if not tournament.is_started:
        raise Http404("The tournament has not started.")
    subtitle = subtitle_of(tournament.played_on, tournament.system)
    return tournament, selectors.tournament_view(tournament), subtitle


def _pdf(content: bytes, tournament: Tournament, what: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    slug = slugify(tournament.name) or "tournament"
    name = f"{what}-{tournament.played_on:%Y-%m-%d}-{slug}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_safe
def tournament_bracket_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket on turned A4, printed from the page's read model."""
    tournament, view, subtitle = _printed(request, pk)
    sheet = bracket_sheet(view, title=tournament.name, subtitle=subtitle)
    return _pdf(render_bracket(sheet), tournament, "bracket")


@login_required
@require_safe
def tournament_placings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The final placings (place, player, record), printed from the page's read model."""
    tournament, view, subtitle = _printed(request, pk)
    sheet = placings_sheet(view, title=tournament.name, subtitle=subtitle)
    return _pdf(render_placings(sheet), tournament, "placings")


@login_required
@require_safe
def tournament_screen(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The screen in the bar: the bracket (or the Swiss table) a section at a time."""
    tournament = _tournament(request, pk)
    return _render_screen(request, tournament, shared=False)


@require_safe
def shared_tournament_screen(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The screen behind the read-only link of the tournament's evening board: for
    anyone, logged in or not; the link withdrawn, it stops working here too."""
    tournament = (
        Tournament.objects.select_related("club")
        .filter(evening__share_token=token, club__deleted_at=None)
        .first()
    )
    if tournament is None:
        raise Http404(_("This link does not work: it was withdrawn or replaced."))
    return _render_screen(request, tournament, shared=True)


def _render_screen(request: HtmxHttpRequest, tournament: Tournament, shared: bool) -> HttpResponse:
    """One ETag for what the screen shows: the tournament's state, the section of the
    turn, and the round's clock in whole minutes."""
    view = selectors.tournament_view(tournament) if tournament.is_started else None
    sections = screen.sections_of(view) if view is not None else [screen.Section(())]
    turn = screen.SectionTurn.of(len(sections), number_param(request.GET, "section"))
    left = selectors.minutes_left(view, tournament, timezone.now()) if view else None
    version = selectors.tournament_version(tournament)
    follow = live.Live(
        ("tournament-screen", version, turn.number, turn.count, left),
        over=tournament.is_over and turn.count == 1,
    )
    if not_modified := live.unchanged(request, follow):
        return not_modified
    system = tournament.system
    section = sections[turn.number - 1]
    bands = [
        (
            band,
            band_title(band.bracket, system, band.part, band.parts),
            [(round_title(c.name), c) for c in band.columns],
        )
        for band in section.bands
    ]
    context = {
        "tournament": tournament,
        "view": view,
        "bands": bands,
        "turn": turn,
        "minutes_left": left,
        "shared": shared,
        "live_headers": follow.headers,
        "field": selectors.field_of(tournament) if view is None else (),
    }
    template = "tournaments/screen.html#screen" if request.htmx else "tournaments/screen.html"
    return live.answer(request, render(request, template, context), follow)
