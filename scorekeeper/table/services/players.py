"""Writes to a club's players: linked to an account, renamed, two entries for one person
made one."""

from __future__ import annotations

import contextlib

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Membership

from ..models import (
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    Seat,
    SettlementLine,
    Unscorable,
    scoring,
)
from ..selectors import HANDS_IN_ORDER, partie_session, partie_with_players
from .parties import summary_of
from .results import games_renew


@transaction.atomic
def player_link(*, player: Player, user: AbstractBaseUser | None) -> Player:
    """Link the player to the account of a member of his club (None: to nobody); a member
    is one player in a club, so the link moves from any other player there."""
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise ValueError(f"{user} is not a member of the club of {player}")
        Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk).update(
            user=None
        )
    player.user = user
    player.save(update_fields=["user"])
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
    "seated_together": _(
        "%(gone)s and %(keep)s both sat in the partie %(partie)s: they are two people, "
        "so they cannot be merged. Rename one of them instead."
    ),
}


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
def player_rename(*, player: Player, name: str, user: AbstractBaseUser) -> Player:
    """Give the player another name, unique in his club (whatever the case: "anna" beside
    "Anna" would be one person twice); every partie he sat in names him anew, and its
    audit trail says so."""
    name = name.strip()
    limit = Player._meta.get_field("name").max_length
    if not name:
        raise PlayerChangeError("name_empty")
    if len(name) > limit:
        raise PlayerChangeError("name_too_long", limit=limit)
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
            player.save(update_fields=["name"])
    except IntegrityError:
        raise PlayerChangeError("name_taken", name=name) from None
    parties = Partie.objects.filter(seats__player=player).values_list("pk", flat=True)
    _players_renamed(list(parties), user, {"player": before}, {"player": name})
    return player


@transaction.atomic
def player_merge(*, keep: Player, gone: Player, user: AbstractBaseUser) -> Player:
    """Make two entries for one person one: everything of ``gone`` (seats, knocks, first
    deals, evening transfers, league results, hand statistics) becomes ``keep``'s and
    ``gone`` is deleted. ``keep`` keeps his account link, or takes ``gone``'s.

    Refused for players of two clubs, and for two who sat in one partie (one person
    cannot have held two seats). The parties' summaries name ``keep`` and their audit
    trails say who was merged into whom.
    """
    player_merge_check(keep=keep, gone=gone)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk])}
    if len(locked) < 2:  # one of them merged away or deleted meanwhile
        raise Player.DoesNotExist(f"{keep} or {gone} is gone")
    keep, gone = locked[keep.pk], locked[gone.pk]
    player_merge_check(keep=keep, gone=gone)  # again, under the lock
    parties = list(Partie.objects.filter(seats__player=gone).values_list("pk", flat=True))
    Seat.objects.filter(player=gone).update(player=keep)
    Hand.objects.filter(knocker=gone).update(knocker=keep)
    Partie.objects.filter(first_dealer=gone).update(first_dealer=keep)
    # A transfer between the two is one person paying himself: it settles nothing, and
    # every other transfer of its evening stays right (his balance is the two summed).
    EveningPayment.objects.filter(Q(payer=gone, payee=keep) | Q(payer=keep, payee=gone)).delete()
    EveningPayment.objects.filter(payer=gone).update(payer=keep)
    EveningPayment.objects.filter(payee=gone).update(payee=keep)
    PlayerResult.objects.filter(player=gone).update(player=keep)
    SettlementLine.objects.filter(payer=gone).update(payer=keep)
    SettlementLine.objects.filter(payee=gone).update(payee=keep)
    PartieStats.objects.filter(player=gone).update(player=keep)
    games_renew(parties=parties)  # his ratings are rated again from his first game
    account, name = gone.user, gone.name
    gone.delete()  # after its account link is free for keep (one player per member)
    if keep.user_id is None and account is not None:
        keep.user = account
        keep.save(update_fields=["user"])
    _players_renamed(parties, user, {"player": name}, {"player": keep.name, "merged": True})
    return keep


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
