"""A closed game's result confirmed by its players, Bridgemate-style: each player linked
to an account gives his confirmation on his own phone (confirm, or dispute with a note);
a game every asked player confirmed is locked until the club's owner unlocks it.

Who is asked: the players linked to an account when the game's rows are written
(``results.games_save``): each gets a pending confirmation (``ResultConfirmation``). A
player without an account cannot confirm, so he is not asked: a game none of whose
players has an account asks nobody and counts as confirmed. Each confirmation given,
each unlock and each owner's decision is an entry in the partie's audit trail
(HandChange).

A confirmation belongs to the player, and records the account that gave it (``by``); a
change of the player's account link never touches it (``account_change_record`` only
writes it into the trail). Who may confirm or dispute for the player: the account
linked to him now, while it is a member of the club; a confirmation already given is
changed only from the account that gave it, so a newly linked account cannot override
another's dispute. A dispute ends when that account takes it back (confirms) or by the
owner's decision (``game_decide``), which keeps the note and records his reason. A
confirmation given by mistake is taken back (``result_withdraw``: pending again) until
another player asked confirms or disputes; after that it stands, and the game is
disputed or unlocked like any other. While no account is linked, nobody confirms for
the player: the game stays pending, and a season of confirmed games only does not count
it.

The partie's row is locked first, as every change to its hands does: a confirmation and
a correction of the same game happen one after the other, and a confirmation of a game
that changed meanwhile (its rows are new) is refused, so that a player confirms the
result he saw.

A confirmation given, taken back, decided or unlocked changes its row in place and
writes a ``ResultsChange`` in the same transaction, whatever the season: that row is
what the league's worker claims and what the club board's ETag reads
(``league.selectors.standings_version``), so the board shows the change without a row
deleted and made anew for it.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Membership, Role
from scorekeeper.notices.models import Kind
from scorekeeper.notices.services import Tell, notices_record

from ..models import (
    AccountChangesSeen,
    ClosedGame,
    HandChange,
    Partie,
    Player,
    ResultConfirmation,
    ResultsChange,
)
from ..selectors import orphaned_confirmations
from .results import locked_games

State = ResultConfirmation.State
NOTE_LENGTH = ResultConfirmation._meta.get_field("note").max_length
REASON_LENGTH = NOTE_LENGTH  # the owner's reason for a decision, kept in the trail

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
    "not_member": _(
        "You are no longer a member of this club, so you cannot answer for its games: "
        "ask its owner to invite you again."
    ),
    "given_by_other": _(
        "The confirmation or dispute of %(player)s was given from another account: only "
        "that account can change it, and the club's owner can decide a dispute."
    ),
    "decided": _(
        "The club's owner has decided this dispute: if the result is still wrong, ask a "
        "scorer to correct the game."
    ),
    "not_disputed": _(
        "Nobody disputes this game, and every player asked can answer: there is nothing to decide."
    ),
    "reason_empty": _("Say why the result stands: the players read it in the partie's changes."),
    "reason_too_long": _("A reason has at most %(limit)s characters: shorten it."),
    "not_confirmed": _("You have not confirmed this game: there is no confirmation to take back."),
    "given_since": _(
        "%(players)s answered since, so your confirmation stands: if the result is wrong, "
        "dispute it."
    ),
}


class ConfirmationError(ValueError):
    """A confirmation or unlock refused; ``code`` is one of ``CONFIRMATION_MESSAGES`` and the
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
    return _confirmation_give(game, user, State.CONFIRMED, "")


def result_dispute(
    *, game: ClosedGame, user: AbstractBaseUser, note: str = ""
) -> ResultConfirmation:
    """The user disputes the game's result, saying why in ``note``; its scorers see the
    game with its hands and the note. Refused once the game is locked."""
    note = note.strip()
    if len(note) > NOTE_LENGTH:
        raise ConfirmationError("note_too_long", limit=NOTE_LENGTH)
    return _confirmation_give(game, user, State.DISPUTED, note)


