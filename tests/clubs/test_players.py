"""Players as people: the club's players searched by name, a player renamed, two entries
for one person merged, a player's page (results, seasons, head-to-head, hands, rating
chart) and "My games". Who may open these addresses is in test_permissions.py."""

import xml.etree.ElementTree as ET
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.league import services as league_services
from scorekeeper.league.selectors import season_table
from scorekeeper.table import services
from scorekeeper.table.models import (
    EveningPayment,
    Hand,
    HandChange,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    Seat,
    SettlementLine,
)
from scorekeeper.table.selectors import partie_session
from tests.clubs.conftest import join, start
from tests.league.conftest import moved, work

pytestmark = pytest.mark.django_db

K, G = engine.Hand.knock, engine.Hand.gin
SVG = "{http://www.w3.org/2000/svg}"


def played(club, user, names, hands, evening=None) -> Partie:
    """A partie of the club with its hands recorded, as the table would."""
    partie = start(club, user, names=names, evening=evening)
    for hand in hands:
        services.hand_record(partie=partie, hand=hand, user=user)
    partie.refresh_from_db()
    work()  # the worker beside the server rates its games
    return partie


@pytest.fixture
def season(club):
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    return league_services.season_create(
        league=league,
        name="Autumn",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
    )


@pytest.fixture
def games(club, scorer, season):
    """Anna beats Ben, Carl beats Ben; "Ann" (Anna entered twice) beats Carl in a settled
    evening, so Carl owes her; Ann and Ben have a partie running."""
    first = played(club, scorer, ("Anna", "Ben"), [G(90, knocker="Anna")])
    second = played(club, scorer, ("Carl", "Ben"), [G(20, knocker="Carl"), G(70, knocker="Carl")])
    evening = services.evening_start(
        owner=scorer, club=club, name="Friday", played_on=timezone.localdate()
    )
    third = played(club, scorer, ("Ann", "Carl"), [G(90, knocker="Ann")], evening=evening)
    services.evening_settle(evening=evening)
    running = played(club, scorer, ("Ann", "Ben"), [K(5, 27, knocker="Ann")])
    return first, second, third, running


def player(name: str) -> Player:
    return Player.objects.get(name=name)


# The players list and its search


def test_the_players_list_finds_names_containing_the_search_in_any_case(client_of, games):
    response = client_of("member").get(reverse("player_list", args=["skat-club"]), {"q": "AN"})

    assert response.status_code == 200
    assert [p.name for p in response.context["players"]] == ["Ann", "Anna"]
    html = response.content.decode()
    assert 'name="q" value="AN"' in html
    assert reverse("player_detail", args=[player("Anna").pk]) in html


def test_the_players_list_says_how_many_games_each_played_and_whose_account_he_is(
    client_of, games, club, member
):
    services.player_link(player=player("Ben"), user=member)

    response = client_of("member").get(reverse("player_list", args=[club.slug]))

    counts = {p.name: p.games for p in response.context["players"]}
    assert counts == {"Ann": 1, "Anna": 1, "Ben": 2, "Carl": 2}  # Ann's running partie: none
    html = response.content.decode()
    assert "2 games" in html and "1 game<" in html and ">member</span>" in html


