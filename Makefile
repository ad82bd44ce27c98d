# Scorekeeper developer tasks. GNU make; recipes run in bash with errexit.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

# The project targets Python 3.11; fall back to python3.11 where python3 is older.
PYTHON_BOOT := $(shell python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
                 && echo python3 || echo python3.11)
VENV := .venv
PY := $(VENV)/bin/python
RUFF := $(VENV)/bin/ruff
CHROMIUM := /usr/bin/chromium
HEADLESS_SHELL := /usr/lib/chromium/chromium-headless-shell
PG_URL := postgres://postgres@127.0.0.1:5432/test
PG_PROBE := import psycopg; psycopg.connect("$(PG_URL)", connect_timeout=3).close()
# The test databases the runs on PostgreSQL create and drop, named after the checkout:
# the browser tests' beside the others', and another checkout's run on the same server
# meets neither.
TEST_DB := test_scorekeeper_$(shell printf '%s' "$(CURDIR)" | cksum | cut -d' ' -f1)

.PHONY: .venv venv browser pgtools axe run test bench lint format messages clean

.venv venv: $(VENV)/.installed

# The stamp is rebuilt whenever a requirements file changes.
$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON_BOOT) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

# Browser tests drive Debian's Chromium (Playwright cannot download its own here), in its
# headless shell where installed: it starts and draws faster than the whole browser;
# poppler-utils gives pdftoppm for looking at rendered PDFs.
browser:
	@if [ -x $(CHROMIUM) ] && [ -x $(HEADLESS_SHELL) ] && command -v pdftoppm >/dev/null; then \
		exit 0; \
	fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq chromium poppler-utils >/dev/null || true; \
		apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 || true; \
	fi; \
	if [ ! -x $(CHROMIUM) ]; then \
		echo "Chromium is not installed at $(CHROMIUM) and could not be installed:"; \
		echo "browser tests will be skipped (they fail instead when CI=true)."; \
	fi

# pg_dump and pg_restore for the backup test (tests/test_backup.py), from Debian's
# postgresql-client. Without them that test skips (it fails instead when CI=true).
pgtools:
	@if command -v pg_dump >/dev/null && command -v pg_restore >/dev/null; then \
		exit 0; \
	fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq postgresql-client >/dev/null || true; \
	fi; \
	if ! command -v pg_dump >/dev/null; then \
		echo "pg_dump is not installed and could not be installed:"; \
		echo "the pg_dump backup test will be skipped (it fails instead when CI=true)."; \
	fi

# axe-core (the accessibility checker the browser tests inject) from the npm registry,
# into a cache folder. Without npm the accessibility tests skip (they fail when CI=true).
AXE := .cache/axe/node_modules/axe-core/axe.min.js
axe: $(AXE)
$(AXE):
	@if command -v npm >/dev/null; then \
		npm install --silent --no-audit --no-fund --prefix .cache/axe axe-core@4.14.1; \
	else \
		echo "npm is not installed: the accessibility tests will be skipped."; \
	fi

# The worker runs beside the server (the tasks the changes enqueue: ratings, tournament
# results, notices) and stops with it.
run: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py worker & trap 'kill $$! 2>/dev/null' EXIT; \
	$(PY) manage.py runserver 127.0.0.1:8000

# The suite runs as three pytest processes at once, which keeps two cores busy: on SQLite
# (the laptop default) without the browser tests; on PostgreSQL (production) the tests
# that reach the database (the pure ones check the same code on SQLite); and the browser
# tests on PostgreSQL, in a database of their own. Each run's output is printed when it
# ends; the target fails if any run failed. PostgreSQL is optional locally, where the
# browser tests then run on SQLite, but required when CI=true.
test: venv browser pgtools axe
	env -u DATABASE_URL $(PY) manage.py makemigrations --check --dry-run
	@if ! $(PY) -c '$(PG_PROBE)' 2>/dev/null && [ "$$(id -u)" = 0 ] && command -v pg_ctlcluster >/dev/null; then \
		pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | tail -1) main start >/dev/null 2>&1 || true; \
	fi; \
	if $(PY) -c '$(PG_PROBE)' 2>/dev/null; then \
		postgresql=yes; \
	elif [ "$${CI:-}" = true ]; then \
		echo "PostgreSQL not reachable at $(PG_URL), and CI=true requires it." >&2; exit 1; \
	else \
		echo "PostgreSQL not reachable: skipped; the browser tests run on SQLite"; postgresql=; \
	fi; \
	logs=$$(mktemp -d); pids=(); names=(); \
	trap 'kill $$(jobs -p) 2>/dev/null || true; rm -rf "$$logs"' EXIT; \
	start() { echo "$$1: $${*:2}"; "$${@:2}" >"$$logs/$$1" 2>&1 & pids+=($$!); names+=("$$1"); }; \
	start sqlite env -u DATABASE_URL $(PY) -m pytest -m "not browser"; \
	if [ -n "$$postgresql" ]; then \
		start postgresql env DATABASE_URL=$(PG_URL) TEST_DATABASE_NAME=$(TEST_DB) \
			$(PY) -m pytest -m "not browser" --database-tests-only; \
		start browser env DATABASE_URL=$(PG_URL) TEST_DATABASE_NAME=$(TEST_DB)_browser \
			$(PY) -m pytest tests/browser; \
	else \
		start browser env -u DATABASE_URL $(PY) -m pytest tests/browser; \
	fi; \
	failed=; \
	for i in "$${!pids[@]}"; do \
		if wait "$${pids[$$i]}"; then status=0; else status=$$?; fi; \
		echo; echo "=== $${names[$$i]}: exit status $$status"; cat "$$logs/$${names[$$i]}"; \
		[ $$status = 0 ] || failed="$$failed $${names[$$i]}"; \
	done; \
	if [ -n "$$failed" ]; then echo "Failed:$$failed" >&2; exit 1; fi

# The evaluator bench compares with RLCard, installed into the venv for it alone.
bench: venv
	$(PY) -m pip install -q --disable-pip-version-check -r bench/requirements.txt
	$(PY) bench/run.py
	$(PY) bench/pdf.py
	$(PY) bench/evaluator.py
	$(PY) bench/league.py
	$(PY) bench/notices.py
	$(PY) bench/tournament.py
	@# gunicorn on loopback ports against a scratch PostgreSQL database (dropped after):
	@# 50 clients for 60 s (BENCH_LOAD_SECONDS, BENCH_LOAD_CLIENTS), then two servers, then
	@# a signed-in player's page during a login flood (BENCH_FLOOD_SECONDS per phase).
	@if $(PY) -c '$(PG_PROBE)' 2>/dev/null; then \
		timeout 600 $(PY) bench/load.py && timeout 300 $(PY) bench/scaleout.py \
			&& timeout 300 $(PY) bench/login_flood.py; \
	else \
		echo "PostgreSQL not reachable at 127.0.0.1:5432: load, scale-out and login flood skipped"; \
	fi

lint: venv
	$(RUFF) check . && $(RUFF) format --check .

format: venv
	$(RUFF) format .
	$(RUFF) check --fix .

messages: venv
	@command -v msgfmt >/dev/null || { apt-get update -qq && apt-get install -y -qq gettext; }
	mkdir -p locale
	$(PY) manage.py makemessages -l de --ignore=.venv --ignore=staticfiles
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis out
	find . -name __pycache__ -prune -exec rm -rf {} +
