"""A line on standard error for every request: method, path, status and duration."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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
