"""League scale: the standings and a player's page at two sizes, side by side with the
SQL floor, and the cost of recording a hand in a season's partie.

    .venv/bin/python bench/league.py [--database-url URL] [--players N] [--parties N]
                                     [--double | --no-double] [--seeded NAME]
                                     [--only views,changes,recording]

PostgreSQL is the production database and the default here when it answers at
127.0.0.1:5432 (a database of its own is created and dropped); else a temporary SQLite
file. ``seed_league`` fills one club at the size given (default 2,000 players, 20,000
parties) and, with ``--double`` (the default), a second club at twice that, so that the
growth of every view is measured in one run. The bench prints figures, each target and
PASS or MISS, and never fails on them.

Measured for each size, through Django's test client with a logged-in member and
production settings (DEBUG off):

- the SQL floor: one raw query over the result rows, ``GROUP BY`` player with the
  season's points and ``rank()``, timed with a cursor (median of 15);
- the standings page, warm (median of 15), and its queries;
- the first standings view after a game closes, and the first player page after a
  game closes (hands recorded into a new partie of the season until its game closes;
  5 closes each, the median);
- the hand that closes each of those games (recorded through the service: it writes
  what is due, and the worker rates the game), the median of 10;
- the first standings view after the season's earliest partie is deleted, and after it
  is restored (3 times, the median), the deletion and the restore themselves (each
  writes what is due), and the worker's rating of the club again after each (the
  tasks they enqueued, run as ``manage.py worker --until-idle`` runs them:
  ``league.outbox.rate_due``, the club's all time and the season from the first partie);
- recording a hand in a season's partie against one in a club without a season
  (interleaved, 5 rounds of 20: the median of the rounds' ratios).

Targets (issue 16, at the size given): the standings page at most 3x the SQL floor, warm
and on the first view after a game closes; the first player page after a game closes
at most 150 ms; the first view after a change at the season's start within 1 s; twice
the parties at most 1.5x the time of every view; recording a hand in a season's partie
at most 1.1x recording one outside any season.

Seeding takes most of a run. ``--seeded NAME`` (PostgreSQL) keeps the seeded clubs in a
database NAME on the server: the first run seeds it, later runs migrate it and measure
on a copy of it (``CREATE DATABASE ... TEMPLATE NAME``, dropped at the end), so every
run starts from the same freshly seeded state. ``--only`` measures some stages alone.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import time as clock
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import HOST, prepare_database, start_django  # noqa: E402

PG_URL = "postgres://postgres@127.0.0.1:5432/test"
WARM = 15  # samples of a warm view
CLOSES = 5  # games closed, each followed by one first view
CHANGES = 3  # deletions (and restores) of the season's earliest partie
ROUNDS, PER_ROUND = 5, 20  # hands recorded, interleaved, in and outside a season

# The targets of issue 16.
FLOOR_TIMES = 3.0  # the standings at most this many times the SQL floor
PLAYER_MS = 150.0  # the first player page after a close
CHANGE_MS = 1000.0  # the first view after a change at the season's start
GROWTH = 1.5  # twice the parties: at most this many times the time
RECORD_RATIO = 1.1  # recording in a season's partie / outside any season
STAGES = ("views", "changes", "recording")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--players", type=int, default=2000, help="players (default 2000)")
    parser.add_argument("--parties", type=int, default=20000, help="parties (default 20000)")
    parser.add_argument(
        "--double",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also seed and measure a club of twice the players and parties (default: on)",
    )
    parser.add_argument(
        "--seeded",
        metavar="NAME",
        help="PostgreSQL: keep the seeded clubs in the database NAME (seeded by the first "
        "run) and measure on a copy of it",
    )
    parser.add_argument(
        "--only",
        type=lambda text: set(text.split(",")),
        default=set(STAGES),
        help=f"the stages to measure, of {','.join(STAGES)} (default: all)",
    )
    args = parser.parse_args()
    if args.only - set(STAGES):
        parser.error(f"--only: unknown stage {', '.join(sorted(args.only - set(STAGES)))}")
    return args


def postgres_answers() -> bool:
    try:
        import psycopg

        psycopg.connect(PG_URL, connect_timeout=3).close()
    except Exception:  # noqa: BLE001 (any failure means: use SQLite)
        return False
    return True


def load() -> str:
    """The machine's load: timings from a busy machine say little."""
    return "load average " + " ".join(f"{n:.1f}" for n in os.getloadavg())


