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

# Where a league night seated each partie: the league annotates the board's parties with
# ``seat_night``, ``seat_round`` and ``seat_number`` (None for a partie no night started)
# and names the byes of its nights' rounds. The table app knows no league: the view
# passes both in (league.selectors.night_seated, night_byes).
Seated = Callable[[QuerySet[Partie]], QuerySet[Partie]]
Byes = Callable[[set[int]], Mapping[tuple[int, int], list[str]]]  # (night, round): names
PER_PAGE = 12  # tables on the screen in the bar at once (a grid of three by four at most)
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
    shown: int = 0  # how many tables the screen shows at once: its grid is cut to them

    @classmethod
    def of(cls, tables: int, chosen: int | None) -> BoardPage:
        pages = max(1, -(-tables // PER_PAGE))
        if chosen is not None:
            number = min(max(chosen, 1), pages)
        else:
            number = int(clock() // ROTATE_SECONDS) % pages + 1
        shown = min(PER_PAGE, tables - (number - 1) * PER_PAGE)
        return cls(number, pages, chosen is not None, shown)

    def holds(self, index: int) -> bool:
        """Whether the table at ``index`` (0-based, in the board's order) is on it."""
        return index // PER_PAGE + 1 == self.number

    @property
    def numbers(self) -> range:
        return range(1, self.count + 1)


@dataclass(frozen=True)
class BoardPlace:
    """Where a partie sits on the board, read with its version: its league night's round
    and table, if a night started it, and whether it is still played."""

    pk: int
    version: int
    running: bool
    night: int | None = None
    round: int | None = None
    number: int | None = None

    @property
    def round_key(self) -> tuple[int, int] | None:
        return (self.night, self.round) if self.night is not None else None


@dataclass(frozen=True)
class Arrangement:
    """The board's order: the tables shown as cards (running ones first, then those over
    in a round still played, then those no night started), each with its number; each
    round whose tables are all over, folded into one line; every round, newest first."""

    cards: list[tuple[BoardPlace, int]]  # with the table's number
    folded: dict[tuple[int, int], list[tuple[BoardPlace, int]]]  # by (night, round)
    rounds: list[tuple[int, int]]  # (night, round), newest first

    @classmethod
    def of(cls, places: list[BoardPlace]) -> Arrangement:
        """``places`` in the order the parties started: a table no night numbered is
        numbered after the night's tables, in that order."""
        numbers = {p.pk: p.number for p in places if p.number is not None}
        free = count(max(numbers.values(), default=0) + 1)
        numbered = [(p, numbers[p.pk] if p.pk in numbers else next(free)) for p in places]
        numbered.sort(key=lambda pair: (pair[0].round_key or (0, 0), pair[1]))
        rounds: dict[tuple[int, int], list[tuple[BoardPlace, int]]] = {}
        for place, number in numbered:
            if place.round_key is not None:
                rounds.setdefault(place.round_key, []).append((place, number))
        folded = {
            key: tables
            for key, tables in rounds.items()
            if not any(place.running for place, _number in tables)
        }
        cards = [pair for pair in numbered if pair[0].round_key not in folded]
        cards.sort(key=lambda pair: (not pair[0].running, pair[0].round_key is None))
        return cls(cards, folded, sorted(rounds, reverse=True))


@dataclass(frozen=True)
class BoardTable:
    """One table on a board, as the partie's cached summary gives it: nothing replayed."""

    partie: Partie
    number: int = 0  # the table's number: its league night's, else its place on the board
    on_page: bool = True
    round: int | None = None  # the league night's round it was seated in

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

    @property
    def won(self) -> str | None:
        """'Anna won': the partie's winner, in words."""
        return vocabulary.won_text(self.winner) if self.winner else None

    @property
    def result(self) -> list[tuple[str, int, bool]]:
        """A finished table in a folded round's line: its last game's totals, each with
        whether it is the winner's; none for games side by side (their winner says it)."""
        games = self.games
        if not games or not games[-1].named:
            return []
        winner = vocabulary.side_name(self.winner) if self.winner else None
        return [(name, total, name == winner) for name, total in games[-1].totals]


@dataclass(frozen=True)
class BoardRound:
    """A round of a league night on the board's lines: folded (every table over), its
    tables' results; and its byes."""

    number: int
    tables: list[BoardTable]  # folded: its tables, all over; else none
    byes: list[str]


@dataclass(frozen=True)
class BoardLayout:
    cards: list[BoardTable]
    rounds: list[BoardRound]  # newest first: the folded ones, and those with byes


@dataclass(frozen=True)
class Board:
    """The tables of a club night, for the screen in the bar."""

    title: str
    parties: QuerySet[Partie]  # not read until asked: "unchanged" reads only the versions
    key: tuple  # what else the board shows (a name, a date, settled or not, the standings)
    over: bool  # nothing on it can change any more
    evening: Evening | None = None
    club: Club | None = None

    def live(
        self, chosen: int | None = None, seated: Seated | None = None
    ) -> tuple[Live, BoardPage, Arrangement]:
        """The board's ETag parts, the page of tables it shows (``chosen``: the reader's
        ``?page=``) and its order, from one query: each partie's version and seat."""
        places = self._places(seated)
        arrangement = Arrangement.of(places)
        page = BoardPage.of(len(arrangement.cards), chosen)
        return Live((*self.key, tuple(places), page), self.over), page, arrangement

    def _places(self, seated: Seated | None) -> list[BoardPlace]:
        if seated is None:
            rows = self.parties.values_list("pk", "version", "state")
            return [
                BoardPlace(pk, version, state == Partie.State.RUNNING)
                for pk, version, state in rows
            ]
        rows = seated(self.parties).values_list(
            "pk", "version", "state", "seat_night", "seat_round", "seat_number"
        )
        return [
            BoardPlace(pk, version, state == Partie.State.RUNNING, night, round_, number)
            for pk, version, state, night, round_, number in rows
        ]

    def layout(
        self, page: BoardPage, arrangement: Arrangement, byes: Byes | None = None
    ) -> BoardLayout:
        """The cards in the arrangement's order, those of the page on it, and a line for
        each round folded or with byes (``byes`` reads them for the rounds shown)."""
        parties = {p.pk: p for p in self.parties.select_related("evening")}

        def tables(pairs: list[tuple[BoardPlace, int]], page: BoardPage | None) -> list[BoardTable]:
            return [
                BoardTable(
                    parties[place.pk], number, page.holds(index) if page else True, place.round
                )
                for index, (place, number) in enumerate(pairs)
                if place.pk in parties  # gone since its version was read
            ]

        nights = {night for night, _round in arrangement.rounds}
        named = byes(nights) if byes and nights else {}
        lines = [
            BoardRound(key[1], tables(arrangement.folded.get(key, []), None), named.get(key, []))
            for key in arrangement.rounds
            if key in arrangement.folded or named.get(key)
        ]
        return BoardLayout(tables(arrangement.cards, page), lines)


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


def club_board(club: Club, standings: tuple = (), tonight: QuerySet | None = None) -> Board:
    """The club's running parties, those that ended within the last hour and those of
    ``tonight`` (partie ids: the rounds of tonight's league night, each shown till the
    night is over); ``standings``: what the season's table it shows is made of (its
    ETag's part)."""
    ended = timezone.now() - ENDED_SHOWN
    shown = Q(state=Partie.State.RUNNING) | Q(closed_at__gte=ended)
    if tonight is not None:
        shown |= Q(pk__in=tonight)
    parties = Partie.objects.filter(club=club).filter(shown).order_by("started_at", "id")
    title = _("Live board of %(club)s") % {"club": club.name}
    key = ("club", club.pk, club.name, standings)
    return Board(title=title, parties=parties, key=key, over=False, club=club)
