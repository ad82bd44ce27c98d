"""Writes to a club's players: linked to an account, joined through an invitation,
renamed, two entries for one person made one."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club, Invitation, Membership
from scorekeeper.clubs.services import invitation_accept
from scorekeeper.engine.names import cleaned

from ..models import (
    Evening,
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    PartieStats,
    Player,
    PlayerMerge,
    PlayerResult,
    ResultConfirmation,
    Seat,
    SettlementLine,
    Unscorable,
    scoring,
)
from ..selectors import HANDS_IN_ORDER, partie_session, partie_with_players
from .confirmations import account_change_record
from .parties import summary_of
from .results import games_renew


@transaction.atomic
def player_link(
    *, player: Player, user: AbstractBaseUser | None, by: AbstractBaseUser | None = None
) -> Player:
    """Link the player to the account of a member of his club (None: to nobody); a member
    is one player in a club, so the link moves from any other player there. ``by``: who
    did it (a scorer), for the partie's trail.

    What the player was asked and confirmed stays his, as it was: a pending confirmation
    is given by whoever is linked now, a given one changed only from the account that
    gave it (``services.confirmations``). Each change of link is written into the Changes
    list of every partie where the player has confirmations, for the club's owner to see
    (``confirmations.account_change_record``); the games closed before a link ask nobody
    new."""
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise ValueError(f"{user} is not a member of the club of {player}")
        others = list(
            Player.objects.select_for_update()
            .filter(club_id=player.club_id, user=user)
            .exclude(pk=player.pk)
        )
        Player.objects.filter(pk__in=[other.pk for other in others]).update(user=None)
        for other in others:
            account_change_record(player=other, before=user, after=None, user=by)
    # As stored, not as the caller's copy says: two scorers may link him at once.
    Player.objects.select_for_update().filter(pk=player.pk).values_list("pk").get()
    before = Player.objects.select_related("user").get(pk=player.pk).user
    if getattr(before, "pk", None) != getattr(user, "pk", None):
        account_change_record(player=player, before=before, after=user, user=by)
    player.user = user
    player.save(update_fields=["user", "changed_at"])
    return player


PLAYER_MESSAGES = {
    "name_empty": _("Enter the player's name."),
    "name_too_long": _("A name has at most %(limit)d characters: shorten it."),
    "name_taken": _(
        "The club has a player named %(name)s already: choose another name, or merge "
        "the two players if they are one person."
    ),
    "same_player": _("Choose another player: %(name)s cannot be merged with himself."),
    "other_club": _(
        "%(gone)s plays in another club than %(keep)s: only players of one club can be merged."
    ),
    "merge_undone": _("The merge of %(gone)s into %(keep)s is undone already."),
    "keep_merged": _(
        "%(keep)s has been merged into another player since: undo that merge first, then this one."
    ),
    "join_taken": _(
        "%(name)s of the roster plays as another member: if that is you, ask the club's "
        "owner; else enter another name."
    ),
    "join_name_taken": _("The club has a player named %(name)s already: enter another name."),
    "seated_together": _(
        "%(gone)s and %(keep)s both sat in the partie %(partie)s: they are two people, "
        "so they cannot be merged. Rename one of them instead."
    ),
    "entered": _(
        "%(gone)s is entered in the tournament %(tournament)s, whose draw names him: keep "
        "%(gone)s and merge %(keep)s into him instead."
    ),
}

# What an app above the table (which it cannot import) holds of a player and a merge
# cannot move: each check answers the refusal of merging ``gone`` into ``keep``, or None.
MERGE_CHECKS: list[Callable[[Player, Player], PlayerChangeError | None]] = []


class PlayerChangeError(ValueError):
    """A rename or merge the club refuses; ``code`` is one of ``PLAYER_MESSAGES`` and
    the message says what to change."""

    def __init__(self, code: str, **params: object):
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(PLAYER_MESSAGES[self.code]) % self.params


@transaction.atomic
def player_add(*, club: Club, name: str, owner: AbstractBaseUser) -> Player:
    """Enter a new player on the club's roster; refused for a name the club has already
    in any case ("anna" beside "Anna" would be one person twice). Whether a near name
    is a slip is the form's question, asked before."""
    name = _checked_name(name)
    Club.objects.select_for_update().get(pk=club.pk)  # two adds of one name: one waits
    if Player.objects.filter(club=club, name__iexact=name).exists():
        raise PlayerChangeError("name_taken", name=name)
    return Player.objects.create(club=club, name=name, owner=owner)