def ms(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return (time.perf_counter() - began) * 1000


def median_ms(call: Callable[[], object], samples: int = WARM) -> float:
    return statistics.median(ms(call) for _ in range(samples))


def backend_ms() -> tuple[int, float] | None:
    """The PostgreSQL backend of Django's connection and the CPU it has used (ms), read
    from /proc where the server runs on this machine; None elsewhere."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return pid, (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def cpu_ms(call: Callable[[], object]) -> tuple[float, float | None]:
    """The wall time of a call and the CPU time it took (ms): this process's and its
    PostgreSQL backend's, what a quiet machine would take about (None: the backend's
    is not readable, or it changed)."""
    before, python = backend_ms(), time.process_time()
    wall = ms(call)
    python, after = (time.process_time() - python) * 1000, backend_ms()
    if before is None or after is None or before[0] != after[0]:
        return wall, None
    return wall, python + after[1] - before[1]


def main() -> int:
    args = parse_args()
    url = args.database_url or (PG_URL if postgres_answers() else None)
    started = time.perf_counter()
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # not a line per request
    # Stopped by a signal, the bench still drops its database (the finally below).
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    with tempfile.TemporaryDirectory() as tmp:
        start_django(url, Path(tmp))
        if args.seeded:
            teardown = prepare_seeded(args.seeded, sizes_of(args), Path(tmp))
        else:
            teardown = prepare_database(url is not None, Path(tmp))
        try:
            run(args)
        finally:
            teardown()
    print(f"\n  (bench run in {time.perf_counter() - started:.0f} s)")
    return 0


def sizes_of(args: argparse.Namespace) -> list[tuple[int, int]]:
    sizes = [(args.players, args.parties)]
    if args.double:
        sizes.append((args.players * 2, args.parties * 2))
    return sizes


def club_name(n: int) -> str:
    return f"Bench Club {n + 1}"


def prepare_seeded(name: str, sizes: list[tuple[int, int]], tmp: Path) -> Callable[[], None]:
    """Measure on a copy of the seeded database ``name``, seeding it first if it is not
    there (or lacks a club of the sizes asked for); returns what drops the copy."""
    from django.core.management import call_command
    from django.db import connection

    from scorekeeper.clubs.models import Club

    if connection.vendor != "postgresql":
        raise SystemExit("--seeded needs PostgreSQL")
    call_command("collectstatic", interactive=False, verbosity=0)
    settings = connection.settings_dict

    def execute(statement: str) -> None:
        connection.close()
        settings["NAME"] = "postgres"
        with connection.cursor() as cursor:
            cursor.execute(statement)
        connection.close()

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        exists = cursor.fetchone() is not None
    if not exists:
        execute(f'CREATE DATABASE "{name}"')
    connection.close()
    settings["NAME"] = name
    call_command("migrate", verbosity=0)
    for n, (players, parties) in enumerate(sizes):
        club = Club.objects.filter(name=club_name(n)).first()
        if club is None:
            seconds = seed(club_name(n), players, parties)
            analyze()
            print(f"  seeded {players:,} / {parties:,} into {name} in {seconds:.0f} s", flush=True)
        elif club.players.count() != players:
            raise SystemExit(f"{name} holds {club_name(n)} at another size: say --seeded OTHER")
    copy = f"scorekeeper_bench_{os.getpid()}"
    execute(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"')
    settings["NAME"] = copy

    def drop() -> None:
        execute(f'DROP DATABASE IF EXISTS "{copy}"')

    return drop


def seed(name: str, players: int, parties: int) -> float:
    """Seed a club (``seed_league``) and analyze: the seconds the seed took."""
    from django.core.management import call_command

    began = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command("seed_league", club=name, players=players, parties=parties, stdout=quiet)
    return time.perf_counter() - began


@dataclass
class Figures:
    """What one size measured, in ms."""

    players: int
    parties: int
    seeded_s: float = 0.0
    analyzed_s: float = 0.0
    hands: int = 0
    games: int = 0
    floor: float = 0.0
    floor_agrees: bool = False
    first_ever: float = 0.0
    player_first_ever: float = 0.0
    warm: float = 0.0
    queries: int = 0
    player_warm: float = 0.0
    after_close: list[float] = field(default_factory=list)
    player_after_close: list[float] = field(default_factory=list)
    closing_hand: list[float] = field(default_factory=list)  # each close's last hand
    after_delete: list[float] = field(default_factory=list)
    after_restore: list[float] = field(default_factory=list)
    change: list[float] = field(default_factory=list)  # each delete and restore itself
    worker: list[float] = field(default_factory=list)  # the worker's rating after each
    worker_first: float = 0.0  # the worker rating the seeded club from its first game
    record_ratios: list[float] = field(default_factory=list)
    record_ms: tuple[float, float] = (0.0, 0.0)  # in a season's partie, outside any season
    cpu: dict[str, list[float]] = field(default_factory=dict)  # CPU ms of each sample

    def timed(self, name: str, call: Callable[[], object]) -> float:
        """The call's wall time (ms); its CPU time goes to ``cpu[name]``."""
        wall, cpu = cpu_ms(call)
        if cpu is not None:
            self.cpu.setdefault(name, []).append(cpu)
        return wall

    def timed_median(self, name: str, call: Callable[[], object]) -> float:
        return statistics.median(self.timed(name, call) for _ in range(WARM))

    def cpu_of(self, name: str) -> float:
        """The mean CPU ms of the samples (a clock tick is 10 ms: one sample says little)."""
        return statistics.mean(self.cpu[name])

    @property
    def label(self) -> str:
        return f"{self.players:,} / {self.parties:,}"


