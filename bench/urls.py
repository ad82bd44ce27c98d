"""The bench's URLconf: the project's URLs plus the baseline views the real view is compared with.

Only bench/run.py uses it; it sets ROOT_URLCONF to this module before Django starts.
Both baselines sit behind the project's whole middleware stack and, like the real
view, require a logged-in user and a POST, so they pay the same session, user and
CSRF work: what they leave out is exactly what the application itself does.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template import engines
from django.urls import include, path
from django.views.decorators.http import require_POST

from scorekeeper.table.models import Hand, Partie

ROW = engines["django"].from_string(
    "<tr><td>{{ hand.number }}</td><td>{{ hand.kind }}</td><td>{{ hand.knocker_deadwood }}</td>"
    "<td>{{ hand.defender_deadwood }}</td></tr>"
)


@login_required
@require_POST
def minimal(request: HttpRequest) -> HttpResponse:
    """The floor: Django answering a logged-in POST and doing nothing else."""
    return HttpResponse("ok")


@login_required
@require_POST
def minimal_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The least a Django view can do to record a hand: a partie of one of the user's
    clubs fetched (parties belong to clubs: a member may see them), the posted hand saved
    as the next row, and that row sent back as a fragment. No rules, no validation, no
    roles, no totals, no audit trail."""
    partie = get_object_or_404(Partie, pk=pk, club__memberships__user=request.user)
    hand = Hand.objects.create(
        partie=partie,
        number=partie.hands.count() + 1,
        kind=request.POST["kind"],
        knocker_deadwood=request.POST.get("knocker_deadwood") or None,
        defender_deadwood=request.POST.get("defender_deadwood") or None,
    )
    return HttpResponse(ROW.render({"hand": hand}, request))


urlpatterns = [
    path("bench/minimal/", minimal, name="bench_minimal"),
    path("bench/minimal-record/<int:pk>/", minimal_record, name="bench_minimal_record"),
    path("", include("scorekeeper.urls")),
]
