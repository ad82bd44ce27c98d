"""A season's players: everyone who played (the default), or a list chosen from the club's
roster. The standings count every game of the season either way (RULES.md §11); a listed
player without a game is in the one line under the table, a player who played without
being listed is counted and named in a line of his own. The list is kept by a close,
copied to the next season, ticked as present on a league night, and follows a merge of
two players (and its undo)."""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorekeeper.clubs import services as club_services
from scorekeeper.league import selectors, services
from scorekeeper.league.models import Season
from scorekeeper.table import services as table_services
from scorekeeper.table.models import Player, PlayerMerge
from tests.league.conftest import G, K

pytestmark = pytest.mark.django_db

ROSTER, PLAYED = Season.Players.ROSTER, Season.Players.PLAYED


@pytest.fixture
def roster(club) -> dict[str, Player]:
    """The club's roster: Anna, Ben, Carl, Dora, Emil."""
    return {
        name: Player.objects.create(club=club, name=name)
        for name in ("Anna", "Ben", "Carl", "Dora", "Emil")
    }


@pytest.fixture
def listed(season, roster, play) -> Season:
    """Anna beats Ben, Zoe beats Carl; the season lists Anna, Ben, Carl and Dora (not Zoe,
    who is not on the roster's list; Emil is on the roster, not on the list)."""
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Zoe", "Carl"], [G(40, knocker="Zoe"), G(40, knocker="Zoe")])
    chosen = [roster[name] for name in ("Anna", "Ben", "Carl", "Dora")]
    return services.season_players_set(season=season, players_from=ROSTER, players=chosen)


def client_as(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def chosen(season: Season) -> list[str]:
    return sorted(season.players.values_list("name", flat=True))


# The standings


def test_a_listed_player_without_a_game_is_in_the_line_under_the_table(listed):
    table = selectors.season_table(listed)

    assert [row.line.player for row in table.played_rows] == ["Zoe", "Anna", "Ben", "Carl"]
    assert table.without_games == ["Dora"]
    assert table.unlisted == ["Zoe"]


def test_a_player_who_played_without_being_listed_is_counted_and_named(owner, listed):
    html = client_as(owner).get(listed.get_absolute_url()).content.decode()

    assert "Also in this season, no counted game yet: Dora" in html
    assert "Played without being on the season's list, counted all the same: Zoe" in html
    assert ">Zoe</a>" in html  # a row of his own, ranked first with a shutout
    assert "players chosen from the roster" in html


def test_everyone_who_played_lists_no_one_else_and_flags_no_one(season, roster, play):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    season.players.set([roster["Dora"]])  # a list kept from before, not in use

    table = selectors.season_table(season)

    assert table.without_games == [] and table.unlisted == []


def test_a_player_of_a_running_partie_joins_the_listed_ones_under_the_table(listed, play):
    play(["Emil", "Dora"], [K(3, 20, knocker="Emil")])

    assert selectors.season_table(listed).without_games == ["Dora", "Emil"]


def test_the_json_of_the_rules_is_the_same_with_or_without_a_list(listed):
    def standings() -> list:
        out = io.StringIO()
        call_command("standings", "--season", str(listed.pk), stdout=out)
        return json.loads(out.getvalue())["standings"]

    with_list = standings()
    services.season_players_set(season=listed, players_from=PLAYED)

    assert standings() == with_list
    assert [line["player"] for line in with_list] == ["Zoe", "Anna", "Ben", "Carl"]


# The service


def test_back_to_everyone_who_played_keeps_the_list_chosen(listed):
    services.season_players_set(season=listed, players_from=PLAYED)
    listed.refresh_from_db()

    assert listed.players_from == PLAYED
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]
    assert selectors.season_table(listed).without_games == []


@pytest.mark.parametrize("case", ["empty", "stranger", "choice"])
def test_the_service_refuses_a_list_it_cannot_take(case, season, roster, owner):
    other = club_services.club_create(name="Other Club", owner=owner)
    arguments = {
        "empty": {"players_from": ROSTER, "players": []},
        "stranger": {
            "players_from": ROSTER,
            "players": [roster["Anna"], Player.objects.create(club=other, name="Anna")],
        },
        "choice": {"players_from": "everyone", "players": [roster["Anna"]]},
    }[case]

    with pytest.raises(services.SeasonPlayersError):
        services.season_players_set(season=season, **arguments)

    season.refresh_from_db()
    assert season.players_from == PLAYED and chosen(season) == []


