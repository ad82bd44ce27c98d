"""The notices by web push, read as a browser reads them: a push service of the tests' own
(an HTTP server on this machine) receives what ``pywebpush`` sends, and each device (a key
pair made here, as a browser makes it) decrypts its push with ``http_ece`` and reads the
payload: the words in the recipient's language, the link, the account it is for. A push
service that answers 404 or 410 makes the server forget the device; another failure waits
and is tried again, as a mail is."""

from __future__ import annotations

import ipaddress
import json
import os
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import http_ece
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from cryptography.x509.oid import NameOID
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from scorekeeper.notices.models import Delivery, Preferences, PushSubscription
from scorekeeper.notices.services import Device, preferences_language_set, push_subscribe
from scorekeeper.notices.vapid import b64url, b64url_bytes, check, new_key_pair
from scorekeeper.pwa.account import token_of
from scorekeeper.table.models import Player
from tests.league.conftest import work
from tests.notices.conftest import SITE, address_verified, release

pytestmark = pytest.mark.django_db

VAPID_PUBLIC, VAPID_PRIVATE = new_key_pair()
SUBJECT = "mailto:scores@gin.example"


@dataclass
class Phone:
    """A browser's side of a push subscription: its key pair and auth secret."""

    name: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def read(self, body: bytes) -> dict:
        """Decrypt a push as the browser does (RFC 8291, aes128gcm) and read its JSON."""
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # their names in lower case
    body: bytes
    status: int  # the service's answer


class PushService:
    """An HTTP server that takes pushes as a browser vendor's push service does: it keeps
    each request and answers 201, or for a device listed in ``answers`` that status.
    Given a ``certificate`` (``Certificate``), it answers over https, as a real push
    service does and as the settings page's subscriptions must (``DeviceForm``)."""

    def __init__(self, certificate: Certificate | None = None) -> None:
        self.received: list[Received] = []
        self.answers: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = service.answers.get(self.path.rsplit("/", 1)[-1], 201)
                service.received.append(Received(self.path, headers, body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        scheme = "http"
        if certificate is not None:
            tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            tls.load_cert_chain(certificate.path, certificate.key_path)
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"

    def endpoint(self, phone: Phone) -> str:
        return f"{self.url}/push/{phone.name}"

    def to(self, phone: Phone) -> list[dict]:
        """The payloads pushed to ``phone`` (those the service took), decrypted by it."""
        path = f"/push/{phone.name}"
        return [phone.read(r.body) for r in self.received if r.path == path and r.status == 201]


@dataclass(frozen=True)
class Certificate:
    """A certificate of its own for 127.0.0.1 (and its key), in files: the https push
    service's. Requests (pywebpush's client) trusts it as ``REQUESTS_CA_BUNDLE``."""

    path: Path
    key_path: Path

    @classmethod
    def made_in(cls, folder: Path) -> Certificate:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push service of the tests")])
        now = datetime.now(UTC)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(minutes=5))
            .not_valid_after(now + timedelta(days=1))
            .add_extension(
                x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False,
            )
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )
        made = cls(folder / "push-service.pem", folder / "push-service-key.pem")
        made.path.write_bytes(certificate.public_bytes(Encoding.PEM))
        made.key_path.write_bytes(
            key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        )
        return made


@contextmanager
def serving(service: PushService, **settings) -> Iterator[PushService]:
    """The push service answering, and the site's VAPID keys: push is on."""
    thread = threading.Thread(target=service.server.serve_forever, daemon=True)
    thread.start()
    try:
        with override_settings(
            VAPID_PUBLIC_KEY=VAPID_PUBLIC,
            VAPID_PRIVATE_KEY=VAPID_PRIVATE,
            VAPID_SUBJECT=SUBJECT,
            **settings,
        ):
            yield service
    finally:
        service.server.shutdown()
        service.server.server_close()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """The push service, and the site's VAPID keys: push is on."""
    with serving(PushService(), SITE_URL=SITE) as service:
        yield service


@pytest.fixture
def https_push_service(tmp_path: Path, monkeypatch) -> Iterator[PushService]:
    """The push service over https, trusted by the worker's pushes; push is on."""
    certificate = Certificate.made_in(tmp_path)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(certificate.path))
    with serving(PushService(certificate)) as service:
        yield service


