"""Notices by mail: what telling 64 players their tables adds to starting a round, and
how soon the worker has mailed them all.

    .venv/bin/python bench/notices.py [--database-url URL] [--rounds N] [--requests N]

PostgreSQL when it answers at 127.0.0.1:5432 (a database of its own, dropped at the end),
else a temporary SQLite file; production settings (DEBUG off), Django's test client over
HTTPS with the CSRF check on, as ``bench/run.py`` does.

1. **The release.** The organiser starts a round of 32 tables (64 players) through the
   league night page's form (the real view: a POST of the seating), once in a club
   whose 64 members each gave a mail address (every notice on, by default) and once in
   a club of 64 members who gave none (nothing is recorded for them). Each request
   starts round 1 of a season of its own, so that every one seats the same 64 players
   at 32 new tables. The two are interleaved in rounds (the order alternating); the
   ratio is the median of the rounds' ratios of their medians (the CPU time of this
   process and its database is printed beside, steadier on a busy machine). Target:
   at most 1.2x.
2. **The mails.** ``manage.py worker`` runs as its own process (the default interval
   of 1 s, as beside a production server) and sends to an SMTP server of the bench
   (aiosmtpd, on a free loopback port). From the end of the request that started the
   round to the 64th mail received, the median of a few releases. Target: within 5 s.

It prints the figures and PASS or MISS, and never fails on them.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.league import PG_URL, backend_ms, load, postgres_answers  # noqa: E402
from bench.run import HOST, ROOT, prepare_database, start_django  # noqa: E402

TABLES = 32  # 64 players, two at each table
RATIO = 1.2  # the release with notices / without, at most
MAIL_SECONDS = 5.0  # from the release's end to the 64th mail, at most
DELIVERIES = 3  # releases timed until their 64th mail


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL"))
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument(
        "--requests", type=int, default=5, help="releases per club and round (default 5)"
    )
    return parser.parse_args()


class Inbox:
    """The bench's SMTP server's handler: each mail's recipients and when it came."""

    def __init__(self) -> None:
        self.received: list[tuple[float, list[str]]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope) -> str:
        with self.lock:
            self.received.append((time.perf_counter(), list(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"

    def clear(self) -> None:
        with self.lock:
            self.received.clear()

    def wait_for(self, count: int, limit: float = 60.0) -> float | None:
        """When the ``count``-th mail came (perf_counter), or None after ``limit`` s."""
        ends = time.perf_counter() + limit
        while time.perf_counter() < ends:
            with self.lock:
                if len(self.received) >= count:
                    return self.received[count - 1][0]
            time.sleep(0.002)
        return None


class Night:
    """Two clubs of 64 members and one organiser, who owns both: in one each member gave
    a mail address, in the other none did."""

    def __init__(self) -> None:
        from django.contrib.auth import get_user_model
        from django.test import Client

        User = get_user_model()
        self.owner = User.objects.create_user("organiser", email="organiser@bench.example")
        self.clubs = {
            "with mails": self.club("Mail Club", "m", mail=True),
            "without notices": self.club("Quiet Club", "q", mail=False),
        }
        self.client = Client(enforce_csrf_checks=True)
        self.client.force_login(self.owner)
        self.seasons = 0

    def club(self, name: str, prefix: str, mail: bool) -> tuple:
        """The club, its league and its seating of 32 tables ("1,2;3,4;...")."""
        from django.contrib.auth import get_user_model

        from scorekeeper.clubs import services as club_services
        from scorekeeper.clubs.models import Role
        from scorekeeper.league import services as league_services
        from scorekeeper.table import services

        club = club_services.club_create(name=name, owner=self.owner)
        league = league_services.league_create(club=club, name="Club league")
        ids = []
        for n in range(1, 2 * TABLES + 1):
            address = f"{prefix}{n}@bench.example" if mail else ""
            user = get_user_model().objects.create_user(f"{prefix}{n}", email=address)
            invitation = club_services.invitation_create(
                club=club, role=Role.MEMBER, created_by=self.owner
            )
            club_services.invitation_accept(invitation=invitation, user=user)
            player = services.player_add(club=club, name=f"Player {prefix}{n}", owner=self.owner)
            services.player_link(player=player, user=user)
            ids.append(player.pk)
        seating = ";".join(f"{a},{b}" for a, b in zip(ids[::2], ids[1::2], strict=True))
        return league, seating

    def season(self, variant: str):
        """A new season of the club around today: its night's round 1 is still to come."""
        from django.utils import timezone

        from scorekeeper.league import services as league_services

        league, _ = self.clubs[variant]
        self.seasons += 1
        today = timezone.localdate()
        return league_services.season_create(
            league=league,
            name=f"Season {self.seasons}",
            starts_on=today - timedelta(days=1),
            ends_on=today + timedelta(days=1),
        )

    def release(self, variant: str, season) -> Callable[[], object]:
        """The organiser's tap on "Start round 1", ready to be sent."""
        from django.urls import reverse

        _, seating = self.clubs[variant]
        url = reverse("league_night", args=[season.pk])
        if "csrftoken" not in self.client.cookies:
            self.check(self.client.get(url, secure=True), 200)
        token = self.client.cookies["csrftoken"].value
        form = {"tables": seating, "byes": "", "round": "1", "csrfmiddlewaretoken": token}
        return lambda: self.client.post(url, form, headers={"Origin": HOST}, secure=True)

    @staticmethod
    def check(response, status: int = 302):
        if response.status_code != status:
            raise RuntimeError(f"unexpected {response.status_code}: {response.content[:300]!r}")
        return response

    def started(self, variant: str, season) -> None:
        """The round was started whole, and told (or not) to each of its players."""
        from scorekeeper.league.models import LeagueNight
        from scorekeeper.notices.models import Delivery

        night = LeagueNight.objects.get(season=season)
        tables = night.tables.count()
        mails = Delivery.objects.filter(notice__key=f"tables_out:{night.pk}:1").count()
        told = 2 * TABLES if variant == "with mails" else 0
        if tables != TABLES or mails != told:
            raise RuntimeError(f"{variant}: {tables} tables, {mails} mails due")


def cpu_seconds() -> float:
    """The CPU this process and its database have used: on SQLite the process's alone,
    on PostgreSQL its backend's too (where /proc shows it)."""
    backend = backend_ms()
    return time.process_time() + (backend[1] / 1000 if backend else 0.0)


def compare(night: Night, rounds: int, requests: int) -> dict[str, dict[str, list[float]]]:
    """Each club's release per round: its median seconds (wall clock, and CPU of this
    process and its database); the clubs interleaved."""
    variants = list(night.clubs)
    for variant in variants:  # warm up: templates, URLs, connection, code paths
        season = night.season(variant)
        night.check(night.release(variant, season)())
        night.started(variant, season)
    medians = {clock: {variant: [] for variant in variants} for clock in ("wall", "cpu")}
    for round_ in range(rounds):
        order = variants if round_ % 2 == 0 else variants[::-1]
        seconds = {clock: {variant: [] for variant in variants} for clock in medians}
        for _ in range(requests):
            for variant in order:
                season = night.season(variant)
                send = night.release(variant, season)
                gc.collect()
                cpu, began = cpu_seconds(), time.perf_counter()
                response = send()
                seconds["wall"][variant].append(time.perf_counter() - began)
                seconds["cpu"][variant].append(cpu_seconds() - cpu)
                night.check(response)
                night.started(variant, season)
        for clock, by_variant in seconds.items():
            for variant, values in by_variant.items():
                medians[clock][variant].append(statistics.median(values))
    return medians


def worker_environment(port: int) -> dict[str, str]:
    """The bench's settings for ``manage.py worker``: its database, the bench's SMTP
    server."""
    from django.conf import settings
    from django.db import connection

    database = connection.settings_dict
    if connection.vendor == "sqlite":
        url = f"sqlite:///{database['NAME']}"
    else:
        url = f"{PG_URL.rsplit('/', 1)[0]}/{database['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "SITE_URL": "https://gin.example",
        "SECRET_KEY": settings.SECRET_KEY,
    }


def deliveries(night: Night, inbox: Inbox, port: int) -> list[float]:
    """Seconds from each release's end to its 64th mail, the worker running beside."""
    from scorekeeper.notices.models import Delivery

    # The releases compared above wrote mails due: they are not this part's.
    Delivery.objects.filter(sent_at=None).delete()
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "worker"], cwd=ROOT, env=worker_environment(port)
    )
    try:
        waits = []
        for attempt in range(DELIVERIES + 1):  # the first warms the worker up
            inbox.clear()
            season = night.season("with mails")
            send = night.release("with mails", season)
            night.check(send())
            ended = time.perf_counter()
            last = inbox.wait_for(2 * TABLES)
            if last is None:
                raise RuntimeError(f"only {len(inbox.received)} mails came within 60 s")
            time.sleep(0.5)  # a mail sent twice would come now
            addresses = [to for _, tos in inbox.received for to in tos]
            if len(addresses) != 2 * TABLES or len(set(addresses)) != 2 * TABLES:
                raise RuntimeError(f"{len(addresses)} mails to {len(set(addresses))} addresses")
            if attempt:
                waits.append(last - ended)
        return waits
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def ratios_of(medians: dict[str, list[float]]) -> list[float]:
    mailed, quiet = medians["with mails"], medians["without notices"]
    return [m / q for m, q in zip(mailed, quiet, strict=True)]


