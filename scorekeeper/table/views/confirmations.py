"""Results both players confirm: a closed game's page with its hands, where each of its
players linked to an account confirms or disputes the result, its scorers read a
dispute and the club's owner decides a dispute or unlocks a confirmed game; the list of
the games to confirm is on *My games* (``parties.my_games``), and the account changes of
players with confirmations on a list of their own for the owner."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.clubs.access import Role

from .. import selectors
from ..access import partie_for
from ..forms.confirmations import (
    CONFIRM,
    DISPUTE,
    WITHDRAW,
    ConfirmationForm,
    DecisionForm,
    SeenForm,
)
from ..models import ClosedGame, Partie, Unscorable
from ..services import confirmations as services
from .common import HtmxHttpRequest

FROM_LIST = "list"  # the confirmation came from the list on My games: back there
# Refusals of who confirms rather than of what: the user may not confirm for this player.
NOT_HIS = {"not_asked", "not_member", "given_by_other"}
ACCOUNT_CHANGES_SHOWN = 50
CONFIRMATIONS_DONE = {
    CONFIRM: gettext_lazy("Result confirmed: thank you."),
    DISPUTE: gettext_lazy("Result disputed: the scorers see your note beside the game's hands."),
    WITHDRAW: gettext_lazy(
        "Your confirmation is taken back: the result waits for you to confirm or dispute it."
    ),
}


@login_required
@require_safe
def game_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A closed game: its result, its players' confirmations and its hands."""
    partie = partie_for(request, pk)
    return _render_game(request, partie, _game(partie, number))


def _game(partie: Partie, number: int) -> selectors.GameConfirmations:
    game = selectors.game_confirmations(partie, number)
    if game is None:
        raise Http404(_("There is no such closed game."))
    return game


def _render_game(
    request: HttpRequest,
    partie: Partie,
    game: selectors.GameConfirmations,
    form: ConfirmationForm | None = None,
    error: str | None = None,
    decision_form: DecisionForm | None = None,
) -> HttpResponse:
    try:
        sheet = selectors.partie_sheet(partie)
    except Unscorable:  # its hands as entered are on the partie's page, with the repairs
        sheet = None
    mine = game.confirmation_of(request.user)
    # Why he may not confirm for his player (no longer a member, a confirmation given
    # from another account): said instead of buttons that would be refused.
    refusal = mine and services.confirmation_refusal(mine, request.user, member=partie.is_member)
    owner = partie.club_role == Role.OWNER
    context = {
        "partie": partie,
        "item": game,
        "mine": mine,
        "sheet": sheet,
        "tables": _tables_of(sheet, game.game.number),
        "read_only": True,
        "form": form or ConfirmationForm(initial={"game": game.game.pk}),
        "error": error,
        "refusal": str(refusal) if refusal else None,
        # A confirmation given by mistake, offered to be taken back while that works.
        "withdrawable": bool(mine)
        and not refusal
        and services.withdrawal_refusal(mine, game.confirmations) is None,
        "scorer": partie.club_role.includes(Role.SCORER),
        "may_score": partie.may_score,
        "owner": owner,
        # Pending confirmations nobody can give (no member linked): only the owner's
        # decision ends them.
        "orphaned": (
            [c.player.name for c in selectors.orphaned_confirmations(game.game)] if owner else []
        ),
        "decision_form": decision_form or DecisionForm(initial={"game": game.game.pk}),
    }
    invalid = any(f is not None and f.errors for f in (form, decision_form))
    status = 400 if error or invalid else 200
    return render(request, "table/game_detail.html", context, status=status)


def _tables_of(sheet: selectors.Sheet | None, number: int) -> list[selectors.SheetTable]:
    """The tables of the sheet that hold game ``number`` (Hollywood's one holds three)."""
    tables = sheet.tables if sheet is not None else ()
    return [table for table in tables if any(g.number == number for g in table.part.games)]


