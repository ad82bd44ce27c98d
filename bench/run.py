"""Scorekeeper's benchmark: the cost of recording a hand, and the queries per page.

    .venv/bin/python bench/run.py [--database-url URL] [--rounds N] [--requests N] [--show-sql]
                                  [--cpu]

It prints figures and never fails on them: the targets are reported as met or NOT MET,
and the exit status is 0 unless the bench itself broke. See bench/README.md.

1. Recording a hand through the real view stack (HTMX POST to hand_create on a
   partie of 10 hands), side by side in one run with two baselines behind the same
   middleware, client, user and CSRF handling (bench/urls.py): `minimal record` is the
   least a Django view can do to record that hand (fetch the owner's partie, save the
   row, send it back); `empty` answers "ok" and shows the framework's floor. The
   variants are interleaved in rounds; the target is at most 3x the minimal record view.
   The score sheet's GET (the page of a 10-hand partie) runs in the same rounds; its
   target is at most 12x the empty view.
2. SQL queries for the score sheet (GET) and for recording a hand (HTMX POST) with
   10 and with 300 hands in the partie; the target is the same count for both.

The database is a throwaway SQLite file unless --database-url (or BENCH_DATABASE_URL)
names another server, e.g. postgres://postgres@127.0.0.1:5432/test; then a database
of its own (scorekeeper_bench_<pid>) is created on that server and dropped at the end.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 3.0
TARGET_SHEET_RATIO = 12.0  # the score sheet's GET (10 hands) against the empty view
PLAYERS = ("Anna", "Ben")
HOST = "https://testserver"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL"),
        help="run on this server, in a database of its own created and dropped there; "
        "default: BENCH_DATABASE_URL, else a temporary SQLite file",
    )
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument(
        "--requests", type=int, default=50, help="requests per variant and round (default 50)"
    )
    parser.add_argument("--show-sql", action="store_true", help="print the counted queries")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time each request by this process's CPU time, not the wall clock: steadier on "
        "a busy machine; on SQLite it counts the database's work too, never its disk waits",
    )
    return parser.parse_args()


def start_django(database_url: str | None, tmp: Path) -> None:
    """Production-like settings (DEBUG off: no query log) on a throwaway database."""
    sys.path.insert(0, str(ROOT))
    from django.core.management.utils import get_random_secret_key

    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    os.environ["DEBUG"] = "0"
    os.environ["SECRET_KEY"] = get_random_secret_key()
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DATABASE_URL"] = database_url or f"sqlite:///{tmp / 'bench.sqlite3'}"

    import django
    from django.conf import settings

    settings.ROOT_URLCONF = "bench.urls"
    # Production serves hashed names from collectstatic's manifest: build one here.
    settings.STATIC_ROOT = tmp / "static"
    django.setup()


def prepare_database(explicit: bool, tmp: Path) -> Callable[[], None]:
    """Migrate the database; returns what tears it down."""
    from django.core.management import call_command
    from django.db import connection

    call_command("collectstatic", interactive=False, verbosity=0)
    if not explicit:  # the temporary SQLite file goes with its directory
        call_command("migrate", verbosity=0)
        return connection.close
    # A name of its own: `make test` uses test_<name> on the same server, maybe right now.
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict["TEST"]["NAME"] = (
        str(tmp / "bench.sqlite3")
        if connection.vendor == "sqlite"
        else f"scorekeeper_bench_{os.getpid()}"
    )
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)

    def drop() -> None:
        connection.creation.destroy_test_db(old_name, verbosity=0)

    return drop


# The hands of a partie, none reaching the target of 100 (classic rules).
def ten_hands() -> list:
    from scorekeeper.engine import Hand

    a, b = PLAYERS
    return [
        Hand.knock(4, 15, knocker=a),
        Hand.knock(2, 9, knocker=b),
        Hand.no_game(),
        Hand.gin(12, knocker=a),
        Hand.knock(5, 4, knocker=a),  # undercut
        Hand.knock(2, 6, knocker=a),
        Hand.knock(1, 8, knocker=b),
        Hand.no_game(),
        Hand.knock(3, 7, knocker=a),
        Hand.knock(6, 14, knocker=b),
    ]


def hands(count: int) -> list:
    """The ten above, then mostly no-games with a one-point knock every tenth hand."""
    from scorekeeper.engine import Hand

    result = ten_hands()[:count]
    while len(result) < count:
        n = len(result)
        result.append(
            Hand.knock(1, 2, knocker=PLAYERS[n // 10 % 2]) if n % 10 == 0 else Hand.no_game()
        )
    return result


# The hand each timed request records: a plain knock, scored by the engine.
RECORD_FORM = urlencode(
    {"kind": "knock", "knocker": PLAYERS[0], "knocker_deadwood": "2", "defender_deadwood": "9"}
)


class Bench:
    def __init__(self) -> None:
        from django.contrib.auth import get_user_model
        from django.test import Client

        self.owner = get_user_model().objects.create_user("bench")  # unusable password
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.owner)
        self.baseline = self.partie(10)
        # The sheet sets the CSRF cookie; HTMX sends it back in a header, like the app's pages.
        self.check(self.client.get(self.sheet_url(self.baseline), secure=True))
        token = self.client.cookies["csrftoken"].value
        self.headers = {"X-CSRFToken": token, "Origin": HOST}
        self.htmx = {**self.headers, "HX-Request": "true", "HX-Target": "table"}

    def partie(self, count: int):
        """A running partie of `count` hands, written by the import service."""
        from scorekeeper import engine
        from scorekeeper.engine.record import Record
        from scorekeeper.table import services

        record = Record(
            "two_player",
            engine.preset("classic"),
            PLAYERS,
            PLAYERS[0],
            Decimal(0),
            tuple(hands(count)),
        )
        partie = services.partie_import(owner=self.owner, record=record)
        if not partie.is_running:
            raise RuntimeError(f"the {count}-hand partie is over: the bench needs a running one")
        return partie

    @staticmethod
    def sheet_url(partie) -> str:
        return partie.get_absolute_url()

    @staticmethod
    def check(response, contains: bytes | None = None):
        if response.status_code != 200 or (contains and contains not in response.content):
            raise RuntimeError(
                f"unexpected response {response.status_code}: {response.content[:300]!r}"
            )
        return response

    def record(self, partie):
        from django.urls import reverse

        return self.client.post(
            reverse("hand_create", args=[partie.pk]),
            RECORD_FORM,
            content_type="application/x-www-form-urlencoded",
            headers=self.htmx,
            secure=True,
        )

    def minimal(self, _partie=None):
        return self.client.post(
            "/bench/minimal/",
            RECORD_FORM,
            content_type="application/x-www-form-urlencoded",
            headers=self.headers,
            secure=True,
        )

    def minimal_record(self, partie):
        return self.client.post(
            f"/bench/minimal-record/{partie.pk}/",
            RECORD_FORM,
            content_type="application/x-www-form-urlencoded",
            headers=self.headers,
            secure=True,
        )

    def sheet(self, partie):
        return self.client.get(self.sheet_url(partie), secure=True)


# The clock of every timed request: the wall clock, or with --cpu the process's CPU time.
clock = time.perf_counter


def timed(call: Callable[[], object]) -> tuple[float, object]:
    start = clock()
    result = call()
    return clock() - start, result


SHEET = "score sheet (GET)"
RECORDING = ("record a hand (real view)", "minimal record")
MARKERS = {"record a hand (real view)": b'<tr class="hand', SHEET: b"<html"}


def compare(bench: Bench, rounds: int, requests: int) -> dict[str, list[float]]:
    """Median seconds per request of each variant, per round; variants interleaved."""
    from scorekeeper.table.models import Hand

    variants = {
        "record a hand (real view)": bench.record,
        "minimal record": bench.minimal_record,
        "empty": bench.minimal,
        SHEET: bench.sheet,
    }
    # Warm up every code path (templates, URL resolver, connection) before timing.
    for _ in range(10):
        for name, call in variants.items():
            partie = bench.partie(10)
            bench.check(call(partie), MARKERS.get(name))
            if name in RECORDING and partie.hands.count() != 11:
                raise RuntimeError(f"the warm-up request of {name} did not record the hand")

    medians: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            # A fresh 10-hand partie for every request: each records hand 11 of a typical partie.
            parties = [bench.partie(10) for _ in range(requests)]
            gc.collect()
            seconds = []
            for partie in parties:
                elapsed, response = timed(lambda call=variants[name], p=partie: call(p))
                bench.check(response)
                seconds.append(elapsed)
            medians[name].append(statistics.median(seconds))
            if name in RECORDING:
                recorded = Hand.objects.filter(partie__in=parties, number=11).count()
                if recorded != len(parties):
                    raise RuntimeError(f"{name}: {len(parties)} hands posted, {recorded} recorded")
    return medians


def count_queries(bench: Bench, show_sql: bool) -> dict[int, tuple[int, int]]:
    """Queries of one score-sheet GET and one HTMX record POST, per partie size."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for size in (10, 300):
        partie = bench.partie(size)
        figures = []
        for label, call, marker in (
            ("score sheet (GET)", bench.sheet, b"<html"),
            ("record a hand (POST)", bench.record, b'<tr class="hand'),
        ):
            with CaptureQueriesContext(connection) as queries:
                bench.check(call(partie), marker)
            figures.append(len(queries))
            if show_sql:
                print(f"\n-- {label}, {size} hands: {len(queries)} queries")
                for query in queries.captured_queries:
                    print("  ", query["sql"][:160])
        counts[size] = (figures[0], figures[1])
    return counts


