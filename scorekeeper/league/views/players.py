"""Pages of players: a club's players, one player's page with his record in the club's
leagues, linked to a member's account, renamed, merged."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from scorekeeper.clubs.access import Role, club_of
from scorekeeper.league.players import club_players, player_record
from scorekeeper.table import selectors
from scorekeeper.table.access import player_for
from scorekeeper.table.forms.players import PlayerAccountForm, PlayerMergeForm, PlayerRenameForm
from scorekeeper.table.services import players as player_services
from scorekeeper.table.views.common import HtmxHttpRequest


@login_required
@require_safe
def player_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's players, searched by name (any case); HTMX swaps only the list."""
    club, role = club_of(request, slug)
    query = request.GET.get("q", "").strip()
    context = {"club": club, "role": role, "query": query, "players": club_players(club.pk, query)}
    template = "table/player_list.html#players" if request.htmx else "table/player_list.html"
    return render(request, template, context)


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
        player_services.player_link(player=player, user=form.cleaned_data["user"])
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
    """Merge another player of the club into this one: what it will do first, then, once
    confirmed, the merge."""
    player = player_for(request, pk, Role.SCORER)
    form = PlayerMergeForm(request.POST, player=player)
    if form.is_valid():
        other = form.cleaned_data["other"]
        try:
            if request.POST.get("confirm"):
                player_services.player_merge(keep=player, gone=other, user=request.user)
                return redirect("player_detail", player.pk)
            player_services.player_merge_check(keep=player, gone=other)
        except player_services.PlayerChangeError as error:
            form.add_error("other", str(error))
        else:
            context = {"player": player, "other": other, "ledger": selectors.player_ledger(other)}
            return render(request, "table/player_merge.html", context)
    return _render_player(request, player, merge_form=form, status=400)


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
    }
    return render(request, "table/player_detail.html", context, status=status)
