"""The access helpers of the table's things: a partie, an evening or a player of one of
the user's clubs, fetched with his role (``clubs.access.object_in_club``): a stranger
gets a 404, a role short of ``need`` a 403.

A player scores his own table: a member of the club seated at a partie through the
player linked to his account enters, corrects and deletes its hands and undoes their
deletion, whatever his role (``partie_to_score``; ``partie.may_score`` tells a page
whether to offer it). Everything else about a partie (its rules, its deletion, its share
link, its season) stays with the club's scorers. He confirms its games' results as any
player linked to an account does (``views.confirmations``).

What is a user's own stays his to read when he is no longer a member of the club (he
was removed, or left, and may still owe money): a partie where the player linked to his
account sat, an evening where that player sat or has a payment, and that player's page.
He reads them as a member does; anything more is a 403, confirming a game's result
included (``thing.is_member`` is False: ``views.confirmations.game_confirmation`` refuses, and the
service asks his membership again, ``confirmations.confirmation_refusal``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.utils.translation import gettext as _

from scorekeeper.clubs.access import InClub, Role, object_in_club

from .models import Evening, EveningPayment, Partie, Player, PlayerMerge, Seat
from .selectors import seat_players


def partie_for(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Partie:
    """A partie of one of the user's clubs, its seats and players loaded; with
    ``partie.may_score``, whether he may score its hands (``partie_to_score``)."""
    partie = seat_players(_PARTIE_IN_CLUB.get(request, pk, need, reader=_sat_in_partie))
    partie.may_score = _may_score(partie, request.user.pk)
    return partie


# On every score sheet and every hand: its query written once per database.
_PARTIE_IN_CLUB = InClub(lambda: Partie.objects.select_related("club", "first_dealer"))


def partie_to_score(request: HttpRequest, pk: int) -> Partie:
    """A partie whose hands the user may enter, correct, delete and put back: a scorer
    of its club, or a member seated at it. Whoever else may read it gets a 403 that
    says who may (a removed member who sat there included)."""
    partie = partie_for(request, pk)
    if not partie.may_score:
        raise PermissionDenied(
            _("Only the players seated at this partie and the club's scorers enter its hands.")
        )
    return partie


def _may_score(partie: Partie, user_id: int) -> bool:
    """A scorer of the club, or a member seated at the partie through the player linked
    to his account. No query: its seats and their players came with it."""
    if partie.club_role.includes(Role.SCORER):
        return True
    seated = any(seat.player.user_id == user_id for seat in partie.seats.all())
    return seated and partie.is_member  # removed from the club, he reads it only


def evening_for(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Evening:
    queryset = Evening.objects.select_related("club")
    return object_in_club(request, queryset, pk, need, reader=_in_evening)


def player_for(request: HttpRequest, pk: int, need: Role = Role.MEMBER) -> Player:
    queryset = Player.objects.select_related("club", "user")
    return object_in_club(request, queryset, pk, need, reader=_is_player)


def _sat_in_partie(user_id: int) -> Q:
    return Q(Exists(Seat.objects.filter(partie=OuterRef("pk"), player__user_id=user_id)))


def _in_evening(user_id: int) -> Q:
    seats = Seat.objects.filter(
        partie__evening=OuterRef("pk"), partie__deleted_at=None, player__user_id=user_id
    )
    payments = EveningPayment.objects.filter(evening=OuterRef("pk")).filter(
        Q(payer__user_id=user_id) | Q(payee__user_id=user_id)
    )
    return Q(Exists(seats)) | Q(Exists(payments))


def _is_player(user_id: int) -> Q:
    return Q(user_id=user_id)


def player_merge_for(request: HttpRequest, pk: int, need: Role = Role.SCORER) -> PlayerMerge:
    """A merge of one of the user's clubs: its scorers may undo it."""
    return object_in_club(request, PlayerMerge.objects.select_related("club"), pk, need)