def test_htmx_gets_only_the_list_of_the_same_template(client_of, games, club):
    response = client_of("member").get(
        reverse("player_list", args=[club.slug]), {"q": "car"}, HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="players"')
    assert "<html" not in html and "Carl" in html and "Anna" not in html


def test_a_search_that_finds_nobody_says_so(client_of, games, club):
    response = client_of("member").get(reverse("player_list", args=[club.slug]), {"q": "Zoe"})

    assert "No player’s name contains “Zoe”." in response.content.decode().replace("'", "’")


# Renaming


def test_a_rename_strips_spaces_and_every_partie_names_him_anew(client_of, games, scorer, season):
    ben = player("Ben")
    assert "Ben" in season_table(season).players  # computed, and kept, before the rename

    response = client_of("scorer").post(
        reverse("player_rename", args=[ben.pk]), {"name": " Benno "}
    )

    assert response.status_code == 302
    ben.refresh_from_db()
    assert ben.name == "Benno"
    for partie in Partie.objects.filter(seats__player=ben):
        assert "Benno" in partie.summary["players"] and "Ben" not in partie.summary["players"]
        assert "Benno" in partie.summary["totals"]
        change = partie.changes.get(action=HandChange.Action.PLAYER)
        assert (change.user, change.before, change.after) == (
            scorer,
            {"player": "Ben"},
            {"player": "Benno"},
        )
    first = games[0]
    first.refresh_from_db()
    assert first.summary["winner"] == "Anna"
    assert "Benno" in season_table(season).players and "Ben" not in season_table(season).players
    page = client_of("member").get(first.get_absolute_url()).content.decode()
    assert "player renamed/merged" in page and "<del>Ben</del> <ins>Benno</ins>" in page


def test_a_partnership_team_is_named_after_its_renamed_member(club, scorer):
    partie = services.partie_start(
        owner=scorer,
        club=club,
        names=["Anna", "Ben", "Carl", "Dora"],
        rules=engine.preset("partnership"),
        kind="partnership",
    )
    assert "Anna & Carl" in partie.summary["totals"]

    services.player_rename(player=player("Carl"), name="Carlo", user=scorer)

    partie.refresh_from_db()
    assert set(partie.summary["totals"]) == {"Anna & Carlo", "Ben & Dora"}


@pytest.mark.parametrize("name", ["anna", "ANNA ", "Anna"])
def test_a_rename_to_a_name_the_club_has_is_refused_whatever_the_case(client_of, games, name):
    ben = player("Ben")
    before = list(Partie.objects.values_list("summary", flat=True))

    response = client_of("scorer").post(reverse("player_rename", args=[ben.pk]), {"name": name})

    assert response.status_code == 400
    html = response.content.decode()
    assert "The club has a player named" in html and "merge the two players" in html
    assert player("Ben").pk == ben.pk
    assert list(Partie.objects.values_list("summary", flat=True)) == before
    assert not HandChange.objects.filter(action=HandChange.Action.PLAYER).exists()


def test_a_player_may_change_the_case_of_his_own_name(games, scorer):
    services.player_rename(player=player("Anna"), name="ANNA", user=scorer)

    assert Player.objects.filter(name="ANNA").exists()


def test_a_rename_longer_than_the_field_or_empty_is_refused(client_of, games, scorer):
    ben = player("Ben")
    url = reverse("player_rename", args=[ben.pk])

    too_long = client_of("scorer").post(url, {"name": "B" * 61})
    empty = client_of("scorer").post(url, {"name": "   "})

    assert too_long.status_code == empty.status_code == 400
    assert "at most 60 characters" in too_long.content.decode()
    with pytest.raises(services.PlayerChangeError, match="at most 60 characters"):
        services.player_rename(player=ben, name="B" * 61, user=scorer)
    with pytest.raises(services.PlayerChangeError, match="Enter the player"):
        services.player_rename(player=ben, name="  ", user=scorer)
    assert player("Ben").name == "Ben"


# Merging


def snapshot():
    """Every row that names a player, as (what, player name)."""
    return {
        "seats": sorted(Seat.objects.values_list("partie_id", "player__name")),
        "knockers": sorted(Hand.objects.values_list("pk", "knocker__name")),
        "dealers": sorted(Partie.objects.values_list("pk", "first_dealer__name")),
        "payments": sorted(EveningPayment.objects.values_list("payer__name", "payee__name")),
        "results": sorted(
            PlayerResult.objects.values_list(
                "game__partie_id", "game__number", "player__name", "won", "net_points"
            )
        ),
        "lines": sorted(
            SettlementLine.objects.values_list(
                "game__partie_id", "game__number", "payer__name", "payee__name", "points"
            )
        ),
        "stats": sorted(PartieStats.objects.values_list("partie_id", "player__name", "hands")),
    }


def renamed(rows, gone="Ann", keep="Anna"):
    return sorted(tuple(keep if value == gone else value for value in row) for row in rows)


def test_a_merge_moves_every_row_of_the_one_entry_to_the_other(games, scorer, member):
    services.player_link(player=player("Ann"), user=member)
    before = snapshot()
    anna, ann = player("Anna"), player("Ann")

    services.player_merge(keep=anna, gone=ann, user=scorer)

    assert not Player.objects.filter(name="Ann").exists()
    after = snapshot()
    assert after == {what: renamed(rows) for what, rows in before.items()}
    assert not PlayerResult.objects.filter(player=ann).exists()
    anna.refresh_from_db()
    assert anna.user == member  # Anna had no account: she takes Ann's


def test_the_kept_player_keeps_his_own_account(games, scorer, member, owner):
    services.player_link(player=player("Anna"), user=owner)
    services.player_link(player=player("Ann"), user=member)

    services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)

    assert player("Anna").user == owner


def test_a_merge_leaves_the_standings_totals_and_sums_the_two_lines(games, season, scorer):
    before = {row.line.player: row.line for row in season_table(season).rows}

    services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)

    after = {row.line.player: row.line for row in season_table(season).rows}
    assert set(after) == {"Anna", "Ben", "Carl"}
    # The ranks and ratings may move: one person's games are now rated as one record.
    for figure in ("games", "won", "lost", "league_points", "net_points", "money"):
        assert sum(getattr(line, figure) for line in after.values()) == sum(
            getattr(line, figure) for line in before.values()
        )
        assert getattr(after["Anna"], figure) == getattr(before["Anna"], figure) + getattr(
            before["Ann"], figure
        )
        for other in ("Ben", "Carl"):
            assert getattr(after[other], figure) == getattr(before[other], figure)


