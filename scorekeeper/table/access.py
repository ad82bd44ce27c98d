"""The access helpers of the table's things: a partie, an evening or a player of one of
the user's clubs, fetched with his role (``clubs.access.object_in_club``): a stranger
gets a 404, a role short of ``need`` a 403.
"""

from __future__ import annotations

from django.http import HttpRequest

from scorekeeper.clubs.access import Role, object_in_club

from .models import Evening, Partie, Player, PlayerMerge
from .selectors import partie_with_players


def partie_for(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Partie:
    """A partie of one of the user's clubs, its seats and players loaded."""
    queryset = partie_with_players(Partie.objects.select_related("club"))
    return object_in_club(request, queryset, pk, need)


def evening_for(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Evening:
    return object_in_club(request, Evening.objects.select_related("club"), pk, need)


def player_for(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Player:
    return object_in_club(request, Player.objects.select_related("club", "user"), pk, need)


def player_merge_for(request: HttpRequest, pk: int, need: Role = Role.SCORER) -> PlayerMerge:
    """A merge of one of the user's clubs: its scorers may undo it."""
    return object_in_club(request, PlayerMerge.objects.select_related("club"), pk, need)