def subscribe(service: PushService, user, phone: Phone) -> PushSubscription:
    device = Device(service.endpoint(phone), phone.p256dh, b64url(phone.auth), "Test phone")
    return push_subscribe(user=user, device=device)


def user_of(name: str):
    return Player.objects.get(name=name).user


def test_a_released_round_pushes_each_subscribed_member_his_table_in_his_language(
    season, owner, accounts, roster, push_service
):
    anna_phone, ben_phone = Phone("anna"), Phone("ben")
    subscribe(push_service, user_of("Anna"), anna_phone)
    subscribe(push_service, user_of("Ben"), ben_phone)
    preferences_language_set(user=user_of("Ben"), language="de")
    first, second = release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    assert push_service.received == []  # the request only wrote what is due

    work()

    [anna] = push_service.to(anna_phone)
    assert anna["title"] == "Gin Club: Table 1: you against Carl"
    assert anna["body"].startswith("Round 1 of Autumn has started")
    assert anna["url"] == f"{SITE}/parties/{first.pk}/"
    assert anna["lang"] == "en"
    assert anna["account"] == token_of(user_of("Anna"))
    [ben] = push_service.to(ben_phone)
    assert ben["title"] == "Gin Club: Tisch 2: Sie gegen Dora"
    assert ben["body"].startswith("Runde 1 von Autumn hat begonnen")
    assert ben["url"] == f"{SITE}/parties/{second.pk}/"
    assert ben["lang"] == "de"
    assert set(Delivery.objects.values_list("channel", flat=True)) == {"push"}  # no address
    assert Delivery.objects.filter(sent_at=None).count() == 0
    assert PushSubscription.objects.filter(last_success_at=None).count() == 0


def test_a_device_subscribed_by_the_settings_page_is_pushed_over_https(
    season, owner, accounts, roster, https_push_service
):
    phone = Phone("anna")
    device = {"endpoint": https_push_service.endpoint(phone)}
    device["keys"] = {"p256dh": phone.p256dh, "auth": b64url(phone.auth)}
    assert device["endpoint"].startswith("https://127.0.0.1:")
    assert post_json(logged_in(user_of("Anna")), "push_subscribe", device).status_code == 200
    release(season, owner, ("Anna", "Carl"))
    work()
    [push] = https_push_service.to(phone)
    assert push["title"] == "Gin Club: Table 1: you against Carl"


def test_each_push_is_signed_with_the_sites_vapid_key_and_kept_for_hours(
    season, owner, accounts, roster, push_service
):
    phone = Phone("anna")
    subscribe(push_service, user_of("Anna"), phone)
    release(season, owner, ("Anna", "Carl"))
    work()
    [push] = push_service.received
    assert push.headers["content-encoding"] == "aes128gcm"
    assert push.headers["ttl"] == str(12 * 60 * 60)
    scheme, _, fields = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    claims = dict(part.strip().split("=", 1) for part in fields.split(","))
    assert claims["k"] == VAPID_PUBLIC
    token = json.loads(b64url_bytes(claims["t"].split(".")[1]))
    assert token["sub"] == SUBJECT
    assert token["aud"] == push_service.url


def test_every_device_of_a_member_gets_the_push_once_however_often_the_worker_runs(
    season, owner, accounts, roster, push_service
):
    phone, tablet = Phone("anna-phone"), Phone("anna-tablet")
    subscribe(push_service, user_of("Anna"), phone)
    subscribe(push_service, user_of("Anna"), tablet)
    release(season, owner, ("Anna", "Carl"))
    release(season, owner, ("Anna", "Carl"))  # a retried request
    work()
    work()
    assert len(push_service.to(phone)) == 1
    assert len(push_service.to(tablet)) == 1


@pytest.mark.parametrize("gone", [404, 410])
def test_a_device_the_push_service_no_longer_knows_is_forgotten(
    season, owner, accounts, roster, push_service, gone
):
    phone, tablet = Phone("phone"), Phone("tablet")
    subscribe(push_service, user_of("Anna"), phone)
    subscribe(push_service, user_of("Anna"), tablet)
    push_service.answers["tablet"] = gone
    release(season, owner, ("Anna", "Carl"))
    work()
    assert len(push_service.to(phone)) == 1  # told on the phone: sent
    assert Delivery.objects.get().sent_at is not None
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.endpoint(phone)
    ]