@transaction.atomic
def result_withdraw(*, game: ClosedGame, user: AbstractBaseUser) -> ResultConfirmation:
    """The user takes back his confirmation of the game's result (a tap by mistake): his
    player's confirmation is pending again, as before he gave it. Only until another
    player asked has confirmed or disputed (none has relied on it; the game is not
    locked); a second tap changes nothing. The trail keeps it, and the league hears of it
    as of every confirmation."""
    partie, confirmations, mine = _own_confirmation(game, user)
    if mine.state == State.PENDING:
        return mine  # taken back already
    refusal = withdrawal_refusal(mine, confirmations)
    if refusal is not None:
        raise refusal
    given_at = mine.at
    mine.state, mine.note, mine.by, mine.at = State.PENDING, "", None, None
    mine.save(update_fields=["state", "note", "by", "at"])
    HandChange.objects.create(
        partie=partie,
        action=HandChange.Action.WITHDRAWN,
        user=user,
        before={"game": game.number, "player": mine.player.name, "at": _isoformat(given_at)},
        after={"game": game.number, "player": mine.player.name},
    )
    _recorded(partie)
    return mine


def withdrawal_refusal(
    mine: ResultConfirmation, confirmations: list[ResultConfirmation]
) -> ConfirmationError | None:
    """Why the confirmation ``mine`` cannot be taken back now, among the game's
    ``confirmations`` (None: it can): it is pending or a dispute, or the game is locked,
    or another player confirmed or disputed since. The game's page asks it too, to offer
    the button only where it works."""
    if mine.state != State.CONFIRMED:
        return ConfirmationError("not_confirmed")
    if _is_locked(confirmations):
        return ConfirmationError("locked")
    others = sorted(
        c.player.name for c in confirmations if c.pk != mine.pk and c.state != State.PENDING
    )
    if others:
        return ConfirmationError("given_since", players=", ".join(others))
    return None


def _own_confirmation(
    game: ClosedGame, user: AbstractBaseUser
) -> tuple[Partie, list[ResultConfirmation], ResultConfirmation]:
    """The game's partie locked, its confirmations, and the one the user may give or
    change for the player linked to his account; refused as ``confirmation_refusal``
    says."""
    partie = Partie.objects.select_for_update().get(pk=game.partie_id)
    confirmations = list(
        ResultConfirmation.objects.select_related("player").filter(game__pk=game.pk)
    )
    if not ClosedGame.objects.filter(pk=game.pk).exists():
        raise ConfirmationError("game_changed")
    mine = next((c for c in confirmations if c.player.user_id == user.pk), None)
    if mine is None:
        raise ConfirmationError("not_asked")
    member = Membership.objects.filter(club_id=partie.club_id, user_id=user.pk).exists()
    refusal = confirmation_refusal(mine, user, member=member)
    if refusal is not None:
        raise refusal
    return partie, confirmations, mine


def _is_locked(confirmations: list[ResultConfirmation]) -> bool:
    return all(c.state in ResultConfirmation.SETTLED for c in confirmations)


@transaction.atomic
def _confirmation_give(
    game: ClosedGame, user: AbstractBaseUser, state: str, note: str
) -> ResultConfirmation:
    partie, confirmations, mine = _own_confirmation(game, user)
    if mine.state == state and mine.note == note:
        return mine  # asked twice: counted once
    if _is_locked(confirmations):
        raise ConfirmationError("locked")
    if mine.state == State.DECIDED and state == State.DISPUTED:
        raise ConfirmationError("decided")
    mine.state, mine.note, mine.by, mine.at = state, note, user, timezone.now()
    mine.save(update_fields=["state", "note", "by", "at"])
    action = HandChange.Action.CONFIRMED if state == State.CONFIRMED else HandChange.Action.DISPUTED
    after = {"game": game.number, "player": mine.player.name}
    if note:
        after["note"] = note
    change = HandChange.objects.create(partie=partie, action=action, user=user, after=after)
    _recorded(partie)
    if state == State.DISPUTED:
        _dispute_tell(partie, game, mine, confirmations, change)
    return mine


