"""The league night page: the organiser ticks who is present, sees the proposed tables,
swaps players, and starts every partie of the round with one tap. Proposing and swapping
are reads (GET, the seating rides in the address); starting the round is the one write."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper.clubs.access import Role
from scorekeeper.engine.pairings import Pairing, PairingError
from scorekeeper.table.models import Player

from ..forms import NightTablesForm
from ..models import LeagueNight, Season
from ..night_forms import NightForm, SeatingForm, seating_text
from ..night_services import OutsideSeason, RoundError, StillPlaying, night_round_start
from ..nights import last_night, night_pairing, night_present, night_rounds, still_playing
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
    tonight = LeagueNight.objects.filter(season=season, played_on=today).first()
    playing = still_playing(table for played in rounds for table in played.tables)
    if request.method == "POST":
        seating = SeatingForm(request.POST, players=names)
        # A start without the settings' fields plays tonight's as they are.
        tables = _tables_form(season, tonight, request.POST if "preset" in request.POST else None)
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
            except RoundError as error:
                seating.add_error(None, _refusal(error, season))
            else:
                return redirect(reverse("league_night", args=[season.pk]))
        # The tables proposed stay on the page while their settings are put right.
        proposal = seating.cleaned_data["seating"] if seating.is_valid() else None
        status = 400
        if tables.has_error(NON_FIELD_ERRORS, "preset_changed"):  # without JavaScript
            tables = NightTablesForm(counted=season.kinds, initial=tables.preset_values())
            status = 200
        night = NightForm(players=club_players, playing=playing)
        context = _context(
            request, season, tonight, rounds, playing, night, proposal, seating, names, tables
        )
        return render(request, "league/night.html", context, status=status)

    asked = "method" in request.GET and "tick" not in request.GET
    night = NightForm(
        request.GET if asked else None,
        players=club_players,
        playing=playing,
        initial=_first_ticks(request, season, rounds, playing, names, today),
    )
    proposal: Pairing | None = None
    seating = SeatingForm(request.GET if "tables" in request.GET else None, players=names)
    if seating.is_bound and seating.is_valid():
        proposal = seating.cleaned_data["seating"]
    elif asked and night.is_valid() and not seating.is_bound:
        proposal = _propose(season, night, playing, today)
    asked_alone = night.is_bound and not seating.is_bound
    status = 400 if (asked_alone and night.errors) or seating.errors else 200
    context = _context(request, season, tonight, rounds, playing, night, proposal, seating, names)
    return render(request, "league/night.html", context, status=status)


def _propose(season, night: NightForm, playing: dict, today) -> Pairing | None:
    """The tables for the players ticked, but those still at a table of the night whom
    the organiser did not tick to propose anyway; None, with the form's error, when
    fewer than two are left."""
    data = night.cleaned_data
    anyway = {player.name for player in data["anyway"]}
    free = [p.name for p in data["present"] if p.name not in playing or p.name in anyway]
    if len(free) < 2:
        night.add_error(None, _("Fewer than two of the players ticked are free: the others "
                                "are still playing. Tick “Propose anyway” for a player "
                                "whose partie is done."))  # fmt: skip
        return None
    try:
        return night_pairing(
            season,
            free,
            data["method"],
            seed=data["seed"] or 0,
            three_player_table=data["three_player_table"],
            night=today,
        )
    except PairingError as error:  # the club's names are distinct: not expected
        night.add_error(None, str(error))
        return None


def _first_ticks(request, season, rounds, playing, names, today) -> dict:
    """What the form shows ticked before it is sent: everyone (``?tick=all``), everyone
    present last night (``?tick=last_night``); else tonight's last round and those still
    playing, or before the first round the season's players (a season nobody has played
    in yet: the players it carried over from the season before)."""
    tick = request.GET.get("tick")
    if tick == "all":
        present = list(names)
    elif tick == "last_night" and (before := last_night(season, today)) is not None:
        there = night_present(before)
        present = [pk for pk in names if pk in there]
    elif rounds:
        tonight = set(rounds[-1].players) | set(playing)
        present = [pk for pk, name in names.items() if name in tonight]
    else:
        present = season_player_ids(season) or list(season.players.values_list("pk", flat=True))
    initial: dict = {"present": present}
    for key in ("method", "three_player_table"):  # the choices made already stay
        if tick and key in request.GET:
            initial[key] = request.GET[key]
    return initial


def _tick_address(request: HttpRequest, tick: str) -> str:
    """The address that ticks ``tick``'s players, the other choices kept (no JavaScript:
    the form comes back with the ticks)."""
    query = QueryDict(mutable=True)
    for key in ("method", "three_player_table"):
        if key in request.GET:
            query[key] = request.GET[key]
    query["tick"] = tick
    return f"?{query.urlencode()}#present"


def _refusal(error: RoundError, season) -> str:
    """What the page says when a round cannot start."""
    if isinstance(error, OutsideSeason):
        return _outside_season(season)
    if isinstance(error, StillPlaying):
        return _(
            "%(players)s are still playing round %(round)s at table %(table)s: a second "
            "partie cannot start for them. Propose the tables again."
        ) % {
            "players": " – ".join(error.players),
            "round": error.table.round,
            "table": error.table.number,
        }
    return str(SeatingForm.stale)


def _outside_season(season) -> str:
    return _(
        "%(season)s runs from %(first)s to %(last)s: a round can be started only on one "
        "of its days."
    ) % {
        "season": season.name,
        "first": date_format(season.starts_on, "SHORT_DATE_FORMAT"),
        "last": date_format(season.ends_on, "SHORT_DATE_FORMAT"),
    }


def _tables_form(season: Season, tonight: LeagueNight | None, data=None) -> NightTablesForm:
    """What the round's tables play: tonight's settings (the last round's), at first the
    season's; the organiser may change them for tonight before starting a round."""
    settings = (tonight or season).night_settings
    initial = NightTablesForm.initial_of(settings)
    return NightTablesForm(data, counted=season.kinds, initial=initial)


def _other_tables(request: HttpRequest, seed: int) -> str:
    """The address of other tables for the same players: the next seed, no seating."""
    query = request.GET.copy()
    for key in ("tables", "byes", "round", "one", "other"):
        query.pop(key, None)
    query["seed"] = str(seed)
    return f"?{query.urlencode()}"


def _context(
    request, season, tonight, rounds, playing, night, proposal, seating, names, settings_form=None
) -> dict:
    """The page's context; ``tonight``: the season's night today, if a round started."""
    ids = {name: pk for pk, name in names.items()}
    today = timezone.localdate()
    if proposal is not None:
        tables, byes = seating_text(proposal, ids)
        carried = {"tables": tables, "byes": byes}
        seating = SeatingForm(initial=carried | {"round": len(rounds) + 1}, players=names)
        seating.offer_swaps(proposal)
    seed = (night.cleaned_data.get("seed") or 0) if night.is_bound and night.is_valid() else 0
    in_season = season.starts_on <= today <= season.ends_on
    return {
        "season": season,
        "today": today,
        "rounds": rounds,
        "night": night,
        "proposal": proposal,
        "seating": seating,
        "tables": settings_form or _tables_form(season, tonight),
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
            for key in ("present", "method", "three_player_table", "seed", "anyway")
            for value in request.GET.getlist(key)
        ],
        "other_tables": _other_tables(request, seed + 1),
        "playing": _playing_rows(playing, night),
        "last_night": last_night(season, today),
        "tick_all": _tick_address(request, "all"),
        "tick_last_night": _tick_address(request, "last_night"),
        "outside_season": None if in_season else _outside_season(season),
    }


def _playing_rows(playing: dict, night: NightForm) -> list[tuple]:
    """Each table of the night still playing, with the "propose anyway" box of each of
    its players."""
    boxes = {box.choice_label: box for box in night["anyway"]}
    tables = list({table.pk: table for table in playing.values()}.values())
    return [
        (table, [boxes[name] for name in table.partie.player_names if name in boxes])
        for table in tables
    ]
