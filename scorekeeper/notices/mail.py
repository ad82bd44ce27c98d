"""A notice as a mail: subject and body in the recipient's language, the link to the
page where he acts, and the one-click unsubscribe of RFC 8058 (``List-Unsubscribe`` with
an https link, ``List-Unsubscribe-Post``) beside a link to his settings."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from .models import Notice, Preferences
from .services import unsubscribe_token
from .words import words


def absolute(path: str) -> str:
    """A path of the site as a link a mail can carry (``SITE_URL`` in front)."""
    return settings.SITE_URL + path


def language_of(user) -> str:
    """The language the user reads the app in: the one he last switched to, else the
    site's."""
    preferences = Preferences.objects.filter(user=user).only("language").first()
    return (preferences and preferences.language) or settings.LANGUAGE_CODE


def notice_mail(notice: Notice, connection=None) -> EmailMessage:
    user = notice.recipient
    language = language_of(user)
    unsubscribe = absolute(reverse("notices_unsubscribe", args=[unsubscribe_token(user)]))
    with translation.override(language):
        said = words(notice)
        body = render_to_string(
            "notices/mail.txt",
            {
                "club": notice.club.name,
                "words": said,
                "link": absolute(notice.link),
                "more": [(label, absolute(path)) for label, path in said.more],
                "settings_link": absolute(reverse("notices_settings")),
                "unsubscribe_link": unsubscribe,
            },
        )
        subject = f"{notice.club.name}: {said.subject}"
    return EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        connection=connection,
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",  # RFC 3834: no auto-replies, please
            "Content-Language": language,
        },
    )