def _recorded(partie: Partie) -> None:
    """The change of a confirmation of the partie's game, for the league: what a season
    of confirmed games counts may change (its worker rates again from there), and the
    club board's pending marks do (its ETag reads the club's newest row)."""
    ResultsChange.record(partie.club_id, partie.started_at)


def _names(partie: Partie) -> list[str]:
    return list(partie.seats.order_by("position").values_list("player__name", flat=True))


def _dispute_tell(
    partie: Partie,
    game: ClosedGame,
    dispute: ResultConfirmation,
    confirmations: list,
    change: HandChange,
) -> None:
    """Tell the game's other players asked that their result is disputed, and the club's
    owners and scorers that a dispute is open (never the one who disputed). The event is
    the dispute's entry in the trail (``change``): a dispute given again (a new note, or
    after a confirmation) is told again, a retry of the same one is not."""
    event = f"change-{change.pk}"  # not a bare key: older events named the row
    link = reverse("game_detail", args=[partie.pk, game.number])
    params = {
        "game": game.number,
        "players": _names(partie),
        "by": dispute.player.name,
        "note": dispute.note,
    }
    players = {c.player.user_id for c in confirmations} - {dispute.by_id}
    notices_record(
        club_id=partie.club_id,
        kind=Kind.RESULT_DISPUTED,
        event=event,
        tell=[Tell(user_id, link, params) for user_id in players],
    )
    deciders = Membership.objects.filter(
        club_id=partie.club_id, role__in=Role.at_least(Role.SCORER)
    ).exclude(user_id=dispute.by_id)
    notices_record(
        club_id=partie.club_id,
        kind=Kind.DISPUTE_OPENED,
        event=event,
        tell=[Tell(pk, link, params) for pk in deciders.values_list("user_id", flat=True)],
    )


def confirmation_refusal(
    confirmation: ResultConfirmation, user: AbstractBaseUser, *, member: bool
) -> ConfirmationError | None:
    """Why the user, linked to the player of ``confirmation``, may not confirm or dispute
    for him (None: he may): he is no longer a member of the club (``member``), or the
    confirmation was given from another account (a link changed since). The game's page
    asks it too, so as to offer no button that would be refused."""
    if not member:
        return ConfirmationError("not_member")
    if confirmation.state != State.PENDING and confirmation.by_id != user.pk:
        return ConfirmationError("given_by_other", player=confirmation.player.name)
    return None


@transaction.atomic
def game_decide(*, game: ClosedGame, user: AbstractBaseUser, reason: str) -> HandChange:
    """The club's owner decides the game's disputes, and the pending confirmations nobody
    can give (``selectors.orphaned_confirmations``: a player linked to no member): the
    result stands as
    recorded. Each is settled (``State.DECIDED``: the game counts and locks as if
    confirmed), a dispute keeping its note and the account that gave it; the audit entry
    keeps them and the owner's reason. (Only the club's owner may: the view asks for his
    role. A wrong result is corrected by a scorer instead, and asked anew.)"""
    reason = reason.strip()
    if not reason:
        raise ConfirmationError("reason_empty")
    if len(reason) > REASON_LENGTH:
        raise ConfirmationError("reason_too_long", limit=REASON_LENGTH)
    partie = Partie.objects.select_for_update().get(pk=game.partie_id)
    if not ClosedGame.objects.filter(pk=game.pk).exists():
        raise ConfirmationError("game_changed")
    disputes = list(
        ResultConfirmation.objects.select_related("player", "by")
        .filter(game__pk=game.pk, state=State.DISPUTED)
        .order_by("player__name")
    )
    orphaned = orphaned_confirmations(game)
    if not disputes and not orphaned:
        raise ConfirmationError("not_disputed")
    settled = disputes + orphaned
    # Each keeps its note, its account and when it was given.
    ResultConfirmation.objects.filter(pk__in=[c.pk for c in settled]).update(state=State.DECIDED)
    _recorded(partie)  # it counts now, maybe
    before = {
        "game": game.number,
        "disputed": [_dispute_record(dispute) for dispute in disputes],
        # (The trail's key for the pending confirmations nobody could give: stored data.)
        "unanswered": [c.player.name for c in orphaned],
    }
    return HandChange.objects.create(
        partie=partie,
        action=HandChange.Action.DECIDED,
        user=user,
        before=before,
        after={"game": game.number, "reason": reason},
    )


