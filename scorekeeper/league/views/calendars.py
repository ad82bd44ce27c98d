"""The calendar feeds behind their private links, and the links made, renewed and
withdrawn on the club's page (the club's nights) and on My games (one's own nights).

A feed is fetched by a calendar app, without a session: the token in its address says
whose link it is, and each request asks again whether its user is still a member (of
the club, or for his own feed of each club), so a member who leaves or is removed reads
nothing more. The feed speaks the language of the page the link was made on."""

from __future__ import annotations

import hashlib

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.access import club_of
from scorekeeper.clubs.models import CalendarLink, Club, Membership

from .. import calendars

CONTENT_TYPE = "text/calendar; charset=utf-8"


@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The feed of a link: the club's nights, or its user's own; 304 when the calendar
    app holds it already (by its ETag)."""
    link = CalendarLink.objects.select_related("club", "user").filter(token=token).first()
    if link is None or not _still_member(link):
        raise Http404(_("This link does not work: it was withdrawn or replaced."))
    with translation.override(link.language):
        if link.club is not None:
            entries = calendars.club_calendar(link.club)
            name = link.club.name
        else:
            entries = calendars.member_calendar(link.user)
            name = _("My league nights")
        site = f"{request.scheme}://{request.get_host()}"
        body = calendars.calendar_ical(entries, name=name, site=site)
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    # Only the ETag answers "unchanged": an event taken away (a season deleted) leaves
    # the newest change as it was, so If-Modified-Since alone would keep it in the app.
    if get_conditional_response(request, etag=etag) is not None:
        return _private(HttpResponseNotModified(), etag)
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    if newest := calendars.last_modified(entries):
        response["Last-Modified"] = http_date(newest.timestamp())
    return _private(response, etag)


def _still_member(link: CalendarLink) -> bool:
    """Whether the link's user may read its feed now: a member of the club (not deleted).
    His own feed reads only the clubs he is a member of (``member_calendar``)."""
    if link.club is None:
        return True
    if link.club.deleted_at is not None:
        return False
    return Membership.objects.filter(club=link.club, user=link.user).exists()


def _private(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # A member's own address: no shared cache keeps it; the app asks every time.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@login_required
@require_POST
def club_calendar_link(request: HttpRequest, slug: str) -> HttpResponse:
    """The member's own address of the club's calendar: made or renewed (the old one
    stops working), or withdrawn (``link=0``)."""
    club, _role = club_of(request, slug)
    _change_link(request, club)
    return redirect(f"{club.get_absolute_url()}#calendar")


@login_required
@require_POST
def my_calendar_link(request: HttpRequest) -> HttpResponse:
    """The address of the user's own nights in all his clubs: made, renewed or withdrawn."""
    _change_link(request, None)
    return redirect(f"{reverse('my_games')}#calendar")


def _change_link(request: HttpRequest, club: Club | None) -> None:
    if request.POST.get("link") == "0":
        club_services.calendar_link_withdraw(user=request.user, club=club)
    else:
        language = translation.get_language() or "en"
        club_services.calendar_link_make(user=request.user, club=club, language=language)


def calendar_context(user, club: Club | None) -> dict:
    """What the page's calendar section (``clubs/_calendar.html``) shows: the user's link
    to the club's calendar (``club`` None: to his own nights), where its form posts, and
    what the feed holds."""
    if club is None:
        action = reverse("my_calendar_link")
        help_text = _(
            "Your league nights in all your clubs, with your tables once a round is out, "
            "and the last days of your seasons: in your calendar app, kept up to date."
        )
    else:
        action = reverse("club_calendar_link", args=[club.slug])
        help_text = _(
            "The club's league nights and the last days of its seasons: in your calendar "
            "app, kept up to date. The address stops working if you leave the club."
        )
    return {
        "calendar_link": CalendarLink.objects.filter(user=user, club=club).first(),
        "calendar_action": action,
        "calendar_help": help_text,
    }
