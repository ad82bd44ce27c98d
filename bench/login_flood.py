"""Login flood: what wrong passwords sent without pause do to a player already signed in.

    .venv/bin/python bench/login_flood.py                       # make bench
    BENCH_FLOOD_SECONDS=5 .venv/bin/python bench/login_flood.py # a smoke run

Like bench/load.py it seeds a scratch PostgreSQL database (a club, one running partie of
10 hands, its scorer), starts gunicorn with production settings and gunicorn.conf.py on
a loopback port, and logs the scorer in; twice: with gunicorn.conf.py's sync workers,
then with GUNICORN_THREADS=4 (gthread). Then, phase after phase of BENCH_FLOOD_SECONDS
(10) each, the signed-in player fetches his partie's page (GET /parties/<pk>/, one
request every 50 ms) while BENCH_FLOOD_CLIENTS (8) clients post wrong passwords to
/accounts/login/ without pause:

  quiet                      no flood: the player's page alone
  one account, one address   every try for one account from one address
  one account, any address   every try for one account from a new address
  any account, any address   every try for a new name from a new address (no lockout
                             and no slowdown ever applies: the worst case)

It prints the page's median and p95 per phase and server side by side, and what the
flood got (answers per second, by status). Failed logins are cleared between phases. The scratch
database is dropped at the end; the figures are printed, never judged (exit status 0
unless the bench broke).

Environment: BENCH_FLOOD_SECONDS (10), BENCH_FLOOD_CLIENTS (8), BENCH_FLOOD_WORKERS
(gunicorn workers; default as gunicorn.conf.py: 2 per core, plus 1).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadkit import Browser, percentile, scratch_site, seed  # noqa: E402

SECONDS = float(os.environ.get("BENCH_FLOOD_SECONDS", 10))
CLIENTS = int(os.environ.get("BENCH_FLOOD_CLIENTS", 8))
WORKERS = int(os.environ.get("BENCH_FLOOD_WORKERS", 2 * (os.cpu_count() or 1) + 1))
PAUSE = 0.05  # between two of the player's pages
SERVERS = {"sync workers": "1", "4 threads each": "4"}  # GUNICORN_THREADS


def one_account_one_address(client: int, n: int) -> tuple[str, str]:
    return "scorer1", "198.51.100.1"


def one_account_any_address(client: int, n: int) -> tuple[str, str]:
    return "scorer1", f"10.{client}.{n // 250 % 250}.{n % 250 + 1}"


def any_account_any_address(client: int, n: int) -> tuple[str, str]:
    return f"guess{client}x{n}", f"10.{client}.{n // 250 % 250}.{n % 250 + 1}"


PHASES = {
    "quiet": None,
    "one account, one address": one_account_one_address,
    "one account, any address": one_account_any_address,
    "any account, any address": any_account_any_address,
}


def flood(port: int, client: int, tries, deadline: float, answers: Counter, lock) -> None:
    me = Browser(port)
    me.get("/accounts/login/")  # the CSRF cookie
    n = 0
    while time.monotonic() < deadline:
        n += 1
        username, me.address = tries(client, n)
        form = {"username": username, "password": "a wrong guess",
                "csrfmiddlewaretoken": me.cookies.get("csrftoken", "")}  # fmt: skip
        try:
            status = me.post("/accounts/login/", form).status
        except OSError as error:
            status = type(error).__name__
        with lock:
            answers[status] += 1


def phase(port: int, player: Browser, page: str, tries) -> tuple[list[float], Counter, float]:
    """The player's page timings, the flood's answers by status, and the phase's length."""
    answers: Counter = Counter()
    lock = threading.Lock()
    began = time.monotonic()
    deadline = began + SECONDS
    threads = [
        threading.Thread(target=flood, args=(port, c, tries, deadline, answers, lock), daemon=True)
        for c in range(CLIENTS if tries else 0)
    ]
    for thread in threads:
        thread.start()
    time.sleep(min(1.0, SECONDS / 10))  # the flood under way before the clock starts
    seconds = []
    while time.monotonic() < deadline:
        answer = player.get(page)
        if answer.status != 200:
            raise RuntimeError(f"the player's page answered {answer.status}")
        seconds.append(answer.seconds)
        time.sleep(PAUSE)
    for thread in threads:
        thread.join(timeout=120)
    return sorted(seconds), answers, time.monotonic() - began


def main() -> int:
    print(f"login flood: {CLIENTS} clients for {SECONDS:g} s per phase, gunicorn with "
          f"{WORKERS} workers, PostgreSQL, loopback only")  # fmt: skip
    with scratch_site("flood") as site:
        seeded = seed(tables=1, users=2, league_parties=20, evening_tables=0)
        from axes.models import AccessAttempt
        from django.db import connections

        connections.close_all()
        page = f"/parties/{seeded.parties[0][0]}/"
        for server, threads in SERVERS.items():
            site.env["GUNICORN_THREADS"] = threads
            port = site.serve(WORKERS)
            player = Browser(port, address="192.0.2.10")
            if player.login(seeded.users[0]).status != 302:
                print("the player's login failed")
                return 1
            for _ in range(2 * WORKERS):  # every worker warm (templates, translations)
                player.get(page)
            print(f"\n{server:<26} {'page p50':>9} {'page p95':>9} {'pages':>6} "
                  f"{'flood/s':>8}  flood answers")  # fmt: skip
            for name, tries in PHASES.items():
                AccessAttempt.objects.all().delete()
                connections.close_all()
                seconds, answers, elapsed = phase(port, player, page, tries)
                ms = [1000 * percentile(seconds, p) for p in (50, 95)]
                flooded = sum(answers.values())
                statuses = ", ".join(f"{status}: {count}" for status, count in sorted(
                    answers.items(), key=str))  # fmt: skip
                print(f"{name:<26} {ms[0]:>6.1f} ms {ms[1]:>6.1f} ms {len(seconds):>6} "
                      f"{flooded / elapsed:>8.1f}  {statuses or '-'}")  # fmt: skip
            site.stop()
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"\nmachine: {os.cpu_count()} cores, load average {load} (1, 5, 15 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