def work() -> None:
    """What the worker does beside the server: run the tasks the changes enqueued (the
    club rated again from what they made due), as ``manage.py worker --until-idle``."""
    from django.core.management import call_command

    call_command("worker", until_idle=True)


def analyze() -> float:
    """Update the planner's statistics after the bulk seed, as autovacuum soon would on a
    live server: the seconds it took. (Without them PostgreSQL plans for the empty
    tables it last saw: one head-to-head query of the standings took over a second.)"""
    from django.db import connection

    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    return time.perf_counter() - began


class ClubBench:
    """One seeded club: its season, a member's client, and what is measured on it."""

    def __init__(self, name: str, players: int, parties: int, client, user, seeded: bool) -> None:
        from django.urls import reverse
        from django.utils import timezone

        from scorekeeper.clubs.models import Membership, Role
        from scorekeeper.league.models import Season
        from scorekeeper.table.models import ClosedGame, Hand

        self.figures = Figures(players, parties)
        if not seeded:  # (a seeded database was analyzed when it was seeded)
            self.figures.seeded_s = seed(name, players, parties)
            self.figures.analyzed_s = analyze()
        self.season = Season.objects.select_related("league__club").get(league__club__name=name)
        self.club = self.season.league.club
        # Seeded parties start on the evenings of the season, today's up to 23:00: a
        # season that ends tomorrow keeps the bench's own parties in it at any hour (a
        # database seeded on an earlier day: from today on).
        self.season.ends_on = max(self.season.ends_on, timezone.localdate())
        self.season.ends_on += timedelta(days=1)
        self.season.save(update_fields=["ends_on"])
        self.figures.hands = Hand.objects.filter(partie__club=self.club).count()
        self.figures.games = ClosedGame.objects.filter(club=self.club).count()
        Membership.objects.create(club=self.club, user=user, role=Role.SCORER)
        self.client, self.user = client, user
        self.url = reverse("season_detail", args=[self.season.pk])
        self._next_start = None

    def page(self, url: str):
        response = self.client.get(url, secure=True)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code}")
        return response

    def standings(self):
        return self.page(self.url)

    def player_url(self, player_id: int) -> str:
        from django.urls import reverse

        return reverse("player_detail", args=[player_id])

    # The SQL floor -------------------------------------------------------------------

    def floor_sql(self) -> tuple[str, list]:
        """The season's standings in one query over the result rows: each player's games,
        wins, shutouts, league points, net points and money, ranked. (The seeded season
        counts every kind and has no assignments: its rows are those of its dates.)"""
        from django.utils import timezone

        from scorekeeper.table.models import PlayerResult

        season = self.season
        first = datetime.combine(
            season.starts_on, clock.min, tzinfo=timezone.get_current_timezone()
        )
        after = first + timedelta(days=(season.ends_on - season.starts_on).days + 1)
        sql = f"""
            SELECT player_id, COUNT(*) AS games,
                   SUM(CASE WHEN won THEN 1 ELSE 0 END) AS won,
                   SUM(CASE WHEN shutout THEN %s WHEN won THEN %s ELSE %s END) AS points,
                   SUM(net_points) AS net, SUM(money_e4) AS money,
                   rank() OVER (ORDER BY
                       SUM(CASE WHEN shutout THEN %s WHEN won THEN %s ELSE %s END) DESC,
                       SUM(CASE WHEN won THEN 1 ELSE 0 END) DESC,
                       SUM(net_points) DESC) AS place
            FROM {PlayerResult._meta.db_table}
            WHERE club_id = %s AND started_at >= %s AND started_at < %s
            GROUP BY player_id
            ORDER BY place
        """  # noqa: S608 (the table's name is the model's)
        points = [season.points_shutout_win, season.points_win, season.points_loss]
        return sql, [*points, *points, self.club.pk, first, after]

    def floor(self) -> list[tuple]:
        from django.db import connection

        sql, params = self.floor_sql()
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()

    def floor_agrees(self) -> bool:
        """Whether the floor counts what the app counts (games, wins, points, net)."""
        from scorekeeper.league.selectors import book_lines, season_book

        lines = book_lines(season_book(self.season))
        app = {
            pk: (line.games, line.won, line.league_points, line.net_points)
            for pk, line in lines.items()
        }
        floor = {row[0]: (row[1], row[2], row[3], row[4]) for row in self.floor()}
        return app == floor

    # Games closing, parties changing -------------------------------------------------

    def later(self):
        """A start after every seeded partie of the club: a game of the bench closes last
        in the season's order, as a game closing on a club night does."""
        from django.db.models import Max
        from django.utils import timezone

        from scorekeeper.table.models import Partie

        if self._next_start is None:
            latest = Partie.objects.filter(club=self.club).aggregate(Max("started_at"))
            self._next_start = max(timezone.now(), latest["started_at__max"])
        self._next_start += timedelta(seconds=10)
        return self._next_start

    def start(self, names: list[str], club=None):
        from decimal import Decimal

        from scorekeeper import engine
        from scorekeeper.table import services
        from scorekeeper.table.models import Partie

        partie = services.partie_start(
            owner=self.user, club=club or self.club, names=names,
            rules=engine.preset("classic"), stake=Decimal("0.05"),
        )  # fmt: skip
        if club is None:  # in the season: after every seeded partie
            Partie.objects.filter(pk=partie.pk).update(started_at=self.later())
            partie.refresh_from_db()
        return partie

    def close_a_game(self, names: list[str]) -> None:
        """Record hands into a new partie of the season until its game closes."""
        from scorekeeper import engine
        from scorekeeper.table import services
        from scorekeeper.table.models import ClosedGame

        partie = self.start(names)
        while not ClosedGame.objects.filter(partie=partie).exists():
            hand = engine.Hand.gin(40, knocker=names[0])
            wall, cpu = cpu_ms(
                lambda hand=hand: services.hand_record(partie=partie, hand=hand, user=self.user)
            )
        # The hand that closed it, the game rated in its transaction.
        self.figures.closing_hand.append(wall)
        if cpu is not None:
            self.figures.cpu.setdefault("closing_hand", []).append(cpu)

    def earliest_partie(self):
        from scorekeeper.league.selectors import season_book

        game = season_book(self.season).games.order_by("started_at", "partie_id", "number")
        return game.select_related("partie").first().partie

    # The measurements ------------------------------------------------------------------

    def measure_views(self) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from scorekeeper.league.selectors import season_table

        f = self.figures
        self.floor()
        f.floor = f.timed_median("floor", self.floor)
        f.floor_agrees = self.floor_agrees()
        f.worker_first = ms(work)  # the seeded club and season rated from the first game
        f.first_ever = ms(self.standings)
        with CaptureQueriesContext(connection) as queries:
            self.standings()
        f.queries = len(queries)
        f.warm = f.timed_median("warm", self.standings)
        rows = season_table(self.season).rows
        leader, others = rows[0].player_id, [row.line.player for row in rows[1 : 1 + CLOSES]]
        leader_name = rows[0].line.player
        leader_url = self.player_url(leader)
        f.player_first_ever = ms(lambda: self.page(leader_url))  # every game of the club rated
        f.player_warm = f.timed_median("player_warm", lambda: self.page(leader_url))

        # The season's leader plays one of the next players; his game closes last.
        for other in others:
            self.close_a_game([leader_name, other])
            work()  # the worker, beside the server, rates the game closed
            f.after_close.append(f.timed("after_close", self.standings))
            self.page(leader_url)  # his all-time ratings too, before the next close
        for other in others:
            self.close_a_game([other, leader_name])
            work()
            f.player_after_close.append(
                f.timed("player_after_close", lambda: self.page(leader_url))
            )
            self.standings()

    def measure_changes(self) -> None:
        from scorekeeper.table import services

        f = self.figures
        for _ in range(CHANGES):
            partie = self.earliest_partie()
            # The change writes what is due; the worker rates the club again after it.
            f.change.append(f.timed("change", lambda p=partie: services.partie_delete(
                partie=p, user=self.user)))  # fmt: skip
            f.worker.append(f.timed("worker", work))
            f.after_delete.append(f.timed("after_delete", self.standings))
            f.change.append(f.timed("change", lambda p=partie: services.partie_restore(
                partie=p, user=self.user)))  # fmt: skip
            f.worker.append(f.timed("worker", work))
            f.after_restore.append(f.timed("after_restore", self.standings))

    def measure_recording(self) -> None:
        """A one-point knock (no game closes) recorded by HTMX, in a partie of the season
        and in one of the member's own club (no season), interleaved request by request."""
        from django.urls import reverse

        from scorekeeper.clubs.services import personal_club

        form = {"kind": "knock", "knocker": "Bench A", "knocker_deadwood": "2",
                "defender_deadwood": "3"}  # fmt: skip
        headers = {"HX-Request": "true", "Origin": HOST}

        def record(partie) -> None:
            url = reverse("hand_create", args=[partie.pk])
            response = self.client.post(url, form, headers=headers, secure=True)
            if response.status_code != 200:
                raise RuntimeError(f"record: {response.status_code}")

        own = personal_club(self.user)
        in_season, outside = [], []
        for _ in range(ROUNDS):
            league = self.start(["Bench A", "Bench B"])
            other = self.start(["Bench A", "Bench B"], club=own)
            here, there = [], []
            for n in range(PER_ROUND):
                pair = ((league, here), (other, there))
                for partie, times in pair if n % 2 == 0 else reversed(pair):
                    times.append(ms(lambda partie=partie: record(partie)))
            in_season.append(statistics.median(here))
            outside.append(statistics.median(there))
            self.figures.record_ratios.append(in_season[-1] / outside[-1])
        self.figures.record_ms = (statistics.median(in_season), statistics.median(outside))