def by_size(bench: Bench, samples: int) -> dict[str, dict[int, float]]:
    """Informational: median seconds of the sheet and of recording, at 10 and 300 hands."""
    sheets = {size: bench.partie(size) for size in (10, 300)}
    result: dict[str, dict[int, float]] = {"score sheet (GET)": {}, "record a hand (POST)": {}}
    times: dict[int, list[float]] = {10: [], 300: []}
    for _ in range(samples):
        for size, partie in sheets.items():
            elapsed, response = timed(lambda p=partie: bench.sheet(p))
            bench.check(response)
            times[size].append(elapsed)
    result["score sheet (GET)"] = {size: statistics.median(t) for size, t in times.items()}
    # Each record goes to its own partie, so every one lands at hand 11 or hand 301.
    pools = {size: [bench.partie(size) for _ in range(samples)] for size in (10, 300)}
    times = {10: [], 300: []}
    for i in range(samples):
        for size in (10, 300):
            elapsed, response = timed(lambda p=pools[size][i]: bench.record(p))
            bench.check(response)
            times[size].append(elapsed)
    result["record a hand (POST)"] = {size: statistics.median(t) for size, t in times.items()}
    return result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def main() -> int:
    global clock
    args = parse_args()
    if args.cpu:
        clock = time.process_time
    started = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        start_django(args.database_url, tmp)
        teardown = prepare_database(bool(args.database_url), tmp)
        try:
            return report(args, started)
        finally:
            teardown()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(args: argparse.Namespace, started: float) -> int:
    import django
    from django.conf import settings
    from django.db import connection

    database = connection.vendor + (
        " (temporary file)" if not args.database_url else f" ({connection.settings_dict['NAME']})"
    )
    print(
        f"Scorekeeper bench: Django {django.get_version()}, Python {platform.python_version()}, "
        f"{database}, DEBUG {'on' if settings.DEBUG else 'off'}, "
        f"timed by {'CPU time' if args.cpu else 'the wall clock'}"
    )
    bench = Bench()

    print(
        f"\nRecording a hand: HTMX POST on a partie of 10 hands, "
        f"{args.rounds} interleaved rounds x {args.requests} requests per variant"
    )
    medians = compare(bench, args.rounds, args.requests)
    real = medians["record a hand (real view)"]
    ratios = {
        name: [r / b for r, b in zip(real, medians[name], strict=True)]
        for name in ("minimal record", "empty")
    }
    sheet_ratios = [s / e for s, e in zip(medians[SHEET], medians["empty"], strict=True)]
    print(f"\n  {'variant':<28}{'median ms':>10}{'rounds (ms)':>18}{'real / this':>14}")
    for name, values in medians.items():
        if name == SHEET:
            continue  # below, against the empty view
        spread = f"{ms(min(values))}-{ms(max(values))}"
        ratio = f"{statistics.median(ratios[name]):.2f}x" if name in ratios else ""
        print(f"  {name:<28}{ms(statistics.median(values)):>10}{spread:>18}{ratio:>14}")
    ratio = statistics.median(ratios["minimal record"])
    print(
        f"  (ratio: median of the per-round ratios; per round vs minimal record "
        f"{min(ratios['minimal record']):.2f}x-{max(ratios['minimal record']):.2f}x)"
    )
    sheet = medians[SHEET]
    sheet_ratio = statistics.median(sheet_ratios)
    print(f"\n  {'':<28}{'median ms':>10}{'rounds (ms)':>18}{'this / empty':>14}")
    spread = f"{ms(min(sheet))}-{ms(max(sheet))}"
    print(f"  {SHEET + ', 10 hands':<28}{ms(statistics.median(sheet)):>10}{spread:>18}"
          f"{sheet_ratio:>13.2f}x")  # fmt: skip
    print(f"  (per round {min(sheet_ratios):.2f}x-{max(sheet_ratios):.2f}x)")

    print("\nSQL queries per request (whole request: session and user included)")
    counts = count_queries(bench, args.show_sql)
    print(f"\n  {'hands in partie':<18}{'score sheet (GET)':>20}{'record a hand (POST)':>24}")
    for size, (sheet, record) in counts.items():
        print(f"  {size:<18}{sheet:>20}{record:>24}")
    same_sheet = counts[10][0] == counts[300][0]
    same_record = counts[10][1] == counts[300][1]
    print(
        f"  {'same for 10 and 300':<18}{'yes' if same_sheet else 'NO':>20}"
        f"{'yes' if same_record else 'NO':>24}"
    )

    samples = max(5, args.requests // 3)
    print(f"\nInformational: median ms per request by partie size ({samples} requests each)")
    sizes = by_size(bench, samples)
    print(f"\n  {'':<22}{'10 hands':>10}{'300 hands':>11}{'300 / 10':>10}")
    for label, figures in sizes.items():
        print(
            f"  {label:<22}{ms(figures[10]):>10}{ms(figures[300]):>11}"
            f"{figures[300] / figures[10]:>9.1f}x"
        )

    print("\nSummary")
    print(
        f"  ratio {ratio:.2f}x vs the minimal record view (target <= {TARGET_RATIO:g}x): "
        f"{verdict(ratio <= TARGET_RATIO)}"
    )
    print(
        f"  score sheet GET {sheet_ratio:.2f}x vs the empty view "
        f"(target <= {TARGET_SHEET_RATIO:g}x): {verdict(sheet_ratio <= TARGET_SHEET_RATIO)}"
    )
    print(
        f"  queries with 10 vs 300 hands: sheet {counts[10][0]} vs {counts[300][0]}, "
        f"record {counts[10][1]} vs {counts[300][1]} (target: the same): "
        f"{verdict(same_sheet and same_record)}"
    )
    print(f"  ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
