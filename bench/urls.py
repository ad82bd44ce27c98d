"""The bench's URLconf: the project's URLs plus the baseline views the real view is compared with.

Only bench/run.py uses it; it sets ROOT_URLCONF to this module before Django starts.
Both baselines sit behind the project's whole middleware stack and, like the real
view, require a logged-in user and a POST, so they pay the same session, user and
CSRF work: what they leave out is exactly what the application itself does.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path
from django.views.decorators.http import require_POST

from scorekeeper.table.models import HandChange

TINY = engines["django"].from_string("<p>{{ change.pk }} {{ user.get_username }}</p>")


@login_required
@require_POST
def minimal(request: HttpRequest) -> HttpResponse:
    """The floor: Django answering a logged-in POST and doing nothing else."""
    return HttpResponse("ok")


@login_required
@require_POST
def minimal_write(request: HttpRequest, pk: int) -> HttpResponse:
    """One small row inserted and a tiny template rendered with the request context."""
    change = HandChange.objects.create(
        partie_id=pk,
        hand_number=0,
        action=HandChange.Action.RECORDED,
        user=request.user,
        after={"bench": True},
    )
    return HttpResponse(TINY.render({"change": change}, request))


urlpatterns = [
    path("bench/minimal/", minimal, name="bench_minimal"),
    path("bench/minimal-write/<int:pk>/", minimal_write, name="bench_minimal_write"),
    path("", include("scorekeeper.urls")),
]
