"""The tournaments' worker step: a match's partie closed (and, where the tournament asks
it, every player asked confirmed it), so its winner moves on.

The table app knows no tournament, so the close cannot give the result in its own
transaction. What is due is read from the record, not inferred: a running tournament
with a match whose partie is over and whose table no result has come from yet, and
(where the tournament asks for confirmations) no game of that partie waiting for an
answer. ``advance_due`` claims each such tournament under its row lock (two workers
never advance one at once; one killed halfway leaves it due) and plays it forward
(``services.tournament_advance``: the result, then the next matches' parties). A partie
ends by itself or early (time called, the hand after the call played: the table ends it
in that hand's transaction, ``table.services.partie_time_call``), and either end writes
a ``ResultsChange``, whose task (``tasks.results_changed``) runs this step.
``manage.py worker`` runs it beside the ratings and the notices.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from scorekeeper.table.models import Partie, ResultConfirmation

from . import services
from .models import MatchResult, Tournament, TournamentMatch


def due() -> list[int]:
    """The keys of the running tournaments with a result due."""
    answered = MatchResult.objects.filter(
        tournament=OuterRef("tournament"), match=OuterRef("match"), at__gte=OuterRef("started_at")
    )
    waiting = Q(tournament__confirmed_only=True) & Q(
        partie__closed_games__in=ResultConfirmation.pending_games()
    )
    rows = (
        TournamentMatch.objects.filter(
            tournament__started_at__isnull=False,
            tournament__finished_at=None,
            partie__state=Partie.State.CLOSED,
        )
        .exclude(Exists(answered))
        .exclude(waiting)
    )
    return sorted(set(rows.values_list("tournament_id", flat=True)))


def advance_due() -> int:
    """Give every result due, one tournament per transaction: how many results."""
    given = 0
    for pk in due():
        with transaction.atomic():
            tournament = (
                Tournament.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            )
            if tournament is None:
                continue  # another worker holds it
            given += services.tournament_advance(tournament=tournament)
    return given
