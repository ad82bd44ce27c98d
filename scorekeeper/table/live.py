"""The live view: a partie's shared page and the club-night boards follow the table by
themselves, and answer "unchanged" without replaying a hand.

A live page polls its own address every 2 seconds with htmx (``hx-trigger``) and sends
the ETag of what it shows in ``If-None-Match`` itself (``hx-headers``, rendered with the
region). The browser passes a request whose author set a conditional header to the
network untouched by its cache, and the server's 304 back to htmx as a 304 (a 304 to the
browser's own revalidation would come to htmx as a 200 with the cached body);
``static/js/live.js`` makes htmx swap nothing on it, so the spectator's scroll position
and focus stay put. The ETag is made of version numbers (``Partie.version``, bumped by
every write that changes a sheet), read in one query:

- unchanged: 304 with no body, nothing replayed;
- changed: the region, 200; over (the partie ended, the evening settled up): 286, which
  htmx swaps in and then stops polling; unchanged and over: an empty 286 that swaps
  nothing and stops polling too.

A full page carries an ETag of its own (page and region differ), so a reload that the
browser revalidates gets its 304 the same way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
    quote_etag,
)
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseStopPolling, reswap

from scorekeeper.clubs.models import Club

from .models import Evening, Partie

POLL = "every 2s"  # well inside the 3 seconds a spectator may wait for a hand
# A partie that ended stays on its club's board this long, so the room sees the result.
ENDED_SHOWN = timedelta(hours=1)


@dataclass(frozen=True)
class Live:
    """What a live page shows, as far as its ETag goes: the ids and versions it is made
    of (no hand among them), and whether it can still change."""

    parts: tuple
    over: bool

    def etag(self, region: bool) -> str:
        """The quoted ETag of the page or of its region, in the language it speaks."""
        digest = hashlib.blake2b(repr(self.parts).encode(), digest_size=10).hexdigest()
        return quote_etag(f"{digest}-{get_language()}-{'r' if region else 'p'}")

    @property
    def headers(self) -> str:
        """The polling region's ``hx-headers``: the ETag of the region it shows."""
        return json.dumps({"If-None-Match": self.etag(region=True)})


def partie_live(pk: int, version: int, state: str) -> Live:
    return Live(("partie", pk, version), over=state == Partie.State.CLOSED)


def unchanged(request: HttpRequest, live: Live) -> HttpResponse | None:
    """The answer to a client that shows this state already (304; for a region that is
    over, an empty 286 that swaps nothing and stops the polling), or None: render it."""
    etag = live.etag(region=bool(request.htmx))
    answer = get_conditional_response(request, etag=etag)
    if answer is None or answer.status_code != 304:
        return None
    if live.over and request.htmx:
        return _cached(reswap(HttpResponseStopPolling(), "none"), etag)
    return _cached(HttpResponseNotModified(), etag)


def answer(request: HttpRequest, response: HttpResponse, live: Live) -> HttpResponse:
    """The page or region as rendered, with its ETag; a region that is over comes with
    286, which htmx swaps in before it stops polling."""
    if live.over and request.htmx and response.status_code == 200:
        response.status_code = HttpResponseStopPolling.status_code
        response.reason_phrase = "Stop Polling"
    return _cached(response, live.etag(region=bool(request.htmx)))


def _cached(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # The browser may keep it but asks every time; no shared cache keeps a club's page.
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])  # the page and its region, one address
    return response


# The boards: every table of an evening or of a club, from the cached summaries.


@dataclass(frozen=True)
class BoardTable:
    """One table on a board, as the partie's cached summary gives it: nothing replayed."""

    partie: Partie

    @property
    def players(self) -> list[str]:
        return self.partie.summary.get("players", [])

    @property
    def games(self) -> list[list[tuple[str, int]]]:
        """Each game's totals, the one being played last (Hollywood's three at once)."""
        return self.partie.game_totals

    @property
    def hands(self) -> int:
        return self.partie.summary.get("hands", 0)

    @property
    def dealers(self) -> list[str]:
        """Who deals next: one name, or one per table of a partnership."""
        dealer = self.partie.summary.get("next_dealer")
        return [dealer] if isinstance(dealer, str) else list(dealer or [])

    @property
    def winner(self) -> str | None:
        return self.partie.summary.get("winner")


@dataclass(frozen=True)
class Board:
    """The tables of a club night, for the screen in the bar."""

    title: str
    parties: QuerySet[Partie]  # not read until asked: "unchanged" reads only the versions
    key: tuple  # what else the board shows (a name, a date, settled or not)
    over: bool  # nothing on it can change any more
    evening: Evening | None = None
    club: Club | None = None

    def live(self) -> Live:
        versions = tuple(self.parties.values_list("pk", "version"))
        return Live((*self.key, versions), self.over)

    def tables(self) -> list[BoardTable]:
        return [BoardTable(partie) for partie in self.parties.select_related("evening")]


def evening_board(evening: Evening) -> Board:
    """Every partie of the evening, running first; settled up, it no longer changes."""
    parties = Partie.objects.filter(evening=evening).order_by("-state", "started_at", "id")
    return Board(
        title=evening.name,
        parties=parties,
        key=("evening", evening.pk, evening.name, str(evening.played_on), evening.is_settled),
        over=evening.is_settled,
        evening=evening,
    )


def club_board(club: Club) -> Board:
    """The club's running parties, and those that ended within the last hour."""
    ended = timezone.now() - ENDED_SHOWN
    parties = (
        Partie.objects.filter(club=club)
        .filter(Q(state=Partie.State.RUNNING) | Q(closed_at__gte=ended))
        .order_by("-state", "started_at", "id")
    )
    title = _("Live board of %(club)s") % {"club": club.name}
    return Board(
        title=title, parties=parties, key=("club", club.pk, club.name), over=False, club=club
    )
