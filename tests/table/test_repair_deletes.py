"""Deletes that can be undone, archives and settled evenings reopened: each in the audit
trail, each with its confirmation step, and the league standings following."""

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.clubs.services import personal_club
from scorekeeper.league import services as league_services
from scorekeeper.league.selectors import season_table
from scorekeeper.table import services
from scorekeeper.table.models import (
    ClosedGame,
    Evening,
    EveningPayment,
    HandChange,
    Partie,
    PartieStats,
)
from tests.clubs.conftest import join
from tests.conftest import PASSWORD
from tests.table.conftest import WORKED_EXAMPLE

pytestmark = pytest.mark.django_db

K = engine.Hand.knock


def games_in_standings(owner: User) -> dict[str, int]:
    league = league_services.league_create(club=personal_club(owner), name="Tuesdays")
    # A season lasts at most five years: these two hold every partie a test starts.
    today = date.today()
    season = league_services.season_create(
        league=league,
        name="These years",
        starts_on=today.replace(year=today.year - 2, day=1),
        ends_on=today.replace(year=today.year + 2, day=1),
    )
    return {row.line.player: row.line.games for row in season_table(season).rows}


# Deleting and restoring a partie


def test_delete_asks_first_and_changes_nothing_until_confirmed(client_owner, closed_partie):
    url = reverse("partie_delete", args=[closed_partie.pk])
    page = client_owner.get(url)
    assert page.status_code == 200
    assert "Delete the partie Anna – Ben?" in page.content.decode()
    assert "6 hands" in page.content.decode()
    assert Partie.objects.filter(pk=closed_partie.pk).exists()


def test_a_deleted_partie_leaves_lists_pages_and_standings_and_comes_back(
    client_owner: Client, owner: User, closed_partie: Partie
):
    assert games_in_standings(owner) == {"Anna": 1, "Ben": 1}
    response = client_owner.post(reverse("partie_delete", args=[closed_partie.pk]))
    assert response.status_code == 302 and response.url == reverse("home") + "?show=deleted"
    assert client_owner.get(reverse("partie_detail", args=[closed_partie.pk])).status_code == 404
    assert closed_partie.share_token
    assert (
        Client().get(reverse("shared_partie", args=[closed_partie.share_token])).status_code == 404
    )
    assert list(client_owner.get(reverse("home")).context["parties"]) == []
    assert not ClosedGame.objects.filter(partie=closed_partie).exists()
    assert not PartieStats.objects.filter(partie=closed_partie).exists()
    assert games_in_standings(owner).get("Anna", 0) == 0
    deleted = client_owner.get(reverse("home") + "?show=deleted")
    assert [p.pk for p in deleted.context["parties"]] == [closed_partie.pk]
    assert reverse("partie_restore", args=[closed_partie.pk]) in deleted.content.decode()

    response = client_owner.post(reverse("partie_restore", args=[closed_partie.pk]))
    assert response.status_code == 302 and response.url == closed_partie.get_absolute_url()
    page = client_owner.get(closed_partie.get_absolute_url())
    assert page.status_code == 200 and page.context["sheet"].winner == "Anna"
    assert games_in_standings(owner) == {"Anna": 1, "Ben": 1}
    removed, restored = (
        closed_partie.changes.filter(action=a).get()
        for a in (HandChange.Action.REMOVED, HandChange.Action.UNREMOVED)
    )
    assert restored.undoes == removed and removed.user == restored.user == owner
    assert "partie deleted" in page.content.decode() and "partie restored" in page.content.decode()


def test_a_restored_partie_cannot_be_restored_twice(client_owner, owner, closed_partie):
    services.partie_delete(partie=closed_partie, user=owner)
    services.partie_restore(partie=closed_partie, user=owner)
    with pytest.raises(services.RepairError) as refusal:
        services.partie_restore(partie=closed_partie, user=owner)
    assert refusal.value.code == "undone_already"


def test_a_deleted_partie_leaves_its_evening_figures(owner, closed_partie, evening):
    services.partie_evening_set(partie=closed_partie, evening=evening)
    from scorekeeper.table.selectors import evening_sheet

    assert evening_sheet(evening).transfers
    services.partie_delete(partie=closed_partie, user=owner)
    sheet = evening_sheet(evening)
    assert sheet.results == [] and sheet.transfers == []


def test_a_partie_of_a_settled_evening_is_not_deleted(client_owner, closed_partie, evening):
    services.partie_evening_set(partie=closed_partie, evening=evening)
    services.evening_settle(evening=evening)
    response = client_owner.post(reverse("partie_delete", args=[closed_partie.pk]))
    assert response.status_code == 400
    assert "belongs to the settled evening Club night" in response.content.decode()
    assert Partie.objects.filter(pk=closed_partie.pk).exists()