def test_a_closed_seasons_players_do_not_change(listed, roster, owner):
    services.season_close(season=listed, user=owner)

    with pytest.raises(services.SeasonClosedError):
        services.season_players_set(season=listed, players_from=ROSTER, players=[roster["Emil"]])

    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]


def test_a_close_keeps_the_list_as_it_was(listed, roster, owner):
    services.season_close(season=listed, user=owner)
    table_services.player_rename(player=roster["Dora"], name="Dorothea", user=owner)
    listed.refresh_from_db()

    table = selectors.season_table(listed)

    assert table.close.listed == ["Anna", "Ben", "Carl", "Dora"]
    assert table.without_games == ["Dora"] and table.unlisted == ["Zoe"]


def test_the_next_season_copies_the_list(listed, owner):
    services.season_close(season=listed, user=owner)

    after = services.season_start_next(
        season=listed, name="Winter", starts_on=listed.ends_on, ends_on=listed.ends_on
    )

    assert after.players_from == ROSTER
    assert chosen(after) == ["Anna", "Ben", "Carl", "Dora"]
    assert selectors.season_table(after).without_games == ["Anna", "Ben", "Carl", "Dora"]


def test_the_next_season_is_written_with_its_players_in_one_insert(listed, owner):
    services.season_close(season=listed, user=owner)

    with CaptureQueriesContext(connection) as queries:
        after = services.season_start_next(
            season=listed, name="Winter", starts_on=listed.ends_on, ends_on=listed.ends_on
        )

    season_rows = ('INSERT INTO "league_season" ', 'UPDATE "league_season" ')
    writes = [q["sql"].split()[0] for q in queries if q["sql"].startswith(season_rows)]
    assert writes == ["INSERT"]  # the season's row, its players' rows aside
    assert Season.objects.get(pk=after.pk).players_from == ROSTER


def test_a_merge_lists_the_player_who_stays_and_its_undo_puts_the_list_back(listed, roster, owner):
    # Emil, not listed, is merged into Anna (nothing to move), then Dora into Emil.
    merge = services.roster_merge(keep=roster["Anna"], gone=roster["Emil"], user=owner)
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]
    emil = services.roster_merge_undo(merge=merge, user=owner)
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]

    merge = services.roster_merge(keep=emil, gone=roster["Dora"], user=owner)
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Emil"]
    assert merge.moved["seasons"] == {"listed": [listed.pk], "added": [listed.pk]}

    services.roster_merge_undo(merge=PlayerMerge.objects.get(pk=merge.pk), user=owner)
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]


def test_a_merge_of_two_listed_players_lists_the_one_who_stays_once(listed, roster, owner):
    merge = services.roster_merge(keep=roster["Dora"], gone=roster["Carl"], user=owner)
    assert chosen(listed) == ["Anna", "Ben", "Dora"]

    services.roster_merge_undo(merge=merge, user=owner)
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]


# The page


def players_url(season: Season) -> str:
    return reverse("season_players", args=[season.pk])


def test_the_owner_chooses_the_players_on_the_page(owner, season, roster):
    ids = [roster["Ben"].pk, roster["Emil"].pk]

    response = client_as(owner).post(
        players_url(season), {"players_from": "roster", "players": ids}
    )

    assert response.status_code == 302 and response.url == season.get_absolute_url()
    season.refresh_from_db()
    assert season.players_from == ROSTER and chosen(season) == ["Ben", "Emil"]


