"""The one place that answers for a partie the engine cannot score any more.

A partie stored before a bound existed (a ``money_unit`` of 1e-30), or a hand an older
engine accepted, makes the replay fail wherever the partie is read: its page, its PDF,
its share link, the page and tally of its evening, a hand entered or corrected. Each of
those raises ``Unscorable`` (``models.scoring``); this middleware turns it into the
partie's repair page instead of a server error: its hands as entered, the reason in the
reader's language and, for a scorer, the way to repair it (change the rules, correct or
delete a hand, delete the partie). The error is logged, so that it is not lost either.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.clubs.models import Membership, Role

from . import selectors
from .messages import explain_unscorable
from .models import Unscorable

logger = logging.getLogger(__name__)


class UnscorableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Unscorable):
            return None
        logger.warning("%s %s: %s", request.method, request.path, exception, exc_info=exception)
        return unscorable_page(request, exception)


def unscorable_page(request: HttpRequest, unscorable: Unscorable) -> HttpResponse:
    """The repair page: 200 as the partie's own page (or its share link), 409 where the
    request wanted something the partie cannot give now (a PDF, an evening's tally, a
    hand written); an HTMX request is sent to load the page whole."""
    partie = unscorable.partie
    match = request.resolver_match
    shared = match is not None and "token" in match.kwargs  # a share link: read-only
    if shared and partie.share_token:
        page = reverse("shared_partie", args=[partie.share_token])
    else:  # its own page (a board shared without the partie's link names no link)
        page = partie.get_absolute_url()
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(
            request.get_full_path() if request.method == "GET" else page
        )
    role = None
    if not shared and request.user.is_authenticated:
        found = Membership.objects.filter(club_id=partie.club_id, user_id=request.user.pk)
        role = found.values_list("role", flat=True).first()
    context = {
        "partie": partie,
        "reason": explain_unscorable(unscorable.error, partie, selectors.refused_hand(partie)),
        "hands": selectors.hands_as_entered(partie),
        "evening": partie.evening,
        "shared": shared,
        "scorer": role is not None and Role(role).includes(Role.SCORER),
    }
    status = 200 if request.path == page else 409
    return render(request, "table/partie_unscorable.html", context, status=status)
