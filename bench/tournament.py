"""Tournaments at their largest: the engine's state of a 128-player double elimination
with every result given, the bracket page of a 64-player tournament and its PDF, each
beside a bare Django view timed in the same run.

    .venv/bin/python bench/tournament.py [--database-url URL] [--rounds N] [--requests N]

Production-like settings (DEBUG off) through Django's test client with a signed-in
owner, on a temporary SQLite file unless --database-url (or BENCH_DATABASE_URL) names a
server (a database of its own is created there and dropped). The 64 players' double
elimination is started and its first round given through the organiser's service, so
the page shows its second round with 64 matches known. The variants are interleaved in
rounds; each figure is the median of the rounds' medians.

Targets (the issue names none; these are ours): the replay of the 128-player double
elimination (254 results) at most 100 ms; the bracket page at most 12x the empty view,
as the score sheet's; the bracket PDF of 64 players at most 1 s. The bench prints
figures and PASS or MISS, and never fails on them.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import HOST, prepare_database, start_django  # noqa: E402

REPLAY_MS = 100.0  # the 128-player double elimination's state, at most
PAGE_RATIO = 12.0  # the bracket page against the empty view, at most
PDF_MS = 1000.0  # the 64-player bracket PDF, at most


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--requests", type=int, default=20, help="per variant and round")
    return parser.parse_args()


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def played_out(count: int):
    """A double elimination of ``count`` players and every result it takes to its end
    (the upper seat wins, except every third match)."""
    from scorekeeper.engine import tournaments as t

    players = tuple(f"Player {n:03}" for n in range(1, count + 1))
    tournament = t.TournamentPlan(t.System.DOUBLE_ELIMINATION, players)
    results: list[t.MatchWinner] = []
    state = t.tournament_state(tournament, results)
    while not state.is_over():
        for match in state.playable():
            results.append(t.MatchWinner(match.id, match.players[len(results) % 3 == 2]))
        state = t.tournament_state(tournament, results)
    return tournament, results


class Bench:
    """An owner, his club of 64 players and their double elimination, round 1 given."""

    def __init__(self) -> None:
        from django.contrib.auth import get_user_model
        from django.test import Client

        from scorekeeper import engine
        from scorekeeper.clubs import services as clubs
        from scorekeeper.league.models import NightSettings
        from scorekeeper.table import services as table
        from scorekeeper.tournaments import services

        self.owner = get_user_model().objects.create_user("bench")
        club = clubs.club_create(name="Bench club", owner=self.owner)
        players = [
            table.player_add(club=club, name=f"Player {n:02}", owner=self.owner)
            for n in range(1, 65)
        ]
        rules = NightSettings("two_player", engine.preset("classic"), Decimal(0))
        self.tournament = services.tournament_create(
            club=club, owner=self.owner, name="Bench championship", played_on=date(2026, 12, 5),
            system="double_elimination", settings=rules,
        )  # fmt: skip
        services.entries_check_in(tournament=self.tournament, players=players)
        services.tournament_start(tournament=self.tournament, owner=self.owner)
        by_name = {p.name: p for p in players}
        from scorekeeper.tournaments.selectors import tournament_state

        for match in tournament_state(self.tournament).playable():
            services.result_correct(
                tournament=self.tournament, match=match.id,
                winner=by_name[match.players[0]], by=self.owner, reason="bench",
            )  # fmt: skip
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.owner)
        self.check(self.client.get(self.tournament.get_absolute_url(), secure=True), b"<html")
        token = self.client.cookies["csrftoken"].value
        self.headers = {"X-CSRFToken": token, "Origin": HOST}

    @staticmethod
    def check(response, marker: bytes) -> None:
        if response.status_code != 200 or marker not in response.content:
            raise RuntimeError(f"unexpected response {response.status_code}")

    def page(self) -> None:
        self.check(self.client.get(self.tournament.get_absolute_url(), secure=True), b"<html")

    def pdf(self) -> None:
        from django.urls import reverse

        url = reverse("tournament_bracket_pdf", args=[self.tournament.pk])
        self.check(self.client.get(url, secure=True), b"%PDF")

    def empty(self) -> None:
        response = self.client.post("/bench/minimal/", {}, headers=self.headers, secure=True)
        self.check(response, b"ok")


def compare(variants: dict[str, Callable[[], None]], rounds: int, requests: int) -> dict:
    """Each variant's median seconds per round, the variants interleaved."""
    for call in variants.values():  # warm every path first
        for _ in range(3):
            call()
    medians: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for round_ in range(rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            gc.collect()
            medians[name].append(statistics.median(timed(variants[name]) for _ in range(requests)))
    return medians


def verdict(met: bool) -> str:
    return "PASS" if met else "MISS"


def main() -> int:
    args = parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-tournament-"))
    try:
        start_django(args.database_url, tmp)
        teardown = prepare_database(bool(args.database_url), tmp)
        try:
            report(args)
        finally:
            teardown()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def report(args: argparse.Namespace) -> None:
    from django.db import connection

    from scorekeeper.engine.tournaments import tournament_state

    # Each request's log line would bury the figures.
    logging.getLogger("scorekeeper.requests").setLevel(logging.WARNING)
    print(f"Tournament bench: {connection.vendor}, DEBUG off")
    tournament, results = played_out(128)
    bench = Bench()
    rounds, requests = args.rounds, args.requests
    medians = compare(
        {
            "replay: 128-player double elimination": lambda: tournament_state(tournament, results),
            "bracket page: 64 players (GET)": bench.page,
            "bracket PDF: 64 players (GET)": bench.pdf,
            "empty view": bench.empty,
        },
        rounds,
        max(requests // 4, 3),
    )
    empty = medians["empty view"]
    print(f"\n{rounds} interleaved rounds; the median of the rounds' medians:")
    print(f"  {'variant':<42}{'ms':>10}{'/ empty view':>14}")
    figures = {}
    for name, values in medians.items():
        ratio = statistics.median(v / e for v, e in zip(values, empty, strict=True))
        figures[name] = (statistics.median(values) * 1000, ratio)
        print(f"  {name:<42}{figures[name][0]:>10.2f}{ratio:>13.1f}x")
    replay = figures["replay: 128-player double elimination"][0]
    page = figures["bracket page: 64 players (GET)"][1]
    pdf = figures["bracket PDF: 64 players (GET)"][0]
    print(f"\n  {len(results)} results replayed in {replay:.1f} ms "
          f"(target <= {REPLAY_MS:.0f} ms): {verdict(replay <= REPLAY_MS)}")  # fmt: skip
    print(f"  bracket page {page:.1f}x the empty view "
          f"(target <= {PAGE_RATIO:.0f}x): {verdict(page <= PAGE_RATIO)}")  # fmt: skip
    print(f"  bracket PDF {pdf:.0f} ms (target <= {PDF_MS:.0f} ms): {verdict(pdf <= PDF_MS)}")


if __name__ == "__main__":
    sys.exit(main())
