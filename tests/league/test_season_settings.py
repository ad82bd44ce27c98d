"""A season's settings after its start: its name, dates, kinds counted, points, games to
be ranked and whether only confirmed games count, changed by the club's owner on the
season's settings page while the season is open. The standings follow at once; a closed
season's settings stay as its final standings were counted."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.clubs.models import Club, Role
from scorekeeper.engine import LeaguePoints
from scorekeeper.league import selectors, services
from scorekeeper.league.models import Season, SeasonChange
from scorekeeper.table import services as table_services
from scorekeeper.table.models import ClosedGame
from scorekeeper.table.services import confirmations
from tests.clubs.conftest import join
from tests.league.conftest import G

pytestmark = pytest.mark.django_db


@pytest.fixture
def ben(club: Club, owner: User, django_user_model: type[User]) -> User:
    """Ben, a member linked to his player: his games are pending until he confirms them;
    Anna has no account."""
    user = django_user_model.objects.create_user("ben")
    join(club, user, Role.MEMBER)
    player = table_services.player_add(club=club, name="Ben", owner=owner)
    table_services.player_link(player=player, user=user)
    return user


def client_as(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def settings_url(season: Season) -> str:
    return reverse("season_settings", args=[season.pk])


def lines(season: Season) -> list[tuple[str, int, int]]:
    """Each player with a counted game: name, games, league points."""
    rows = selectors.season_table(season).played_rows
    return [(row.line.player, row.line.games, row.line.league_points) for row in rows]


def form_data(season: Season, **changes) -> dict:
    """The settings form as the page fills it in, with ``changes``."""
    return {
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "points_win": season.points_win,
        "points_shutout_win": season.points_shutout_win,
        "points_loss": season.points_loss,
        "min_games": season.min_games,
    } | changes


# The service


def test_the_standings_follow_a_change_of_points_and_of_confirmed_games_only(season, play, ben):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # a shutout win, Ben's confirmation pending
    assert lines(season) == [("Anna", 1, 3), ("Ben", 1, 0)]

    services.season_settings_change(season=season, points=LeaguePoints(2, 5, -1))
    assert lines(season) == [("Anna", 1, 5), ("Ben", 1, -1)]

    services.season_settings_change(season=season, confirmed_games_only=True)
    assert lines(season) == []  # the game waits for Ben
    confirmations.result_confirm(game=ClosedGame.objects.get(), user=ben)
    assert lines(season) == [("Anna", 1, 5), ("Ben", 1, -1)]


def test_what_is_not_given_stays_as_it_was(season):
    before = Season.objects.values().get(pk=season.pk)

    changed = services.season_settings_change(season=season, name="  Late autumn ", min_games=3)

    after = Season.objects.values().get(pk=season.pk)
    assert (changed.name, changed.min_games) == ("Late autumn", 3)
    assert after == before | {"name": "Late autumn", "min_games": 3}


def test_a_closed_seasons_settings_do_not_change(season, owner):
    services.season_close(season=season, user=owner)

    with pytest.raises(services.SeasonClosedError):
        services.season_settings_change(season=season, confirmed_games_only=True)

    season.refresh_from_db()
    assert season.confirmed_games_only is False


def test_a_change_is_kept_in_the_seasons_audit_trail_with_what_it_changed(season, owner):
    last_day = season.ends_on

    services.season_settings_change(
        season=season,
        name="Autumn",  # as it was
        ends_on=last_day + timedelta(days=7),
        points=LeaguePoints(2, 3, -1),  # the loss alone changes
        confirmed_games_only=True,
        user=owner,
    )
    services.season_settings_change(season=season, name="Autumn", user=owner)  # nothing new

    change = SeasonChange.objects.get(season=season)
    assert change.user == owner
    assert change.before == {
        "ends_on": last_day.isoformat(),
        "points_loss": 0,
        "confirmed_games_only": False,
    }
    assert change.after == {
        "ends_on": (last_day + timedelta(days=7)).isoformat(),
        "points_loss": -1,
        "confirmed_games_only": True,
    }


@pytest.mark.parametrize(
    "changes",
    [{"name": "  "}, {"min_games": -1}, {"ends_on_days": -31}],
    ids=["no name", "games below none", "ends before it starts"],
)
def test_settings_a_season_cannot_take_are_refused(season, changes):
    if "ends_on_days" in changes:
        changes = {"ends_on": season.starts_on + timedelta(days=changes.pop("ends_on_days"))}
    before = Season.objects.values().get(pk=season.pk)

    with pytest.raises(services.SeasonSettingsError):
        services.season_settings_change(season=season, **changes)

    assert Season.objects.values().get(pk=season.pk) == before


# The page


def test_the_page_shows_the_seasons_settings_to_change(owner, season):
    services.season_settings_change(season=season, min_games=2, kinds=["hollywood"])

    page = client_as(owner).get(settings_url(season))

    assert page.status_code == 200
    form = page.context["form"]
    assert form.initial["min_games"] == 2 and form.initial["kinds"] == ["hollywood"]
    assert form.initial["confirmed_games_only"] is False
    assert 'value="Autumn"' in page.content.decode()


def test_the_owner_makes_the_season_count_only_confirmed_games(owner, season, play, ben):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    data = form_data(season, name="Autumn cup", confirmed_games_only="on", points_loss=-1)

    response = client_as(owner).post(settings_url(season), data)

    assert response.status_code == 302 and response.url == season.get_absolute_url()
    season.refresh_from_db()
    assert (season.name, season.confirmed_games_only, season.points_loss) == (
        "Autumn cup",
        True,
        -1,
    )
    page = client_as(owner).get(season.get_absolute_url()).content.decode()
    assert "only confirmed games count" in page and "loss −1" in page
    assert lines(season) == []


def test_the_owner_reads_on_the_season_page_who_changed_which_setting(owner, member, season):
    data = form_data(season, confirmed_games_only="on", points_loss=-1, kinds=["hollywood"])
    client_as(owner).post(settings_url(season), data)
    client_as(owner).post(settings_url(season), data)  # the same again: nothing to keep

    page = client_as(owner).get(season.get_absolute_url()).content.decode()
    with translation.override("de"):
        german = client_as(owner).get(season.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de")
    members = client_as(member).get(season.get_absolute_url()).content.decode()

    assert page.count('class="settings-change"') == 1
    assert "Settings changed on " in page and " by owner: kinds counted every kind counts" in page
    assert (
        "kinds counted every kind counts → Hollywood; points for a loss 0 → −1;"
        " only confirmed games count no → yes</li>"
    ) in page
    assert "Einstellungen geändert am " in german.content.decode()
    assert (
        "von owner: gezählte Arten jede Art zählt → Hollywood; Punkte für eine Niederlage"
        " 0 → −1; nur bestätigte Partien zählen nein → ja</li>"
    ) in german.content.decode()
    assert "Settings changed" not in members


def test_a_setting_the_form_cannot_take_is_refused_with_the_reason(owner, season):
    data = form_data(season, ends_on=(season.starts_on - timedelta(days=1)).isoformat())

    response = client_as(owner).post(settings_url(season), data)

    assert response.status_code == 400
    assert "The last day cannot come before the first." in response.content.decode()
    assert Season.objects.get(pk=season.pk).ends_on == season.ends_on


def test_a_closed_season_refuses_a_change_and_says_why(owner, season):
    services.season_close(season=season, user=owner)
    client = client_as(owner)

    page = client.get(settings_url(season)).content.decode()
    response = client.post(settings_url(season), form_data(season, confirmed_games_only="on"))

    reason = "The season is closed: reopen it to change its settings."
    assert reason in page and "season-settings" not in page
    assert response.status_code == 400 and reason in response.content.decode()
    assert Season.objects.get(pk=season.pk).confirmed_games_only is False


def test_only_the_owner_changes_the_settings(member, outsider, season):
    data = form_data(season, confirmed_games_only="on")

    assert client_as(member).get(settings_url(season)).status_code == 403
    assert client_as(member).post(settings_url(season), data).status_code == 403
    assert client_as(outsider).post(settings_url(season), data).status_code == 404
    anonymous = Client().post(settings_url(season), data)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous.url
    assert Season.objects.get(pk=season.pk).confirmed_games_only is False


def test_the_owner_finds_the_settings_on_the_seasons_pages(owner, member, season):
    link = f'href="{settings_url(season)}"'

    assert link in client_as(owner).get(season.get_absolute_url()).content.decode()
    players = reverse("season_players", args=[season.pk])
    assert link in client_as(owner).get(players).content.decode()
    assert link not in client_as(member).get(season.get_absolute_url()).content.decode()


def test_the_page_speaks_german(owner, season):
    services.season_close(season=season, user=owner)
    with translation.override("de"):
        client = client_as(owner)
        page = client.get(settings_url(season), HTTP_ACCEPT_LANGUAGE="de").content.decode()
        services.season_reopen(season=season, user=owner)
        open_page = client.get(settings_url(season), HTTP_ACCEPT_LANGUAGE="de").content.decode()

    assert "Die Einstellungen der Saison" in page
    assert "Die Saison ist abgeschlossen" in page
    assert "Nur bestätigte Partien zählen" in open_page
    assert "Einstellungen speichern" in open_page
