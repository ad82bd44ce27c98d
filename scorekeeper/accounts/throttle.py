"""Throttling of the front door: failed logins (django-axes) and sign-ups, per address.

Both count in the database, so that a limit holds however many app servers answer.

Failed logins are counted for the pair (account, address), axes' lockout parameters:
AXES_FAILURE_LIMIT of them lock that account from that address only, so a stranger
elsewhere cannot lock a player out. An address guessing at many accounts meets a second,
slower limit, LOGIN_ADDRESS_FAILURE_LIMIT failures over all accounts within the cool-off
(``LoginFailureHandler``), high enough that a club's members behind one address do not
lock each other out by mistyping.
"""

from __future__ import annotations

from datetime import timedelta

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db import transaction
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext

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


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address, for any account, within the cool-off."""
    attempts = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request)
    )
    return attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0


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


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The login page again, with the lockout said in words (axes' AXES_LOCKOUT_CALLABLE).

    Answered with 429 whether the password was right or wrong: during a lockout no
    password is checked at all.
    """
    username = (credentials or {}).get("username") or ""
    form = AuthenticationForm(request, initial={"username": username})
    context = {"form": form, "next": request.POST.get("next", ""), "refusal": lockout_message()}
    return render(request, "registration/login.html", context, status=TOO_MANY_REQUESTS)


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
