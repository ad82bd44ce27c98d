"""League scale: standings and player pages on a seeded club season, and the cost of
recording a hand in a league partie beside one outside any league.

    .venv/bin/python bench/league.py [--database-url URL] [--players N] [--parties N]

PostgreSQL is the production database and the default here when it answers at
127.0.0.1:5432 (a database of its own is created and dropped); else a temporary SQLite
file. Two clubs are seeded with ``seed_league``: the full size (default 2,000 players,
20,000 parties, about 400,000 hands) and a tenth of it, so that the growth of the
standings' cost with ten times the parties is measured side by side in one run.

Targets (issue 10): the standings page in at most 200 ms server time with at most 12
queries, a player page in at most 150 ms, ten times the parties at most three times
the time, and recording a hand in a league partie at most 1.5 times recording one
outside a league. The bench prints figures and never fails on them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import HOST, prepare_database, start_django  # noqa: E402

PG_URL = "postgres://postgres@127.0.0.1:5432/test"
SAMPLES = 15


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--parties", type=int, default=20000)
    return parser.parse_args()


def postgres_answers() -> bool:
    try:
        import psycopg

        psycopg.connect(PG_URL, connect_timeout=3).close()
    except Exception:  # noqa: BLE001 (any failure means: use SQLite)
        return False
    return True


def median_ms(call, samples: int = SAMPLES) -> float:
    times = []
    for _ in range(samples):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> int:
    args = parse_args()
    url = args.database_url or (PG_URL if postgres_answers() else None)
    with tempfile.TemporaryDirectory() as tmp:
        start_django(url, Path(tmp))
        teardown = prepare_database(url is not None, Path(tmp))
        try:
            return run(args)
        finally:
            teardown()


def seed(name: str, players: int, parties: int):
    from django.core.management import call_command

    from scorekeeper.league.models import Season

    began = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command("seed_league", club=name, players=players, parties=parties, stdout=quiet)
    season = Season.objects.select_related("league__club").get(league__club__name=name)
    return season, time.perf_counter() - began


def run(args: argparse.Namespace) -> int:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from scorekeeper.clubs.models import Membership, Role
    from scorekeeper.league.selectors import season_table
    from scorekeeper.table.models import Hand

    print(f"League bench on {connection.vendor}")
    small, small_s = seed("Small Club", max(4, args.players // 10), max(1, args.parties // 10))
    large, large_s = seed("Large Club", args.players, args.parties)
    hands = Hand.objects.filter(partie__club=large.league.club).count()
    print(f"  seeded {args.parties // 10} parties in {small_s:.1f} s; "
          f"{args.parties} parties ({hands} hands) in {large_s:.1f} s")  # fmt: skip

    user = get_user_model().objects.create_user("league-bench")
    for season in (small, large):
        Membership.objects.create(club=season.league.club, user=user, role=Role.SCORER)
    client = Client()
    client.force_login(user)

    def page(url: str):
        response = client.get(url, secure=True)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code}")
        return response

    figures = {}
    for label, season in (("tenth", small), ("full", large)):
        url = reverse("season_detail", args=[season.pk])
        began = time.perf_counter()
        page(url)  # computes and caches the standings
        cold = (time.perf_counter() - began) * 1000
        with CaptureQueriesContext(connection) as queries:
            page(url)
        count = len(queries)  # now: the log keeps only the last 9,000 queries
        warm = median_ms(lambda url=url: page(url))
        top = season_table(season).rows[0].player_id
        player_url = reverse("player_detail", args=[top])
        page(player_url)
        player = median_ms(lambda player_url=player_url: page(player_url))
        figures[label] = (cold, warm, count, player)

    print("\nStandings page (server time, median of "
          f"{SAMPLES}; cold: the first view after a change computes and caches them)")  # fmt: skip
    print(f"  {'season':<8}{'cold ms':>10}{'page ms':>10}{'queries':>9}{'player ms':>11}")
    for label, (cold, warm, queries, player) in figures.items():
        print(f"  {label:<8}{cold:>10.1f}{warm:>10.1f}{queries:>9}{player:>11.1f}")

    # Recording: a hand in a partie the season counts, beside one in the user's own club.
    from decimal import Decimal

    from scorekeeper import engine
    from scorekeeper.clubs.services import personal_club
    from scorekeeper.table import services

    def running(club):
        return services.partie_start(
            owner=user, club=club, names=["Bench A", "Bench B"],
            rules=engine.preset("classic"), stake=Decimal("0.05"),
        )  # fmt: skip

    form = {"kind": "knock", "knocker": "Bench A", "knocker_deadwood": "2",
            "defender_deadwood": "3"}  # fmt: skip
    client.get(reverse("home"), secure=True)
    headers = {"HX-Request": "true", "Origin": HOST}

    def record(partie):
        url = reverse("hand_create", args=[partie.pk])
        response = client.post(url, form, headers=headers, secure=True)
        if response.status_code != 200:
            raise RuntimeError(f"record: {response.status_code}")

    ratios = []
    for _ in range(5):
        league = running(large.league.club)
        own = running(personal_club(user))
        in_league = median_ms(lambda league=league: record(league), 20)
        outside = median_ms(lambda own=own: record(own), 20)
        ratios.append(in_league / outside)
    # A game closed in a league partie, then the standings and a player page viewed:
    # the first views after a change (the standings resumed from their checkpoint).
    gin = {"kind": "gin", "knocker": "Bench A", "defender_deadwood": "90"}
    url = reverse("season_detail", args=[large.pk])
    after_change, player_after = [], []
    for _ in range(5):
        closing = running(large.league.club)
        response = client.post(reverse("hand_create", args=[closing.pk]), gin,
                               headers=headers, secure=True)  # fmt: skip
        if response.status_code != 200:
            raise RuntimeError(f"gin: {response.status_code}")
        after_change.append(median_ms(lambda: page(url), 1))
        player_after.append(median_ms(lambda: page(player_url), 1))

    cold_small, warm_small = figures["tenth"][0], figures["tenth"][1]
    cold_large, warm_large, queries, player = figures["full"]
    growth = warm_large / warm_small
    ratio = statistics.median(ratios)
    print("\nRecording a hand (HTMX POST, 5 rounds of 20 each, 1-point knocks)")
    print(f"  in a league partie / outside any league: {ratio:.2f}x "
          f"(rounds {min(ratios):.2f}x-{max(ratios):.2f}x)")  # fmt: skip

    def verdict(met: bool) -> str:
        return "met" if met else "NOT MET"

    print("\nSummary")
    print(f"  standings page {warm_large:.1f} ms (<= 200): {verdict(warm_large <= 200)}")
    print(f"  standings queries {queries} (<= 12): {verdict(queries <= 12)}")
    print(f"  player page {player:.1f} ms (<= 150): {verdict(player <= 150)}")
    print(f"  ten times the parties: {growth:.2f}x the time (<= 3x): {verdict(growth <= 3)}")
    print(f"  first view ever (no checkpoint yet): {cold_small:.0f} ms (tenth), "
          f"{cold_large:.0f} ms (full)")  # fmt: skip
    changed = statistics.median(after_change)
    print(f"  standings after a game closed: {changed:.0f} ms "
          f"(5 closes: {min(after_change):.0f}-{max(after_change):.0f} ms; <= 200): "
          f"{verdict(changed <= 200)}")  # fmt: skip
    print(
        f"  player page after a game closed: {statistics.median(player_after):.0f} ms "
        "(his all-time record resumed from the club's checkpoint)"
    )
    print(f"  league recording {ratio:.2f}x (<= 1.5x): {verdict(ratio <= 1.5)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
