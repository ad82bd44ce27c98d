"""League pages: a club's leagues and seasons, a season's standings and head-to-head,
its public link, and its downloads (CSV, PDF, the season document); a season's settings,
its close, reopening and the season after it, and a league's past seasons. Views are
thin: the first line fetches through the club's access check, reads go through the
selectors."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.timezone import localdate
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.clubs.access import Role, club_of, object_in_club
from scorekeeper.engine.league import LINE_COLUMNS, STATS_COLUMNS
from scorekeeper.engine.season import dumps
from scorekeeper.inputs import number_param
from scorekeeper.sheets.standings import (
    NOTICEBOARD_LINE,
    render_noticeboard,
    render_standings,
    standings_sheet,
)
from scorekeeper.table.access import partie_for
from scorekeeper.table.models import Partie, Player
from scorekeeper.table.views.common import HtmxHttpRequest
from scorekeeper.vocabulary import (
    KEY_COLUMNS,
    KIND_NAMES,
    SHORT_HEADS,
    STANDINGS_COLUMNS,
    pending_note,
    season_subtitle,
)

from .. import exports, selectors, services
from ..forms import (
    LeagueForm,
    NightTablesForm,
    PartieSeasonForm,
    SeasonDatesForm,
    SeasonForm,
    SeasonPlayersForm,
)
from ..models import League, Season, SeasonChange, SeasonClose

SORTABLE = tuple(selectors.SORTS)
# What decides the rank is shown on a phone without scrolling sideways (KEY_COLUMNS, with
# their SHORT_HEADS, in vocabulary.py: the club's board heads its season's table so too);
# the other columns are a tap away ("More columns").
PAGE = selectors.PAGE  # standings rows a page
# The page's table: every column of the standings (its key, heading, a phone's short head
# and how it reads a row), then each player's last results.
COLUMNS = [
    (column.key, STANDINGS_COLUMNS[column.key], SHORT_HEADS.get(column.key, ""), column)
    for column in (*LINE_COLUMNS, *STATS_COLUMNS)
] + [("trend", STANDINGS_COLUMNS["trend"], "", None)]


def _season(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Season:
    """A season of one of the user's clubs, with the role asked for; else 404."""
    # Whether it was ever closed or changed rides along: only then is its history read.
    closes = SeasonClose.objects.filter(season=OuterRef("pk"))
    changes = SeasonChange.objects.filter(season=OuterRef("pk"))
    seasons = Season.objects.select_related("league__club").annotate(
        ever_closed=Exists(closes), ever_changed=Exists(changes)
    )
    return object_in_club(
        request,
        seasons,
        pk,
        need,
        club="league__club",
    )