def test_a_partie_does_not_come_back_into_an_evening_settled_meanwhile(
    client_owner, owner, closed_partie, evening, partie_factory
):
    services.partie_evening_set(partie=closed_partie, evening=evening)
    services.partie_delete(partie=closed_partie, user=owner)
    services.partie_evening_set(partie=partie_factory(), evening=evening)
    services.evening_settle(evening=evening)
    response = client_owner.post(reverse("partie_restore", args=[closed_partie.pk]))
    assert response.status_code == 400
    assert "reopen the evening first" in response.content.decode()
    assert not Partie.objects.filter(pk=closed_partie.pk).exists()


@pytest.fixture
def partie_factory(start_partie, play):
    def make() -> Partie:
        return play(start_partie(), WORKED_EXAMPLE)

    return make


@pytest.fixture
def club_cast(owner: User, django_user_model):
    """A club with a scorer and a member who reads, and one closed partie in it."""
    club = club_services.club_create(name="Rummy Club", owner=owner)
    users = {}
    for name, role in (("scorer", Role.SCORER), ("member", Role.MEMBER)):
        users[name] = django_user_model.objects.create_user(name, password=PASSWORD)
        join(club, users[name], role)
    partie = services.partie_start(
        owner=owner, club=club, names=["Anna", "Ben"], rules=engine.preset("classic")
    )
    for hand in WORKED_EXAMPLE:
        services.hand_record(partie=partie, hand=hand, user=owner)
    return club, users, partie


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("outsider", 404)])
def test_only_a_scorer_deletes(club_cast, outsider, who, status):
    _, users, partie = club_cast
    client = Client()
    client.force_login(users.get(who) or outsider)
    assert client.post(reverse("partie_delete", args=[partie.pk])).status_code == status
    assert client.get(reverse("partie_delete", args=[partie.pk])).status_code == status
    assert Partie.objects.filter(pk=partie.pk).exists()


def test_a_scorer_deletes_and_restores(club_cast):
    _, users, partie = club_cast
    client = Client()
    client.force_login(users["scorer"])
    assert client.post(reverse("partie_delete", args=[partie.pk])).status_code == 302
    reader = Client()
    reader.force_login(users["member"])
    assert reader.post(reverse("partie_restore", args=[partie.pk])).status_code == 403
    assert client.post(reverse("partie_restore", args=[partie.pk])).status_code == 302


# Archiving


def test_an_archived_partie_leaves_the_home_list_and_shows_on_request(
    client_owner: Client, closed_partie: Partie, partie_factory
):
    other = partie_factory()
    response = client_owner.post(reverse("partie_archive", args=[closed_partie.pk]))
    assert response.status_code == 302
    home = client_owner.get(reverse("home"))
    assert [p.pk for p in home.context["parties"]] == [other.pk]
    archived = client_owner.get(reverse("home") + "?show=archived")
    assert [p.pk for p in archived.context["parties"]] == [closed_partie.pk]
    assert "Take out of the archive" in archived.content.decode()
    page = client_owner.get(closed_partie.get_absolute_url())
    assert page.status_code == 200  # still there, and still counted
    client_owner.post(reverse("partie_archive", args=[closed_partie.pk]), {"archived": "0"})
    home = client_owner.get(reverse("home"))
    assert {p.pk for p in home.context["parties"]} == {other.pk, closed_partie.pk}
    actions = list(closed_partie.changes.values_list("action", flat=True)[:2])
    assert actions == [HandChange.Action.UNARCHIVED, HandChange.Action.ARCHIVED]


# The home list


def test_the_home_list_shows_date_kind_and_state(client_owner, closed_partie, start_partie):
    start_partie()
    html = client_owner.get(reverse("home")).content.decode()
    day = closed_partie.started_at.date().isoformat()
    assert html.count(f'<time datetime="{day}') == 2
    assert html.count("Two players") == 2
    assert "running · 0 hands" in html
    assert "over · Anna won" in html


# A deleted hand put back


def test_a_deleted_hand_goes_back_to_its_place(client_owner: Client, owner, partie, play):
    play(partie, WORKED_EXAMPLE[:4])
    client_owner.post(reverse("hand_delete", args=[partie.pk, 2]))
    assert partie.hands.count() == 3
    deleted = partie.changes.get(action=HandChange.Action.DELETED)
    page = client_owner.get(partie.get_absolute_url()).content.decode()
    undo = reverse("change_undo", args=[partie.pk, deleted.pk])
    assert undo in page
    response = client_owner.post(undo)
    assert response.status_code == 302
    sheet = client_owner.get(partie.get_absolute_url()).context["sheet"]
    assert [row.plays[0].hand for row in sheet.rows] == list(WORKED_EXAMPLE[:4])
    restored = partie.changes.get(action=HandChange.Action.RESTORED)
    assert restored.undoes == deleted and restored.hand_number == 2
    assert undo not in client_owner.get(partie.get_absolute_url()).content.decode()
    again = client_owner.post(undo)
    assert again.status_code == 400 and "undone already" in again.content.decode()
    assert partie.hands.count() == 4


