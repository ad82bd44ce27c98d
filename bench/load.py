"""Load: concurrent clients against gunicorn and PostgreSQL, loopback only, bounded in time.

    .venv/bin/python bench/load.py                      # 50 clients for 60 s (make bench)
    BENCH_LOAD_SECONDS=5 BENCH_LOAD_CLIENTS=10 .venv/bin/python bench/load.py   # a smoke run

It creates a scratch database on the PostgreSQL server at 127.0.0.1:5432 (BENCH_PG_SERVER),
seeds a club (a league season of closed parties, scorers, one running partie per
client, an evening holding eight of them), starts gunicorn with production settings on
a loopback port, and lets every client loop for the duration over five requests:

  sheet      GET  /parties/<pk>/            its table's score sheet, logged in
  hand       POST /parties/<pk>/hands/      HTMX, with the CSRF token, a hand entered
  evening    GET  /evenings/<pk>/           tonight's evening, logged in
  standings  GET  /seasons/<pk>/            the league season's standings, logged in
  shared     GET  /shared/<token>/          the table's read-only link, logged out

A client sends its next request when the last one is answered (no think time), so the
figures are those of a saturated server. It prints requests/s and p50/p95/p99 per
request, the errors (anything but the expected status, or no answer), and checks in the
database that every hand answered as recorded is there once. Exit status 1 when there
was an error or a hand is missing or doubled; the scratch database is dropped at the end.

Environment: BENCH_LOAD_SECONDS (60), BENCH_LOAD_CLIENTS (50), BENCH_LOAD_WORKERS
(gunicorn workers, 4), BENCH_LOAD_USERS (scorer accounts the clients share, 5),
BENCH_LOAD_LEAGUE (closed parties in the season, 1000).
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadkit import Browser, hand_form, hidden_fields, percentile, scratch_site, seed  # noqa: E402

SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", 60))
CLIENTS = int(os.environ.get("BENCH_LOAD_CLIENTS", 50))
WORKERS = int(os.environ.get("BENCH_LOAD_WORKERS", 4))
USERS = int(os.environ.get("BENCH_LOAD_USERS", 5))
LEAGUE = int(os.environ.get("BENCH_LOAD_LEAGUE", 1000))

# How often each request comes, per 100: a table mostly looks at its sheet and enters hands.
MIX = {"sheet": 30, "hand": 25, "evening": 15, "standings": 10, "shared": 20}


class Tally:
    """Every client's timings and errors, under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.recorded: dict[int, int] = defaultdict(int)  # hands answered as recorded

    def add(self, name: str, seconds: float, error: str | None = None) -> None:
        with self.lock:
            self.seconds[name].append(seconds)
            if error:
                self.errors[name].append(error)


def client(n: int, port: int, cookies: dict, seeded, deadline: float, tally: Tally) -> None:
    rng = random.Random(n)
    me = Browser(port)
    me.cookies = dict(cookies)
    spectator = Browser(port)
    pk, token = seeded.parties[n]
    sheet_path, hand_path = f"/parties/{pk}/", f"/parties/{pk}/hands/"
    sheet: str | None = None  # the last sheet seen, whose form the next hand fills
    fields: dict[str, str] | None = None  # the hand form's hidden fields, not used yet
    entered = 0
    names, weights = list(MIX), list(MIX.values())
    while time.monotonic() < deadline:
        name = rng.choices(names, weights)[0]
        try:
            if name == "hand" and fields is None and sheet is None:
                name = "sheet"  # as a browser: the form comes with the sheet
            if name == "hand":
                fields = hidden_fields(sheet, hand_path) if fields is None else fields
                form = fields | hand_form(entered, f"North {n}", f"South {n}")
                answer = me.post(hand_path, form, headers={"HX-Request": "true"})
                # The answer brings the next key (out of band); without one, reload.
                new = hidden_fields(answer.body, hand_path)
                fields, sheet = (fields | new if new or not fields else None), None
                refused = answer.header("HX-Retarget")  # the form again, with its error
                if answer.status == 200 and refused:
                    answer.status = 400
                elif answer.status == 200:
                    entered += 1
                    with tally.lock:
                        tally.recorded[pk] += 1
            elif name == "sheet":
                answer = me.get(sheet_path)
                sheet, fields = answer.body, None
            elif name == "evening":
                answer = me.get(f"/evenings/{seeded.evening}/")
            elif name == "standings":
                answer = me.get(f"/seasons/{seeded.season}/")
            else:
                answer = spectator.get(f"/shared/{token}/")
        except OSError as error:
            tally.add(name, 0.0, f"{type(error).__name__}: {error}")
            continue
        wrong = None if answer.status == 200 else f"{answer.status}: {answer.body[:200]!r}"
        tally.add(name, answer.seconds, wrong)