def run(args: argparse.Namespace) -> None:
    import django
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    user = get_user_model().objects.create_user("league-bench")
    client = Client()
    client.force_login(user)
    client.get("/", secure=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()" if connection.vendor == "postgresql" else "SELECT 1")
        server = cursor.fetchone()[0] if connection.vendor == "postgresql" else "SQLite"
    print(f"League bench: {str(server).split(' on ')[0]}, Django {django.get_version()}, "
          f"{os.cpu_count()} cores, DEBUG off; {load()}")  # fmt: skip

    benches = []
    for n, (players, parties) in enumerate(sizes_of(args)):
        bench = ClubBench(club_name(n), players, parties, client, user, bool(args.seeded))
        f = bench.figures
        seeded = (f"in {f.seeded_s:.0f} s ({parties / f.seeded_s:.0f} parties/s)"
                  if f.seeded_s else f"copied from {args.seeded}")  # fmt: skip
        print(f"  seeded {f.label} players/parties: {f.hands:,} hands, {f.games:,} closed "
              f"games {seeded}, then VACUUM ANALYZE in {f.analyzed_s:.1f} s",
              flush=True)  # fmt: skip
        benches.append(bench)
    for bench in benches:
        began = time.perf_counter()
        if "views" in args.only:
            bench.measure_views()
        if "changes" in args.only:
            bench.measure_changes()
        if "recording" in args.only:
            bench.measure_recording()
        print(f"  measured {bench.figures.label} in {time.perf_counter() - began:.0f} s",
              flush=True)  # fmt: skip
    report([bench.figures for bench in benches])
    cpu_report([bench.figures for bench in benches])
    print(f"\n  {load()} at the end")


# The views whose growth with twice the parties has a target: those of a club night.
GROWING = ("standings, warm", "standings, first after", "player page, first after",
           "standings, after", "player page, warm")  # fmt: skip


def measured(figure: Callable[[Figures], object], f: Figures) -> object:
    """A figure, or "-" where its stage was not measured (``--only``)."""
    try:
        return figure(f)
    except (ZeroDivisionError, statistics.StatisticsError, ValueError):
        return "-"


def report(sizes: list[Figures]) -> None:
    base = sizes[0]
    double = sizes[1] if len(sizes) > 1 else None
    med = statistics.median

    def spread(values: list[float]) -> str:
        return f"{med(values):.0f} ({min(values):.0f}-{max(values):.0f})"

    # (label, figure of a size as text, its value for the growth, or None)
    rows: list[tuple[str, Callable[[Figures], str], Callable[[Figures], float] | None]] = [
        ("SQL floor: GROUP BY + rank() (ms)", lambda f: f"{f.floor:.1f}", lambda f: f.floor),
        ("standings, warm (ms, median of 15)", lambda f: f"{f.warm:.1f}", lambda f: f.warm),
        ("  its queries", lambda f: str(f.queries), None),
        ("  times the floor", lambda f: f"{f.warm / f.floor:.2f}x", None),
        (f"standings, first after a close (ms, {CLOSES})", lambda f: spread(f.after_close),
         lambda f: med(f.after_close)),
        ("  times the floor", lambda f: f"{med(f.after_close) / f.floor:.2f}x", None),
        (f"player page, first after a close (ms, {CLOSES})", lambda f: spread(f.player_after_close),
         lambda f: med(f.player_after_close)),
        (f"the hand that closes a game (ms, {2 * CLOSES})", lambda f: spread(f.closing_hand),
         lambda f: med(f.closing_hand)),
        (f"standings, after deleting the 1st partie (ms, {CHANGES})",
         lambda f: spread(f.after_delete), lambda f: med(f.after_delete)),
        (f"standings, after restoring it (ms, {CHANGES})", lambda f: spread(f.after_restore),
         lambda f: med(f.after_restore)),
        (f"  the change itself: delete or restore (ms, {2 * CHANGES})",
         lambda f: spread(f.change), lambda f: med(f.change)),
        (f"  the worker rating the club again after it (ms, {2 * CHANGES})",
         lambda f: spread(f.worker), lambda f: med(f.worker)),
        ("the worker rating the seeded club from its first game (ms)",
         lambda f: f"{f.worker_first:.0f}", lambda f: f.worker_first),
        ("player page, warm (ms)", lambda f: f"{f.player_warm:.1f}", lambda f: f.player_warm),
        ("standings, first view ever (ms)", lambda f: f"{f.first_ever:.0f}",
         lambda f: f.first_ever),
        ("player page, first view ever (ms)", lambda f: f"{f.player_first_ever:.0f}",
         lambda f: f.player_first_ever),
        ("record a hand: in a season (ms)", lambda f: f"{f.record_ms[0]:.1f}",
         lambda f: f.record_ms[0]),
        ("record a hand: outside any season (ms)", lambda f: f"{f.record_ms[1]:.1f}",
         lambda f: f.record_ms[1]),
        (f"  ratio, median of {ROUNDS} rounds of {PER_ROUND}",
         lambda f: f"{med(f.record_ratios):.2f}x", None),
    ]  # fmt: skip
    width = 52
    print("\nFigures (ms: server time through the test client; first views: median (range))")
    header = f"  {'':<{width}}{base.label:>20}"
    if double:
        header += f"{double.label:>20}{'x2 / x1':>10}"
    print(header)
    for label, text, value in rows:
        line = f"  {label:<{width}}{measured(text, base):>20}"
        if double:
            line += f"{measured(text, double):>20}"
            growth = measured(lambda f, v=value: v(double) / v(f), base) if value else ""
            line += f"{growth:>9.2f}x" if isinstance(growth, float) else f"{growth:>10}"
        print(line)
    agree = all(f.floor_agrees for f in sizes)
    print(f"  the floor's games, wins, points and net points equal the app's: "
          f"{'yes' if agree else 'NO'}")  # fmt: skip

    def verdict(met: bool) -> str:
        return "PASS" if met else "MISS"

    def changed(f: Figures) -> float:
        return max(med(f.after_delete), med(f.after_restore))

    # (label, the figure as text and whether it is met, of the base size)
    checks: list[tuple[str, Callable[[Figures], tuple[str, bool]]]] = [
        ("standings warm <= 3x the SQL floor",
         lambda f: (f"{f.warm / f.floor:.2f}x", f.warm <= FLOOR_TIMES * f.floor)),
        ("standings first after a close <= 3x the floor",
         lambda f: (f"{med(f.after_close) / f.floor:.2f}x",
                    med(f.after_close) <= FLOOR_TIMES * f.floor)),
        ("player page first after a close <= 150 ms",
         lambda f: (f"{med(f.player_after_close):.0f} ms", med(f.player_after_close) <= PLAYER_MS)),
        ("first view after a change at the start <= 1 s",
         lambda f: (f"{changed(f):.0f} ms", changed(f) <= CHANGE_MS)),
        ("recording in a season <= 1.1x outside",
         lambda f: (f"{med(f.record_ratios):.2f}x", med(f.record_ratios) <= RECORD_RATIO)),
    ]  # fmt: skip
    targets = []
    for label, check in checks:
        result = measured(check, base)
        targets.append((label, *(result if isinstance(result, tuple) else (None, False))))
    if double:
        for label, _, value in rows:
            if value is None or not label.startswith(GROWING):
                continue
            growth = measured(lambda f, value=value: value(double) / value(f), base)
            name = label.split(" (")[0].strip()
            if isinstance(growth, float):
                targets.append((f"x2: {name} <= 1.5x", f"{growth:.2f}x", growth <= GROWTH))
    print(f"\nTargets (issue 16, at {base.label} players/parties)")
    for label, figure, met in targets:
        if figure is None:
            continue  # its stage was not measured
        print(f"  {label:<{width + 8}}{figure:>12}  {verdict(met)}")


# The CPU figures: (label, the measurement, mean (warm series) or median (first views)).
CPU_ROWS = (
    ("SQL floor", "floor", "mean"),
    ("standings, warm", "warm", "mean"),
    ("standings, first after a close", "after_close", "median"),
    ("player page, first after a close", "player_after_close", "median"),
    ("the hand that closes a game", "closing_hand", "median"),
    ("standings, after deleting the 1st partie", "after_delete", "median"),
    ("standings, after restoring it", "after_restore", "median"),
    ("  the change itself: delete or restore", "change", "median"),
    ("player page, warm", "player_warm", "mean"),
)


def cpu_report(sizes: list[Figures]) -> None:
    """The same figures in CPU time: the bench's process and its PostgreSQL backend, which
    a busy machine inflates far less than the wall time (other processes take turns on
    the cores). Printed where the backend's CPU is readable (PostgreSQL on this machine)."""
    if not sizes[0].cpu:
        return

    def value(f: Figures, name: str, how: str) -> float | None:
        samples = f.cpu.get(name)
        if not samples:
            return None
        return statistics.mean(samples) if how == "mean" else statistics.median(samples)

    width = 52
    print("\nCPU time (ms: this process + its PostgreSQL backend; what a quiet machine takes)")
    print(f"  {'':<{width}}" + "".join(f"{f.label:>20}" for f in sizes)
          + (f"{'x2 / x1':>10}" if len(sizes) > 1 else ""))  # fmt: skip
    for label, name, how in CPU_ROWS:
        figures = [value(f, name, how) for f in sizes]
        line = f"  {label + f' ({how})':<{width}}"
        line += "".join(f"{'-' if v is None else f'{v:.0f}':>20}" for v in figures)
        if len(figures) > 1 and None not in figures and figures[0]:
            line += f"{figures[1] / figures[0]:>9.2f}x"
        print(line)
        if name in ("warm", "after_close"):
            floors = [value(f, "floor", "mean") for f in sizes]
            times = [
                None if v is None or not fl else v / fl
                for v, fl in zip(figures, floors, strict=True)
            ]
            print(f"  {'  times the floor':<{width}}"
                  + "".join(f"{'-' if t is None else f'{t:.2f}x':>20}" for t in times))  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
