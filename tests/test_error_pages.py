"""A refused, missing or failed page with DEBUG off, as in production: a styled page in the
reader's language, and on standard error one line for a 403 or 404 (the request line),
a warning line beside it for a request refused as too large (400), the traceback for a
server error only."""

import io
import logging
import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.urls import path, reverse

from scorekeeper import urls
from scorekeeper.clubs import services
from scorekeeper.clubs.models import Club, Role


def down(request: HttpRequest) -> HttpResponse:
    raise OperationalError("could not connect to the database")


# The site's addresses and one whose database is down (ROOT_URLCONF=__name__).
urlpatterns = [path("down/", down), *urls.urlpatterns]

pytestmark = pytest.mark.usefixtures("production")
REQUEST_LINE = r"[\d-]+ [\d:,]+ INFO scorekeeper\.requests: {method} {path} {status} \d+\.\dms"


@pytest.fixture
def production() -> Iterator[None]:
    with override_settings(DEBUG=False, ROOT_URLCONF=__name__):
        yield


@pytest.fixture
def stderr() -> Iterator[io.StringIO]:
    """What the app writes to standard error, through the handler of settings.LOGGING,
    from the moment it is asked for."""
    (handler,) = configured("scorekeeper")  # one handler, shared by the loggers
    assert configured("django.request") == [handler]
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    try:
        yield buffer
    finally:
        handler.setStream(previous)


def configured(name: str) -> list[logging.Handler]:
    """The logger's handlers from settings.LOGGING (not those pytest adds to capture)."""
    return [h for h in logging.getLogger(name).handlers if type(h) is logging.StreamHandler]


@pytest.fixture
def club(owner: User, outsider: User) -> Club:
    """A club the owner owns, the outsider a member of it."""
    club = services.club_create(name="Skat Club", owner=owner)
    invitation = services.invitation_create(club=club, role=Role.MEMBER, created_by=owner)
    services.invitation_accept(invitation=invitation, user=outsider)
    return club


def client_of(user: User | None, **headers: str) -> Client:
    client = Client(raise_request_exception=False, headers=headers)
    if user is not None:
        client.force_login(user)
    return client


# The log


@pytest.mark.django_db
def test_a_refused_request_is_one_log_line_without_a_traceback(club, outsider, stderr):
    client = client_of(outsider)  # a member, not the owner
    url = reverse("invitation_create", args=[club.slug])

    response = client.post(url, {"role": "member"})

    assert response.status_code == 403
    (line,) = stderr.getvalue().splitlines()
    assert re.fullmatch(REQUEST_LINE.format(method="POST", path=url, status=403), line)


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["/no-such-page/", "/clubs/skat-club/"])
def test_a_missing_page_is_one_log_line(club, django_user_model, page, stderr):
    """No such address, and a club the user is not a member of (a 404 by design)."""
    client = client_of(django_user_model.objects.create_user("stranger"))

    response = client.get(page)

    assert response.status_code == 404
    (line,) = stderr.getvalue().splitlines()
    assert re.fullmatch(REQUEST_LINE.format(method="GET", path=page, status=404), line)


