"""A query written once per database and run with each user's id (``prepared.ForUser``):
the header's notice counts as the ORM's query does, for every user, and a query that
varies with more than the user is built anew each time."""

# ruff: noqa: F811 (the fixtures of test_confirmations.py, imported, are named as arguments)

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from scorekeeper.prepared import ForUser
from scorekeeper.table.selectors import _NOTICE, _notice_counts, answer_notice
from scorekeeper.table.services import confirmations
from tests.table.test_confirmations import anna, ben, club, game_of, play  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_notice_counts_for_each_user_what_the_orms_query_counts(play, anna, ben, owner):
    disputed = play()
    play()  # a second game for Anna and Ben to confirm
    confirmations.result_dispute(game=game_of(disputed), user=ben, note="I had gin")

    for user in (anna, ben, owner):
        assert answer_notice(user).__dict__ == _notice_counts(user).get(), user
    assert (answer_notice(anna).to_answer, answer_notice(owner).disputed) == (2, 1)
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
