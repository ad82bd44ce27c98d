"""Recording what is due asks the same few queries however many are told: the request
that starts a round of 32 tables tells 64 players in it."""

import pytest
from django.contrib.auth.models import User

from scorekeeper.clubs.models import Club, Role
from scorekeeper.notices.models import Delivery, Kind, Notice
from scorekeeper.notices.services import Tell, notices_record, preferences_set, still_wanted
from tests.clubs.conftest import join
from tests.notices.conftest import address_verified

pytestmark = pytest.mark.django_db


def members_with_addresses(club: Club, count: int, prefix: str) -> list[User]:
    users = []
    for n in range(count):
        user = User.objects.create_user(f"{prefix}{n}")
        address_verified(user, f"{prefix}{n}@gin.example")
        join(club, user, Role.MEMBER)
        users.append(user)
    return users


@pytest.mark.parametrize("count", [2, 40])
def test_telling_a_round_asks_six_queries_however_many_players_it_seats(
    club, django_assert_num_queries, count
):
    users = members_with_addresses(club, count, "p")
    preferences_set(user=users[0], off=["tables_out:mail"])  # he wants no tables
    tell = [Tell(user.pk, "/parties/1/", {"table": 1}) for user in users]

    # who of them is a member with a verified address and wants it; which of them were
    # told already; the notices; their rows read back; their deliveries; the worker's
    # task that sends them
    with django_assert_num_queries(6):
        notices_record(club_id=club.pk, kind=Kind.TABLES_OUT, event="1:1", tell=tell)

    assert Notice.objects.count() == Delivery.objects.count() == count - 1
    assert not Notice.objects.filter(recipient=users[0]).exists()


@pytest.mark.parametrize("count", [2, 40])
def test_the_worker_asks_who_still_wants_a_batch_in_one_query(
    club, django_assert_num_queries, count
):
    users = members_with_addresses(club, count, "w")
    tell = [Tell(user.pk, "/parties/1/", {"table": 1}) for user in users]
    notices_record(club_id=club.pk, kind=Kind.TABLES_OUT, event="1:1", tell=tell)
    preferences_set(user=users[0], off=["tables_out:mail"])  # he changed his mind since
    club.memberships.filter(user=users[-1]).delete()  # and he left the club
    batch = list(Delivery.objects.select_related("notice"))

    with django_assert_num_queries(1):  # the members, their verified addresses, their choices
        wanted = still_wanted(batch)

    assert wanted == {
        d.pk for d in batch if d.notice.recipient_id not in {users[0].pk, users[-1].pk}
    }
