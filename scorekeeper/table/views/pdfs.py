"""PDF: score sheets, evening tallies and blank score pads."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from scorekeeper.sheets.evening_tally import printed_evening, render_evening
from scorekeeper.sheets.score_pad import render_pad, score_pad
from scorekeeper.sheets.score_sheet import printed_sheet, render_score_sheet

from .. import selectors
from ..access import evening_for, partie_for
from ..forms.pdfs import PadForm
from ..models import Partie


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _partie_pdf(partie: Partie) -> HttpResponse:
    """The partie's score sheet, printed from its page's read model."""
    names = " – ".join(partie.player_names)
    sheet = selectors.partie_sheet(partie)
    document = printed_sheet(sheet, title=names, played_on=partie.started_at.date())
    slug = slugify("-".join(partie.player_names)) or "partie"
    return _pdf(render_score_sheet(document), f"scoresheet-{partie.started_at:%Y-%m-%d}-{slug}.pdf")


@login_required
@require_safe
def partie_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _partie_pdf(partie_for(request, pk))


@require_safe
def shared_partie_pdf(request: HttpRequest, token: str) -> HttpResponse:
    queryset = selectors.partie_with_players(Partie.objects.filter(club__deleted_at=None))
    return _partie_pdf(get_object_or_404(queryset, share_token=token))


@login_required
@require_safe
def evening_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening's tally, printed from its page's read model."""
    evening = evening_for(request, pk)
    document = printed_evening(selectors.evening_sheet(evening))
    slug = slugify(evening.name) or "evening"
    return _pdf(render_evening(document), f"evening-{evening.played_on:%Y-%m-%d}-{slug}.pdf")


@login_required
@require_safe
def pad(request: HttpRequest) -> HttpResponse:
    """Blank score pads to print: the form, and the PDF once it is filled in."""
    form = PadForm(request.GET or None)
    if request.GET and form.is_valid():
        data = form.cleaned_data
        document = score_pad(data["kind"], data["ruleset"], paper=data["paper"])
        filename = f"scorepad-{data['kind']}-{data['ruleset'].preset}-{data['paper']}.pdf"
        return _pdf(render_pad(document), filename)
    if request.GET and form.has_error(NON_FIELD_ERRORS, "preset_changed"):
        form = PadForm(initial=form.preset_values())
    return render(request, "table/pad.html", {"form": form}, status=400 if form.errors else 200)
