"""Pages of players: a club's roster (searched, a player added, the merges to undo),
one player's page with his record in the club's leagues, linked to a member's account,
renamed, merged (and the merge undone)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.clubs.access import Role, club_of
from scorekeeper.inputs import text_param
from scorekeeper.league import services as league_services
from scorekeeper.league.players import club_players, player_record
from scorekeeper.table import selectors
from scorekeeper.table.access import player_for, player_merge_for
from scorekeeper.table.forms.players import (
    PlayerAccountForm,
    PlayerAddForm,
    PlayerMergeConfirmForm,
    PlayerMergeForm,
    PlayerRenameForm,
)
from scorekeeper.table.services import players as player_services
from scorekeeper.table.views.common import HtmxHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def player_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's roster, searched by name (any case; HTMX swaps only the list); a scorer
    adds a player here, once asked whether a near name is a slip, and undoes merges."""
    need = Role.SCORER if request.method == "POST" else Role.MEMBER
    club, role = club_of(request, slug, need=need)
    roster = selectors.roster_names(club.pk)
    form = PlayerAddForm(request.POST if request.method == "POST" else None, roster=roster)
    if request.method == "POST" and form.is_valid():
        try:
            player = player_services.player_add(
                club=club, name=form.cleaned_data["name"], owner=request.user
            )
        except player_services.PlayerChangeError as error:
            form.add_error("name", str(error))
        else:
            messages.success(request, _("%(name)s is on the roster now.") % {"name": player})
            return redirect("player_list", club.slug)
    query = text_param(request.GET, "q")  # a NUL: 400, as no name holds one
    context = {
        "club": club,
        "role": role,
        "query": query,
        "players": club_players(club.pk, query),
        "roster": roster,
        "add_form": form if role.includes(Role.SCORER) else None,
        "merges": selectors.player_merges(club.pk) if role.includes(Role.SCORER) else [],
    }
    template = "table/player_list.html#players" if request.htmx else "table/player_list.html"
    return render(request, template, context, status=400 if form.errors else 200)


@login_required
@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_for(request, pk)
    return _render_player(request, player)


@login_required
@require_POST
def player_account(request: HttpRequest, pk: int) -> HttpResponse:
    """Link the player to a member's account, or to nobody."""
    player = player_for(request, pk, Role.SCORER)
    form = PlayerAccountForm(request.POST, player=player)
    if form.is_valid():
        player_services.player_link(player=player, user=form.cleaned_data["user"], by=request.user)
        return redirect("player_detail", player.pk)
    return _render_player(request, player, account_form=form, status=400)


@login_required
@require_POST
def player_rename(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_for(request, pk, Role.SCORER)
    form = PlayerRenameForm(request.POST)
    if form.is_valid():
        try:
            player_services.player_rename(
                player=player, name=form.cleaned_data["name"], user=request.user
            )
        except player_services.PlayerChangeError as error:
            form.add_error("name", str(error))
        else:
            return redirect("player_detail", player.pk)
    return _render_player(request, player, rename_form=form, status=400)


@login_required
@require_POST
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge this player and another of the club: first which name stays (either way
    round) and what moves, then, once confirmed, the merge."""
    player = player_for(request, pk, Role.SCORER)
    form = PlayerMergeForm(request.POST, player=player)
    if form.is_valid():
        other = form.cleaned_data["other"]
        footprints = [selectors.player_footprint(p) for p in (player, other)]
        games = {f.player.pk: f.games for f in footprints}
        confirm = PlayerMergeConfirmForm(request.POST, player=player, other=other, games=games)
        try:
            player_services.player_merge_check(keep=player, gone=other)
            if request.POST.get("confirm") and confirm.is_valid():
                keep, gone = confirm.pair()
                league_services.roster_merge(keep=keep, gone=gone, user=request.user)
                text = _("%(gone)s is merged into %(keep)s.") % {"gone": gone, "keep": keep}
                messages.success(request, text)
                return redirect("player_detail", keep.pk)
        except player_services.PlayerChangeError as error:
            form.add_error("other", str(error))
        else:
            context = {
                "player": player,
                "other": other,
                "footprints": footprints,
                "form": PlayerMergeConfirmForm(player=player, other=other, games=games),
            }
            return render(request, "table/player_merge.html", context)
    return _render_player(request, player, merge_form=form, status=400)


@login_required
@require_POST
def player_merge_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo a merge of the club: the merged player is back with all that moved."""
    merge = player_merge_for(request, pk)
    try:
        gone = league_services.roster_merge_undo(merge=merge, user=request.user)
    except player_services.PlayerChangeError as error:
        messages.error(request, str(error))
        return redirect("player_list", merge.club.slug)
    text = _("The merge is undone: %(gone)s and %(keep)s are two players again.")
    messages.success(request, text % {"gone": gone, "keep": merge.keep_name})
    return redirect("player_detail", gone.pk)


def _render_player(
    request: HttpRequest,
    player,
    *,
    account_form: PlayerAccountForm | None = None,
    rename_form: PlayerRenameForm | None = None,
    merge_form: PlayerMergeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The player's page; a scorer gets the forms to link, rename and merge him."""
    if player.club_role.includes(Role.SCORER):
        account_form = account_form or PlayerAccountForm(
            player=player, initial={"user": player.user_id}
        )
        rename_form = rename_form or PlayerRenameForm(initial={"name": player.name})
        merge_form = merge_form or PlayerMergeForm(player=player)
    context = {
        "ledger": selectors.player_ledger(player),
        "record": player_record(player),
        "account_form": account_form,
        "rename_form": rename_form,
        "merge_form": merge_form,
        "merges": selectors.player_merges(player.club_id, keep=player) if merge_form else [],
        "roster": merge_form.names if merge_form else [],
    }
    return render(request, "table/player_detail.html", context, status=status)
