"""gunicorn's settings for Scorekeeper: `gunicorn` run in this folder reads this file.

    .venv/bin/gunicorn                      # or: gunicorn -c gunicorn.conf.py

    GUNICORN_BIND     where to listen (default 127.0.0.1:8000: behind the HTTPS proxy)
    WEB_CONCURRENCY   worker processes (default: 2 per core, plus 1)
    GUNICORN_TIMEOUT  seconds one request may take before its worker is killed (default 30)
    GUNICORN_THREADS  threads per worker (default 1: gunicorn's sync worker; more: gthread)

Everything is logged to standard error: gunicorn's own messages, one access line per
request (with its time in milliseconds) and, from Django, the app's request line and the
traceback of every server error (settings.LOGGING).
"""

import multiprocessing
import os

wsgi_app = "scorekeeper.wsgi:application"
bind = [os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
# With threads, a request answered at once (a login refused during a login flood) no
# longer makes a signed-in player's page wait for a free worker: bench/login_flood.py
# measures both. One thread (the sync worker) stays the default until bench/load.py has
# been measured with more.
threads = int(os.environ.get("GUNICORN_THREADS", "1"))

# The slowest pages are the PDFs and the score sheet of the longest partie the bounds
# allow (bench/README.md: a 300-hand Hollywood sheet renders in about 0.1 s, its page in
# under 0.1 s): 30 s leaves a wide margin on a loaded machine, yet a stuck request does
# not hold a worker for long.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = timeout
keepalive = 5

# method, path and query, status, bytes, milliseconds, address, user agent.
access_log_format = '"%(r)s" %(s)s %(b)s %(M)sms %(h)s "%(a)s"'
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "stream": "ext://sys.stderr",
        },
    },
    "root": {"level": "WARNING", "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
    },
}
