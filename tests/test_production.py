"""Production: `check --deploy` is clean, gunicorn serves with HSTS, CSP and secure cookies,
every request and every server error's traceback reach standard error, and `make test`
stops when a migration is missing.
"""

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management.utils import get_random_secret_key
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
# The developer's settings, and what the browser tests set for their live server.
PRODUCTION_NAMES = (
    "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "STATIC_ROOT",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)  # fmt: skip


def production_env(**extra: str) -> dict[str, str]:
    """The environment of a production server: nothing of the developer's settings."""
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION_NAMES}
    return env | {"DEBUG": "0", "SECRET_KEY": get_random_secret_key()} | extra


def test_the_deploy_check_is_clean_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(ALLOWED_HOSTS="example.org"),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


# gunicorn with gunicorn.conf.py, DEBUG off, the static files collected, and a database
# without tables: the login page needs none, a session cookie makes a real server error.


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int, log: Path) -> None:
        self.port, self.log = port, log

    def get(self, path: str, https: bool = True, **headers: str) -> http.client.HTTPResponse:
        if https:  # what the TLS proxy in front of gunicorn adds
            headers["X-Forwarded-Proto"] = "https"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.body = response.read()
        connection.close()
        return response

    def stderr(self) -> str:
        return self.log.read_text()


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    env = production_env(
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp / 'empty.sqlite3'}",
        STATIC_ROOT=str(tmp / "static"),
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="1",
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    log = tmp / "stderr.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn"], cwd=ROOT, env=env, stderr=stderr
        )
    server = Server(port, log)
    try:
        for _ in range(100):
            try:
                server.get("/accounts/login/")
                break
            except OSError:
                if process.poll() is not None:
                    pytest.fail(f"gunicorn did not start:\n{server.stderr()}")
                time.sleep(0.1)
        yield server
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_gunicorn_serves_with_hsts_csp_and_secure_cookies(gunicorn: Server):
    response = gunicorn.get("/accounts/login/")
    assert response.status == 200
    assert response.headers["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("csrftoken=") and "Secure" in cookie
    stylesheet = re.search(rb'href="(/static/css/app\.[0-9a-f]+\.css)"', response.body)
    assert stylesheet, "the manifest storage names the stylesheet by its hash"
    assert gunicorn.get(stylesheet.group(1).decode()).status == 200


def test_gunicorn_sends_plain_http_to_https(gunicorn: Server):
    response = gunicorn.get("/accounts/login/", https=False)
    assert response.status == 301
    assert response.headers["Location"] == f"https://127.0.0.1:{gunicorn.port}/accounts/login/"


def test_every_request_is_logged_with_method_path_status_and_time(gunicorn: Server):
    gunicorn.get("/accounts/login/?next=/evenings/")
    gunicorn.get("/no-such-page/")
    log = wait_for(gunicorn, "GET /no-such-page/ 404")
    # The app's line (scorekeeper.requests) and gunicorn's access line, both on stderr.
    assert re.search(r"INFO scorekeeper\.requests: GET /accounts/login/ 200 \d+\.\dms", log)
    assert re.search(
        r'gunicorn\.access: "GET /accounts/login/\?next=/evenings/ HTTP/1\.1" 200 \d+ \d+ms', log
    )
    assert re.search(r"scorekeeper\.requests: GET /no-such-page/ 404 \d+\.\dms", log)


def test_a_server_error_logs_its_full_traceback(gunicorn: Server):
    # A session cookie makes Django read the session table, which this database lacks.
    response = gunicorn.get("/", Cookie="sessionid=" + "a1" * 16)
    assert response.status == 500
    assert b"Traceback" not in response.body  # DEBUG is off: the player sees no code
    log = wait_for(gunicorn, "GET / 500")
    assert "ERROR django.request: Internal Server Error: /" in log
    assert "Traceback (most recent call last):" in log
    assert "no such table: django_session" in log


def wait_for(server: Server, line: str) -> str:
    for _ in range(50):
        log = server.stderr()
        if line in log:
            return log
        time.sleep(0.1)
    pytest.fail(f"{line!r} never reached stderr:\n{log}")


# In development too: the request line, and the content security policy on every page.


@pytest.mark.django_db
def test_the_request_line_is_logged_in_process(client: Client, caplog: pytest.LogCaptureFixture):
    with caplog.at_level("INFO", logger="scorekeeper.requests"):
        client.get(reverse("login"), {"next": "/secret-search"})
    [line] = [r.getMessage() for r in caplog.records if r.name == "scorekeeper.requests"]
    assert re.fullmatch(r"GET /accounts/login/ 200 \d+\.\dms", line)


@pytest.mark.django_db
def test_an_inline_style_carries_the_nonce_of_the_policy(client_owner: Client):
    response = client_owner.get(reverse("partie_new"))
    nonce = re.search(r"style-src 'self' 'nonce-([^']+)'", response["Content-Security-Policy"])
    assert nonce
    assert f'<style nonce="{nonce.group(1)}">' in response.text


# `make test` runs `makemigrations --check` first; a missing migration stops the run there.


@pytest.mark.parametrize("missing", [True, False], ids=["missing", "none missing"])
def test_make_test_stops_when_a_migration_is_missing(tmp_path: Path, missing: bool):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # A stand-in for .venv/bin/python: it logs each call; makemigrations --check fails
    # when a migration is `missing`, everything else succeeds.
    calls = tmp_path / "calls"
    python = tmp_path / "python"
    status = 1 if missing else 0
    python.write_text(
        f'#!/bin/sh\necho "$@ [$TEST_DATABASE_NAME]" >> {calls}\n'
        f'case "$*" in *"makemigrations --check"*) exit {status} ;; esac\n'
    )
    python.chmod(0o755)
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / ".installed").touch()  # newer than requirements*.txt: nothing to install
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pdftoppm").symlink_to("/bin/true")  # the `browser` target has nothing to do
    result = subprocess.run(
        [
            "make",
            "-C",
            str(ROOT),
            "test",
            f"VENV={venv}",
            f"PY={python}",
            "CHROMIUM=/bin/true",
            "HEADLESS_SHELL=/bin/true",
        ],
        # Not the flags nor the test database of a `make test` this suite may run under.
        env={
            k: v
            for k, v in os.environ.items()
            if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "TEST_DATABASE_NAME")
        }
        | {"PATH": f"{bin_dir}:{os.environ['PATH']}"},
        capture_output=True,
        text=True,
    )
    assert "makemigrations --check --dry-run" in calls.read_text()
    if missing:
        assert result.returncode != 0, result.stdout + result.stderr
        assert "pytest" not in calls.read_text(), "the tests ran although a migration is missing"
    else:
        assert result.returncode == 0, result.stdout + result.stderr
        runs = [line for line in calls.read_text().splitlines() if line.startswith("-m pytest")]
        # At once: SQLite without the browser tests, PostgreSQL (the stand-in answers) on
        # the tests that reach the database, and the browser tests; each run on
        # PostgreSQL in a test database of its own, named after the checkout (a checksum
        # of its folder).
        name = re.fullmatch(r".* \[(test_scorekeeper_\d+)\]", sorted(runs)[0]).group(1)
        assert sorted(runs) == [
            f"-m pytest -m not browser --database-tests-only [{name}]",
            "-m pytest -m not browser []",
            f"-m pytest tests/browser [{name}_browser]",
        ]
