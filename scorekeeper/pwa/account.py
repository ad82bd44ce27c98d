"""Who a page was made for, as the phone may know it: what keeps one person's kept pages,
half-typed hands and queued hands from the next person on a shared phone.

Every HTML answer names its account in the ``Scorekeeper-Account`` header, and every page
in its ``<body data-account>`` (templates/base.html): an opaque token per account (an HMAC
of the user's id and joining time under SECRET_KEY: neither the id nor the name, and the
same on every app server), or ``nobody``. The service worker (templates/pwa/sw.js) keeps
each account's pages in a cache named for its token and empties the others' whenever the
network answers for someone else; static/js/offline.js notes the token with each hand it
queues and sends it back with the hand, and ``for_its_account`` refuses a hand sent in
another account's session (another person logged in on the phone meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.crypto import salted_hmac
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

HEADER = "Scorekeeper-Account"
NOBODY = "nobody"


def token_of(user: object) -> str:
    """The account's token, ``nobody`` for a visitor who is not logged in."""
    if user is None or not getattr(user, "is_authenticated", False):
        return NOBODY
    joined = int(user.date_joined.timestamp()) if getattr(user, "date_joined", None) else 0
    # The joining time too: an id a deleted account leaves may be given to a new one.
    return salted_hmac("scorekeeper.pwa.account", f"{user.pk}:{joined}").hexdigest()[:32]


class _PhoneHands:
    @property
    def phone_hands(self) -> SafeString:
        """The box on every page for the hands that wait for someone else (drawn by
        static/js/offline.js), with its words: the same for every page of a language."""
        return _phone_hands(get_language())


class Account(_PhoneHands):
    """``request.account``: the token and the name shown on the phone ("1 hand from Ben
    waits ..."), read from ``request.user`` when asked, so that a login or a logout during
    the request is what the answer says."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request

    @property
    def token(self) -> str:
        return token_of(getattr(self.request, "user", None))

    @property
    def name(self) -> str:
        user = getattr(self.request, "user", None)
        return user.get_username() if user is not None and user.is_authenticated else ""


class Unknown(_PhoneHands):
    """The account of a page that is the same for everyone (the offline page, kept on the
    phone for whoever holds it): it names none, and changes nothing on the phone."""

    token = ""
    name = ""


@cache
def _phone_hands(language: str) -> SafeString:
    # A dozen translated strings drawn once per language, not on every page (a change to
    # the template shows after a restart, as one to the catalogue does).
    return mark_safe(render_to_string("pwa/_phone_hands.html"))


def name_no_account(request: HttpRequest) -> None:
    """The page being made names no account and shows no one's menu or notices."""
    request.account = Unknown()
    request.user = AnonymousUser()


class AccountMiddleware:
    """Gives ``request.account`` and names it on every HTML answer (after the view, so a
    login's redirect names the new account and a logout's names nobody)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.account = Account(request)
        response = self.get_response(request)
        if HEADER not in response and response.get("Content-Type", "").startswith("text/html"):
            token = request.account.token
            if token:
                response[HEADER] = token
        return response


def for_its_account(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A request that names the account it was made for (a hand queued on the phone, sent
    later) is answered in that account's session only: in another's, 409 and nothing done;
    the answer names the account logged in now. A request naming none is left as it is."""

    @wraps(view)
    def checked(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        meant = request.headers.get(HEADER)
        if meant and meant != token_of(request.user):
            return HttpResponse(status=409, content_type="text/html; charset=utf-8")
        return view(request, *args, **kwargs)

    return checked
