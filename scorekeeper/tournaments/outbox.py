"""The tournaments' worker step: a match's partie closed (and, where the tournament asks
it, every player asked confirmed it), so its winner moves on.

The table app knows no tournament, so the close cannot give the result in its own
transaction. What is due is read from the record, not inferred: a running tournament
with a match whose partie is over and whose table no result has come from yet, and
(where the tournament asks for confirmations) no game of that partie waiting for an
answer. ``advance_due`` claims each such tournament under its row lock (two workers
never advance one at once; one killed halfway leaves it due) and plays it forward
(``services.tournament_advance``: the result, then the next matches' parties). Time
called with one more hand to play (``services.round_end_at_time``), a match is due too
once a hand was played after the call.
``manage.py worker`` runs it beside the ratings and the notices.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, F, IntegerField, OuterRef, Q
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

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
    # Time called with one more hand to play: due once a hand follows the call.
    hands = Cast(KeyTextTransform("hands", "partie__summary"), IntegerField())
    played_on = Q(partie__state=Partie.State.RUNNING, hands_at_time__lt=F("hands"))
    rows = (
        TournamentMatch.objects.filter(
            tournament__started_at__isnull=False, tournament__finished_at=None
        )
        .annotate(hands=hands)
        .filter(Q(partie__state=Partie.State.CLOSED) | played_on)
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
