"""Throttling of the front door: failed logins (django-axes) and sign-ups, per address.

Both count in the database, so that a limit holds however many app servers answer.

Failed logins are counted for the pair (account, address), axes' lockout parameters:
AXES_FAILURE_LIMIT of them lock that account from that address only, so a stranger
elsewhere cannot lock a player out. An address guessing at many accounts meets a second,
slower limit, LOGIN_ADDRESS_FAILURE_LIMIT failures over all accounts within the cool-off
(``LoginFailureHandler``), high enough that a club's members behind one address do not
lock each other out by mistyping. A try during a lockout is not counted, so the cool-off
runs from the failure that locked and no further try prolongs it.

An account guessed at from many addresses is never locked (anyone could then lock a
player out), but slowed down: after LOGIN_ACCOUNT_SLOWDOWN_AFTER failures within the
cool-off, each try must come a moment after the account's last failure, a moment that
doubles with every failure up to LOGIN_ACCOUNT_SLOWDOWN_MAX. A try too early is answered
429 with Retry-After at once, without checking the password and without a sleep, so it
costs the server little and holds no worker.

A password check is made slow on purpose (PBKDF2, a good part of a second of CPU), so a
flood of logins for ever new accounts from ever new addresses, which no limit above
meets, would take every core and every worker from the players already signed in. So
at most LOGIN_CHECKS_AT_ONCE logins are handled at once on one machine, across all of
its worker processes (``login_slot``); a login finding none free is answered 429 at
once (LoginGateMiddleware).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from math import ceil
from pathlib import Path

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db import transaction
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .forms import LoginForm
from .models import SignupAttempt

TOO_MANY_REQUESTS = 429


def client_address(request: HttpRequest) -> str | None:
    """The address of the player's device, as axes and the sign-up limit count it.

    Behind ``TRUSTED_PROXIES`` reverse proxies, each of which appends the address it was
    called from to X-Forwarded-For, the client is the entry that many places from the
    right; entries further left are whatever the client chose to send, and are ignored.
    """
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR") or None


class LoginFailureHandler(AxesDatabaseHandler):
    """axes' database handler (AXES_HANDLER), with the per-address limit on top of the
    per-pair one: an address over LOGIN_ADDRESS_FAILURE_LIMIT counts as locked out."""

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        # axes compares this one number with AXES_FAILURE_LIMIT, both to refuse a login
        # and to lock out after a failure: an address over its own limit answers the limit.
        failures = super().get_failures(request, credentials)
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(failures, get_failure_limit(request, credentials))
        return failures

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        # Asked by axes' backend before the password is checked: an account still in its
        # slowdown is refused like a lockout (and not counted as a failure), its wait kept
        # on the request for the answer (lockout_response).
        if super().is_locked(request, credentials):
            return True
        request.login_wait = account_wait(get_client_username(request, credentials))
        return request.login_wait > timedelta(0)


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address, for any account, within the cool-off."""
    attempts = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request)
    )
    return attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0


def account_wait(username: str | None) -> timedelta:
    """How long the account's next try must still wait: nothing until it has
    LOGIN_ACCOUNT_SLOWDOWN_AFTER failures (from any addresses) within the cool-off, then
    1 s after its last failure, doubling with each failure beyond, at most
    LOGIN_ACCOUNT_SLOWDOWN_MAX."""
    if not username:
        return timedelta(0)
    now = timezone.now()
    attempts = AccessAttempt.objects.filter(
        username=username, attempt_time__gte=now - settings.AXES_COOLOFF_TIME
    )
    counted = attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    beyond = (counted["failures"] or 0) - settings.LOGIN_ACCOUNT_SLOWDOWN_AFTER
    if beyond < 0:
        return timedelta(0)
    # min() on the exponent first: 2 ** 10,000 seconds is no timedelta.
    delay = min(timedelta(seconds=2 ** min(beyond, 30)), settings.LOGIN_ACCOUNT_SLOWDOWN_MAX)
    return max(counted["last"] + delay - now, timedelta(0))


def _minutes(delta: timedelta) -> int:
    return max(1, round(delta.total_seconds() / 60))


def lockout_message() -> str:
    minutes = _minutes(settings.AXES_COOLOFF_TIME)
    return ngettext(
        "Too many failed logins for this account or from this address. "
        "Wait %(minutes)d minute, then try again.",
        "Too many failed logins for this account or from this address. "
        "Wait %(minutes)d minutes, then try again.",
        minutes,
    ) % {"minutes": minutes}