def test_a_hand_that_cannot_go_back_is_refused_with_the_reason(client_owner, owner, partie, play):
    play(partie, WORKED_EXAMPLE[:3])
    services.hand_delete(partie=partie, number=3, user=owner)
    services.hand_delete(partie=partie, number=2, user=owner)
    later = partie.changes.filter(action=HandChange.Action.DELETED, hand_number=3).get()
    response = client_owner.post(reverse("change_undo", args=[partie.pk, later.pk]))
    assert response.status_code == 400
    assert "Hand 3 cannot go back to its place" in response.content.decode()
    assert partie.hands.count() == 1


# A settled evening reopened


@pytest.fixture
def settled(owner: User, evening: Evening, partie_factory) -> Evening:
    """The evening with the worked example closed (Ben pays Anna 175 points at 0.05),
    settled, its payment marked paid."""
    services.partie_evening_set(partie=partie_factory(), evening=evening)
    [payment] = services.evening_settle(evening=evening)
    services.evening_payment_paid(payment=payment)
    evening.refresh_from_db()
    return evening


def test_the_owner_reopens_a_settled_evening_after_a_confirmation(client_owner, settled):
    url = reverse("evening_reopen", args=[settled.pk])
    page = client_owner.get(url)
    assert page.status_code == 200 and "paid" in page.content.decode()
    assert EveningPayment.objects.filter(evening=settled).count() == 1
    response = client_owner.post(url)
    assert response.status_code == 302
    settled.refresh_from_db()
    assert not settled.is_settled
    assert not EveningPayment.objects.filter(evening=settled).exists()
    change = settled.changes.get()
    assert change.action == HandChange.Action.REOPENED and change.partie is None
    assert change.before["payments"][0]["amount"] == "8.7500"
    assert change.before["payments"][0]["paid_at"] is not None
    # Its parties can change again, and it settles anew as the settle service expects.
    partie = settled.parties.get()
    services.hand_delete(partie=partie, number=6, user=change.user)
    services.hand_record(partie=partie, hand=K(2, 30, knocker="Anna"), user=change.user)
    [payment] = services.evening_settle(evening=settled)
    assert payment.amount == Decimal("8.75") and payment.paid_at is None


def test_undoing_the_reopening_settles_as_before_paid_marks_included(client_owner, settled):
    paid_at = settled.payments.get().paid_at
    settled_at = settled.settled_at
    client_owner.post(reverse("evening_reopen", args=[settled.pk]))
    page = client_owner.get(settled.get_absolute_url())
    reopening = settled.changes.get()
    undo = reverse("evening_reopen_undo", args=[settled.pk, reopening.pk])
    assert undo in page.content.decode()
    assert client_owner.post(undo).status_code == 302
    settled.refresh_from_db()
    assert settled.settled_at == settled_at
    payment = settled.payments.get()
    assert payment.paid_at == paid_at and payment.amount == Decimal("8.75")
    assert settled.changes.filter(undoes=reopening).exists()
    again = client_owner.post(undo)
    assert again.status_code == 400


def test_the_reopening_is_not_undone_once_the_figures_changed(client_owner, owner, settled):
    client_owner.post(reverse("evening_reopen", args=[settled.pk]))
    partie = settled.parties.get()
    services.hand_delete(partie=partie, number=1, user=owner)
    reopening = settled.changes.get()
    response = client_owner.post(reverse("evening_reopen_undo", args=[settled.pk, reopening.pk]))
    assert response.status_code == 400
    assert "settle it up again instead" in response.content.decode()
    settled.refresh_from_db()
    assert not settled.is_settled


def test_debts_carried_in_are_open_again_once_reopened(owner, settled, partie_factory):
    EveningPayment.objects.filter(evening=settled).update(paid_at=None)  # an open debt
    later = services.evening_start(owner=owner, name="Next week", played_on=date(2026, 11, 27))
    services.partie_evening_set(partie=partie_factory(), evening=later)
    services.evening_settle(evening=later)
    debt = settled.payments.get()
    debt.refresh_from_db()
    assert debt.carried_to == later
    with pytest.raises(services.RepairError) as refusal:
        services.evening_reopen(evening=settled, user=owner)
    assert refusal.value.code == "evening_carried"
    services.evening_reopen(evening=later, user=owner)
    debt.refresh_from_db()
    assert debt.carried_to is None and debt.is_open


def test_only_the_clubs_owner_reopens(club_cast, owner):
    club, users, partie = club_cast
    evening = services.evening_start(owner=owner, club=club, name="Club", played_on=date.today())
    services.partie_evening_set(partie=partie, evening=evening)
    services.evening_settle(evening=evening)
    for name in ("scorer", "member"):
        client = Client()
        client.force_login(users[name])
        assert client.post(reverse("evening_reopen", args=[evening.pk])).status_code == 403
        page = client.get(evening.get_absolute_url()).content.decode()
        assert reverse("evening_reopen", args=[evening.pk]) not in page
    owner_client = Client()
    owner_client.force_login(owner)
    page = owner_client.get(evening.get_absolute_url()).content.decode()
    assert reverse("evening_reopen", args=[evening.pk]) in page
    assert owner_client.post(reverse("evening_reopen", args=[evening.pk])).status_code == 302
