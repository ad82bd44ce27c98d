"""What every page's header shows of the table app: the results waiting for an answer."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .selectors import answer_notice


def answers(request: HttpRequest) -> dict[str, object]:
    """``answer_notice``: the games the user is asked to confirm and the disputed games
    where he scores. Read only when a page's header shows it (a full page for a user
    logged in), never for an HTMX region or a poll."""
    return {"answer_notice": SimpleLazyObject(lambda: answer_notice(request.user))}