def wait_message(seconds: int) -> str:
    return ngettext(
        "Many failed logins for this account. Wait %(seconds)d second, then try again.",
        "Many failed logins for this account. Wait %(seconds)d seconds, then try again.",
        seconds,
    ) % {"seconds": seconds}


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The login page again, with the lockout or the wait said in words (axes'
    AXES_LOCKOUT_CALLABLE).

    Answered with 429 whether the password was right or wrong: during a lockout or a
    wait no password is checked at all. Retry-After says when to come back.
    """
    username = (credentials or {}).get("username") or ""
    wait = getattr(request, "login_wait", timedelta(0))
    if wait > timedelta(0):
        retry_after = ceil(wait.total_seconds())
        refusal = wait_message(retry_after)
    else:
        retry_after = ceil(settings.AXES_COOLOFF_TIME.total_seconds())
        refusal = lockout_message()
    return _login_refused(request, username, refusal, retry_after)


def busy_message() -> str:
    return _("Many logins are being checked at this moment. Try again in a few seconds.")


def busy_response(request: HttpRequest) -> HttpResponse:
    """The login page again, saying the server is busy with logins; the password is
    not checked and nothing is counted."""
    return _login_refused(request, request.POST.get("username", ""), busy_message(), 2)


def _login_refused(
    request: HttpRequest, username: str, refusal: str, retry_after: int
) -> HttpResponse:
    """The login page again (429) with the username kept and the refusal in words;
    Retry-After says in how many seconds to come back."""
    form = LoginForm(request, initial={"username": username})
    context = {"form": form, "next": request.POST.get("next", ""), "refusal": refusal}
    response = render(request, "registration/login.html", context, status=TOO_MANY_REQUESTS)
    response["Retry-After"] = str(retry_after)
    return response


class _Slots:
    """``count`` slots shared by every process of this checkout and database on this
    machine: a slot is a file locked with flock (the kernel frees it when a process
    dies), taken in a process by one thread at a time (flock alone would let two threads
    share it). The database is in the name so that test runs at once do not meet."""

    def __init__(self, count: int, tag: str) -> None:
        self.folder = Path(tempfile.gettempdir()) / f"scorekeeper-login-slots-{tag}"
        self.folder.mkdir(mode=0o700, exist_ok=True)
        self.threads = [threading.Lock() for _ in range(count)]
        self.files: dict[int, int] = {}

    def path(self, n: int) -> Path:
        return self.folder / f"slot-{n}"

    def take(self, n: int) -> bool:
        if not self.threads[n].acquire(blocking=False):
            return False
        if n not in self.files:
            self.files[n] = os.open(self.path(n), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.files[n], fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.threads[n].release()
            return False
        return True

    def give_back(self, n: int) -> None:
        fcntl.flock(self.files[n], fcntl.LOCK_UN)
        self.threads[n].release()


_slots: dict[tuple[int, str], _Slots] = {}
_slots_made = threading.Lock()


def slots() -> _Slots:
    """This process's view of the machine's LOGIN_CHECKS_AT_ONCE slots."""
    site = f"{settings.BASE_DIR}|{settings.DATABASES['default']['NAME']}"
    key = (settings.LOGIN_CHECKS_AT_ONCE, hashlib.sha256(site.encode()).hexdigest()[:12])
    with _slots_made:
        if key not in _slots:
            _slots[key] = _Slots(*key)
        return _slots[key]


@contextmanager
def login_slot() -> Iterator[bool]:
    """Holds a free slot for a login while the block runs and gives True; gives False
    at once when every slot is taken (no waiting: a wait would hold a worker)."""
    shared = slots()
    for n in range(len(shared.threads)):
        if shared.take(n):
            try:
                yield True
            finally:
                shared.give_back(n)
            return
    yield False


def signup_message() -> str:
    minutes = _minutes(settings.SIGNUP_WINDOW)
    return ngettext(
        "Too many sign-ups from this address. Wait %(minutes)d minute, then try again.",
        "Too many sign-ups from this address. Wait %(minutes)d minutes, then try again.",
        minutes,
    ) % {"minutes": minutes}


def signup_throttled(address: str | None) -> bool:
    """Whether ``address`` has sent SIGNUP_LIMIT sign-up forms within SIGNUP_WINDOW."""
    since = timezone.now() - settings.SIGNUP_WINDOW
    attempts = SignupAttempt.objects.filter(address=address, attempted_at__gte=since)
    return attempts.count() >= settings.SIGNUP_LIMIT


@transaction.atomic
def signup_attempt_record(address: str | None) -> SignupAttempt:
    """Count one sign-up form from ``address``; attempts older than the window go."""
    SignupAttempt.objects.filter(attempted_at__lt=timezone.now() - settings.SIGNUP_WINDOW).delete()
    return SignupAttempt.objects.create(address=address)
