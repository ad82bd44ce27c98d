"""A notice as a web push (RFC 8030, encrypted by RFC 8291, signed by RFC 8292's VAPID):
one push to each device where the recipient allowed notifications, with the mail's words
in his language, shown by the service worker (templates/pwa/sw.js).

The payload is JSON: ``title`` (the club and the mail's subject), ``body`` (its lines),
``url`` (the page where he acts), ``lang``, ``tag`` (the event: a second push of it
replaces the first on the screen) and ``account`` (the recipient's token of
``pwa.account``: the service worker shows nothing of a push for another account than the
one the phone was last used by).
"""

from __future__ import annotations

import json
import logging

import requests
from django.conf import settings
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush

from scorekeeper.pwa.account import token_of

from .mail import absolute, language_of
from .models import Delivery, Notice, PushSubscription
from .words import words

TTL = 12 * 60 * 60  # seconds a push service keeps a push for a device that is off
BODY_LENGTH = 1000  # characters; a push's payload holds at most about 4 KB
GONE = (404, 410)  # the push service's answer for a subscription the browser dropped

log = logging.getLogger(__name__)


def notice_payload(notice: Notice) -> dict:
    language = language_of(notice.recipient)
    with translation.override(language):
        said = words(notice)
        return {
            "title": f"{notice.club.name}: {said.subject}",
            "body": " ".join(said.lines)[:BODY_LENGTH],
            "url": absolute(notice.link),
            "lang": language,
            "tag": notice.key,
            "account": token_of(notice.recipient),
        }


def send_pushes(batch: list[Delivery]) -> list[str | None]:
    """Push each delivery to every device of its recipient: None when at least one took
    it (he was told), else the error. A device the push service no longer knows is
    forgotten; when none is left the delivery is dropped at its next try."""
    return [_push(delivery.notice) for delivery in batch]


def _push(notice: Notice) -> str | None:
    data = json.dumps(notice_payload(notice), ensure_ascii=False)
    errors = []
    taken = False
    for subscription in PushSubscription.objects.filter(user_id=notice.recipient_id):
        error = _push_to(subscription, data)
        if error is None:
            taken = True
        else:
            errors.append(error)
    if taken:
        return None
    return "; ".join(errors) or "no device of the recipient takes pushes any more"


def _push_to(subscription: PushSubscription, data: str) -> str | None:
    try:
        webpush(
            subscription.info(),
            data=data,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL,
            timeout=settings.PUSH_TIMEOUT,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            log.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            subscription.delete()
        return f"{status} {getattr(error.response, 'reason', '')}".strip() if status else str(error)
    except requests.RequestException as error:  # unreachable, timed out: wait and try again
        return f"{type(error).__name__}: {error}"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
    return None