@transaction.atomic
def roster_join(*, invitation: Invitation, user: AbstractBaseUser, name: str) -> Player:
    """Join the club through the invitation and take one's place on its roster, in one
    transaction: linked to the roster's player of ``name`` if nobody plays as him yet,
    else a new player of that name, entered by the joiner. Whether ``name`` is a slip
    for a near one is the form's question, asked before (``RosterJoinForm``).

    A player linked to another account is never taken: the join is refused and nothing
    is saved. ``invitation_accept`` locks the club's row first, so two people joining
    as one name at once are served one after the other, and the second finds him
    taken. Someone back in a club he left keeps the player he played as. The link is
    written into the Changes list of the player's parties with confirmations, as every
    link is (``player_link``)."""
    invitation_accept(invitation=invitation, user=user)
    player = Player.objects.filter(club_id=invitation.club_id, user=user).first()
    if player is not None:
        return player
    name = _checked_name(name)
    player = (
        Player.objects.select_for_update()
        .filter(club_id=invitation.club_id, name__iexact=name)
        .first()
    )
    if player is not None and player.user_id is not None:
        raise PlayerChangeError("join_taken", name=player.name)
    if player is not None and player.name != name:  # entered meanwhile, in another case
        raise PlayerChangeError("join_name_taken", name=player.name)
    if player is None:
        player = Player.objects.create(club_id=invitation.club_id, name=name, owner=user)
    return player_link(player=player, user=user, by=user)


def _checked_name(name: str) -> str:
    name = cleaned(name)
    limit = Player._meta.get_field("name").max_length
    if not name:
        raise PlayerChangeError("name_empty")
    if len(name) > limit:
        raise PlayerChangeError("name_too_long", limit=limit)
    return name


@transaction.atomic
def player_rename(*, player: Player, name: str, user: AbstractBaseUser) -> Player:
    """Give the player another name, unique in his club (whatever the case: "anna" beside
    "Anna" would be one person twice); every partie he sat in names him anew, and its
    audit trail says so."""
    name = _checked_name(name)
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = player.name
    if name == before:
        return player
    others = Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk)
    if others.filter(name__iexact=name).exists():
        raise PlayerChangeError("name_taken", name=name)
    player.name = name
    try:
        with transaction.atomic():  # a savepoint: the same name saved at the same moment
            player.save(update_fields=["name", "changed_at"])
    except IntegrityError:
        raise PlayerChangeError("name_taken", name=name) from None
    parties = Partie.objects.filter(seats__player=player).values_list("pk", flat=True)
    _players_renamed(list(parties), user, {"player": before}, {"player": name})
    return player


@transaction.atomic
def player_merge(*, keep: Player, gone: Player, user: AbstractBaseUser) -> PlayerMerge:
    """Make two entries for one person one: everything of ``gone`` (seats, knocks, first
    deals, evening transfers, league results, hand statistics) becomes ``keep``'s and
    ``gone`` is deleted. ``keep`` keeps his account link, or takes ``gone``'s.

    Refused for players of two clubs, and for two who sat in one partie (one person
    cannot have held two seats). The parties' summaries name ``keep`` and their audit
    trails say who was merged into whom; the returned ``PlayerMerge`` keeps what moved,
    for ``player_merge_undo``.
    """
    player_merge_check(keep=keep, gone=gone)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk])}
    if len(locked) < 2:  # one of them merged away or deleted meanwhile
        raise Player.DoesNotExist(f"{keep} or {gone} is gone")
    keep, gone = locked[keep.pk], locked[gone.pk]
    player_merge_check(keep=keep, gone=gone)  # again, under the lock
    # Deleted parties too: their seats move as well, and a restore finds them merged.
    parties = list(Partie.all_objects.filter(seats__player=gone).values_list("pk", flat=True))
    between = EveningPayment.objects.filter(
        Q(payer=gone, payee=keep) | Q(payer=keep, payee=gone)
    ).order_by("pk")
    moved = {
        "parties": parties,
        "seats": _ids(Seat.objects.filter(player=gone)),
        "knocks": _ids(Hand.objects.filter(knocker=gone)),
        "first_deals": _ids(Partie.all_objects.filter(first_dealer=gone)),
        "paid": _ids(EveningPayment.objects.filter(payer=gone).exclude(payee=keep)),
        "received": _ids(EveningPayment.objects.filter(payee=gone).exclude(payer=keep)),
        "dropped": [_payment_json(payment, gone) for payment in between],
        "games": list(
            PlayerResult.objects.filter(player=gone)
            .order_by("partie_id", "game__number")
            .values_list("partie_id", "game__number")
        ),
    }
    Seat.objects.filter(player=gone).update(player=keep)
    Hand.objects.filter(knocker=gone).update(knocker=keep)
    Partie.all_objects.filter(first_dealer=gone).update(first_dealer=keep)
    # A transfer between the two is one person paying himself: it settles nothing, and
    # every other transfer of its evening stays right (his balance is the two summed).
    between.delete()
    EveningPayment.objects.filter(payer=gone).update(payer=keep)
    EveningPayment.objects.filter(payee=gone).update(payee=keep)
    PlayerResult.objects.filter(player=gone).update(player=keep)
    SettlementLine.objects.filter(payer=gone).update(payer=keep)
    SettlementLine.objects.filter(payee=gone).update(payee=keep)
    PartieStats.objects.filter(player=gone).update(player=keep)
    # His confirmations are the kept player's (the two never sat in one game): one person's.
    ResultConfirmation.objects.filter(player=gone).update(player=keep)
    games_renew(parties=parties)  # his ratings are rated again from his first game
    account, name = gone.user, gone.name
    record = PlayerMerge(
        club_id=keep.club_id,
        keep_id=keep.pk,
        keep_name=keep.name,
        gone_id=gone.pk,
        gone_name=gone.name,
        gone_owner_id=gone.owner_id,
        gone_user=account,
        gone_created_at=gone.created_at,
        took_account=keep.user_id is None and account is not None,
        moved=moved,
        parties=len(parties),
        games=len(moved["games"]),
        payments=len(moved["paid"]) + len(moved["received"]) + len(moved["dropped"]),
        by=user,
    )
    gone.delete()  # after its account link is free for keep (one player per member)
    if record.took_account:
        keep.user = account
        keep.save(update_fields=["user"])
    _players_renamed(parties, user, {"player": name}, {"player": keep.name, "merged": True})
    record.save()
    return record