OVERSIZED = {
    "a 3 MB field": ({"username": "x" * 3_000_000, "password": "guess"}, "RequestDataTooBig"),
    "1,200 fields": ({f"field{n}": "1" for n in range(1200)}, "TooManyFieldsSent"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("oversized", OVERSIZED.values(), ids=OVERSIZED.keys())
def test_an_oversized_request_is_one_warning_line_without_a_traceback(oversized, stderr):
    form, refusal = oversized

    response = client_of(None).post(reverse("login"), form)

    assert response.status_code == 400
    warning, request_line = stderr.getvalue().splitlines()
    assert re.fullmatch(rf"[\d-]+ [\d:,]+ WARNING django\.security\.{refusal}: .+\.", warning)
    assert re.fullmatch(REQUEST_LINE.format(method="POST", path="/accounts/login/", status=400),
                        request_line)  # fmt: skip


def test_a_server_error_still_logs_its_traceback(stderr):
    response = client_of(None).get("/down/")

    assert response.status_code == 500
    log = stderr.getvalue()
    assert "ERROR django.request: Internal Server Error: /down/" in log
    assert "Traceback (most recent call last):" in log
    assert "OperationalError: could not connect to the database" in log
    assert re.search(REQUEST_LINE.format(method="GET", path="/down/", status=500), log)


# The pages


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Page not found", "There is no page at this address", "Log in"]),
        ("de", ["Seite nicht gefunden", "Unter dieser Adresse gibt es keine Seite", "Anmelden"]),
    ],
)
def test_a_missing_page_is_styled_in_the_readers_language(language, words):
    response = client_of(None, accept_language=language).get("/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<title>{words[0]} · Scorekeeper</title>" in page
    assert '<link rel="stylesheet" href="/static/css/app.css">' in page
    for text in words:  # the message and the site's own menu
        assert text in page
    assert 'href="/"' in page


@pytest.mark.django_db
def test_a_stranger_meets_the_same_page_for_a_club_he_is_not_in(club, django_user_model):
    stranger = django_user_model.objects.create_user("stranger")

    response = client_of(stranger).get(reverse("club_detail", args=[club.slug]))

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()
    assert "Skat Club" not in response.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Server error", "What was saved before is safe", "To the home page"]),
        ("de", ["Serverfehler", "Was vorher gespeichert war, ist sicher", "Zur Startseite"]),
    ],
)
def test_a_server_error_page_is_styled_and_needs_no_database(language, words):
    """No database access is allowed in this test: the page must not need one."""
    response = client_of(None, accept_language=language).get("/down/")

    assert response.status_code == 500
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<title>{words[0]} · Scorekeeper</title>" in page
    assert '<link rel="stylesheet" href="/static/css/app.css">' in page
    for text in words:
        assert text in page
    assert "Traceback" not in page and "OperationalError" not in page


LOGIN_FORM = {"username": "owner", "password": "a guess"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Bad request", "something in the address or in the form was too large", "Log in"]),
        (
            "de",
            ["Ungültige Anfrage", "etwas in der Adresse oder im Formular war zu groß", "Anmelden"],
        ),
    ],
)
def test_an_oversized_form_meets_a_styled_page_in_the_readers_language(language, words):
    form = {f"field{n}": "1" for n in range(1200)}

    response = client_of(None, accept_language=language).post(reverse("login"), form)

    assert response.status_code == 400
    expect_styled(response.content.decode(), language, words)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Not allowed", "Your role in this club does not allow this.", "Nothing was"]),
        (
            "de",
            ["Nicht erlaubt", "Ihre Rolle in diesem Club erlaubt das nicht.", "Es wurde nichts"],
        ),
    ],
)
def test_a_refused_change_meets_a_styled_page_in_the_readers_language(
    club, outsider, language, words
):
    client = client_of(outsider, accept_language=language)  # a member, not the owner

    response = client.post(reverse("invitation_create", args=[club.slug]), {"role": "member"})

    assert response.status_code == 403
    expect_styled(response.content.decode(), language, words)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Form not accepted", "Reload the page, then send the form again.", "Log in"]),
        ("de", ["Formular nicht angenommen", "Laden Sie die Seite neu", "Anmelden"]),
    ],
)
def test_a_form_without_its_security_code_meets_a_styled_page(language, words):
    client = Client(enforce_csrf_checks=True, headers={"accept_language": language})

    response = client.post(reverse("login"), LOGIN_FORM)

    assert response.status_code == 403
    page = response.content.decode()
    expect_styled(page, language, words)
    assert "CSRF verification failed" not in page  # not Django's own page


def expect_styled(page: str, language: str, words: list[str]) -> None:
    """The site's page in the reader's language: its title, stylesheet, menu and text."""
    assert f'<html lang="{language}">' in page
    assert f"<title>{words[0]} · Scorekeeper</title>" in page
    assert '<link rel="stylesheet" href="/static/css/app.css">' in page
    for text in words:
        assert text in page
    assert 'href="/"' in page
