"""Settings for Scorekeeper.

One file for every environment. What differs between a laptop and production
comes from environment variables. The defaults work on a laptop; a production
value that would be unsafe stops the start-up instead of being quietly accepted.

    DEBUG          0, 1, true or false (default: true)
    SECRET_KEY     required when DEBUG is off
    ALLOWED_HOSTS  comma-separated host names ("*" is refused when DEBUG is off)
    DATABASE_URL   e.g. postgres://user:password@host:5432/name (default: SQLite)
    TEST_DATABASE_NAME  the database the tests create and drop (default: test_<name>)

Production switches (README.md, "Running in production"):

    LOGIN_FAILURE_LIMIT    failed logins for an account from one address before a lockout
                           of that account from that address (default: 5)
    LOGIN_ADDRESS_FAILURE_LIMIT  failed logins from one address for any accounts before
                           a lockout of that address (default: 100)
    LOGIN_COOLOFF_MINUTES  how long a lockout lasts (default: 15)
    LOGIN_ACCOUNT_SLOWDOWN_AFTER  failed logins for an account from any addresses before
                           each further try waits a few seconds (default: 10)
    LOGIN_ACCOUNT_SLOWDOWN_MAX_SECONDS  the longest such wait (default: 30)
    LOGIN_CHECKS_AT_ONCE   logins handled at once on one machine; more are answered "try
                           again in a few seconds" (default: half the cores, at least 1)
    SIGNUP_LIMIT           sign-up attempts per address ... (default: 10)
    SIGNUP_WINDOW_MINUTES  ... within this many minutes (default: 60)
    TRUSTED_PROXIES        reverse proxies in front of the app whose X-Forwarded-For is the
                           client's address (default: 0, REMOTE_ADDR is the client)
    SECURE_HSTS_SECONDS    Strict-Transport-Security max-age when DEBUG is off (default: a year)
    SECURE_HSTS_PRELOAD    0 or 1 (default: 1), with SECURE_SSL_REDIRECT (default: 1)
    LOG_LEVEL              of the app's loggers on standard error (default: INFO)
    STATIC_ROOT            where `collectstatic` puts the static files (default: staticfiles/)

Mail (the worker sends the notices: scorekeeper/notices), under Django's own names:

    SITE_URL               the site's address, in front of every link a mail carries
                           (default: http://localhost:8000)
    EMAIL_BACKEND          default: the console (mails printed) with DEBUG on, SMTP off
    EMAIL_HOST, EMAIL_PORT the SMTP server (default: localhost, 25)
    EMAIL_HOST_USER, EMAIL_HOST_PASSWORD  its login (default: none)
    EMAIL_USE_TLS          0 or 1: STARTTLS (default: 0)
    EMAIL_TIMEOUT          seconds before the worker gives up on the server (default: 10)
    EMAIL_FILE_PATH        the folder of the file backend's mails
    DEFAULT_FROM_EMAIL     the mails' sender (default: scorekeeper@localhost)

Web push (the same notices on a phone; without the three keys push is off):

    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY  the site's key pair, base64url (make one with
                           `manage.py vapid_keys`)
    VAPID_SUBJECT          a mailto: address the push services may write to
    PUSH_TIMEOUT           seconds before the worker gives up on a push service (default: 10)
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from scorekeeper.notices import vapid

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean; anything but 0/1/true/false is an error, not a guess."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in ("1", "true"):
        return True
    if value in ("0", "false"):
        return False
    # An empty or misspelt value must not silently fall back to DEBUG on.
    raise ImproperlyConfigured(f"{name} must be 0, 1, true or false, not {raw!r}.")


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """Read a whole number of at least ``minimum``; anything else stops the start-up."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ImproperlyConfigured(
            f"{name} must be a whole number of at least {minimum}, not {raw!r}."
        )
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=True)

# Only for a laptop: the prefix makes Django's deploy check flag it as insecure.
DEV_SECRET_KEY = "django-insecure-scorekeeper-local-development-only"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = DEV_SECRET_KEY
elif not DEBUG and (
    SECRET_KEY.startswith("django-insecure-") or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5
):
    # The same rule as Django's security.W009, enforced rather than warned about.
    raise ImproperlyConfigured(
        "SECRET_KEY is insecure: use at least 50 random characters, "
        "e.g. from django.core.management.utils.get_random_secret_key()."
    )

