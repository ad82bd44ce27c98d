"""The league night page: who may use it, tables proposed and swapped without a write,
one tap starting every partie of the round in the club and season, byes recorded."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs.models import Role
from scorekeeper.league.models import Assignment, LeagueNight, NightBye, NightTable
from scorekeeper.league.nights import night_record
from scorekeeper.table.models import Partie, Player
from tests.clubs.conftest import join
from tests.league.conftest import G

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Ben", "Carl", "Dora", "Emil")


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def roster(club) -> dict[str, int]:
    return {name: Player.objects.create(club=club, name=name).pk for name in NAMES}


def url(season) -> str:
    return reverse("league_night", args=[season.pk])


def propose(client, season, roster, names=NAMES, **extra):
    query = {"present": [roster[n] for n in names], "method": "round_robin", **extra}
    return client.get(url(season), query)


def seating(response) -> tuple[str, str]:
    form = response.context["seating"]
    return form.initial["tables"], form.initial["byes"]


def test_who_may_open_the_league_night(season, roster, owner, member, outsider, django_user_model):
    scorer = django_user_model.objects.create_user("scorer")
    join(season.league.club, scorer, Role.SCORER)

    assert client_as(owner).get(url(season)).status_code == 200
    assert client_as(scorer).get(url(season)).status_code == 200
    assert client_as(member).get(url(season)).status_code == 403
    assert client_as(outsider).get(url(season)).status_code == 404
    response = client_as(None).get(url(season))
    assert response.status_code == 302 and "/login/" in response.url


def test_the_season_page_links_the_night_for_its_organisers(season, owner, member):
    page = reverse("season_detail", args=[season.pk])
    assert url(season) in client_as(owner).get(page).content.decode()
    assert url(season) not in client_as(member).get(page).content.decode()


def test_proposing_tables_writes_nothing(season, roster, owner):
    response = propose(client_as(owner), season, roster, seed=4)

    assert response.status_code == 200
    proposal = response.context["proposal"]
    assert len(proposal.tables) == 2 and len(proposal.byes) == 1
    assert sorted(proposal.seated + list(proposal.byes)) == sorted(NAMES)
    html = response.content.decode()
    assert "Table 1" in html and "Bye: " in html and "Start round 1: 2 parties" in html
    assert Partie.objects.count() == 0 and LeagueNight.objects.count() == 0
    # The same seed, the same tables; "Other tables" is the next seed.
    assert propose(client_as(owner), season, roster, seed=4).context["proposal"] == proposal
    assert "seed=5" in response.context["other_tables"]


def test_too_few_players_are_refused(season, roster, owner):
    response = propose(client_as(owner), season, roster, names=["Anna"])

    assert response.status_code == 400
    assert "Tick at least two players." in response.content.decode()


def test_swapping_two_players_before_starting(season, roster, owner):
    client = client_as(owner)
    proposed = propose(client, season, roster, seed=1)
    tables, byes = seating(proposed)
    before = proposed.context["proposal"]
    (out,) = before.byes
    seated = before.tables[0].players[0]

    response = client.get(url(season), {"tables": tables, "byes": byes, "one": roster[seated],
                                        "other": roster[out], "method": "round_robin"})  # fmt: skip

    assert response.status_code == 200
    assert response.context["proposal"] == before.swapped(seated, out)
    assert response.context["proposal"].byes == (seated,)


def test_starting_the_round_starts_every_partie_in_the_club_and_season(season, roster, owner):
    client = client_as(owner)
    tables, byes = seating(propose(client, season, roster, seed=2))

    response = client.post(url(season), {"tables": tables, "byes": byes, "round": 1})

    assert response.status_code == 302 and response.url == url(season)
    night = LeagueNight.objects.get(season=season)
    assert night.played_on == timezone.localdate()
    started = list(NightTable.objects.filter(night=night).order_by("number"))
    assert [t.number for t in started] == [1, 2] and {t.round for t in started} == {1}
    for table, ids in zip(started, tables.split(";"), strict=True):
        partie = table.partie
        assert partie.club_id == season.league.club_id and partie.kind == "two_player"
        assert [seat.player_id for seat in partie.seats.all()] == [int(pk) for pk in ids.split(",")]
        assert Assignment.objects.get(partie=partie).season == season
    (bye,) = NightBye.objects.filter(night=night)
    assert bye.player_id == int(byes) and bye.round == 1
    assert night_record(season, timezone.localdate()).byes == {bye.player.name: 1}

    page = client.get(url(season)).content.decode()
    assert "Round 1" in page and "Round 2: who plays whom" in page
    assert page.count('<span class="tag">playing</span>') == 2


def test_a_second_tap_starts_the_round_once(season, roster, owner):
    client = client_as(owner)
    tables, byes = seating(propose(client, season, roster))
    for _ in range(2):
        client.post(url(season), {"tables": tables, "byes": byes, "round": 1})

    assert Partie.objects.count() == 2 and NightBye.objects.count() == 1


def test_a_table_of_three_is_a_three_player_partie(season, roster, owner):
    client = client_as(owner)
    tables, byes = seating(propose(client, season, roster, three_player_table="on"))
    assert byes == ""

    client.post(url(season), {"tables": tables, "byes": byes, "round": 1})

    assert sorted(Partie.objects.values_list("kind", flat=True)) == ["three_player", "two_player"]
    assert NightBye.objects.count() == 0


def test_the_next_round_of_a_swiss_night_has_no_rematch(season, roster, owner, play):
    client = client_as(owner)
    names = ["Anna", "Ben", "Carl", "Dora"]
    proposed = propose(client, season, roster, names=names, method="swiss")
    tables, byes = seating(proposed)
    client.post(url(season), {"tables": tables, "byes": byes, "round": 1})
    for started in NightTable.objects.all():
        partie = started.partie
        winner = partie.player_names[0]
        from scorekeeper.table import services

        services.hand_record(partie=partie, hand=G(90, knocker=winner), user=owner)

    second = propose(client, season, roster, names=names, method="swiss").context["proposal"]

    first = {frozenset(t.partie.player_names) for t in NightTable.objects.all()}
    assert not first & {frozenset(t.players) for t in second.tables}


def test_a_stale_seating_is_refused_and_nothing_is_started(season, roster, owner, club):
    stranger = Player.objects.create(club=club, name="Zed").pk
    Player.objects.filter(pk=stranger).delete()
    client = client_as(owner)
    bad = [
        {"tables": f"{roster['Anna']},{stranger}", "byes": "", "round": 1},
        {"tables": f"{roster['Anna']},{roster['Anna']}", "byes": "", "round": 1},
        {"tables": f"{roster['Anna']}", "byes": "", "round": 1},
        {"tables": "x,y", "byes": "", "round": 1},
    ]
    for data in bad:
        response = client.post(url(season), data)
        assert response.status_code == 400
        assert "These tables are no longer valid: propose them again." in response.content.decode()
    assert Partie.objects.count() == 0 and LeagueNight.objects.count() == 0


def test_the_page_is_german_for_a_german_reader(season, roster, owner):
    client = client_as(owner)
    query = {"present": list(roster.values()), "method": "swiss"}
    response = client.get(url(season), query, HTTP_ACCEPT_LANGUAGE="de")
    html = response.content.decode()
    assert "Ligaabend" in html and "Tisch 1" in html and "Tische vorschlagen" in html
