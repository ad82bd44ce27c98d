"""Repairs: deletes that can be undone, parties archived, settled evenings reopened. Each
is an entry in the audit trail (HandChange); an undo names the entry it undoes."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.record import parse_entry

from ..models import Evening, EveningPayment, Hand, HandChange, Partie, Player, Unscorable, scoring
from ..selectors import evening_sheet, partie_with_players
from .parties import Written, _locked, _replay, _save_result, _written
from .results import locked_games, partie_results_drop

REPAIR_MESSAGES = {
    "undone_already": _("This change was undone already."),
    "not_undoable": _("Only a deleted hand, a deleted partie or a reopened evening can be undone."),
    "place_gone": _(
        "Hand %(number)s cannot go back to its place: the partie has %(hands)s hands now. "
        "Record it again instead."
    ),
    "evening_settled": _(
        "This partie belongs to the settled evening %(evening)s: its owner can reopen the "
        "evening first."
    ),
    "game_confirmed": _(
        "Its players have confirmed the result of this partie, so it is locked: the club's "
        "owner can unlock the confirmed games first."
    ),
    "evening_carried": _(
        "The evening %(evening)s cannot be reopened: its open payments were carried into "
        "the settled evening %(later)s. Reopen %(later)s first."
    ),
    "evening_open": _("The evening %(evening)s is not settled up: there is nothing to reopen."),
    "evening_settled_again": _(
        "The evening %(evening)s is settled up again: its payments are those of the new settle-up."
    ),
    "evening_changed": _(
        "The figures of the evening %(evening)s changed since it was reopened, so its old "
        "payments would not settle it: settle it up again instead."
    ),
}


class RepairError(ValueError):
    """A delete, restore, archive or reopen refused; ``code`` is one of
    ``REPAIR_MESSAGES`` and the message says what to do instead."""

    def __init__(self, code: str, **params: object):
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(REPAIR_MESSAGES[self.code]) % self.params


def _undone(change: HandChange) -> None:
    """Refuse to undo a change twice (its object is locked by the caller)."""
    if HandChange.objects.filter(undoes=change).exists():
        raise RepairError("undone_already")


@transaction.atomic
def hand_restore(*, partie: Partie, change: HandChange, user: AbstractBaseUser) -> Written:
    """Undo a hand's deletion: the hand goes back to its number (the hands from there on
    move down one) and every hand is scored again; refused, as any edit, when the engine
    would refuse it or a later hand."""
    partie, players, rows = _locked(partie)
    if change.partie_id != partie.pk or change.action != HandChange.Action.DELETED:
        raise RepairError("not_undoable")
    _undone(change)
    entries = partie.entries_of(rows)
    number = change.hand_number
    if not 1 <= number <= len(entries) + 1:
        raise RepairError("place_gone", number=number, hands=len(entries))
    hand = parse_entry(partie.kind, change.before, partie.ruleset)
    restored = [*entries[: number - 1], hand, *entries[number - 1 :]]
    session = _replay(partie, list(players), restored, changed=number)
    for row in reversed(rows):  # last first, so that the unique (partie, number, table) holds
        if row.number >= number:
            row.number += 1
            row.save(update_fields=["number"])
    Hand.objects.bulk_create(
        Hand(partie=partie, number=number, **row) for row in partie.rows_of(hand, players)
    )
    action = HandChange.Action.RESTORED
    return _written(partie, session, players, user, action, number, after=hand, undoes=change)


def _unsettled_evening(partie: Partie) -> None:
    """Lock the partie's evening and refuse a change to one that is settled up: its
    payments are frozen and a partie more or less would make them disagree."""
    if partie.evening_id is None:
        return
    evening = Evening.objects.select_for_update().get(pk=partie.evening_id)
    if evening.is_settled:
        raise RepairError("evening_settled", evening=evening.name)


@transaction.atomic
def partie_delete(*, partie: Partie, user: AbstractBaseUser) -> HandChange:
    """Delete a partie so that it can be restored: it leaves every page, list, evening
    and the league's standings, and keeps its hands and audit trail; the entry returned
    is the one that ``partie_restore`` undoes."""
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    _unsettled_evening(partie)
    if locked_games(partie):
        raise RepairError("game_confirmed")
    partie.deleted_at = timezone.now()
    partie.version += 1  # its live view learns that it is gone
    partie.save(update_fields=["deleted_at", "version"])
    partie_results_drop(partie=partie)
    return HandChange.objects.create(partie=partie, action=HandChange.Action.REMOVED, user=user)


@transaction.atomic
def partie_restore(*, partie: Partie, user: AbstractBaseUser) -> HandChange:
    """Undo a partie's deletion: back in its lists and evening, and its closed games in the
    standings again (a partie the engine cannot score comes back to be repaired)."""
    partie = Partie.all_objects.select_for_update().get(pk=partie.pk)
    removal = partie.changes.filter(action=HandChange.Action.REMOVED).first()  # the latest
    if partie.deleted_at is None or removal is None:
        raise RepairError("undone_already")
    _unsettled_evening(partie)
    partie.deleted_at = None
    partie.save(update_fields=["deleted_at"])
    change = HandChange.objects.create(
        partie=partie, action=HandChange.Action.UNREMOVED, user=user, undoes=removal
    )
    partie = partie_with_players(Partie.objects.filter(pk=partie.pk)).get()
    try:
        with transaction.atomic(), scoring(partie):  # a savepoint: all results, or none
            partie, players, rows = _locked(partie, ended=True)
            entries = partie.entries_of(rows)
            _save_result(partie, _replay(partie, list(players), entries, changed=0), players)
    except Unscorable:
        pass  # its page says why, and how to repair it; then the standings count it
    return change


@transaction.atomic
def partie_archive(*, partie: Partie, user: AbstractBaseUser, archived: bool = True) -> Partie:
    """Hide a partie from the home list (``archived``), or show it there again. It still
    counts everywhere else; the audit trail keeps who did it."""
    partie = Partie.objects.select_for_update().get(pk=partie.pk)
    if partie.is_archived != archived:
        partie.archived_at = timezone.now() if archived else None
        partie.save(update_fields=["archived_at"])
        action = HandChange.Action.ARCHIVED if archived else HandChange.Action.UNARCHIVED
        HandChange.objects.create(partie=partie, action=action, user=user)
    return partie


@transaction.atomic
def evening_reopen(*, evening: Evening, user: AbstractBaseUser) -> HandChange:
    """Undo an evening's settle-up, so that its parties can be corrected: its payments are
    dropped (paid or not) and the debts it took over are open again, as before it was
    settled; ``evening_settle`` then settles it anew. Refused while a later settled
    evening holds its open payments. The audit entry keeps every dropped payment, and
    ``evening_reopen_undo`` puts them back while the evening's figures are unchanged."""
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if not evening.is_settled:
        raise RepairError("evening_open", evening=evening.name)
    payments = list(evening.payments.select_related("carried_to").order_by("pk"))
    later = next((p.carried_to for p in payments if p.carried_to_id is not None), None)
    if later is not None:
        raise RepairError("evening_carried", evening=evening.name, later=later.name)
    carried_in = list(evening.carried_debts.order_by("pk").values_list("pk", flat=True))
    before = {
        "settled_at": evening.settled_at.isoformat(),
        "payments": [
            {
                "payer": p.payer_id,
                "payee": p.payee_id,
                "amount": str(p.amount),
                "paid_at": p.paid_at.isoformat() if p.paid_at else None,
            }
            for p in payments
        ],
        "carried_in": carried_in,
    }
    EveningPayment.objects.filter(pk__in=carried_in).update(carried_to=None)
    evening.payments.all().delete()
    evening.settled_at = None
    evening.save(update_fields=["settled_at"])
    return HandChange.objects.create(
        evening=evening, action=HandChange.Action.REOPENED, user=user, before=before
    )


