"""A league night is an evening: every table's partie goes into the night's evening, its
money is settled there together, and a disputed game (in a season of confirmed games only,
any game not confirmed yet) holds any evening's settle-up back, named, until resolved."""

import importlib
from datetime import timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services
from scorekeeper.league.models import LeagueNight, NightSettings, NightTable
from scorekeeper.league.night_services import night_round_start
from scorekeeper.table import services as table_services
from scorekeeper.table.models import ClosedGame, Evening, EveningPayment, Partie
from scorekeeper.table.services import confirmations
from scorekeeper.table.services.evenings import EveningHeldError
from tests.league.conftest import G

pytestmark = pytest.mark.django_db

at_stake = NightSettings("two_player", engine.preset("classic"), Decimal("0.05"))


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start_round(season, owner, *tables, round=1) -> LeagueNight:
    seating = Pairing(tuple(Table(n, names) for n, names in enumerate(tables, start=1)), ())
    return night_round_start(
        season=season,
        owner=owner,
        seating=seating,
        played_on=timezone.localdate(),
        round=round,
    )


def win(partie: Partie, knocker: str, owner) -> None:
    table_services.hand_record(partie=partie, hand=G(90, knocker=knocker), user=owner)


def game_of(partie: Partie) -> ClosedGame:
    return ClosedGame.objects.get(partie=partie, number=1)


@pytest.fixture
def night(season, owner, accounts):
    """Round 1 at a stake: Anna beat Ben (both asked to confirm), Carl beat Dora (no
    accounts, nobody asked)."""
    services.season_settings_change(season=season, night=at_stake)
    night = start_round(season, owner, ("Anna", "Ben"), ("Carl", "Dora"))
    first, second = (t.partie for t in night.tables.order_by("number"))
    win(first, "Anna", owner)
    win(second, "Carl", owner)
    return night


def test_every_round_s_parties_go_into_the_night_s_evening(night, season, owner):
    start_round(season, owner, ("Anna", "Carl"), ("Ben", "Dora"), round=2)

    night.refresh_from_db()
    evening = night.evening
    assert (evening.club_id, evening.played_on) == (season.league.club_id, night.played_on)
    assert evening.name == "Club league: Autumn" and not evening.confirmed_games_only
    parties = NightTable.objects.filter(night=night).values_list("partie_id", flat=True)
    assert set(Partie.objects.filter(evening=evening).values_list("pk", flat=True)) == set(parties)
    assert len(parties) == 4


def test_the_night_page_settles_the_night_s_money_in_one_tap(night, season, owner, accounts):
    page = client_as(owner).get(reverse("league_night", args=[season.pk])).content.decode()
    assert "Settle the night's money" in page
    assert night.evening.get_absolute_url() in page
    for user in accounts.values():
        confirmations.result_confirm(game=game_of(night.tables.get(number=1).partie), user=user)

    response = client_as(owner).post(reverse("evening_settle", args=[night.evening.pk]))

    assert response.status_code == 302
    transfers = EveningPayment.objects.filter(evening=night.evening)
    # Ben and Dora each lost a partie of 90 + 100 + 25 + 90 × 1 ... at 0.05: one transfer each.
    assert sorted((t.payer.name, t.payee.name) for t in transfers) == [
        ("Ben", "Anna"),
        ("Dora", "Carl"),
    ]


def test_a_disputed_game_holds_the_settle_up_back_with_a_word(night, owner, accounts):
    partie = night.tables.get(number=1).partie
    confirmations.result_dispute(game=game_of(partie), user=accounts["Ben"], note="I had gin")
    url = night.evening.get_absolute_url()

    page = client_as(owner).get(url).content.decode()
    assert "The settle-up waits for this game" in page
    assert "Anna – Ben</a>: disputed" in page
    assert reverse("evening_settle", args=[night.evening.pk]) not in page

    response = client_as(owner).post(
        reverse("evening_settle", args=[night.evening.pk]), follow=True
    )

    assert "Not settled: Anna – Ben must be resolved first" in response.content.decode()
    assert not Evening.objects.get(pk=night.evening.pk).is_settled
    with pytest.raises(EveningHeldError) as held:
        table_services.evening_settle(evening=night.evening)
    assert [(g.partie.pk, g.number, g.disputed) for g in held.value.held] == [(partie.pk, 1, True)]

    confirmations.result_confirm(game=game_of(partie), user=accounts["Ben"])  # taken back
    table_services.evening_settle(evening=night.evening)
    assert Evening.objects.get(pk=night.evening.pk).is_settled