def _dispute_record(dispute: ResultConfirmation) -> dict:
    return {
        "player": dispute.player.name,
        "by": dispute.by.get_username() if dispute.by else None,
        "note": dispute.note,
        "at": _isoformat(dispute.at),
    }


def _isoformat(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


@transaction.atomic
def game_unlock(*, game: ClosedGame, user: AbstractBaseUser) -> HandChange:
    """Unlock a game its players all confirmed, so that its scorers can correct it: every
    confirmation is pending again. The audit entry keeps who had confirmed it and when. (Only
    the club's owner may: the view asks for his role.)"""
    partie = Partie.objects.select_for_update().get(pk=game.partie_id)
    if not ClosedGame.objects.filter(pk=game.pk).exists():
        raise ConfirmationError("game_changed")
    if game.number not in locked_games(partie, [game.number]):
        raise ConfirmationError("not_locked")
    confirmations = list(
        ResultConfirmation.objects.select_related("player", "by")
        .filter(game__pk=game.pk)
        .order_by("player__name")
    )
    before = {
        "game": game.number,
        "confirmed": [
            {
                "player": c.player.name,
                "by": c.by.get_username() if c.by else None,
                "at": c.at.isoformat() if c.at else None,
                "state": c.state,  # confirmed, or decided by the owner
            }
            for c in confirmations
        ],
    }
    ResultConfirmation.objects.filter(pk__in=[c.pk for c in confirmations]).update(
        state=State.PENDING, note="", by=None, at=None
    )
    _recorded(partie)  # pending again: not counted
    change = HandChange.objects.create(
        partie=partie,
        action=HandChange.Action.UNLOCKED,
        user=user,
        before=before,
        after={"game": game.number},
    )
    link = reverse("game_detail", args=[partie.pk, game.number])
    params = {"game": game.number, "players": _names(partie)}
    notices_record(
        club_id=partie.club_id,
        kind=Kind.RESULT_UNLOCKED,
        event=str(change.pk),
        tell=[
            Tell(c.player.user_id, link, params)
            for c in confirmations
            if c.player.user_id != user.pk
        ],
    )
    return change


def account_change_record(
    *,
    player: Player,
    before: AbstractBaseUser | None,
    after: AbstractBaseUser | None,
    user: AbstractBaseUser | None,
) -> list[HandChange]:
    """Write a player's account link changed (``before`` to ``after``, by ``user``) into
    the Changes list of each partie where he has confirmations, given or pending: who
    confirms for him there changed. The confirmations themselves stay as they are; the
    club's owner sees
    the entries (``selectors.account_changes_for``). (``players.player_link`` calls it
    in its transaction.)"""
    parties = (
        ResultConfirmation.objects.filter(player=player)
        .values_list("game__partie_id", flat=True)
        .distinct()
        .order_by("game__partie_id")
    )
    name = player.name
    return HandChange.objects.bulk_create(
        HandChange(
            partie_id=partie_id,
            action=HandChange.Action.ACCOUNT,
            user=user,
            before={"player": name, "account": _username(before)},
            after={"player": name, "account": _username(after)},
        )
        for partie_id in parties
    )


def _username(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


@transaction.atomic
def account_changes_seen(*, user: AbstractBaseUser, upto: int) -> AccountChangesSeen:
    """The owner has seen the account changes up to the entry ``upto`` (the newest his
    list showed): his header counts only those after it. Never moves back (two tabs),
    nor past the newest entry there is (so that none made later is taken as seen)."""
    upto = min(upto, HandChange.objects.aggregate(newest=Max("pk"))["newest"] or 0)
    seen, _ = AccountChangesSeen.objects.select_for_update().get_or_create(user=user)
    if upto > seen.upto:
        seen.upto = upto
        seen.save(update_fields=["upto", "at"])
    return seen
