"""The league night page: the organiser ticks who is present, sees the proposed tables,
swaps players, and starts every partie of the round with one tap. Proposing and swapping
are reads (GET, the seating rides in the address); starting the round is the one write."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from scorekeeper import engine
from scorekeeper.clubs.access import Role
from scorekeeper.engine.pairings import Pairing, PairingError
from scorekeeper.table.forms.rules import rule_initial
from scorekeeper.table.models import Player

from ..forms import NightTablesForm
from ..models import LeagueNight, Season
from ..night_forms import NightForm, SeatingForm, seating_text
from ..night_services import RoundError, night_round_start
from ..nights import night_pairing, night_rounds
from ..selectors import season_player_ids
from .seasons import _season


@login_required
@require_http_methods(["GET", "POST"])
def league_night(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(request, pk, Role.SCORER)
    if season.closed_at is not None:  # a closed season starts no partie: its page says so
        return redirect(season)
    today = timezone.localdate()
    club_players = Player.objects.filter(club_id=season.league.club_id).order_by("name", "pk")
    names = dict(club_players.values_list("pk", "name"))
    rounds = night_rounds(season, today)
    if request.method == "POST":
        seating = SeatingForm(request.POST, players=names)
        # A start without the settings' fields plays tonight's as they are.
        tables = _tables_form(season, today, request.POST if "preset" in request.POST else None)
        if seating.is_valid() and (not tables.is_bound or tables.is_valid()):
            try:
                night_round_start(
                    season=season,
                    owner=request.user,
                    seating=seating.cleaned_data["seating"],
                    played_on=today,
                    round=seating.cleaned_data["round"] or len(rounds) + 1,
                    settings=tables.settings if tables.is_bound else None,
                )
            except RoundError:
                seating.add_error(None, SeatingForm.stale)
            else:
                return redirect(reverse("league_night", args=[season.pk]))
        # The tables proposed stay on the page while their settings are put right.
        proposal = seating.cleaned_data["seating"] if seating.is_valid() else None
        status = 400
        if tables.has_error(NON_FIELD_ERRORS, "preset_changed"):  # without JavaScript
            tables, status = _with_preset_values(season, tables), 200
        night = NightForm(players=club_players)
        return _render(
            request, season, rounds, night, proposal, seating, names, tables, status=status
        )

    asked = "method" in request.GET
    # Ticked at first: the players of tonight's last round, else the season's players.
    if rounds:
        last = set(rounds[-1].players)
        present = [pk for pk, name in names.items() if name in last]
    else:
        present = season_player_ids(season)
    night = NightForm(
        request.GET if asked else None, players=club_players, initial={"present": present}
    )
    proposal: Pairing | None = None
    seating = SeatingForm(request.GET if "tables" in request.GET else None, players=names)
    if seating.is_bound and seating.is_valid():
        proposal = seating.cleaned_data["seating"]
    elif asked and night.is_valid() and not seating.is_bound:
        data = night.cleaned_data
        try:
            proposal = night_pairing(
                season,
                [player.name for player in data["present"]],
                data["method"],
                seed=data["seed"] or 0,
                three_player_table=data["three_player_table"],
                night=today,
            )
        except PairingError as error:  # the club's names are distinct: not expected
            night.add_error(None, str(error))
    asked_alone = night.is_bound and not seating.is_bound
    status = 400 if (asked_alone and night.errors) or seating.errors else 200
    return _render(request, season, rounds, night, proposal, seating, names, status=status)


def _tables_form(season: Season, today, data=None) -> NightTablesForm:
    """What the round's tables play: tonight's settings (the last round's), at first the
    season's; the organiser may change them for tonight before starting a round."""
    night = LeagueNight.objects.filter(season=season, played_on=today).first()
    settings = (night or season).night_settings
    initial = NightTablesForm.initial_of(settings)
    return NightTablesForm(data, counted=season.kinds, initial=initial)


def _with_preset_values(season: Season, tables: NightTablesForm) -> NightTablesForm:
    """A preset chosen without JavaScript arrives with the old values: show its own."""
    preset = tables.cleaned_data["preset"]
    values = {**tables.data.dict(), **rule_initial(engine.preset(preset)), "shown_preset": preset}
    return NightTablesForm(counted=season.kinds, initial=values)


def _other_tables(request: HttpRequest, seed: int) -> str:
    """The address of other tables for the same players: the next seed, no seating."""
    query = request.GET.copy()
    for key in ("tables", "byes", "round", "one", "other"):
        query.pop(key, None)
    query["seed"] = str(seed)
    return f"?{query.urlencode()}"


def _render(
    request, season, rounds, night, proposal, seating, names, settings_form=None, status=200
) -> HttpResponse:
    ids = {name: pk for pk, name in names.items()}
    today = timezone.localdate()
    tonight = LeagueNight.objects.filter(season=season, played_on=today).first()
    carried = {}
    if proposal is not None:
        tables, byes = seating_text(proposal, ids)
        carried = {"tables": tables, "byes": byes}
        seating = SeatingForm(initial=carried | {"round": len(rounds) + 1}, players=names)
        seating.offer_swaps(proposal)
    seed = (night.cleaned_data.get("seed") or 0) if night.is_bound and night.is_valid() else 0
    context = {
        "season": season,
        "today": timezone.localdate(),
        "rounds": rounds,
        "night": night,
        "proposal": proposal,
        "seating": seating,
        "tables": settings_form or _tables_form(season, today),
        "settings": (tonight or season).night_settings,
        "evening": tonight.evening if tonight else None,
        # Rounds started when the evening was settled or full: settled on their own.
        "outside": [
            r.number
            for r in rounds
            if tonight and any(t.partie.evening_id != tonight.evening_id for t in r.tables)
        ],
        "next_round": len(rounds) + 1,
        "carry": [
            (key, value)
            for key in ("present", "method", "three_player_table", "seed")
            for value in request.GET.getlist(key)
        ],
        "other_tables": _other_tables(request, seed + 1),
    }
    return render(request, "league/night.html", context, status=status)
