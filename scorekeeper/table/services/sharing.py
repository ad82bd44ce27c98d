"""Share links: a partie or an evening opened to anyone who holds its link, or closed again."""

from __future__ import annotations

from scorekeeper.tokens import new_share_token

from ..models import Evening, Partie


def partie_share(*, partie: Partie, shared: bool = True) -> Partie:
    """Give the partie a new read-only link, which ends the old one, or withdraw it
    (``shared=False``). The sheet does not change, so neither does its version."""
    partie.share_token = new_share_token() if shared else None
    partie.save(update_fields=["share_token"])
    return partie


def evening_share(*, evening: Evening, shared: bool = True) -> Evening:
    """Open the evening's board to anyone with a new link (the old one ends), or close it."""
    evening.share_token = new_share_token() if shared else None
    evening.save(update_fields=["share_token"])
    return evening
