"""The share token: the random part of a public link to a partie, an evening or a season.

Below every app, so that each app that shares something makes its token here.
"""

from __future__ import annotations

import secrets


def new_share_token() -> str:
    return secrets.token_urlsafe(24)