@login_required
@require_POST
def game_confirmation(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """The player linked to the user's account confirms or disputes the game's result;
    from the list on My games (``next=list``), back to that list (its region by HTMX)."""
    partie = partie_for(request, pk)
    if not partie.is_member:  # he reads the partie he played, and confirms no more
        raise PermissionDenied(str(services.ConfirmationError("not_member")))
    game = _game(partie, number)
    form = ConfirmationForm(request.POST)
    from_list = request.POST.get("next") == FROM_LIST
    error = None
    if form.is_valid():
        try:
            _confirmation_save(request, game.game, form)
        except services.ConfirmationError as refusal:
            if refusal.code in NOT_HIS:
                raise PermissionDenied(str(refusal)) from None
            error = str(refusal)
        else:
            given = form.cleaned_data["confirmation"]
            done = CONFIRMATIONS_DONE[given]
            if from_list and request.htmx:  # a tap by mistake is taken back from there too
                return _render_list(
                    request, done=done, confirmed=game if given == CONFIRM else None
                )
            messages.success(request, done)
            if from_list:
                return redirect(reverse("my_games") + "#to-confirm")
            return redirect("game_detail", partie.pk, number)
    if from_list and request.htmx:
        return _render_list(request, error=error or _("Nothing was saved: try again."))
    return _render_game(request, partie, game, form, error)


def _confirmation_save(request: HttpRequest, game: ClosedGame, form: ConfirmationForm) -> None:
    data = form.cleaned_data
    if data["game"] != game.pk:  # the page showed the game before a correction
        raise services.ConfirmationError("game_changed")
    if data["confirmation"] == CONFIRM:
        services.result_confirm(game=game, user=request.user)
    elif data["confirmation"] == WITHDRAW:
        services.result_withdraw(game=game, user=request.user)
    else:
        services.result_dispute(game=game, user=request.user, note=data["note"])


def _render_list(
    request: HttpRequest,
    done: str | None = None,
    error: str | None = None,
    confirmed: selectors.GameConfirmations | None = None,
):
    """The list of games to confirm on My games, as its region; ``confirmed``: the game
    just confirmed from it, whose notice offers to take the confirmation back."""
    context = {
        "to_confirm": games_to_confirm(request),
        "confirmation_done": done,
        "confirmation_error": error,
        "confirmed": confirmed,
    }
    return render(request, "table/my_games.html#to-confirm", context)


def games_to_confirm(request: HttpRequest) -> list[tuple[selectors.GameConfirmations, object]]:
    """The games the user is asked to confirm, each with his confirmation so far."""
    games = selectors.games_to_confirm(request.user)
    return [(game, game.confirmation_of(request.user)) for game in games]


@login_required
@require_POST
def game_unlock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The club's owner unlocks a game its players all confirmed: its scorers can correct
    it, and its players are asked again. The partie's Changes keep who did it."""
    partie = partie_for(request, pk, Role.OWNER)
    game = _game(partie, number)
    try:
        services.game_unlock(game=game.game, user=request.user)
    except services.ConfirmationError as refusal:
        return _render_game(request, partie, game, error=str(refusal))
    messages.success(request, _("The game is unlocked: its players are asked to confirm it again."))
    return redirect("game_detail", partie.pk, number)


@login_required
@require_POST
def game_decide(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The club's owner decides the game's disputes: the result stands, for the reason
    he gives; the game then counts (and locks once every other player confirmed). The
    partie's Changes keep who disputed, the note and the reason."""
    partie = partie_for(request, pk, Role.OWNER)
    game = _game(partie, number)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _render_game(request, partie, game, decision_form=form)
    try:
        if form.cleaned_data["game"] != game.game.pk:  # corrected since the page showed it
            raise services.ConfirmationError("game_changed")
        services.game_decide(game=game.game, user=request.user, reason=form.cleaned_data["reason"])
    except services.ConfirmationError as refusal:
        return _render_game(request, partie, game, error=str(refusal), decision_form=form)
    messages.success(request, _("Decided: the result stands as recorded."))
    return redirect("game_detail", partie.pk, number)


@login_required
@require_http_methods(["GET", "POST"])
def account_changes(request: HttpRequest) -> HttpResponse:
    """The account changes of players with confirmations in the clubs the user owns, that he
    has not marked as seen, newest first; a POST marks them seen up to the newest shown
    (opening the list changes nothing)."""
    if request.method == "POST":
        form = SeenForm(request.POST)
        if form.is_valid():
            services.account_changes_seen(user=request.user, upto=form.cleaned_data["upto"])
            messages.success(request, _("Marked as seen."))
            return redirect("account_changes")
    else:
        form = None
    changes = selectors.account_changes_for(request.user).select_related("partie__club", "user")
    context = {"changes": list(changes[:ACCOUNT_CHANGES_SHOWN]), "form": form}
    return render(request, "table/account_changes.html", context, status=400 if form else 200)