def test_a_delivery_whose_last_device_is_gone_is_dropped_not_retried(
    season, owner, accounts, roster, push_service
):
    phone = Phone("phone")
    subscribe(push_service, user_of("Anna"), phone)
    push_service.answers["phone"] = 410
    release(season, owner, ("Anna", "Carl"))
    work()
    assert not PushSubscription.objects.exists()
    assert "410" in Delivery.objects.get().error
    Delivery.objects.update(next_try_at=timezone.now())  # its wait is over
    work()
    assert not Delivery.objects.exists()  # nowhere left to push it
    assert len(push_service.received) == 1


def test_a_failing_push_service_is_tried_again_after_a_wait_and_the_push_arrives_once(
    season, owner, accounts, roster, push_service
):
    phone = Phone("phone")
    subscribe(push_service, user_of("Anna"), phone)
    push_service.answers["phone"] = 503
    release(season, owner, ("Anna", "Carl"))
    before = timezone.now()
    work()
    delivery = Delivery.objects.get()
    assert delivery.sent_at is None and delivery.attempts == 1
    assert delivery.error.startswith("503")
    assert round((delivery.next_try_at - before).total_seconds() / 60) == 1
    assert PushSubscription.objects.exists()  # a failure is not a farewell

    del push_service.answers["phone"]
    work()
    assert len(push_service.received) == 1  # not before its wait is over
    Delivery.objects.update(next_try_at=timezone.now())
    work()
    work()
    assert len(push_service.to(phone)) == 1
    assert Delivery.objects.get().sent_at is not None


def test_a_member_who_switched_push_off_for_a_kind_gets_it_by_mail_only(
    season, owner, accounts, roster, push_service
):
    anna = user_of("Anna")
    address_verified(anna, "anna@gin.example")
    Preferences.objects.create(user=anna, off=["tables_out:push"])
    subscribe(push_service, anna, Phone("phone"))
    release(season, owner, ("Anna", "Carl"))
    assert list(Delivery.objects.values_list("channel", flat=True)) == ["mail"]


def test_a_member_who_switches_push_off_before_the_worker_runs_is_pushed_nothing(
    season, owner, accounts, roster, push_service
):
    subscribe(push_service, user_of("Anna"), Phone("phone"))
    release(season, owner, ("Anna", "Carl"))
    Preferences.objects.create(user=user_of("Anna"), off=["tables_out:push"])
    work()
    assert push_service.received == []


def test_without_vapid_keys_nobody_is_pushed_anything(season, owner, accounts, roster):
    service = PushService()
    subscribe(service, user_of("Anna"), Phone("phone"))
    with override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="", VAPID_SUBJECT=""):
        release(season, owner, ("Anna", "Carl"))
    assert not Delivery.objects.exists()