def test_the_trail_of_every_partie_of_the_merged_entry_says_who_was_merged_into_whom(
    client_of, games, scorer
):
    first, _, third, running = games

    services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)

    for partie in (third, running):
        change = partie.changes.get(action=HandChange.Action.PLAYER)
        assert (change.before, change.after) == (
            {"player": "Ann"},
            {"player": "Anna", "merged": True},
        )
        partie.refresh_from_db()
        assert "Anna" in partie.summary["players"]
        page = client_of("member").get(partie.get_absolute_url()).content.decode()
        assert "Ann merged into Anna" in page
    assert not first.changes.filter(action=HandChange.Action.PLAYER).exists()
    third.refresh_from_db()
    assert third.summary["winner"] == "Anna"


def test_the_merged_partie_plays_on_with_the_kept_player(games, scorer):
    running = games[3]
    services.player_merge(keep=player("Anna"), gone=player("Ann"), user=scorer)
    running = Partie.objects.get(pk=running.pk)

    services.hand_record(partie=running, hand=K(3, 20, knocker="Anna"), user=scorer)

    running.refresh_from_db()
    assert running.summary["hands"] == 2 and running.summary["totals"]["Anna"] == 22 + 17


def test_two_who_sat_in_one_partie_cannot_be_merged(client_of, games):
    anna, ben = player("Anna"), player("Ben")
    before = snapshot()

    response = client_of("scorer").post(
        reverse("player_merge", args=[anna.pk]), {"other": ben.name, "confirm": "1"}
    )

    assert response.status_code == 400
    assert "Ben and Anna both sat in the partie Anna – Ben" in response.content.decode()
    assert snapshot() == before
    assert not HandChange.objects.filter(action=HandChange.Action.PLAYER).exists()


def test_players_of_two_clubs_cannot_be_merged(games, scorer, owner):
    other_club = club_services.club_create(name="Other", owner=owner)
    stranger = Player.objects.create(club=other_club, name="Ann")

    with pytest.raises(services.PlayerChangeError, match="another club"):
        services.player_merge(keep=player("Anna"), gone=stranger, user=scorer)
    with pytest.raises(services.PlayerChangeError, match="cannot be merged with himself"):
        services.player_merge(keep=player("Anna"), gone=player("Anna"), user=scorer)


def test_the_merge_asks_for_a_confirmation_first(client_of, games):
    anna, ann = player("Anna"), player("Ann")
    url = reverse("player_merge", args=[anna.pk])

    asked = client_of("scorer").post(url, {"other": ann.name})

    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Merge Anna and Ann?" in html and 'name="confirm"' in html
    assert Player.objects.filter(pk=ann.pk).exists()

    done = client_of("scorer").post(url, {"other": ann.name, "confirm": "1"})

    assert done.status_code == 302 and done.url == reverse("player_detail", args=[anna.pk])
    assert not Player.objects.filter(pk=ann.pk).exists()


def test_the_merge_offers_only_the_other_players_of_the_club(client_of, games, owner):
    other_club = club_services.club_create(name="Other", owner=owner)
    Player.objects.create(club=other_club, name="Zoe")
    anna = player("Anna")

    response = client_of("scorer").get(reverse("player_detail", args=[anna.pk]))

    offered = [p.name for p in response.context["merge_form"].fields["other"].queryset]
    assert offered == ["Ann", "Ben", "Carl"]


def test_a_member_sees_no_forms_to_rename_or_merge(client_of, games):
    response = client_of("member").get(reverse("player_detail", args=[player("Anna").pk]))

    html = response.content.decode()
    assert reverse("player_rename", args=[player("Anna").pk]) not in html
    assert response.context["merge_form"] is None


# The player's page


def test_the_player_page_shows_his_results_seasons_opponents_and_hands(client_of, games, season):
    ben = player("Ben")
    first, second, _, _ = games
    moved(first, date(2026, 3, 1))

    response = client_of("member").get(reverse("player_detail", args=[ben.pk]))

    record = response.context["record"]
    assert [(r.partie, r.won, r.net_points) for r in record.results] == [
        (second, False, -first_net(second, "Ben")),
        (first, False, -first_net(first, "Ben")),
    ]  # newest first
    assert record.results[-1].played_on == date(2026, 3, 1)
    (line,) = record.seasons  # the first partie moved out of the season's dates
    assert (line.season, line.line.games, line.line.won, line.line.lost) == (season, 1, 0, 1)
    assert line.line.rank == 3
    assert [(o.player.name, o.meeting.won, o.meeting.lost) for o in record.opponents] == [
        ("Anna", 0, 1),
        ("Carl", 0, 1),
    ]
    assert record.opponents[1].meeting.net_points == -first_net(second, "Ben")
    assert (record.stats.hands, record.stats.won, record.stats.gins) == (3, 0, 0)
    html = response.content.decode()
    for words in ("Results", "Seasons", "Head-to-head", "Hands played", "Autumn", "lost"):
        assert words in html
    assert first.get_absolute_url() in html and 'datetime="2026-03-01"' in html


