"""What the table tells the apps above it, which it does not import (the league)."""

from django.dispatch import Signal

# Sent with ``partie`` in the transaction of a change that added closed games to the
# partie and changed none it had (a hand that closes a game, say): the league rates the
# new games there where they come last (``league.services.games_closed_rate``).
games_closed = Signal()

# Sent with ``club_id`` in the transaction of a change that took closed games of the club
# away or gave them new keys (a hand edited or undone, a partie deleted, a merge), or
# that may change which of them a season of confirmed games counts (an answer, an
# unlock): the league rates again, once the change is committed, what came after them
# (``league.services.games_changed_rate``).
games_changed = Signal()