@transaction.atomic
def evening_reopen_undo(*, change: HandChange, user: AbstractBaseUser) -> HandChange:
    """Settle a reopened evening as it was: the same payments, paid where they were, and
    the same debts taken over; refused once its figures changed (settle it anew then)."""
    if change.action != HandChange.Action.REOPENED or change.evening_id is None:
        raise RepairError("not_undoable")
    evening = Evening.objects.select_for_update().get(pk=change.evening_id)
    _undone(change)
    if evening.is_settled:
        raise RepairError("evening_settled_again", evening=evening.name)
    snapshot = change.before
    sheet = evening_sheet(evening)
    now = sorted((t.payer, t.payee, Decimal(t.amount)) for t in sheet.transfers)
    names = dict(Player.objects.filter(club_id=evening.club_id).values_list("pk", "name"))
    then = sorted(
        (names.get(p["payer"]), names.get(p["payee"]), Decimal(p["amount"]))
        for p in snapshot["payments"]
    )
    if now != then or sorted(d.pk for d in sheet.debts) != sorted(snapshot["carried_in"]):
        raise RepairError("evening_changed", evening=evening.name)
    EveningPayment.objects.bulk_create(
        EveningPayment(
            evening=evening,
            payer_id=p["payer"],
            payee_id=p["payee"],
            amount=Decimal(p["amount"]),
            paid_at=datetime.fromisoformat(p["paid_at"]) if p["paid_at"] else None,
        )
        for p in snapshot["payments"]
    )
    EveningPayment.objects.filter(pk__in=snapshot["carried_in"]).update(carried_to=evening)
    evening.settled_at = datetime.fromisoformat(snapshot["settled_at"])
    evening.save(update_fields=["settled_at"])
    return HandChange.objects.create(
        evening=evening, action=HandChange.Action.RESTORED, user=user, undoes=change
    )
