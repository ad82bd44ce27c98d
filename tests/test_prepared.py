"""A query written once per database and run with each user's id (``prepared.ForUser``):
the header's notice counts as the ORM's query does, for every user, and a query that
varies with more than the user is built anew each time."""

# ruff: noqa: F811 (the fixtures of test_confirmations.py, imported, are named as arguments)

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections, transaction
from django.db.models import OuterRef, Subquery
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.clubs.models import Membership
from scorekeeper.prepared import ForUser, Prepared
from scorekeeper.table.access import partie_for
from scorekeeper.table.models import Partie
from scorekeeper.table.selectors import (
    _NOTICE,
    _notice_counts,
    confirmation_notice,
    partie_with_players,
)
from scorekeeper.table.services import confirmations
from tests.table.conftest import partie, start_partie  # noqa: F401
from tests.table.test_confirmations import anna, ben, club, game_of, play  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_notice_counts_for_each_user_what_the_orms_query_counts(play, anna, ben, owner):
    disputed = play()
    play()  # a second game for Anna and Ben to confirm
    confirmations.result_dispute(game=game_of(disputed), user=ben, note="I had gin")

    for user in (anna, ben, owner):
        assert confirmation_notice(user).__dict__ == _notice_counts(user).get(), user
    assert (confirmation_notice(anna).to_confirm, confirmation_notice(owner).disputed) == (2, 1)
    assert _NOTICE.statements, "the notice's SQL is kept for the next page"
    assert None not in _NOTICE.statements.values(), "the notice's query is not prepared"


def test_a_query_that_varies_with_more_than_the_user_is_built_each_time(owner):
    joined = ForUser(
        lambda user: User.objects.filter(pk=user.pk, date_joined__lte=timezone.now()).values(
            "username"
        )
    )

    assert joined.first(owner) == {"username": "owner"}
    assert list(joined.statements.values()) == [None]  # the time differed: nothing kept


def _partie_in_club(pk: int, user_id: int):
    role = Membership.objects.filter(club=OuterRef("club"), user_id=user_id).values("role")
    return (
        partie_with_players(Partie.objects.select_related("club"))
        .filter(pk=pk)
        .annotate(club_role=Subquery(role.order_by()[:1]))
    )


def _values(thing) -> dict:
    return {name: value for name, value in thing.__dict__.items() if not name.startswith("_")}


def _fields(partie: Partie) -> tuple:
    """The partie's values and what came with it: its club, first dealer, seats, players."""
    seats = [(_values(seat), _values(seat.player)) for seat in partie.seats.all()]
    values = _values(partie)
    for judged in ("club_role", "is_member", "may_score"):  # the access check's, compared apart
        values.pop(judged, None)
    return values, _values(partie.club), _values(partie.first_dealer), seats


def test_a_prepared_query_makes_the_instances_the_orm_makes(partie, owner, outsider):
    prepared = Prepared(_partie_in_club)

    for user in (owner, outsider, owner):  # the second time for the owner: the kept SQL
        (found,) = prepared.all(pk=partie.pk, user_id=user.pk)
        (built,) = _partie_in_club(partie.pk, user.pk)
        with CaptureQueriesContext(connection) as queries:  # all of it came with them
            assert _fields(found) == _fields(built)
        assert not queries
        assert found.club_role == built.club_role
    assert found.club_role == "owner"
    assert None not in prepared.statements[connections["default"]].values(), (
        "the query is not prepared"
    )
    assert prepared.all(pk=partie.pk + 1000, user_id=owner.pk) == []


def test_an_id_no_column_holds_is_looked_for_as_the_orm_does(client_owner, partie):
    prepared = Prepared(_partie_in_club)

    assert prepared.all(pk=10**30, user_id=partie.pk) == []  # no OverflowError
    assert client_owner.get(f"/parties/{10**30}/").status_code == 404
    assert client_owner.get(f"/parties/{partie.pk}/").status_code == 200


def test_the_access_check_brings_the_partie_as_the_orms_query_does(rf, partie, owner):
    request = rf.get("/")
    request.user = owner
    built = partie_with_players(Partie.objects.select_related("club")).get(pk=partie.pk)

    found = partie_for(request, partie.pk)

    with CaptureQueriesContext(connection) as queries:  # all of it came with it
        assert _fields(found) == _fields(built)
        assert [seat.partie for seat in found.seats.all()] == [found, found]
    assert not queries
    assert (found.club_role, found.is_member, found.may_score) == ("owner", True, True)


@pytest.mark.django_db(transaction=True)
def test_a_locking_query_is_refused_outside_a_transaction_where_the_orm_refuses_it(partie):
    locking = Prepared(lambda pk: Partie.objects.select_for_update().filter(pk=pk))
    with transaction.atomic():
        assert locking.all(pk=partie.pk) == [partie]  # written under the lock
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            locking.all(pk=partie.pk)
    else:  # SQLite: the ORM does not lock, nor refuse
        assert locking.all(pk=partie.pk) == [partie]
        assert list(Partie.objects.select_for_update().filter(pk=partie.pk)) == [partie]