def first_net(partie: Partie, loser: str) -> int:
    """The points the loser of the partie's one game paid."""
    lines = SettlementLine.objects.filter(game__partie=partie, payer__name=loser)
    return sum(line.points for line in lines)


def test_the_winners_hand_statistics_sum_his_parties(client_of, games):
    carl = player("Carl")

    stats = (
        client_of("member").get(reverse("player_detail", args=[carl.pk])).context["record"].stats
    )

    assert (stats.hands, stats.won, stats.gins) == (3, 2, 2)
    assert stats.gin_rate == pytest.approx(2 / 3)
    assert (
        stats.points_per_hand_won
        == PartieStats.objects.get(player=carl, partie=games[1]).points / 2
    )


def chart_of(html: str) -> ET.Element:
    """The page's inline SVG, parsed as XML: it must be well-formed."""
    start, end = html.index("<svg"), html.index("</svg>") + len("</svg>")
    return ET.fromstring(html[start:end])


def test_the_rating_chart_is_a_well_formed_svg_with_a_point_per_game(client_of, games):
    ben = player("Ben")

    response = client_of("member").get(reverse("player_detail", args=[ben.pk]))

    svg = chart_of(response.content.decode())
    assert svg.tag == f"{SVG}svg"
    assert svg.get("viewBox") == "0 0 320 170" and svg.get("width") == "100%"
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "rating-title rating-desc"
    title = svg.find(f"{SVG}title")
    assert title.text == "The rating of Ben after each of his 2 games"
    points = svg.find(f"{SVG}polyline").get("points").split()
    assert len(points) == 2 and len(svg.findall(f"{SVG}circle")) == 2
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "Games" in texts and "Rating" in texts
    parties = Partie.objects.filter(club_id=ben.club_id).order_by("started_at", "pk")
    results = [r for p in parties for r in partie_session(p).results(p.stake, p.own_stakes)]
    history = engine.standings(results, ["Ben"]).history["Ben"]
    record = response.context["record"]
    assert record.chart.ratings == tuple(r.ordinal for r in history)
    last, best = history[-1].ordinal, max(r.ordinal for r in history)
    # a negative rating with a minus sign, not a hyphen: "Rating now −3.4, best −1.8"
    caption = f"Rating now {last:.1f}, best {best:.1f}".replace("-", "−")
    assert caption in response.content.decode()


def test_the_chart_speaks_german_numbers_in_its_labels_but_not_in_its_coordinates(client_of, games):
    response = client_of("member").get(
        reverse("player_detail", args=[player("Ben").pk]), HTTP_ACCEPT_LANGUAGE="de"
    )

    svg = chart_of(response.content.decode())
    for point in svg.find(f"{SVG}polyline").get("points").split():
        x, y = point.split(",")
        float(x), float(y)
    assert "Partien" in [t.text for t in svg.iter(f"{SVG}text")]


def test_a_player_without_a_closed_game_has_no_chart(client_of, club, scorer):
    played(club, scorer, ("Eva", "Finn"), [K(5, 27, knocker="Eva")])

    response = client_of("member").get(reverse("player_detail", args=[player("Eva").pk]))

    assert response.context["record"].chart is None
    assert "<svg" not in response.content.decode()
    assert "No closed game yet" in response.content.decode()


# My games


def test_my_games_lists_the_parties_of_my_players_in_all_my_clubs_newest_first(
    client_of, games, member, owner, club
):
    services.player_link(player=player("Ann"), user=member)
    other_club = club_services.club_create(name="Rummy Friends", owner=owner)
    join(other_club, member, Role.MEMBER)
    elsewhere = played(other_club, owner, ("Mia", "Ole"), [])
    services.player_link(player=Player.objects.get(club=other_club, name="Mia"), user=member)
    _, _, third, running = games
    moved(third, date(2026, 1, 5))

    response = client_of("member").get(reverse("my_games"))

    assert list(response.context["page"]) == [elsewhere, running, third]
    html = response.content.decode()
    assert "Rummy Friends" in html and "Skat Club" in html and "over" in html
    assert client_of("outsider").get(reverse("my_games")).context["page"].object_list.count() == 0


def test_the_navigation_links_to_my_games(client_of):
    html = client_of("member").get(reverse("home")).content.decode()

    assert f'href="{reverse("my_games")}"' in html and "My games" in html
