"""The one permission check: every view that shows or changes a club's things calls one
of these first.

A user who is not a member of the club (or not logged in) gets a 404, never a 403 that
would confirm the thing exists. A member whose role is short of what the request needs
(a member changing a partie's rules, a scorer inviting) gets a 403: he can see the
thing, so nothing is given away, and he learns that he lacks the right rather than that
it is gone.

What it takes: reading, and confirming for his own player, needs ``Role.MEMBER``;
recording and correcting hands needs ``Role.SCORER`` or a seat at the partie (a member
scores his own table: ``table.access.partie_to_score``); changing rules, starting and
importing parties, running and settling evenings need ``Role.SCORER``; members,
invitations, seasons and the club's settings need ``Role.OWNER``.

A user who is no longer a member may still read what is his own (``reader`` of
``object_in_club``: a partie he played, an evening he has money in, his player): he
reads it as a member would, and anything more is a 403. A deleted club, and all it
holds, is a 404 for everyone; only its owner finds it again (``deleted_club_of``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import PermissionDenied
from django.db.models import Model, OuterRef, Q, QuerySet, Subquery
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from scorekeeper.prepared import Prepared

from .models import Club, Membership, Role
from .selectors import clubs_of

__all__ = [
    "Role",
    "club_of",
    "clubs_of",
    "deleted_club_of",
    "InClub",
    "object_in_club",
]

T = TypeVar("T", bound=Model)


def club_of(request: HttpRequest, slug: str, need: Role = Role.MEMBER) -> tuple[Club, Role]:
    """The club and the user's role in it, if he is a member with at least ``need``."""
    membership = (
        Membership.objects.select_related("club")
        .filter(user_id=_user_id(request), club__slug=slug, club__deleted_at=None)
        .first()
    )
    if membership is None:
        raise Http404(_("There is no such club."))
    return membership.club, _enough(membership.role, need)


def deleted_club_of(request: HttpRequest, slug: str, need: Role = Role.OWNER) -> Club:
    """A deleted club the user was a member of, for its owner to restore."""
    membership = (
        Membership.objects.select_related("club")
        .filter(user_id=_user_id(request), club__slug=slug, club__deleted_at__isnull=False)
        .first()
    )
    if membership is None:
        raise Http404(_("There is no such club."))
    _enough(membership.role, need)
    return membership.club


def object_in_club(
    request: HttpRequest,
    queryset: QuerySet[T],
    pk: int,
    need: Role = Role.MEMBER,
    *,
    club: str = "club",
    reader: Callable[[int], Q] | None = None,
) -> T:
    """The object ``pk`` of ``queryset`` if the user is a member of its club (``club``:
    the lookup from the object to its club) with at least ``need``. His role rides along
    as ``thing.club_role``, so that a page shows a member no buttons he may not use; it
    comes in the same query as the object.

    ``reader(user_id)``: the condition on the object under which a user who is not a
    member may read it all the same (a partie he played). He gets it with the role of a
    member, and ``thing.is_member`` False, so that the page links him to nothing of the
    club's he cannot open.
    """
    user_id = _user_id(request)
    try:
        thing = _with_role(queryset, user_id, club).get(pk=pk)
    except queryset.model.DoesNotExist:
        raise Http404(_("There is nothing here.")) from None
    return _judged(thing, need, reader, user_id)


class InClub:
    """``object_in_club`` for one kind of thing, asked on most requests (a partie: every
    score sheet and every hand): its query is written once per database connection
    (``prepared.Prepared``) instead of by the ORM on each request. ``queryset()``: the
    things, with what they bring along (their players, say)."""

    def __init__(self, queryset: Callable[[], QuerySet], club: str = "club"):
        self.query = Prepared(
            lambda pk, user_id: _with_role(queryset(), user_id, club).filter(pk=pk)
        )

    def get(
        self,
        request: HttpRequest,
        pk: int,
        need: Role = Role.MEMBER,
        *,
        reader: Callable[[int], Q] | None = None,
    ) -> Model:
        user_id = _user_id(request)
        found = self.query.all(pk=pk, user_id=user_id)
        if not found:
            raise Http404(_("There is nothing here."))
        return _judged(found[0], need, reader, user_id)


def _with_role(queryset: QuerySet[T], user_id: int, club: str) -> QuerySet[T]:
    """One query for a member: the objects of clubs not deleted, each with his role in
    its club as a subquery (None: he is no member)."""
    # Unordered: a user has one membership per club, and the model's ordering would join
    # the club and the user into the subquery for nothing (on every page).
    role = Membership.objects.filter(club=OuterRef(club), user_id=user_id).order_by()
    role = role.values("role")[:1]
    return queryset.filter(**{f"{club}__deleted_at": None}).annotate(club_role=Subquery(role))


def _judged(thing: T, need: Role, reader: Callable[[int], Q] | None, user_id: int) -> T:
    """The thing if its ``club_role`` (or, for one who is no member, ``reader``) lets the
    user have it with ``need``: a 404 for a stranger, a 403 for a role too low."""
    if thing.club_role is None and not _may_read(thing, reader, user_id):
        raise Http404(_("There is nothing here."))
    thing.is_member = thing.club_role is not None
    thing.club_role = _enough(thing.club_role or Role.MEMBER, need)
    return thing


def _may_read(thing: Model, reader: Callable[[int], Q] | None, user_id: int) -> bool:
    """Whether a user who is not a member of the thing's club may read it all the same.
    Asked by a query of its own, only for him: selected beside the role, the reader's
    condition was compiled on every page and every hand of the members (half a
    millisecond of the ORM's time for a partie's ``Exists`` of the seats)."""
    if reader is None:
        return False
    return type(thing)._base_manager.filter(reader(user_id), pk=thing.pk).exists()


def _user_id(request: HttpRequest) -> int:
    # The views are @login_required, which sends a stranger to log in; here he meets
    # nothing at all, whatever view forgot it.
    if not request.user.is_authenticated:
        raise Http404(_("There is nothing here."))
    return request.user.pk


def _enough(role: str, need: Role) -> Role:
    role = Role(role)
    if not role.includes(need):
        raise PermissionDenied(_("Your role in this club does not allow this."))
    return role