# "testserver" is the host name of Django's test client.
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1", "testserver"] if DEBUG else ["localhost", "127.0.0.1"],
)
if not DEBUG and "*" in ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must name the real hosts when DEBUG is off, not '*'.")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.forms",  # Django's own form templates, for FORM_RENDERER to find
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "scorekeeper.accounts",
    "scorekeeper.clubs",
    "scorekeeper.table",
    "scorekeeper.league",
    "scorekeeper.tournaments",
    "scorekeeper.notices",
]

MIDDLEWARE = [
    # First, so that the time it logs covers the whole stack.
    "scorekeeper.accounts.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Right after SecurityMiddleware, so static files skip the rest of the stack.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the chosen language) and before common (it may redirect).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After auth: names the account on every page, for the phone's kept pages and hands.
    "scorekeeper.pwa.account.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # A partie the engine cannot score any more: its repair page instead of a 500 (inside
    # the CSP middleware, so the repair page carries the policy too).
    "scorekeeper.table.middleware.UnscorableMiddleware",
    # At most LOGIN_CHECKS_AT_ONCE logins handled at once on the machine (after the
    # middleware its busy page needs, before axes' queries and the password check).
    "scorekeeper.accounts.middleware.LoginGateMiddleware",
    # Last (axes requires it): turns a login refused for a lockout into the login page
    # with the lockout message.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "scorekeeper.table.context_processors.confirmations",
            ],
        },
    },
]

# Every field is drawn by templates/forms/field.html ({{ form.name.as_field_group }}).
FORM_RENDERER = "scorekeeper.renderers.FormRenderer"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Reuse connections for a minute; health checks drop ones the server closed.
        conn_max_age=60,
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        # SQLite ignores SELECT ... FOR UPDATE: an IMMEDIATE transaction takes the write
        # lock up front, so two phones recording into one partie queue instead of failing.
        # WAL lets readers (the live sheet) go on while a hand is written.
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
    # The covering indexes (INCLUDE) are for PostgreSQL; SQLite builds them on their key
    # columns alone, which serves it as well. Said by every command that uses the
    # database (migrate, demo), it only alarms.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL's JIT compiles a query the planner thinks is large: the standings'
    # GROUP BY spent 220 ms compiling to save nothing. The app's queries are small.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("options", "-c jit=off")

# make test names the test databases after its checkout: two checkouts' runs on one
# server never create or drop each other's.
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# What a change sets in motion is enqueued in its transaction, as a row of the same
# database, and run by ``manage.py worker`` (scorekeeper/tasks.py). With Django 6 the
# backend stays and the tasks import from django.tasks.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes). Failures are counted in the database, so a lockout holds
# on every app server. An account is locked from one address (not from everywhere, which
# would let anyone lock a player out); an address guessing at many accounts is locked
# after a much higher limit, and an account guessed at from many addresses is slowed
# down, never locked (accounts.throttle).
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out account or address before the password is even checked,
    # so that the right password does not get in during a lockout.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "scorekeeper.accounts.throttle.LoginFailureHandler"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5, minimum=1)
