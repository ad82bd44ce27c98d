"""What a league night's tables play: the season's kind, rules and stake (its settings
page), the organiser's for one night (the night page), a table of three the three-player
kind; the app cuts for each table's deal, shown at the table, and the players may name
another first dealer before the first hand. *Change the rules* changes the stake too."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services
from scorekeeper.league.models import LeagueNight, NightSettings, SeasonChange
from scorekeeper.league.night_services import night_round_start
from scorekeeper.league.templatetags.league import season_change
from scorekeeper.table import services as table_services
from scorekeeper.table.models import HandChange, Partie, Player
from scorekeeper.table.services import parties as partie_services
from tests.league.conftest import G, K
from tests.table.helpers import rules_form_data

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Ben", "Carl", "Dora", "Emil")


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def roster(club) -> dict[str, int]:
    return {name: Player.objects.create(club=club, name=name).pk for name in NAMES}


@pytest.fixture
def last_named_wins_the_cut(monkeypatch):
    """The cut made predictable: the last named deals first, or where the roles deal the
    seats are reversed. (The first named dealt every night table before the app cut.)"""

    def cut(kind, names):
        if engine.session_class(kind).dealt_by_roles:
            return list(reversed(names)), None
        return list(names), names[-1]

    monkeypatch.setattr(partie_services, "cut_for_deal", cut)


def two_tables() -> Pairing:
    return Pairing((Table(1, ("Anna", "Ben")), Table(2, ("Carl", "Dora", "Emil"))), ())


def start(season, owner, seating=None, round=1, settings=None) -> LeagueNight:
    return night_round_start(
        season=season,
        owner=owner,
        seating=seating or two_tables(),
        played_on=timezone.localdate(),
        round=round,
        settings=settings,
    )


def night_url(season) -> str:
    return reverse("league_night", args=[season.pk])


def settings_data(season, **changes) -> dict:
    """The season's settings page as a browser posts it, the night's tables included."""
    data = {
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "points_win": season.points_win,
        "points_shutout_win": season.points_shutout_win,
        "points_loss": season.points_loss,
        "min_games": season.min_games,
        "kind": "two_player",
        "stake": "0",
    }
    return data | rules_form_data() | changes


# The season's settings


def test_the_season_chooses_the_kind_rules_and_stake_of_its_night_tables(season, owner):
    data = settings_data(season, kind="match", stake="0.05", **rules_form_data("modern"))

    response = client_as(owner).post(reverse("season_settings", args=[season.pk]), data)

    assert response.status_code == 302
    season.refresh_from_db()
    assert season.night_settings == NightSettings("match", engine.preset("modern"), Decimal("0.05"))
    change = SeasonChange.objects.get(season=season)
    assert set(change.after) == {"night_kind", "night_rules", "night_stake"}
    assert "Match" in season_change(change) and "0.05" in season_change(change)


def test_the_season_s_own_rules_are_kept_whole(season, owner):
    data = settings_data(season, **rules_form_data("classic", gin_bonus=30))

    client_as(owner).post(reverse("season_settings", args=[season.pk]), data)

    season.refresh_from_db()
    assert season.night_settings.rules == engine.preset("classic", gin_bonus=30)


def test_a_kind_the_season_does_not_count_is_refused(season, owner):
    data = settings_data(season, kind="hollywood", kinds=["two_player"])

    response = client_as(owner).post(reverse("season_settings", args=[season.pk]), data)

    assert response.status_code == 400
    assert "The season does not count this kind" in response.content.decode()
    season.refresh_from_db()
    assert season.night_kind == "two_player" and season.kinds == []


def test_a_stake_out_of_bounds_is_refused_and_nothing_changes(season, owner):
    data = settings_data(season, stake="1e3")

    response = client_as(owner).post(reverse("season_settings", args=[season.pk]), data)

    assert response.status_code == 400
    assert night_stake_of(season) == Decimal(0)


def night_stake_of(season) -> Decimal:
    season.refresh_from_db()
    return season.night_stake


def test_the_settings_page_offers_the_rules_fields_of_a_new_partie(season, owner):
    page = client_as(owner).get(reverse("season_settings", args=[season.pk])).content.decode()

    assert 'name="preset"' in page and 'name="gin_bonus"' in page and 'name="stake"' in page
    assert 'name="kind" value="match"' in page and 'name="kind" value="chouette"' not in page


def test_the_next_season_s_nights_play_as_the_last_one_s(season, owner):
    settings = NightSettings("hollywood", engine.preset("hollywood"), Decimal("0.01"))
    services.season_settings_change(season=season, night=settings)
    services.season_close(season=season, user=owner)
    starts = season.ends_on + timedelta(days=1)

    after = services.season_start_next(
        season=season, name="Winter", starts_on=starts, ends_on=starts + timedelta(days=30)
    )

    assert after.night_settings == settings


# The night's tables


def test_the_night_s_tables_play_the_season_s_settings(season, owner, roster):
    settings = NightSettings("match", engine.preset("modern"), Decimal("0.05"))
    services.season_settings_change(season=season, night=settings)

    night = start(season, owner)

    two, three = (table.partie for table in night.tables.order_by("number"))
    assert (two.kind, two.ruleset, two.stake) == ("match", engine.preset("modern"), Decimal("0.05"))
    assert (three.kind, three.ruleset) == ("three_player", engine.preset("modern"))
    assert three.stake == Decimal("0.05")


def test_a_table_of_three_does_not_take_another_kind_s_own_preset(season, owner, roster):
    settings = NightSettings("hollywood", engine.preset("hollywood"), Decimal(0))
    services.season_settings_change(season=season, night=settings)

    night = start(season, owner)

    two, three = (table.partie for table in night.tables.order_by("number"))
    assert (two.kind, two.ruleset.preset) == ("hollywood", "hollywood")
    assert (three.kind, three.ruleset.preset) == ("three_player", "classic")


def test_the_app_cuts_for_each_table_s_deal(season, owner, roster, last_named_wins_the_cut):
    night = start(season, owner)

    two, three = (table.partie for table in night.tables.order_by("number"))
    assert two.dealer_cut and two.first_dealer.name == "Ben"
    # Where the roles deal, the cut orders the seats: the highest is in the box and deals.
    assert three.dealer_cut and three.player_names == ["Emil", "Dora", "Carl"]
    assert three.first_dealer.name == "Emil"


def test_the_cut_draws_with_secrets(monkeypatch):
    drawn = []
    monkeypatch.setattr(partie_services.secrets, "choice", lambda names: drawn.append(names) or "B")

    assert partie_services.cut_for_deal("two_player", ["A", "B"]) == (["A", "B"], "B")
    assert drawn == [["A", "B"]]
    seats, dealer = partie_services.cut_for_deal("three_player", ["A", "B", "C"])
    assert sorted(seats) == ["A", "B", "C"] and dealer is None


def test_the_organiser_changes_the_tables_for_one_night(season, owner, roster):
    client = client_as(owner)
    seating = {"tables": f"{roster['Anna']},{roster['Ben']}", "byes": "", "round": 1}
    tonight = rules_form_data("oklahoma") | {"kind": "match", "stake": "0.10"}

    response = client.post(night_url(season), seating | tonight)

    assert response.status_code == 302
    partie = Partie.objects.get()
    assert (partie.kind, partie.ruleset.preset, partie.stake) == (
        "match",
        "oklahoma",
        Decimal("0.1"),
    )
    night = LeagueNight.objects.get()
    assert night.night_settings.kind == "match"
    season.refresh_from_db()
    assert season.night_settings.kind == "two_player"  # the season's stay as they were
    # The next round plays tonight's settings, which the page shows.
    second = {"tables": f"{roster['Carl']},{roster['Dora']}", "byes": "", "round": 2}
    client.post(night_url(season), second)
    assert Partie.objects.get(seats__player__name="Carl").stake == Decimal("0.1")
    # Anna and Ben still play round 1: the organiser proposes them anyway.
    both = [roster["Anna"], roster["Ben"]]
    asked = {"present": both, "anyway": both, "method": "round_robin"}
    page = client.get(night_url(season), asked).content.decode()
    assert "The tables play: Match, Oklahoma rules, stake 0.10 per point" in page


def test_the_proposal_offers_tonight_s_settings_filled_in(season, owner, roster):
    settings = NightSettings("match", engine.preset("modern"), Decimal("0.05"))
    services.season_settings_change(season=season, night=settings)
    query = {"present": [roster["Anna"], roster["Ben"]], "method": "round_robin"}

    page = client_as(owner).get(night_url(season), query).content.decode()

    start_form = page[page.index('class="stack start-form"') :]
    assert re.search(r'name="kind" value="match" id="id_kind_\d" required checked', start_form)
    assert '<option value="modern" selected>' in start_form
    assert 'name="stake" value="0.05"' in start_form


def test_tonight_s_settings_with_an_error_keep_the_proposal_and_start_nothing(
    season, owner, roster
):
    seating = {"tables": f"{roster['Anna']},{roster['Ben']}", "byes": "", "round": 1}
    tonight = rules_form_data() | {"kind": "match", "stake": "-1"}

    response = client_as(owner).post(night_url(season), seating | tonight)

    assert response.status_code == 400
    assert response.context["proposal"] is not None
    assert Partie.objects.count() == 0 and LeagueNight.objects.count() == 0


def test_the_night_page_shows_the_cut(season, owner, roster, last_named_wins_the_cut):
    start(season, owner)

    page = client_as(owner).get(night_url(season)).content.decode()

    assert "Cut for the deal: Ben deals first" in page
    assert "Cut for the deal: Emil deals first" in page


# The first dealer at the table


def test_the_partie_page_shows_the_cut_and_offers_another_dealer_before_the_first_hand(
    season, owner, roster, last_named_wins_the_cut
):
    partie = start(season, owner).tables.get(number=1).partie
    client = client_as(owner)

    page = client.get(partie.get_absolute_url()).content.decode()
    assert "Cut for the deal: Ben deals first." in page
    assert reverse("partie_first_dealer", args=[partie.pk]) in page

    response = client.post(
        reverse("partie_first_dealer", args=[partie.pk]), {"first_dealer": "Anna"}
    )

    assert response.status_code == 302
    partie.refresh_from_db()
    assert partie.first_dealer.name == "Anna" and not partie.dealer_cut
    assert partie.summary["next_dealer"] == "Anna"
    change = HandChange.objects.get(partie=partie, action="dealer")
    assert (change.before, change.after) == ({"first_dealer": "Ben"}, {"first_dealer": "Anna"})
    page = client.get(partie.get_absolute_url()).content.decode()
    assert "Cut for the deal" not in page and "Hand 1: Anna deals." in page


def test_the_first_dealer_stays_once_a_hand_is_recorded(season, owner, roster):
    partie = start(season, owner).tables.get(number=1).partie
    table_services.hand_record(partie=partie, hand=K(5, 27, knocker="Anna"), user=owner)
    dealer = Partie.objects.get(pk=partie.pk).first_dealer
    client = client_as(owner)

    assert (
        reverse("partie_first_dealer", args=[partie.pk])
        not in client.get(partie.get_absolute_url()).content.decode()
    )
    response = client.post(
        reverse("partie_first_dealer", args=[partie.pk]), {"first_dealer": "Ben"}, follow=True
    )

    assert "The first dealer changes only before the first hand" in response.content.decode()
    assert Partie.objects.get(pk=partie.pk).first_dealer == dealer
    with pytest.raises(partie_services.DealerError):
        partie_services.partie_first_dealer_change(partie=partie, name="Ben", user=owner)


def test_a_stranger_to_the_partie_cannot_name_its_dealer(season, owner, member, roster):
    partie = start(season, owner).tables.get(number=1).partie
    with pytest.raises(partie_services.DealerError):
        partie_services.partie_first_dealer_change(partie=partie, name="Zoe", user=owner)
    response = client_as(member).post(
        reverse("partie_first_dealer", args=[partie.pk]), {"first_dealer": "Anna"}
    )
    assert response.status_code == 403


# Change the rules: the stake too


def test_change_the_rules_changes_the_stake_and_says_so(play, owner):
    partie = play(["Anna", "Ben"], [K(5, 27, knocker="Anna")], stake="0.05")
    client = client_as(owner)
    url = reverse("partie_rules_change", args=[partie.pk])

    preview = client.post(url, rules_form_data() | {"stake": "0.10"}).content.decode()
    assert "Stake per point" in preview
    assert Partie.objects.get(pk=partie.pk).stake == Decimal("0.05")

    response = client.post(url, rules_form_data() | {"stake": "0.10", "confirm": "1"})

    assert response.status_code == 302
    partie.refresh_from_db()
    assert partie.stake == Decimal("0.1")
    change = HandChange.objects.get(partie=partie, action="rules")
    assert (change.before["stake"], change.after["stake"]) == ("0.05", "0.1")
    assert "Stake per point 0.05 → 0.10" in client.get(partie.get_absolute_url()).content.decode()


def test_a_settled_evening_s_stake_does_not_change(play, owner, club):
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")], stake="0.05")
    evening = table_services.evening_start(
        owner=owner, club=club, name="Friday", played_on=timezone.localdate()
    )
    table_services.partie_evening_set(partie=partie, evening=evening)
    table_services.evening_settle(evening=evening)

    with pytest.raises(engine.HandError):
        partie_services.partie_rules_change(
            partie=partie, rules=partie.ruleset, stake=Decimal(1), user=owner
        )
    assert Partie.objects.get(pk=partie.pk).stake == Decimal("0.05")