@login_required
@require_http_methods(["GET", "POST"])
def league_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's leagues and their seasons; its owner starts new ones here."""
    club, role = club_of(request, slug)
    form = LeagueForm(request.POST or None)
    if request.method == "POST":
        club, role = club_of(request, slug, need=Role.OWNER)
        if form.is_valid():
            league = services.league_create(club=club, name=form.cleaned_data["name"])
            return redirect("season_new", league.pk)
    leagues = (
        League.objects.filter(club=club)
        .annotate(past=Count("seasons", filter=Q(seasons__closed_at__isnull=False)))
        .prefetch_related("seasons")
    )
    context = {"club": club, "role": role, "leagues": leagues, "form": form}
    return render(request, "league/league_list.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, pk: int) -> HttpResponse:
    league = object_in_club(
        request, League.objects.select_related("club"), pk, Role.OWNER, club="club"
    )
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        season = services.season_create(
            league=league,
            name=data["name"],
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            kinds=data["kinds"],
            points=data["points"],
            min_games=data["min_games"],
            confirmed_games_only=data["confirmed_games_only"],
        )
        return redirect(season)
    status = 400 if form.errors else 200
    return render(
        request, "league/season_new.html", {"league": league, "form": form}, status=status
    )


@login_required
@require_safe
def season_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    season = _season(request, pk)
    return _render_standings(request, season, role=season.club_role)


@require_safe
def season_public(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The standings behind the public link: read only, no names of the club's pages."""
    season = get_object_or_404(_shared_seasons(), share_token=token)
    return _render_standings(request, season, role=None)


def _shared_seasons() -> QuerySet[Season]:
    """The seasons a public link may show: none of a deleted club."""
    return Season.objects.select_related("league__club").filter(league__club__deleted_at=None)


def _render_standings(request: HtmxHttpRequest, season: Season, role: Role | None) -> HttpResponse:
    """The standings page; ``role`` None: the public page, read only."""
    table = selectors.season_table(season)
    sort = request.GET.get("sort", "rank")
    descending = request.GET.get("order") == "desc"
    # A club's season may have thousands of players: the page shows PAGE rows at a time.
    rows = table.sorted_rows(sort, descending)
    page = Paginator(rows, PAGE).get_page(number_param(request.GET, "page"))
    history = []
    if role == Role.OWNER and not request.htmx:
        history = selectors.season_history(season)
    context = {
        "season": season,
        "close": table.close,
        "history": history,
        "columns": COLUMNS,
        "key_columns": KEY_COLUMNS,
        "table": table,
        "rows": table.with_details(list(page.object_list)),
        "page": page,
        "sort": sort if sort in SORTABLE else "rank",
        "descending": descending,
        "public": role is None,
        "role": role,
        "pending_note": _pending_note(table),
    }
    template = "league/season_detail.html"
    if request.htmx:
        template += "#standings"
    return render(request, template, context)


def _pending_note(table: selectors.SeasonTable) -> str | None:
    """What the standings' pending marks mean, where a player has pending games (a closed
    season's final standings mark none)."""
    if table.close is not None or not table.pending:
        return None
    return pending_note(table.season.confirmed_games_only)


@login_required
@require_POST
def season_share(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(request, pk, Role.OWNER)
    services.season_share(season=season, shared=request.POST.get("shared") == "1")
    return redirect(season)


@login_required
@require_safe
def season_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings as CSV, in the reader's language (exports.py)."""
    season = _season(request, pk)
    response = _csv_response(season, "standings")
    # The page's table: the players without a counted game are left out (the JSON of
    # FORMAT.md, ``standings --format json``, lists them); each one's games pending.
    table = selectors.season_table(season)
    exports.write_standings(response, table.played_standings, pending=table.pending_counts)
    return response


@login_required
@require_safe
def season_hands_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every hand of the season's parties, one line each (a partnership round: one per
    table), in playing order."""
    season = _season(request, pk)
    response = _csv_response(season, "hands")
    exports.write_hands(response, selectors.HAND_COLUMNS, selectors.season_hands(season))
    return response


@login_required
@require_safe
def season_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _standings_pdf(_season(request, pk), request.GET.get("layout"))


@require_safe
def season_public_pdf(request: HttpRequest, token: str) -> HttpResponse:
    season = get_object_or_404(_shared_seasons(), share_token=token)
    return _standings_pdf(season, request.GET.get("layout"))


NOTICEBOARD = "noticeboard"  # ?layout=: upright A4 in large type, the table alone


def _standings_pdf(season: Season, layout: str | None = None) -> HttpResponse:
    """The standings as PDF, printed from the page's read model: in full on turned pages,
    or (``layout=noticeboard``) the table for the club's noticeboard. A closed season's
    are its final standings."""
    table = selectors.season_table(season)
    subtitle = season_subtitle(season)
    if table.close is not None:
        day = date_format(localdate(table.close.closed_at), "DATE_FORMAT")
        subtitle += " · " + _("final standings, closed on %(date)s") % {"date": day}
    name = slugify(f"{season.league.name} {season.name}") or "season"
    title = f"{season.league.name}: {season.name}"
    note = _pending_note(table)
    if layout == NOTICEBOARD:
        sheet = standings_sheet(
            table, title=title, subtitle=subtitle, columns=NOTICEBOARD_LINE, pending_note=note
        )
        pdf, filename = render_noticeboard(sheet), f"{name}-noticeboard.pdf"
    else:
        sheet = standings_sheet(table, title=title, subtitle=subtitle, pending_note=note)
        pdf, filename = render_standings(sheet), f"{name}-standings.pdf"
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_safe
def season_json(request: HttpRequest, pk: int) -> HttpResponse:
    return _season_document(_season(request, pk))


@require_safe
def season_public_json(request: HttpRequest, token: str) -> HttpResponse:
    season = get_object_or_404(_shared_seasons(), share_token=token)
    return _season_document(season)


def _season_document(season: Season) -> HttpResponse:
    """The season as a season document (FORMAT.md): ``manage.py standings FILE`` on it
    prints the standings of the page."""
    document = dumps(selectors.season_document(season))
    response = HttpResponse(document, content_type="application/json; charset=utf-8")
    name = slugify(f"{season.league.name} {season.name}") or "season"
    response["Content-Disposition"] = f'attachment; filename="{name}-season.json"'
    return response


def _csv_response(season: Season, what: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(f"{season.league.name} {season.name}") or "season"
    response["Content-Disposition"] = f'attachment; filename="{name}-{what}.csv"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def partie_season(request: HttpRequest, pk: int) -> HttpResponse:
    """Which season a partie counts for: the one whose dates hold its start, or one
    chosen for it (a scorer's decision: the standings follow at once)."""
    partie = partie_for(request, pk, Role.SCORER if request.method == "POST" else Role.MEMBER)
    seasons = Season.objects.filter(league__club_id=partie.club_id).select_related("league")
    form = PartieSeasonForm(request.POST or None, seasons=seasons, partie=partie)
    if request.method == "POST" and form.is_valid():
        services.partie_season_assign(partie=partie, season=form.cleaned_data["season"])
        return redirect(partie)
    context = {"partie": partie, "form": form, "seasons": seasons}
    return render(request, "league/partie_season.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def season_players(request: HttpRequest, pk: int) -> HttpResponse:
    """Who the season lists: everyone who played, or players ticked on the club's roster
    (``?all=1`` ticks the whole roster, to untick who is not in). Read by its members,
    chosen by its owner; a closed season's players no longer change."""
    season = _season(request, pk, Role.OWNER if request.method == "POST" else Role.MEMBER)
    roster = Player.objects.filter(club_id=season.league.club_id).order_by("name", "pk")
    chosen = list(season.players.values_list("pk", flat=True))
    if request.GET.get("all"):
        initial = {"players_from": Season.Players.ROSTER, "players": list(roster)}
    else:
        initial = {"players_from": season.players_from, "players": chosen}
    form = SeasonPlayersForm(request.POST or None, roster=roster, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.season_players_set(
                season=season, players_from=data["players_from"], players=data["players"]
            )
        except services.SeasonClosedError:
            form.add_error(None, _("The season is closed: reopen it to change its players."))
        else:
            return redirect(season)
    context = {
        "season": season,
        "form": form,
        "role": season.club_role,
        "chosen": roster.filter(pk__in=chosen) if season.has_list else None,
    }
    status = 400 if form.errors else 200
    return render(request, "league/season_players.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def season_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's settings, as its start asked them (name, dates, kinds counted, points,
    games to be ranked, whether only confirmed games count), changed by its owner while
    the season is open: its standings, and the club's board, follow at once."""
    season = _season(request, pk, Role.OWNER)
    form = SeasonForm(request.POST or None, initial=_settings_of(season))
    counted = request.POST.getlist("kinds") if request.method == "POST" else season.kinds
    # A change without the night's fields (a form of before them) leaves them as they are.
    tables = NightTablesForm(
        request.POST if "preset" in request.POST else None,
        counted=counted,
        initial=NightTablesForm.initial_of(season.night_settings),
    )
    closed = _("The season is closed: reopen it to change its settings.")
    notice = None
    if request.method == "POST" and tables.has_error(NON_FIELD_ERRORS, "preset_changed"):
        tables = NightTablesForm(counted=counted, initial=tables.preset_values())
        form = SeasonForm(request.POST)
        form.is_valid()  # its errors, if any, shown with the preset's values
        notice = _("The rule values are now those of the preset you chose: check them and save.")
    elif (
        request.method == "POST" and form.is_valid() and (not tables.is_bound or tables.is_valid())
    ):
        data = form.cleaned_data
        try:
            services.season_settings_change(
                season=season,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                kinds=data["kinds"],
                points=data["points"],
                min_games=data["min_games"],
                confirmed_games_only=data["confirmed_games_only"],
                night=tables.settings if tables.is_bound else None,
                user=request.user,
            )
        except services.SeasonClosedError:
            form.add_error(None, closed)
        else:
            return redirect(season)
    context = {
        "season": season,
        "form": form,
        "tables": tables,
        "notice": notice,
        "closed": closed if season.closed_at else None,
    }
    status = 400 if form.errors or (tables.errors and not notice) else 200
    return render(request, "league/season_settings.html", context, status=status)


def _settings_of(season: Season) -> dict[str, object]:
    """The season's settings as the form's initial values."""
    fields = ("name", "starts_on", "ends_on", "kinds", "min_games", "confirmed_games_only")
    points = ("points_win", "points_shutout_win", "points_loss")
    return {field: getattr(season, field) for field in (*fields, *points)}


# A season's end


@login_required
@require_http_methods(["GET", "POST"])
def season_close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close the season, once the owner has confirmed: its standings become final."""
    season = _season(request, pk, Role.OWNER)
    if request.method == "POST":
        services.season_close(season=season, user=request.user)
        return redirect(season)
    running = selectors.season_parties(season).filter(state=Partie.State.RUNNING).count()
    return render(request, "league/season_close.html", {"season": season, "running": running})


@login_required
@require_http_methods(["GET", "POST"])
def season_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Open a closed season again, once the owner has confirmed; the close stays in its
    history, with who reopened it."""
    season = _season(request, pk, Role.OWNER)
    if request.method == "POST":
        services.season_reopen(season=season, user=request.user)
        return redirect(season)
    return render(request, "league/season_reopen.html", {"season": season})


@login_required
@require_http_methods(["GET", "POST"])
def season_next(request: HttpRequest, pk: int) -> HttpResponse:
    """A new season after this one: new name and dates, the rest copied from it."""
    season = _season(request, pk, Role.OWNER)
    starts = season.ends_on + timedelta(days=1)
    initial = {"starts_on": starts, "ends_on": starts + (season.ends_on - season.starts_on)}
    form = SeasonDatesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        new = services.season_start_next(
            season=season, name=data["name"], starts_on=data["starts_on"], ends_on=data["ends_on"]
        )
        return redirect(new)
    kinds = [KIND_NAMES[kind] for kind in season.kinds if kind in KIND_NAMES]
    carried = len(selectors.season_player_ids(season))  # the new season's list
    listed = carried if season.has_list else None
    context = {
        "season": season,
        "form": form,
        "kinds": kinds,
        "listed": listed,
        "carried": carried,
    }
    return render(request, "league/season_next.html", context, status=400 if form.errors else 200)


@login_required
@require_safe
def league_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """The league's past seasons, newest first: each with its dates and winner."""
    league = object_in_club(request, League.objects.select_related("club"), pk, club="club")
    context = {"league": league, "past": selectors.league_archive(league)}
    return render(request, "league/league_archive.html", context)