# A club's members share the club's address: six of them locked out of their own accounts
# by five mistypings each are 30 failures, far from this.
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", default=100, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", default=15, minimum=1))
# A try during a lockout is refused and not counted: the cool-off runs from the failure
# that locked, so nobody can keep an address or an account locked by trying again.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
LOGIN_ACCOUNT_SLOWDOWN_AFTER = env_int("LOGIN_ACCOUNT_SLOWDOWN_AFTER", default=10, minimum=1)
LOGIN_ACCOUNT_SLOWDOWN_MAX = timedelta(
    seconds=env_int("LOGIN_ACCOUNT_SLOWDOWN_MAX_SECONDS", default=30, minimum=1)
)
# Logins handled at once on one machine, across its worker processes: a password check
# takes a core for a good part of a second, and the other cores stay with the pages.
LOGIN_CHECKS_AT_ONCE = env_int(
    "LOGIN_CHECKS_AT_ONCE", default=max(1, (os.cpu_count() or 1) // 2), minimum=1
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "scorekeeper.accounts.throttle.client_address"
AXES_LOCKOUT_CALLABLE = "scorekeeper.accounts.throttle.lockout_response"
# Axes' own request log would grow by a row per login; the failures are what it needs.
AXES_DISABLE_ACCESS_LOG = True
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", default=0)
# Sign-up is throttled per address, counted in the database too (accounts.SignupAttempt).
SIGNUP_LIMIT = env_int("SIGNUP_LIMIT", default=10, minimum=1)
SIGNUP_WINDOW = timedelta(minutes=env_int("SIGNUP_WINDOW_MINUTES", default=60, minimum=1))

# Mail: the notices the worker sends (scorekeeper/notices/outbox.py). In development the
# console prints them (make run shows them in its output); production names its server.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", default=25, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", default=10, minimum=1)
if os.environ.get("EMAIL_FILE_PATH"):
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "scorekeeper@localhost")
# Where the links in a mail point: the address the players open the site at.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL must begin with https:// or http://, not {SITE_URL!r}.")

# Web push (scorekeeper/notices/push.py): on only with the site's VAPID key pair, all three
# or none; a key that does not fit, or a subject that is not a mailto: address, stops the
# start-up rather than leaving every push refused by the push services.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip()
if VAPID_PUBLIC_KEY or VAPID_PRIVATE_KEY or VAPID_SUBJECT:
    try:
        vapid.check(VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT)
    except ValueError as error:
        raise ImproperlyConfigured(
            f"{error}. Set all three of VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT "
            "for web push, or none of them."
        ) from None
PUSH_TIMEOUT = env_int("PUSH_TIMEOUT", default=10, minimum=1)

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("de", _("German")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # The manifest storage needs `collectstatic` first, so it is for production only;
    # in development and tests files are served straight from their sources.
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}
# Tie WhiteNoise to our DEBUG, not to the test runner's override of it: in development
# and tests it serves straight from the finders and does not need `collectstatic`.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

if not DEBUG:
    # Production is served over HTTPS only: never send the session or CSRF cookie in clear.
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # TLS ends at the reverse proxy in front of gunicorn, which reports the original
    # scheme; without this the HTTPS redirect below would loop forever.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)

# HTTPS only, for a year, subdomains included: what `check --deploy` asks for.
SECURE_HSTS_SECONDS = 0 if DEBUG else env_int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)

# The content security policy (django-csp), in force in development and tests too, so that
# the browser tests prove that every page works under it. Scripts and styles come from our
# own static files only: no inline script and no eval (so no hx-on attributes; htmx's
# injected indicator styles are switched off in base.html); an inline <style> needs the
# request's nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Logging to standard error, where gunicorn and any process manager collect it: a line per
# request (accounts.middleware.RequestLogMiddleware) and the full traceback of every server
# error (Django's "django.request" logger), in development and production alike.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {
        "one_line_warning": {"()": "scorekeeper.accounts.middleware.OneLineWarning"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Server errors with their tracebacks. A refused or missing page (403, 404) is its
        # request line alone: at WARNING Django would add a line of its own, and for a 403
        # the whole traceback of the PermissionDenied.
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "scorekeeper": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        # The worker's tasks: a failure with its traceback (each task's start and end
        # are info lines, too many to keep).
        **{
            name: {"handlers": ["stderr"], "level": "WARNING", "propagate": False}
            for name in ("django_tasks", "django_tasks_db")
        },
        # Lockouts and failed logins are warnings; every other login is info.
        "axes": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        # A request refused for its size (answered 400): one warning line, no traceback.
        **{
            f"django.security.{name}": {
                "handlers": ["stderr"],
                "filters": ["one_line_warning"],
                "propagate": False,
            }
            for name in ("RequestDataTooBig", "TooManyFieldsSent", "TooManyFilesSent")
        },
    },
}