@transaction.atomic
def player_merge_undo(*, merge: PlayerMerge, user: AbstractBaseUser) -> Player:
    """Undo a merge: the gone player is entered again (his id, name, account link) and
    takes back what moved from him; his parties' games are renewed, so that ratings are
    rated again, and their audit trails say the merge was undone.

    Refused once undone, while the kept player is merged away himself (undo that merge
    first), or while the club has another player of the gone one's name.
    """
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.is_undone:
        raise PlayerChangeError("merge_undone", gone=merge.gone_name, keep=merge.keep_name)
    keep = Player.objects.select_for_update().filter(pk=merge.keep_id).first()
    if keep is None:
        raise PlayerChangeError("keep_merged", gone=merge.gone_name, keep=merge.keep_name)
    club_players = Player.objects.filter(club_id=merge.club_id)
    if club_players.filter(pk=merge.gone_id).exists():  # never: ids are not used twice
        raise PlayerChangeError("merge_undone", gone=merge.gone_name, keep=merge.keep_name)
    if club_players.filter(name__iexact=merge.gone_name).exists():
        raise PlayerChangeError("name_taken", name=merge.gone_name)
    account = merge.gone_user
    if merge.took_account and keep.user_id == merge.gone_user_id:
        keep.user = None
        keep.save(update_fields=["user"])
    elif account is not None and club_players.filter(user=account).exists():
        account = None  # linked to another player since: the link stays there
    gone = Player.objects.create(
        pk=merge.gone_id, club_id=merge.club_id, name=merge.gone_name,
        owner_id=merge.gone_owner_id, user=account,
    )  # fmt: skip
    Player.objects.filter(pk=gone.pk).update(created_at=merge.gone_created_at)
    moved = merge.moved
    parties = moved["parties"]
    # Everything of the kept player's in the gone one's parties was the gone one's: the
    # two never sat together, so this finds also the games closed since the merge.
    Seat.objects.filter(partie_id__in=parties, player=keep).update(player=gone)
    Hand.objects.filter(partie_id__in=parties, knocker=keep).update(knocker=gone)
    Partie.all_objects.filter(pk__in=parties, first_dealer=keep).update(first_dealer=gone)
    PlayerResult.objects.filter(partie_id__in=parties, player=keep).update(player=gone)
    lines = SettlementLine.objects.filter(game__partie_id__in=parties)
    lines.filter(payer=keep).update(payer=gone)
    lines.filter(payee=keep).update(payee=gone)
    PartieStats.objects.filter(partie_id__in=parties, player=keep).update(player=gone)
    ResultConfirmation.objects.filter(game__partie_id__in=parties, player=keep).update(player=gone)
    EveningPayment.objects.filter(pk__in=moved["paid"], payer=keep).update(payer=gone)
    EveningPayment.objects.filter(pk__in=moved["received"], payee=keep).update(payee=gone)
    EveningPayment.objects.bulk_create(_dropped_payments(moved["dropped"], gone, keep))
    games_renew(parties=parties)
    merge.undone_at = timezone.now()
    merge.undone_by = user
    merge.save(update_fields=["undone_at", "undone_by"])
    _players_renamed(parties, user, {"player": keep.name}, {"player": gone.name, "unmerged": True})
    return gone


