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
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from itertools import count

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

from scorekeeper import vocabulary
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

Numbers = Callable[[list[int]], Mapping[int, int]]  # table numbers by partie id
PER_PAGE = 12  # tables on the screen in the bar at once (a grid of three by four)
ROTATE_SECONDS = 20  # a page of tables stays this long before the next one comes
clock = time.time  # the rotation's clock (a test sets its own)


@dataclass(frozen=True)
class BoardPage:
    """Which twelve tables the screen in the bar shows: the reader's choice (``?page=``),
    or, unchosen, the page of the clock's turn, so that every screen of a club turns
    its pages together and a polling region changes page by itself (its ETag names the
    page). A phone shows every table whatever the page (board.html, app.css)."""

    number: int  # 1-based
    count: int
    chosen: bool

    @classmethod
    def of(cls, tables: int, chosen: int | None) -> BoardPage:
        pages = max(1, -(-tables // PER_PAGE))
        if chosen is not None:
            return cls(min(max(chosen, 1), pages), pages, True)
        return cls(int(clock() // ROTATE_SECONDS) % pages + 1, pages, False)

    def holds(self, index: int) -> bool:
        """Whether the table at ``index`` (0-based, in the board's order) is on it."""
        return index // PER_PAGE + 1 == self.number

    @property
    def numbers(self) -> range:
        return range(1, self.count + 1)


@dataclass(frozen=True)
class BoardTable:
    """One table on a board, as the partie's cached summary gives it: nothing replayed."""

    partie: Partie
    number: int = 0  # the table's number: its league night's, else its place on the board
    on_page: bool = True

    @property
    def players(self) -> list[str]:
        return self.partie.summary.get("players", [])

    @property
    def kind(self) -> str:
        return vocabulary.kind_name(self.partie.kind)

    @property
    def games(self) -> list[vocabulary.BoardGame]:
        """The games shown, in words: Hollywood's three, else the last one."""
        games = self.partie.game_totals
        return vocabulary.board_games(games, self._winners(len(games)), self.partie.session_class)

    @property
    def game_over(self) -> str | None:
        """'Game 1 over: Olga won' for a kind of games one after another, its last over."""
        games = self.partie.game_totals
        return vocabulary.game_over(self._winners(len(games)), self.partie.session_class)

    def _winners(self, games: int) -> list[str | None]:
        # A summary written before it kept each game's winner names none till its next hand.
        winners = self.partie.summary.get("winners")
        return list(winners) if winners and len(winners) == games else [None] * games

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
    key: tuple  # what else the board shows (a name, a date, settled or not, the standings)
    over: bool  # nothing on it can change any more
    evening: Evening | None = None
    club: Club | None = None

    def live(self, chosen: int | None = None) -> tuple[Live, BoardPage]:
        """The board's ETag parts, and the page of tables it shows (``chosen``: the
        reader's ``?page=``)."""
        versions = tuple(self.parties.values_list("pk", "version"))
        page = BoardPage.of(len(versions), chosen)
        return Live((*self.key, versions, page), self.over), page

    def tables(self, page: BoardPage, numbered: Numbers | None = None) -> list[BoardTable]:
        """Every table in the order of their numbers: ``numbered`` gives the numbers of
        those a league night started, by partie id; the others follow, numbered in the
        order they started."""
        parties = list(self.parties.select_related("evening"))
        numbers = numbered([p.pk for p in parties]) if numbered else {}
        free = count(max(numbers.values(), default=0) + 1)
        ordered = sorted(
            ((numbers[p.pk] if p.pk in numbers else next(free), p) for p in parties),
            key=lambda pair: pair[0],
        )
        return [
            BoardTable(partie, number, page.holds(index))
            for index, (number, partie) in enumerate(ordered)
        ]


def evening_board(evening: Evening) -> Board:
    """Every partie of the evening; settled up, it no longer changes."""
    parties = Partie.objects.filter(evening=evening).order_by("started_at", "id")
    return Board(
        title=evening.name,
        parties=parties,
        key=("evening", evening.pk, evening.name, str(evening.played_on), evening.is_settled),
        over=evening.is_settled,
        evening=evening,
    )


def club_board(club: Club, standings: tuple = ()) -> Board:
    """The club's running parties, and those that ended within the last hour;
    ``standings``: what the season's table it shows is made of (its ETag's part)."""
    ended = timezone.now() - ENDED_SHOWN
    parties = (
        Partie.objects.filter(club=club)
        .filter(Q(state=Partie.State.RUNNING) | Q(closed_at__gte=ended))
        .order_by("started_at", "id")
    )
    title = _("Live board of %(club)s") % {"club": club.name}
    key = ("club", club.pk, club.name, standings)
    return Board(title=title, parties=parties, key=key, over=False, club=club)
