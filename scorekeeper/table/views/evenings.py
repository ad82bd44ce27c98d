"""Pages of evenings: the list, one evening with its parties, settled up, a payment marked
paid."""

from __future__ import annotations

import contextlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.clubs.access import Role
from scorekeeper.formats import number_text
from scorekeeper.vocabulary import game_name

from .. import selectors
from ..access import evening_for
from ..forms.evenings import EveningForm, EveningPartieForm, evening_label
from ..services import evenings as evening_services
from .common import HtmxHttpRequest, _club_form


@login_required
@require_http_methods(["GET", "POST"])
def evening_list(request: HttpRequest) -> HttpResponse:
    """The evenings of the user's clubs; a new one in a club where he scores."""
    form = EveningForm(request.POST or None)
    club_form = _club_form(request)
    if request.method == "POST" and form.is_valid() and club_form.is_valid():
        evening = evening_services.evening_start(
            owner=request.user, club=club_form.cleaned_data["club"], **form.cleaned_data
        )
        return redirect(evening)
    context = {
        "form": form,
        "club_form": club_form,
        "evenings": selectors.evenings_of(request.user),
    }
    status = 400 if form.errors or club_form.errors else 200
    return render(request, "table/evening_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def evening_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An evening's parties and money; a scorer adds parties to it."""
    evening = evening_for(request, pk, Role.SCORER if request.method == "POST" else Role.MEMBER)
    form = EveningPartieForm(request.POST or None, evening=evening)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            evening_services.partie_evening_set(partie=form.cleaned_data["partie"], evening=evening)
        except evening_services.EveningSettledError as refusal:  # this one or the partie's own
            error = _("The evening %(evening)s is settled up: its parties cannot change.") % {
                "evening": evening_label(refusal.evening)
            }
        except evening_services.EveningFullError as refusal:
            error = evening_full_message(refusal)
        else:
            return redirect(evening)
    context = {
        "evening": evening,
        "sheet": selectors.evening_sheet(evening),
        "form": form,
        "error": error,
        "read_only": not evening.club_role.includes(Role.SCORER),
        "can_reopen": evening.club_role.includes(Role.OWNER),
        "reopened": selectors.evening_reopened(evening),
    }
    return render(
        request, "table/evening_detail.html", context, status=400 if form.errors or error else 200
    )


@login_required
@require_POST
def evening_settle(request: HttpRequest, pk: int) -> HttpResponse:
    evening = evening_for(request, pk, Role.SCORER)
    # Settled already (a second tap): the page shows the payments all the same.
    with contextlib.suppress(evening_services.EveningSettledError):
        try:
            evening_services.evening_settle(evening=evening)
        except evening_services.EveningHeldError as refusal:
            messages.error(request, held_message(refusal))
        except evening_services.EveningAmountError as refusal:
            message = _(
                "%(amount)s is more than one payment can hold: mark the debts carried in "
                "from earlier evenings as paid, then settle up."
            )
            messages.error(request, message % {"amount": number_text(refusal.amount)})
    return redirect(evening)


def held_message(refusal: evening_services.EveningHeldError) -> str:
    """The games that hold an evening's settle-up back, named as its page lists them."""
    games = ", ".join(
        " – ".join(game.partie.player_names)
        + (f" · {game_name(game.number)}" if game.named else "")
        for game in refusal.held
    )
    return _(
        "Not settled: %(games)s must be resolved first (confirmed, or decided by the owner)."
    ) % {"games": games}


def evening_full_message(refusal: evening_services.EveningFullError) -> str:
    return _(
        "The evening %(evening)s holds %(most)s parties, the most one evening may: "
        "start another evening."
    ) % {"evening": evening_label(refusal.evening), "most": refusal.most}


@login_required
@require_POST
def evening_payment_paid(request: HtmxHttpRequest, pk: int, payment: int) -> HttpResponse:
    evening = evening_for(request, pk, Role.SCORER)
    row = get_object_or_404(evening.payments.select_related("payer", "payee"), pk=payment)
    # A debt carried into a later evening is paid there; this one then stays as it is.
    with contextlib.suppress(evening_services.EveningSettledError):
        evening_services.evening_payment_paid(payment=row, paid=request.POST.get("paid") != "0")
    if request.htmx:
        return render(
            request, "table/evening_detail.html#payment", {"evening": evening, "payment": row}
        )
    return redirect(evening)