def _ids(rows) -> list[int]:
    return list(rows.order_by("pk").values_list("pk", flat=True))


def _payment_json(payment: EveningPayment, gone: Player) -> dict:
    """A transfer between the two merged players, as the undo re-enters it."""
    settled = payment.evening.settled_at
    return {
        "evening": payment.evening_id,
        "settled_at": settled.isoformat() if settled else None,
        "gone_pays": payment.payer_id == gone.pk,
        "amount": str(payment.amount),
        "paid_at": payment.paid_at.isoformat() if payment.paid_at else None,
        "carried_to": payment.carried_to_id,
    }


def _dropped_payments(dropped: list[dict], gone: Player, keep: Player) -> list[EveningPayment]:
    """The transfers between the two that the merge dropped, entered again where their
    evening stands as it was settled then (not reopened and settled anew since)."""
    settled = {
        evening.pk: evening.settled_at
        for evening in Evening.objects.filter(pk__in=[row["evening"] for row in dropped])
    }
    carried = set(
        Evening.objects.filter(
            pk__in=[row["carried_to"] for row in dropped if row["carried_to"]]
        ).values_list("pk", flat=True)
    )
    payments = []
    for row in dropped:
        was = row["settled_at"] and datetime.fromisoformat(row["settled_at"])
        if row["evening"] not in settled or settled[row["evening"]] != was:
            continue
        payer, payee = (gone, keep) if row["gone_pays"] else (keep, gone)
        payments.append(
            EveningPayment(
                evening_id=row["evening"],
                payer=payer,
                payee=payee,
                amount=Decimal(row["amount"]),
                paid_at=row["paid_at"] and datetime.fromisoformat(row["paid_at"]),
                carried_to_id=row["carried_to"] if row["carried_to"] in carried else None,
            )
        )
    return payments


def player_merge_check(*, keep: Player, gone: Player) -> None:
    """Raise the PlayerChangeError that would refuse merging ``gone`` into ``keep``, if any."""
    if keep.pk == gone.pk:
        raise PlayerChangeError("same_player", name=keep.name)
    if keep.club_id != gone.club_id:
        raise PlayerChangeError("other_club", keep=keep.name, gone=gone.name)
    together = (  # deleted parties too: the merge moves their seats as well
        Partie.all_objects.filter(seats__player=keep)
        .filter(seats__player=gone)
        .order_by("started_at", "pk")
        .first()
    )
    if together is not None:
        raise PlayerChangeError(
            "seated_together", keep=keep.name, gone=gone.name, partie=_named(together)
        )
    for check in MERGE_CHECKS:
        if (refusal := check(keep, gone)) is not None:
            raise refusal


def _named(partie: Partie) -> str:
    names = " – ".join(partie.summary.get("players", [])) or f"#{partie.pk}"
    return f"{names} ({partie.started_at:%Y-%m-%d})"


def _players_renamed(parties: list[int], user: AbstractBaseUser, before: dict, after: dict) -> None:
    """The parties' summaries from a replay under the players' names now (a partnership's
    team is named after its members), and an entry in each audit trail. The hands, and
    so the state and the league's results, do not change."""
    locked = (
        Partie.objects.select_for_update(of=("self",))
        .filter(pk__in=parties)
        .prefetch_related(Prefetch("hands", queryset=HANDS_IN_ORDER))
        .order_by("pk")
    )
    rows = list(partie_with_players(locked))
    for partie in rows:
        # A partie that cannot be scored keeps its summary until it is repaired.
        with contextlib.suppress(Unscorable), scoring(partie):
            partie.summary = summary_of(partie_session(partie))
        partie.version += 1  # the sheet names him anew: the live view shows it
    Partie.objects.bulk_update(rows, ["summary", "version"])
    HandChange.objects.bulk_create(
        HandChange(
            partie=partie, action=HandChange.Action.PLAYER, user=user, before=before, after=after
        )
        for partie in rows
    )
