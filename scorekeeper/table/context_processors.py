"""What every page's header shows of the table app: the results to confirm."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .selectors import confirmation_notice


def confirmations(request: HttpRequest) -> dict[str, object]:
    """``confirmation_notice``: the games the user is asked to confirm and the disputed
    games where he scores. Read only when a page's header shows it (a full page for a
    user logged in), never for an HTMX region or a poll."""
    return {"confirmation_notice": SimpleLazyObject(lambda: confirmation_notice(request.user))}
