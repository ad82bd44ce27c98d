"""A line on standard error for every request: method, path, status and duration; and
the warning, without a traceback, for a request refused as too large."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

logger = logging.getLogger("scorekeeper.requests")


class RequestLogMiddleware:
    """Logs ``GET /parties/7/ 200 12.3ms`` when the answer leaves the app.

    The app's own line, so that runserver, gunicorn and any other server log the same.
    It names no user and leaves out the query string (a player's search). A server
    error is logged by Django's "django.request" logger with its traceback, then here
    with its status.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        response = self.get_response(request)
        elapsed_ms = (time.perf_counter() - start) * 1000
        logger.info(
            "%s %s %s %.1fms",
            request.method,
            request.path,
            response.status_code,
            elapsed_ms,
        )
        return response


class LoginGateMiddleware:
    """A login (POST to the login page) is handled only with a free slot of the machine's
    LOGIN_CHECKS_AT_ONCE (accounts.throttle.login_slot); without one it is answered 429
    at once, before axes' queries and the password check.

    So a login flood costs at most that many busy cores and workers, and the pages of
    the players already signed in keep the rest (bench/login_flood.py).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or request.path != reverse("login"):
            return self.get_response(request)
        # Imported here: settings.LOGGING loads this module (OneLineWarning) before the
        # apps and their models are ready.
        from . import throttle

        with throttle.login_slot() as free:
            if free:
                return self.get_response(request)
        return throttle.busy_response(request)


class OneLineWarning(logging.Filter):
    """Makes a record a WARNING of its message alone, without the traceback.

    Django logs a request refused for its size (RequestDataTooBig, TooManyFieldsSent,
    TooManyFilesSent, on "django.security.<name>") at ERROR with the exception's whole
    traceback, though nothing failed: the request is answered 400 as it should be. One
    line says what came; an ERROR stays for what needs someone to look (settings.LOGGING).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = record.stack_info = None
        return True
