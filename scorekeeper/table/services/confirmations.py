"""A closed game's result confirmed by its players, Bridgemate-style: each player linked
to an account answers on his own phone (confirm, or dispute with a note); a game every
asked player confirmed is locked until the club's owner unlocks it.

Who is asked: the players linked to an account when the game's rows are written
(``results.games_save``). A player without an account cannot answer, so he is not asked:
a game none of whose players has an account asks nobody and counts as confirmed. Each
answer and each unlock is an entry in the partie's audit trail (HandChange).

The partie's row is locked first, as every change to its hands does: an answer and a
correction of the same game happen one after the other, and an answer to a game that
changed meanwhile (its rows are new) is refused, so that a player confirms the result he
saw.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import ClosedGame, HandChange, Partie, ResultConfirmation
from ..signals import games_changed
from .results import locked_games

State = ResultConfirmation.State
NOTE_LENGTH = ResultConfirmation._meta.get_field("note").max_length

CONFIRMATION_MESSAGES = {
    "not_asked": _(
        "You are not asked to confirm this game: only its players answer for themselves."
    ),
    "game_changed": _(
        "The game was corrected since you opened it: look at its result again and answer anew."
    ),
    "locked": _(
        "Every player has confirmed this game, so it is locked: the club's owner can unlock it."
    ),
    "not_locked": _("This game is not locked: its players have not all confirmed it."),
    "note_too_long": _("A note has at most %(limit)s characters: shorten it."),
}


class ConfirmationError(ValueError):
    """An answer or unlock refused; ``code`` is one of ``CONFIRMATION_MESSAGES`` and the
    message says what to do instead."""

    def __init__(self, code: str, **params: object):
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(CONFIRMATION_MESSAGES[self.code]) % self.params


def result_confirm(*, game: ClosedGame, user: AbstractBaseUser) -> ResultConfirmation:
    """The user confirms the game's result as the player linked to his account. A second
    confirmation (a double tap, a retry) changes nothing: the game is confirmed once."""
    return _answer(game, user, State.CONFIRMED, "")


def result_dispute(
    *, game: ClosedGame, user: AbstractBaseUser, note: str = ""
) -> ResultConfirmation:
    """The user disputes the game's result, saying why in ``note``; its scorers see the
    game with its hands and the note. Refused once the game is locked."""
    note = note.strip()
    if len(note) > NOTE_LENGTH:
        raise ConfirmationError("note_too_long", limit=NOTE_LENGTH)
    return _answer(game, user, State.DISPUTED, note)


@transaction.atomic
def _answer(game: ClosedGame, user: AbstractBaseUser, state: str, note: str) -> ResultConfirmation:
    partie = Partie.objects.select_for_update().get(pk=game.partie_id)
    answers = list(ResultConfirmation.objects.select_related("player").filter(game__pk=game.pk))
    if not ClosedGame.objects.filter(pk=game.pk).exists():
        raise ConfirmationError("game_changed")
    mine = next((a for a in answers if a.player.user_id == user.pk), None)
    if mine is None:
        raise ConfirmationError("not_asked")
    if mine.state == state and mine.note == note:
        return mine  # asked twice: counted once
    if all(a.state == State.CONFIRMED for a in answers):
        raise ConfirmationError("locked")
    answered = ResultConfirmation(
        game_id=game.pk,
        player=mine.player,
        state=state,
        note=note,
        by=user,
        asked_at=mine.asked_at,
        at=timezone.now(),
    )
    mine.delete()  # a new row, so that a board's ETag sees the answer (see the model)
    answered.save()
    action = HandChange.Action.CONFIRMED if state == State.CONFIRMED else HandChange.Action.DISPUTED
    after = {"game": game.number, "player": mine.player.name}
    if note:
        after["note"] = note
    HandChange.objects.create(partie=partie, action=action, user=user, after=after)
    games_changed.send(sender=Partie, club_id=partie.club_id)  # what counts, maybe
    return answered


@transaction.atomic
def game_unlock(*, game: ClosedGame, user: AbstractBaseUser) -> HandChange:
    """Unlock a game its players all confirmed, so that its scorers can correct it: every
    answer is asked again. The audit entry keeps who had confirmed it and when. (Only
    the club's owner may: the view asks for his role.)"""
    partie = Partie.objects.select_for_update().get(pk=game.partie_id)
    if not ClosedGame.objects.filter(pk=game.pk).exists():
        raise ConfirmationError("game_changed")
    if game.number not in locked_games(partie, [game.number]):
        raise ConfirmationError("not_locked")
    answers = list(
        ResultConfirmation.objects.select_related("player", "by")
        .filter(game__pk=game.pk)
        .order_by("player__name")
    )
    before = {
        "game": game.number,
        "confirmed": [
            {
                "player": a.player.name,
                "by": a.by.get_username() if a.by else None,
                "at": a.at.isoformat() if a.at else None,
            }
            for a in answers
        ],
    }
    ResultConfirmation.objects.filter(pk__in=[a.pk for a in answers]).delete()
    ResultConfirmation.objects.bulk_create(
        ResultConfirmation(game_id=game.pk, player=a.player, asked_at=a.asked_at) for a in answers
    )
    games_changed.send(sender=Partie, club_id=partie.club_id)  # asked again: not counted
    return HandChange.objects.create(
        partie=partie,
        action=HandChange.Action.UNLOCKED,
        user=user,
        before=before,
        after={"game": game.number},
    )


def open_answers_drop(*, player_ids: list[int]) -> None:
    """Take back what the players were asked and had not confirmed (pending answers and
    disputes): their account link changed, so nobody answers for them any more. What
    they confirmed stays."""
    ResultConfirmation.objects.filter(player_id__in=player_ids).exclude(
        state=State.CONFIRMED
    ).delete()
