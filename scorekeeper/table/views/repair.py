"""Repair: a partie deleted (and restored) or archived, a deleted hand put back, a settled
evening reopened (and settled as before). Every one is in the audit trail."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper import engine
from scorekeeper.clubs.access import Role, object_in_club

from .. import selectors
from ..access import evening_for, partie_for, partie_to_score
from ..messages import explain
from ..models import Partie
from ..services import repair as repair_services
from .common import HtmxHttpRequest
from .parties import _render_home, _render_table, _sheet_if_scorable


def _home_url(show: str) -> str:
    return f"{reverse('home')}?show={show}"


@login_required
@require_http_methods(["GET", "POST"])
def partie_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a partie once confirmed; the deleted parties' list can restore it."""
    partie = partie_for(request, pk, Role.SCORER)
    error = None
    if request.method == "POST":
        try:
            repair_services.partie_delete(partie=partie, user=request.user)
        except repair_services.RepairError as refusal:
            error = str(refusal)
        else:
            return redirect(_home_url("deleted"))
    context = {"partie": partie, "error": error}
    return render(request, "table/partie_delete.html", context, status=400 if error else 200)


@login_required
@require_POST
def partie_restore(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo a partie's deletion: back to its page."""
    deleted = Partie.all_objects.filter(deleted_at__isnull=False).select_related("club")
    partie = object_in_club(request, deleted, pk, Role.SCORER)
    try:
        repair_services.partie_restore(partie=partie, user=request.user)
    except repair_services.RepairError as refusal:
        return _render_home(request, "deleted", error=str(refusal), status=400)
    return redirect(partie)


@login_required
@require_POST
def partie_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """Archive a partie (``archived=1``) or take it out of the archive (``archived=0``)."""
    partie = partie_for(request, pk, Role.SCORER)
    archived = request.POST.get("archived") != "0"
    repair_services.partie_archive(partie=partie, user=request.user, archived=archived)
    return redirect(_home_url("archived") if not archived else partie.get_absolute_url())


@login_required
@require_POST
def change_undo(request: HtmxHttpRequest, pk: int, change: int) -> HttpResponse:
    """Undo a change of the partie's audit trail: a deleted hand goes back to its place.
    From the undo at hand with HTMX, the table comes back in place: the hand restored,
    or the reason it cannot be (HTMX swaps a 200 only). Whoever may score the partie (a
    scorer, or a player seated at it) may put his deleted hand back."""
    partie = partie_to_score(request, pk)
    entry = get_object_or_404(partie.changes, pk=change)
    try:
        written = repair_services.hand_restore(partie=partie, change=entry, user=request.user)
    except repair_services.RepairError as refusal:
        error = str(refusal)
    except engine.HandError as refusal:
        error = explain(refusal)
    else:
        if request.htmx:
            sheet = selectors.sheet_of(partie, written.session)
            return _render_table(request, sheet, restored=entry.hand_number)
        number = entry.hand_number
        messages.success(request, _("Hand %(number)s is back in its place.") % {"number": number})
        return redirect(partie)
    if request.htmx and (sheet := _sheet_if_scorable(partie)) is not None:
        return _render_table(request, sheet, undo=entry, undo_error=error)
    context = {"partie": partie, "change": entry, "error": error}
    return render(request, "table/change_undo.html", context, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def evening_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Reopen a settled evening once its owner confirms: its payments are dropped, so that
    its parties can be corrected and the evening settled anew."""
    evening = evening_for(request, pk, Role.OWNER)
    error = None
    if request.method == "POST":
        try:
            repair_services.evening_reopen(evening=evening, user=request.user)
        except repair_services.RepairError as refusal:
            error = str(refusal)
        else:
            return redirect(evening)
    payments = evening.payments.select_related("payer", "payee", "carried_to")
    context = {"evening": evening, "payments": payments, "error": error}
    return render(request, "table/evening_reopen.html", context, status=400 if error else 200)


@login_required
@require_POST
def evening_reopen_undo(request: HttpRequest, pk: int, change: int) -> HttpResponse:
    """Settle a reopened evening as it was, its payments and paid marks restored."""
    evening = evening_for(request, pk, Role.OWNER)
    entry = get_object_or_404(evening.changes, pk=change)
    try:
        repair_services.evening_reopen_undo(change=entry, user=request.user)
    except repair_services.RepairError as refusal:
        context = {"evening": evening, "change": entry, "error": str(refusal)}
        return render(request, "table/change_undo.html", context, status=400)
    return redirect(evening)
