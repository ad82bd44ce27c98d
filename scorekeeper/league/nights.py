"""A league night: who plays whom, from the season's meetings and tonight's results.

``night_record`` is the one read of the stored results (``table.PlayerResult``): who
met whom in the season and tonight, tonight's league points and a standing order.
``night_pairing`` turns the players present into tables with the engine
(``engine.pairings``); the command line and the league night page both use it.
``season_nights`` lists a season's nights, planned and started, for its nights page.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations

from django.db.models import Count, Max
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from scorekeeper.engine import pairings
from scorekeeper.engine.pairings import Pair, Pairing
from scorekeeper.table.models import Partie, Player, Seat

from .models import LeagueNight, NightBye, NightTable, Season, night_started
from .selectors import season_book, season_table


@dataclass(frozen=True)
class NightRecord:
    """What pairing a night of a season reads: the season's meetings (pair: parties
    played together), tonight's, each player's league points tonight, the season's
    standings (names best first) and the byes each has had."""

    met: dict[Pair, int] = field(default_factory=dict)
    met_tonight: dict[Pair, int] = field(default_factory=dict)
    scores_tonight: dict[str, int] = field(default_factory=dict)
    standing: list[str] = field(default_factory=list)
    byes: dict[str, int] = field(default_factory=dict)


def night_record(season: Season, night: date) -> NightRecord:
    """The season's closed games, read once: every pair of players with a result in
    the same partie met there, and so did the players of a partie still running (a
    table still playing is a meeting: Swiss proposes no rematch of it tonight); tonight
    is the parties started on ``night`` (local). The standing is the season's standings
    as the standings page shows them; the byes, those recorded on the season's nights."""
    book = season_book(season)
    rows = book.results.values_list(
        "partie_id", "started_at", "game_id", "game__shutout", "player__name", "won"
    ).order_by()
    seated: dict[int, set[str]] = defaultdict(set)
    tonight: set[int] = set()
    scores: Counter[str] = Counter()
    table = season.points
    for partie, started, _game, shutout, name, won in rows:
        seated[partie].add(name)
        if timezone.localtime(started).date() == night:
            tonight.add(partie)
            scores[name] += (table.shutout_win if shutout else table.win) if won else table.loss
    running = Seat.objects.filter(
        partie__in=book.parties.filter(state=Partie.State.RUNNING)
    ).values_list("partie_id", "partie__started_at", "player__name")
    counted = set(seated)  # a running partie with a closed game is counted once
    for partie, started, name in running.order_by():
        if partie not in counted:
            seated[partie].add(name)
            if timezone.localtime(started).date() == night:
                tonight.add(partie)
    met: Counter[Pair] = Counter()
    met_tonight: Counter[Pair] = Counter()
    for partie, names in seated.items():
        for one, other in combinations(sorted(names), 2):
            met[(one, other)] += 1
            if partie in tonight:
                met_tonight[(one, other)] += 1
    standing = season_table(season).players
    byes = Counter(
        NightBye.objects.filter(night__season=season).values_list("player__name", flat=True)
    )
    return NightRecord(dict(met), dict(met_tonight), dict(scores), standing, dict(byes))


class UnknownPlayers(ValueError):
    """Names present that are not players of the season's club."""

    def __init__(self, names: list[str], hints: dict[str, str]):
        self.names = names
        self.hints = hints  # a name typed: the club's player it may mean
        super().__init__(", ".join(names))