def test_the_command_makes_a_key_pair_that_the_settings_take(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    check(lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"], SUBJECT)  # no error


# The endpoints the settings page's script calls.

BROWSER_KEYS = {"p256dh": Phone("x").p256dh, "auth": b64url(os.urandom(16))}
ENDPOINT = "https://push.example.net/send/abc123"


def post_json(client: Client, name: str, data) -> object:
    return client.post(
        reverse(name),
        json.dumps(data),
        content_type="application/json",
        headers={"User-Agent": "Phone Browser 1.0"},
    )


@pytest.fixture
def pushing():
    with override_settings(
        VAPID_PUBLIC_KEY=VAPID_PUBLIC, VAPID_PRIVATE_KEY=VAPID_PRIVATE, VAPID_SUBJECT=SUBJECT
    ):
        yield


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_device_allowed_on_the_settings_page_reaches_the_server(accounts, pushing):
    anna = accounts["Anna"]
    answer = post_json(
        logged_in(anna), "push_subscribe", {"endpoint": ENDPOINT, "keys": BROWSER_KEYS}
    )
    assert answer.status_code == 200 and answer.json()["subscribed"]
    subscription = PushSubscription.objects.get()
    assert (subscription.user, subscription.endpoint) == (anna, ENDPOINT)
    assert subscription.p256dh == BROWSER_KEYS["p256dh"]
    assert subscription.user_agent == "Phone Browser 1.0"


def test_a_device_that_changed_hands_is_the_new_accounts(accounts, pushing):
    subscription = {"endpoint": ENDPOINT, "keys": BROWSER_KEYS}
    post_json(logged_in(accounts["Anna"]), "push_subscribe", subscription)
    post_json(logged_in(accounts["Ben"]), "push_subscribe", subscription)
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == [
        accounts["Ben"].username
    ]


@pytest.mark.parametrize(
    "subscription",
    [
        {"endpoint": "http://push.example.net/send/abc", "keys": BROWSER_KEYS},
        {"endpoint": ENDPOINT, "keys": {"p256dh": "short", "auth": BROWSER_KEYS["auth"]}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": BROWSER_KEYS["p256dh"]}},
        {"endpoint": "not a url", "keys": BROWSER_KEYS},
        ["not", "an", "object"],
    ],
)
def test_a_bad_subscription_is_refused_and_nothing_is_saved(accounts, pushing, subscription):
    answer = post_json(logged_in(accounts["Anna"]), "push_subscribe", subscription)
    assert answer.status_code == 400
    assert answer.json()["error"] == "This device's subscription was refused."
    assert not PushSubscription.objects.exists()


def test_subscribing_wants_a_login_a_post_a_csrf_token_and_push_on(accounts, pushing):
    subscription = {"endpoint": ENDPOINT, "keys": BROWSER_KEYS}
    assert post_json(Client(), "push_subscribe", subscription).status_code == 302  # log in
    assert logged_in(accounts["Anna"]).get(reverse("push_subscribe")).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(accounts["Anna"])
    assert post_json(strict, "push_subscribe", subscription).status_code == 403
    with override_settings(VAPID_PRIVATE_KEY=""):
        assert (
            post_json(logged_in(accounts["Anna"]), "push_subscribe", subscription).status_code
            == 404
        )
    assert not PushSubscription.objects.exists()


def test_a_member_stops_his_own_device_and_nobody_elses(accounts, pushing):
    post_json(
        logged_in(accounts["Anna"]), "push_subscribe", {"endpoint": ENDPOINT, "keys": BROWSER_KEYS}
    )
    answer = post_json(logged_in(accounts["Ben"]), "push_unsubscribe", {"endpoint": ENDPOINT})
    assert answer.json() == {"removed": False}
    assert PushSubscription.objects.exists()
    answer = post_json(logged_in(accounts["Anna"]), "push_unsubscribe", {"endpoint": ENDPOINT})
    assert answer.json() == {"removed": True}
    assert not PushSubscription.objects.exists()


def test_logging_out_forgets_the_device_this_session_allowed(accounts, pushing):
    """Even without the page's script (which unsubscribes the browser too): the phone's
    next person is shown nothing of Anna's."""
    anna = logged_in(accounts["Anna"])
    post_json(anna, "push_subscribe", {"endpoint": ENDPOINT, "keys": BROWSER_KEYS})
    other = "https://push.example.net/send/her-laptop"
    post_json(
        logged_in(accounts["Anna"]), "push_subscribe", {"endpoint": other, "keys": BROWSER_KEYS}
    )
    anna.post(reverse("logout"))
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [other]


def test_the_settings_page_lists_the_devices_and_removes_one(accounts, pushing):
    anna = logged_in(accounts["Anna"])
    post_json(anna, "push_subscribe", {"endpoint": ENDPOINT, "keys": BROWSER_KEYS})
    page = anna.get(reverse("notices_settings")).content.decode()
    assert "Allow notifications on this device" in page
    assert f'data-push-key="{VAPID_PUBLIC}"' in page
    assert "Phone Browser 1.0" in page
    assert 'name="tables_out__push"' in page
    answer = anna.post(reverse("push_unsubscribe"), {"endpoint": ENDPOINT})
    assert answer.status_code == 302
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_the_settings_page_says_push_is_off(accounts):
    with override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="", VAPID_SUBJECT=""):
        page = logged_in(accounts["Anna"]).get(reverse("notices_settings")).content.decode()
    assert "This site sends no push notifications" in page
    assert "Allow notifications on this device" not in page
    assert 'name="tables_out__push"' not in page


def test_saving_the_settings_without_push_keeps_the_push_choices(accounts):
    anna = accounts["Anna"]
    Preferences.objects.create(user=anna, off=["tables_out:push"])
    with override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="", VAPID_SUBJECT=""):
        logged_in(anna).post(reverse("notices_settings"), {"email": "", "language": "en"})
    assert "tables_out:push" in Preferences.objects.get(user=anna).off
