"""The score sheet and recording a hand cost the same queries for 10 hands as for 300; the
sheet of a partie without a closed game does not ask for its games' confirmations."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.table.models import Hand, HandChange, Partie

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def partie_of(start_partie, owner):
    """A running partie with ``count`` hands, stored in one go.

    Mostly no games, with a knock 5 v 6 (one point to the knocker, never an
    undercut) every tenth hand, so that 300 hands stay well short of the target.
    """

    def build(count: int) -> Partie:
        partie = start_partie()
        anna, ben = (seat.player for seat in partie.seats.select_related("player"))
        hands = []
        for number in range(1, count + 1):
            if number % 10 == 0:
                knocker = anna if number % 20 else ben
                hands.append(
                    Hand(
                        partie=partie,
                        number=number,
                        kind=Hand.Kind.KNOCK,
                        knocker=knocker,
                        knocker_deadwood=5,
                        defender_deadwood=6,
                    )
                )
            else:
                hands.append(Hand(partie=partie, number=number, kind=Hand.Kind.NO_GAME))
        Hand.objects.bulk_create(hands)
        HandChange.objects.bulk_create(
            HandChange(partie=partie, hand_number=n, action="recorded", user=owner)
            for n in range(1, count + 1)
        )
        return partie

    return build


def queries_of(request) -> int:
    with CaptureQueriesContext(connection) as context:
        response = request()
    assert response.status_code == 200, response.content[:500]
    return len(context.captured_queries)


def test_the_score_sheet_runs_as_many_queries_for_300_hands_as_for_10(client_owner, partie_of):
    small, large = partie_of(10), partie_of(300)
    client_owner.get(reverse("home"))  # the session and the user, loaded once before counting

    counts = [
        queries_of(lambda p=p: client_owner.get(reverse("partie_detail", args=[p.pk])))
        for p in (small, large)
    ]

    assert counts[0] == counts[1], counts
    large_page = client_owner.get(reverse("partie_detail", args=[large.pk]))
    assert len(large_page.context["sheet"].rows) == 300
    # 30 knocks of one point each: Anna's on hands 10, 30, 50 …, Ben's on 20, 40, 60 …
    (game,) = large_page.context["sheet"].games
    assert [final.points for final in game.tally.players.values()] == [15, 15]


def test_the_score_sheet_of_a_partie_without_a_closed_game_asks_for_no_confirmations(
    client_owner, partie_of, closed_partie
):
    client_owner.get(reverse("home"))
    running = partie_of(10)

    with CaptureQueriesContext(connection) as running_page:
        client_owner.get(reverse("partie_detail", args=[running.pk]))
    with CaptureQueriesContext(connection) as closed_page:
        client_owner.get(reverse("partie_detail", args=[closed_partie.pk]))

    # The session and the user, the partie, its seats, its hands, its changes and the
    # header's notice: 7, where the confirmations of its closed games (none) made 8.
    assert len(running_page) == 7, [q["sql"][:80] for q in running_page.captured_queries]
    games = 'SELECT "table_closedgame"."id"'  # the closed games, for their confirmations
    assert not any(q["sql"].startswith(games) for q in running_page.captured_queries)
    assert any(q["sql"].startswith(games) for q in closed_page.captured_queries)


def test_the_shared_sheet_runs_as_many_queries_for_300_hands_as_for_10(client, partie_of):
    small, large = partie_of(10), partie_of(300)

    counts = [
        queries_of(lambda p=p: client.get(reverse("shared_partie", args=[p.share_token])))
        for p in (small, large)
    ]

    assert counts[0] == counts[1], counts


def test_recording_a_hand_by_htmx_runs_as_many_queries_for_300_hands_as_for_10(
    client_owner, partie_of
):
    small, large = partie_of(10), partie_of(300)
    client_owner.get(reverse("home"))
    hand = {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "3", "defender_deadwood": "20"}

    counts = [
        queries_of(lambda p=p: client_owner.post(reverse("hand_create", args=[p.pk]), hand, **HTMX))
        for p in (small, large)
    ]

    assert counts[0] == counts[1], counts
    assert Hand.objects.filter(partie=small).count() == 11
    assert Hand.objects.filter(partie=large).count() == 301
    large.refresh_from_db()
    assert large.summary["totals"] == {"Anna": 15 + 17, "Ben": 15}
    assert large.summary["hands"] == 301


def test_the_evening_page_costs_the_same_queries_for_two_parties_as_for_five(
    client_owner, partie_of, owner
):
    from datetime import date

    from scorekeeper.table import services

    def evening_of(count: int):
        evening = services.evening_start(owner=owner, name=f"{count}", played_on=date.today())
        for _ in range(count):
            services.partie_evening_set(partie=partie_of(12), evening=evening)
        return evening

    counts = []
    for evening in (evening_of(2), evening_of(5)):
        with CaptureQueriesContext(connection) as queries:
            response = client_owner.get(reverse("evening_detail", args=[evening.pk]))
        assert response.status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]