def check_hands(seeded, tally: Tally) -> list[str]:
    """Every hand answered as recorded is in the database, once."""
    from scorekeeper.table.models import Hand

    problems = []
    for pk, _ in seeded.parties:
        stored = Hand.objects.filter(partie_id=pk).count()
        if stored != 10 + tally.recorded[pk]:
            problems.append(f"partie {pk}: {stored} hands stored, {10 + tally.recorded[pk]} sent")
    return problems


def report(tally: Tally, elapsed: float) -> int:
    print(f"\n{'request':<10} {'count':>7} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'max ms':>8} {'errors':>6}")  # fmt: skip
    total = errors = 0
    for name in MIX:
        values = sorted(tally.seconds[name])
        count, wrong = len(values), len(tally.errors[name])
        total, errors = total + count, errors + wrong
        ms = [1000 * percentile(values, p) for p in (50, 95, 99, 100)]
        print(f"{name:<10} {count:>7} {count / elapsed:>7.1f} {ms[0]:>8.1f} {ms[1]:>8.1f} "
              f"{ms[2]:>8.1f} {ms[3]:>8.1f} {wrong:>6}")  # fmt: skip
    everything = sorted(v for values in tally.seconds.values() for v in values)
    ms = [1000 * percentile(everything, p) for p in (50, 95, 99, 100)]
    print(f"{'all':<10} {total:>7} {total / elapsed:>7.1f} {ms[0]:>8.1f} {ms[1]:>8.1f} "
          f"{ms[2]:>8.1f} {ms[3]:>8.1f} {errors:>6}")  # fmt: skip
    for name, messages in tally.errors.items():
        for message in messages[:5]:
            print(f"  error {name}: {message}")
    return errors


def main() -> int:
    print(f"load: {CLIENTS} clients for {SECONDS:g} s, gunicorn with {WORKERS} workers, "
          "PostgreSQL, loopback only")  # fmt: skip
    with scratch_site("load") as site:
        began = time.perf_counter()
        seeded = seed(tables=CLIENTS, users=USERS, league_parties=LEAGUE)
        from django.db import connections

        connections.close_all()
        print(f"seeded in {time.perf_counter() - began:.1f} s: {LEAGUE} closed parties in "
              f"the season, {CLIENTS} running, {USERS} scorers")  # fmt: skip
        port = site.serve(WORKERS)
        sessions = {}
        for user in seeded.users:
            browser = Browser(port)
            answer = browser.login(user)
            if answer.status != 302 or "sessionid" not in browser.cookies:
                print(f"login of {user} failed: {answer.status}")
                return 1
            sessions[user] = browser.cookies
        # Warm each worker's caches (templates, translations) before the clock starts.
        for _ in range(2 * WORKERS):
            Browser(port).get(f"/shared/{seeded.parties[0][1]}/")
        tally = Tally()
        deadline = time.monotonic() + SECONDS
        began = time.perf_counter()
        threads = [
            threading.Thread(
                target=client,
                args=(n, port, sessions[seeded.users[n % USERS]], seeded, deadline, tally),
                daemon=True,
            )
            for n in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=SECONDS + 120)
        elapsed = time.perf_counter() - began
        errors = report(tally, elapsed)
        lost = check_hands(seeded, tally)
        for problem in lost:
            print(f"  {problem}")
        recorded = sum(tally.recorded.values())
        print(f"\n{recorded} hands recorded, every one stored once: {'yes' if not lost else 'NO'}")
        verdict = "PASS" if not errors and not lost else "FAIL"
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"machine: {os.cpu_count()} cores, load average {load} (1, 5, 15 min)")
        print(f"load: {verdict} ({errors} errors in {sum(map(len, tally.seconds.values()))} "
              f"requests over {elapsed:.1f} s)")  # fmt: skip
        return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
