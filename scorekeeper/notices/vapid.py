"""The site's VAPID keys (RFC 8292): the key pair that signs every push, so that a push
service takes a push for a browser's subscription only from the site it was made for.

The keys are two base64url strings, as the browsers and ``pywebpush`` take them: the
private key's 32 bytes, and the public key as its uncompressed point (65 bytes, which the
page hands to ``pushManager.subscribe``). The settings read them from the environment
and check them here at start-up; ``manage.py vapid_keys`` makes a new pair. No Django
import: the settings module imports this one.
"""

from __future__ import annotations

import base64
import binascii

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_bytes(text: str) -> bytes:
    """The bytes of a base64url string with or without its padding; ValueError if it is
    none."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as error:
        raise ValueError(f"not base64url: {error}") from None


def public_key_of(private_key: ec.EllipticCurvePrivateKey) -> str:
    point = private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)


def new_key_pair() -> tuple[str, str]:
    """A new (public, private) pair, each a base64url string."""
    private_key = ec.generate_private_key(ec.SECP256R1())
    secret = private_key.private_numbers().private_value.to_bytes(32, "big")
    return public_key_of(private_key), b64url(secret)


def check(public: str, private: str, subject: str) -> None:
    """Raise ValueError, saying what is wrong, unless the three make a VAPID identity: a
    private key, the public key that belongs to it, and a ``mailto:`` address (the push
    services write to it about the site's pushes; RFC 8292 allows an https address too,
    which we refuse, since a page of ours would say nothing of who runs the site)."""
    if not subject.startswith("mailto:") or "@" not in subject:
        raise ValueError(f"VAPID_SUBJECT must be a mailto: address, not {subject!r}")
    try:
        secret = b64url_bytes(private)
    except ValueError:
        secret = b""
    if len(secret) != 32:
        raise ValueError("VAPID_PRIVATE_KEY must be a private key's 32 bytes in base64url")
    try:
        private_key = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
    except ValueError:
        raise ValueError("VAPID_PRIVATE_KEY is no private key of the P-256 curve") from None
    if public_key_of(private_key) != public.rstrip("="):
        raise ValueError("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