def test_an_unconfirmed_game_holds_back_only_a_season_of_confirmed_games(night, season, owner):
    # Anna's and Ben's confirmations are pending: that alone holds nothing back...
    assert table_services.evening_settle(evening=night.evening)
    services.season_settings_change(season=season, confirmed_games_only=True)
    night.evening.refresh_from_db()
    assert night.evening.is_settled and not night.evening.confirmed_games_only  # settled: as it was


def test_in_a_season_of_confirmed_games_only_a_pending_game_holds_the_night_back(
    season, owner, accounts
):
    services.season_settings_change(season=season, confirmed_games_only=True, night=at_stake)
    night = start_round(season, owner, ("Anna", "Ben"))
    partie = night.tables.get().partie
    win(partie, "Anna", owner)
    assert night.evening.confirmed_games_only

    page = client_as(owner).get(night.evening.get_absolute_url()).content.decode()
    assert "not confirmed by every player yet" in page
    with pytest.raises(EveningHeldError):
        table_services.evening_settle(evening=night.evening)

    for user in accounts.values():
        confirmations.result_confirm(game=game_of(partie), user=user)
    table_services.evening_settle(evening=night.evening)


def test_the_season_s_confirmed_games_only_reaches_its_open_night(night, season):
    services.season_settings_change(season=season, confirmed_games_only=True)

    night.evening.refresh_from_db()
    assert night.evening.confirmed_games_only
    with pytest.raises(EveningHeldError):
        table_services.evening_settle(evening=night.evening)


def test_a_round_after_the_settle_up_plays_outside_the_settled_evening(night, season, owner):
    for table in night.tables.all():
        ClosedGame.objects.filter(partie=table.partie).delete()  # nobody asked any more
    table_services.evening_settle(evening=night.evening)

    start_round(season, owner, ("Anna", "Carl"), round=2)

    partie = NightTable.objects.get(night=night, round=2).partie
    assert partie.evening_id is None
    page = client_as(owner).get(reverse("league_night", args=[season.pk])).content.decode()
    assert "Round 2 is not in the night's evening" in page


def test_an_existing_night_gets_its_evening(night, season, owner):
    """The data migration: a night started before nights were evenings."""
    migration = importlib.import_module(
        "scorekeeper.league.migrations.0017_night_settings_and_evening"
    )
    # As before: no evening, one partie put into an evening of the organiser's by hand.
    old = night.evening
    Partie.objects.filter(evening=old).update(evening=None)
    LeagueNight.objects.filter(pk=night.pk).update(evening=None)
    old.delete()
    yesterday = LeagueNight.objects.create(
        season=season, played_on=night.played_on - timedelta(days=1)
    )
    by_hand = table_services.evening_start(
        owner=owner, club=season.league.club, name="Tuesday", played_on=yesterday.played_on
    )
    partie = table_services.partie_start(
        owner=owner, club=season.league.club, names=["Anna", "Emil"], rules=engine.preset()
    )
    table_services.partie_evening_set(partie=partie, evening=by_hand)
    NightTable.objects.create(night=yesterday, round=1, number=1, partie=partie)

    migration.nights_into_evenings(apps, None)

    night.refresh_from_db()
    yesterday.refresh_from_db()
    assert night.evening.name == "Club league: Autumn"
    assert night.evening.played_on == night.played_on
    assert set(night.evening.parties.all()) == {t.partie for t in night.tables.all()}
    assert yesterday.evening == by_hand  # the organiser's evening is the night's
