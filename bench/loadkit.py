"""What the load and scale-out benches share: a scratch PostgreSQL database, gunicorn
servers on loopback ports, the seeded club, and a small HTTP client that behaves like a
browser behind the production proxy (cookies, CSRF token, X-Forwarded-Proto).

Everything stays on 127.0.0.1; every server and the scratch database are removed when
the ``scratch_site`` context ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import html.parser
import http.client
import io
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
PG_SERVER = os.environ.get("BENCH_PG_SERVER", "postgres://postgres@127.0.0.1:5432")
PASSWORD = "load-bench passphrase 7c1f"  # the seeded users'; the database is dropped after


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Site:
    """The scratch database and the environment every server of the bench runs with."""

    database_url: str
    env: dict[str, str]
    tmp: Path
    servers: list[subprocess.Popen] = field(default_factory=list)

    def serve(self, workers: int, port: int | None = None) -> int:
        """Start gunicorn on a loopback port; returns the port once it answers."""
        port = port or free_port()
        log = open(self.tmp / f"gunicorn-{port}.log", "w")  # noqa: SIM115 (kept while it runs)
        server = subprocess.Popen(
            [GUNICORN, "scorekeeper.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(workers), "--timeout", "60", "--graceful-timeout", "5"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.servers.append(server)
        deadline, last = time.monotonic() + 60, "no answer"
        while time.monotonic() < deadline and server.poll() is None:
            try:
                answer = Browser(port).get("/accounts/login/")
                if answer.status == 200:
                    return port
                last = f"{answer.status} {answer.body[:300]}"
            except OSError as error:
                last = str(error)
            time.sleep(0.2)
        log.flush()
        tail = Path(log.name).read_text()[-2000:]
        raise RuntimeError(f"gunicorn on {port} is not serving ({last}); its log ends:\n{tail}")

    def stop(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
        for server in self.servers:
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
        self.servers.clear()


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=5) as db:
        db.execute(sql)


@contextlib.contextmanager
def scratch_site(name: str) -> Iterator[Site]:
    """A database of its own on the PostgreSQL server, migrated, with production
    settings (DEBUG off) set up in this process too; dropped at the end."""
    database = f"scorekeeper_{name}_{os.getpid()}"
    _admin(f'CREATE DATABASE "{database}"')
    tmp = Path(tempfile.mkdtemp(prefix=f"scorekeeper-{name}-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.serve_settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"{PG_SERVER}/{database}",
        "BENCH_STATIC_ROOT": str(tmp / "static"),
        "PYTHONPATH": str(ROOT),
        "TRUSTED_PROXIES": "1",  # as behind the production proxy: see Browser
    }
    site = Site(database_url=env["DATABASE_URL"], env=env, tmp=tmp)
    try:
        os.environ.update({k: env[k] for k in env if k != "PYTHONPATH"})
        sys.path.insert(0, str(ROOT))
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        yield site
    finally:
        site.stop()
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        subprocess.run(["rm", "-rf", str(tmp)], check=False)


# --- An HTTP client that behaves like the browser -------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


class Browser:
    """One visitor: his cookies, over fresh connections to 127.0.0.1 (gunicorn's sync
    workers close each one). It says it came over HTTPS, as the proxy in front of
    production does, so the secure cookies and the CSRF origin check work as there."""

    def __init__(self, port: int, timeout: float = 60, address: str = "127.0.0.1"):
        self.port = port
        self.timeout = timeout
        self.address = address  # the device's, as the proxy reports it (TRUSTED_PROXIES=1)
        self.cookies: dict[str, str] = {}

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        form: dict | None = None,
        headers: dict[str, str] | None = None,
        port: int | None = None,
    ) -> Response:
        port = port or self.port
        sent = {
            "Host": f"127.0.0.1:{port}",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": self.address,
            "Accept-Language": "en",
            **(headers or {}),
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if method == "POST":
            body = urlencode(form or {}, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = f"https://127.0.0.1:{port}"
            sent["Referer"] = f"https://127.0.0.1:{port}{path}"
            if "csrftoken" in self.cookies:
                sent["X-CSRFToken"] = self.cookies["csrftoken"]
        began = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=self.timeout)
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            content = answer.read().decode("utf-8", "replace")
            headers_got = {k.lower(): v for k, v in answer.getheaders()}
            for value in answer.msg.get_all("Set-Cookie") or []:
                self._keep(value)
        finally:
            connection.close()
        return Response(answer.status, headers_got, content, time.perf_counter() - began)

    def _keep(self, header: str) -> None:
        for name, morsel in SimpleCookie(header).items():
            if morsel["max-age"] == "0" or not morsel.value or morsel.value == '""':
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = morsel.value

    def get(self, path: str, **kwargs) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, form: dict | None = None, **kwargs) -> Response:
        return self.request("POST", path, form, **kwargs)

    def login(self, username: str, password: str = PASSWORD, port: int | None = None) -> Response:
        """Through the login form, as a person does: its page first, for the CSRF cookie."""
        self.get("/accounts/login/", port=port)
        form = {"username": username, "password": password,
                "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}  # fmt: skip
        return self.post("/accounts/login/", form, port=port)


class _HiddenInputs(html.parser.HTMLParser):
    """The hidden fields of the form whose action ends with ``action``."""

    def __init__(self, action: str):
        super().__init__()
        self.action, self.inside, self.fields = action, False, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        hidden = tag == "input" and attrs.get("type") == "hidden" and attrs.get("name")
        if hidden and "hx-swap-oob" in attrs:  # a new value for the form's field of that id
            self.fields[attrs["name"]] = attrs.get("value") or ""
        elif tag == "form":
            self.inside = (attrs.get("action") or "").endswith(self.action) or (
                attrs.get("hx-post") or ""
            ).endswith(self.action)
        elif hidden and self.inside:
            self.fields[attrs["name"]] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False


def hidden_fields(page: str, action: str) -> dict[str, str]:
    """The hidden inputs of the page's form posting to ``action`` (an idempotency key,
    where the form has one), without the CSRF token, which the header carries."""
    parser = _HiddenInputs(action)
    parser.feed(page)
    parser.fields.pop("csrfmiddlewaretoken", None)
    return parser.fields


# --- The seeded club ------------------------------------------------------------------


@dataclass
class Seeded:
    users: list[str]
    parties: list[tuple[int, str]]  # (pk, share token), one per table
    evening: int
    season: int


def seed(*, tables: int, users: int, league_parties: int, evening_tables: int = 8) -> Seeded:
    """A club with a season of ``league_parties`` closed parties (seed_league), its
    standings public, ``users`` scorers who log in with ``PASSWORD``, and ``tables``
    running parties of 10 hands, the first ``evening_tables`` of them in tonight's
    evening. Written through the services, as the app writes."""
    from datetime import date
    from decimal import Decimal

    from django.contrib.auth.models import User
    from django.core.management import call_command

    from scorekeeper import engine
    from scorekeeper.clubs import services as club_services
    from scorekeeper.clubs.models import Club, Role
    from scorekeeper.league import services as league_services
    from scorekeeper.league.models import Season
    from scorekeeper.table import services

    players = max(8, league_parties // 5)
    call_command("seed_league", players=players, parties=league_parties, club="Load Club",
                 days=30, stdout=io.StringIO())  # fmt: skip
    club = Club.objects.get(slug="load-club")
    owner = club.memberships.get(role=Role.OWNER).user
    season = Season.objects.get(league__club=club)
    league_services.season_share(season=season, shared=True)
    names = []
    for n in range(users):
        user = User.objects.create_user(f"scorer{n}", password=PASSWORD)
        invitation = club_services.invitation_create(club=club, role=Role.SCORER, created_by=owner)
        club_services.invitation_accept(invitation=invitation, user=user)
        names.append(user.username)
    evening = services.evening_start(
        owner=owner, club=club, name="Load night", played_on=date.today()
    )
    parties = []
    for t in range(tables):
        user = User.objects.get(username=names[t % users])
        north, south = f"North {t}", f"South {t}"
        partie = services.partie_start(
            owner=user, club=club, names=[north, south], rules=engine.preset("classic"),
            stake=Decimal("0.05"), first_dealer=south,
            evening=evening if t < evening_tables else None,
        )  # fmt: skip
        for n in range(10):
            hand = engine.Hand.knock(1, 3, knocker=(north, south)[n % 2])
            services.hand_record(partie=partie, hand=hand, user=user)
        parties.append((partie.pk, partie.share_token))
    analyze()
    return Seeded(users=names, parties=parties, evening=evening.pk, season=season.pk)


def analyze() -> None:
    """The planner's statistics after the bulk seed, as autovacuum soon makes them on a
    live server (bench/league.py does the same). Without them PostgreSQL took the
    season's index for the standings' trends and read the whole season for each of the
    page's players: 300 ms of a page of 360 ms, and the load bench answered about half
    the requests it answers once autovacuum has been by, which it did at its own time."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def hand_form(number: int, north: str, south: str) -> dict[str, str]:
    """The hand form for the ``number``-th hand a client enters: mostly no game, every
    fifth a one-point knock by turns, so that no partie reaches its target in a run."""
    if number % 5:
        return {"kind": "no_game"}
    knocker = north if number % 10 else south
    return {"kind": "knock", "knocker": knocker, "knocker_deadwood": "1", "defender_deadwood": "2"}


def percentile(sorted_values: list[float], p: float) -> float:
    """The nearest-rank percentile of sorted values (p in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]
