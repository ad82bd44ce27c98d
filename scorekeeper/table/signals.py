"""What the table tells the apps above it, which it does not import (the league)."""

from django.dispatch import Signal

# Sent with ``partie`` in the transaction of a change that added closed games to the
# partie and changed none it had (a hand that closes a game, say): the league rates the
# new games there where they come last (``league.services.games_closed_rate``).
games_closed = Signal()