def test_the_whole_roster_is_ticked_at_one_tap(owner, season, roster):
    page = client_as(owner).get(players_url(season), {"all": "1"})

    form = page.context["form"]
    assert form.initial["players_from"] == ROSTER
    assert [p.name for p in form.initial["players"]] == ["Anna", "Ben", "Carl", "Dora", "Emil"]
    assert page.content.decode().count("checked") == 6  # five players and the choice
    season.refresh_from_db()
    assert season.players_from == PLAYED  # ticked, not saved


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"players_from": "roster"}, "Tick the season&#x27;s players, or choose everyone"),
        ({"players_from": "roster", "players": ["999999"]}, "no longer on the club&#x27;s"),
        ({"players_from": "roster", "players": ["x"]}, "Tick players of the club&#x27;s roster"),
        ({"players": ["1"]}, "This field is required."),
    ],
)
def test_a_list_the_page_cannot_take_is_refused_with_the_reason(owner, listed, data, error):
    response = client_as(owner).post(players_url(listed), data)

    assert response.status_code == 400
    assert error in response.content.decode()
    listed.refresh_from_db()
    assert listed.players_from == ROSTER and chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]


def test_a_closed_season_refuses_a_change_and_says_why(owner, listed, roster):
    services.season_close(season=listed, user=owner)

    response = client_as(owner).post(
        players_url(listed), {"players_from": "roster", "players": [roster["Emil"].pk]}
    )

    assert response.status_code == 400
    assert "The season is closed: reopen it to change its players." in response.content.decode()
    assert chosen(listed) == ["Anna", "Ben", "Carl", "Dora"]


def test_a_member_reads_the_list_and_may_not_change_it(member, listed, roster):
    client = client_as(member)

    page = client.get(players_url(listed)).content.decode()
    refused = client.post(players_url(listed), {"players_from": "played"})

    assert "4 players chosen from the roster:" in page and "<li>Dora</li>" in page
    assert '<form method="post" class="stack season-players">' not in page
    assert refused.status_code == 403
    listed.refresh_from_db()
    assert listed.players_from == ROSTER


def test_the_page_speaks_german(owner, listed):
    with translation.override("de"):
        page = client_as(owner).get(players_url(listed), HTTP_ACCEPT_LANGUAGE="de")
        standings = client_as(owner).get(listed.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de")

    text = page.content.decode()
    assert "Die Spieler der Saison" in text and "Die ganze Spielerliste ankreuzen" in text
    assert "Spielte, ohne auf der Liste der Saison zu stehen" in standings.content.decode()


# The league night


def present(user: User, season: Season) -> list[str]:
    form = client_as(user).get(reverse("league_night", args=[season.pk])).context["night"]
    players = form.fields["present"].queryset
    return sorted(players.filter(pk__in=form.initial["present"]).values_list("name", flat=True))


def test_a_league_night_ticks_the_seasons_list_as_present(owner, listed):
    assert present(owner, listed) == ["Anna", "Ben", "Carl", "Dora"]


def test_a_league_night_ticks_everyone_who_played_without_a_list(owner, season, roster, play):
    assert present(owner, season) == []
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    play(["Carl", "Zoe"], [K(3, 20, knocker="Carl")])

    assert present(owner, season) == ["Anna", "Ben", "Carl", "Zoe"]


# The admin


def test_the_admin_takes_a_list_of_the_clubs_players_only(listed, roster, owner, django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("official", "o@example.org"))
    url = reverse("admin:league_season_change", args=[listed.pk])
    stranger = Player.objects.create(
        club=club_services.club_create(name="Other Club", owner=owner), name="Zora"
    )
    form = {
        "league": listed.league_id,
        "name": listed.name,
        "starts_on": listed.starts_on.isoformat(),
        "ends_on": listed.ends_on.isoformat(),
        "points_win": 2,
        "points_shutout_win": 3,
        "points_loss": 0,
        "min_games": 0,
        "players_from": "roster",
        "night_kind": "two_player",
        "night_rules": "{}",
        "night_stake": "0",
    }

    page = client.get(url)
    refused = client.post(url, form | {"players": [roster["Anna"].pk, stranger.pk]})
    saved = client.post(url, form | {"players": [roster["Emil"].pk]})

    assert page.status_code == 200
    assert refused.status_code == 200
    assert "Choose players of the league&#x27;s club." in refused.content.decode()
    assert saved.status_code == 302
    assert chosen(listed) == ["Emil"]