def report(medians: dict[str, dict[str, list[float]]], waits: list[float], rounds, requests):
    print(f"\nReleasing a round of {TABLES} tables ({2 * TABLES} players) through the night's "
          f"form, {rounds} interleaved rounds x {requests} requests per club")  # fmt: skip
    print(f"\n  {'club':<22}{'median ms':>10}{'rounds (ms)':>16}{'CPU ms':>10}{'rounds':>14}")
    for name, values in medians["wall"].items():
        cpu = medians["cpu"][name]
        print(
            f"  {name:<22}{statistics.median(values) * 1000:>10.0f}"
            f"{f'{min(values) * 1000:.0f}-{max(values) * 1000:.0f}':>16}"
            f"{statistics.median(cpu) * 1000:>10.0f}"
            f"{f'{min(cpu) * 1000:.0f}-{max(cpu) * 1000:.0f}':>14}"
        )
    ratios, cpu_ratios = ratios_of(medians["wall"]), ratios_of(medians["cpu"])
    ratio = statistics.median(ratios)
    print(f"  ratio {ratio:.2f}x (per round {min(ratios):.2f}x-{max(ratios):.2f}x); "
          f"CPU {statistics.median(cpu_ratios):.2f}x "
          f"(per round {min(cpu_ratios):.2f}x-{max(cpu_ratios):.2f}x)")  # fmt: skip
    wait = statistics.median(waits)
    print(f"\nThe worker's {2 * TABLES} mails to the SMTP server, from the release's end to "
          f"the last mail: {', '.join(f'{w:.2f}' for w in waits)} s")  # fmt: skip

    def verdict(met: bool) -> str:
        return "PASS" if met else "MISS"

    print("\nSummary")
    print(f"  release with notices / without: {ratio:.2f}x (target <= {RATIO:g}x): "
          f"{verdict(ratio <= RATIO)}")  # fmt: skip
    print(f"  {2 * TABLES} mails received within {wait:.2f} s of the release, median "
          f"(target <= {MAIL_SECONDS:g} s): {verdict(wait <= MAIL_SECONDS)}")  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> int:
    from aiosmtpd.controller import Controller

    args = parse_args()
    url = args.database_url or (PG_URL if postgres_answers() else None)
    started = time.perf_counter()
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # not a line per request
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    with tempfile.TemporaryDirectory() as tmp:
        start_django(url, Path(tmp))
        teardown = prepare_database(url is not None, Path(tmp))
        inbox = Inbox()
        smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
        smtp.start()
        try:
            from django.db import connection

            print(f"Notices bench: {connection.vendor}, {load()}")
            night = Night()
            medians = compare(night, args.rounds, args.requests)
            waits = deliveries(night, inbox, smtp.port)
            report(medians, waits, args.rounds, args.requests)
        finally:
            smtp.stop()
            teardown()
    print(f"\n  (bench run in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