def _folded(name: str) -> str:
    """A name without case and accents: "Bén" and "ben" are the same to a hint."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def club_names(season: Season, names: Iterable[str]) -> list[str]:
    """The names, each a player of the season's club; ``UnknownPlayers`` names the others
    (with the club's player a name may mean: another case or accents)."""
    names = list(names)
    known = set(
        Player.objects.filter(club_id=season.league.club_id, name__in=names).values_list(
            "name", flat=True
        )
    )
    unknown = [name for name in names if name not in known]
    if unknown:
        wanted = {_folded(name) for name in unknown}
        hints = {}
        for player in Player.objects.filter(club_id=season.league.club_id).values_list(
            "name", flat=True
        ):
            if _folded(player) in wanted:
                hints.update({n: player for n in unknown if _folded(n) == _folded(player)})
        raise UnknownPlayers(unknown, hints)
    return names


def night_pairing(
    season: Season,
    present: Sequence[str],
    method: pairings.Method | str,
    *,
    seed: int = 0,
    three_player_table: bool = False,
    night: date | None = None,
) -> Pairing:
    """The tables of a round of the season's night ``night`` (today by default) for the
    players present (raises ``UnknownPlayers``, or ``engine.pairings.PairingError``)."""
    present = club_names(season, present)
    record = night_record(season, night or timezone.localdate())
    method = pairings.Method(method)
    swiss = method is pairings.Method.SWISS
    return pairings.pairings(
        method,
        present,
        met=record.met_tonight if swiss else record.met,
        scores=record.scores_tonight,
        byes=record.byes,
        standing=record.standing,
        three_player_table=three_player_table,
        seed=seed,
    )


@dataclass(frozen=True)
class NightRound:
    """A round started on a night: its tables (number, partie) and its byes."""

    number: int
    tables: list[NightTable]
    byes: list[str]

    @property
    def players(self) -> list[str]:
        names = [name for t in self.tables for name in t.partie.player_names]
        return names + self.byes


def night_rounds(season: Season, night: date) -> list[NightRound]:
    """The rounds of the season's night on that day, first round first."""
    found = LeagueNight.objects.filter(season=season, played_on=night).first()
    if found is None:
        return []
    tables = (
        NightTable.objects.filter(night=found)
        .select_related("partie")
        .prefetch_related("partie__seats__player")
        .order_by("round", "number")
    )
    byes = NightBye.objects.filter(night=found).values_list("round", "player__name")
    rounds: dict[int, NightRound] = {}
    for table in tables:
        rounds.setdefault(table.round, NightRound(table.round, [], [])).tables.append(table)
    for number, name in byes:
        rounds.setdefault(number, NightRound(number, [], [])).byes.append(name)
    return [rounds[number] for number in sorted(rounds)]


def still_playing(tables: Iterable[NightTable]) -> dict[str, NightTable]:
    """Who sits at a table of the night still playing (its partie neither over nor
    deleted): each name with his table. Such a player is not proposed for the next
    round until his partie ends, unless the organiser says so."""
    running = (t for t in tables if t.partie.is_running and t.partie.deleted_at is None)
    return {name: table for table in running for name in table.partie.player_names}


def running_tables(night: LeagueNight) -> list[NightTable]:
    """The night's tables still playing, with their players, read afresh."""
    tables = NightTable.objects.filter(
        night=night, partie__state=Partie.State.RUNNING, partie__deleted_at__isnull=True
    )
    return list(tables.select_related("partie").prefetch_related("partie__seats__player"))


def last_night(season: Season, before: date) -> LeagueNight | None:
    """The league's last night before the day, in this season or an earlier one: the
    first night of a new season offers the players of the last night of the season
    before. A night planned that never had a round had nobody present: it is passed."""
    nights = LeagueNight.objects.filter(
        night_started(), season__league_id=season.league_id, played_on__lt=before
    )
    return nights.order_by("-played_on", "-id").first()


def night_present(night: LeagueNight) -> set[int]:
    """The players of the night: seated at any of its tables, or on a bye (ids)."""
    seated = Seat.objects.filter(partie__night_table__night=night).values_list(
        "player_id", flat=True
    )
    return set(seated) | set(night.byes.values_list("player_id", flat=True))


@dataclass(frozen=True)
class NightLine:
    """A night of the season as its nights page lists it: its rounds out and tables."""

    night: LeagueNight
    rounds: int
    tables: int

    @property
    def started(self) -> bool:
        return self.rounds > 0

    @property
    def in_season(self) -> bool:
        """Whether its day is one of the season's (the season's dates may have changed
        since it was planned)."""
        season = self.night.season
        return season.starts_on <= self.night.played_on <= season.ends_on


@dataclass(frozen=True)
class SeasonNights:
    """A season's nights: planned (no round out yet), the first day first; started, the
    last day first."""

    planned: list[NightLine]
    started: list[NightLine]


def season_nights(season: Season) -> SeasonNights:
    """The season's nights, in one query: each with its rounds (a round may be all byes
    but never is: a round has a table) and its tables."""
    nights = (
        LeagueNight.objects.filter(season=season)
        .select_related("evening")
        .annotate(
            last_round=Greatest(Coalesce(Max("tables__round"), 0), Coalesce(Max("byes__round"), 0)),
            tables_out=Count("tables", distinct=True),
        )
        .order_by("played_on", "pk")
    )
    lines = []
    for night in nights:
        night.season = season  # one season: read once
        lines.append(NightLine(night, night.last_round, night.tables_out))
    return SeasonNights(
        planned=[line for line in lines if not line.started],
        started=[line for line in reversed(lines) if line.started],
    )
