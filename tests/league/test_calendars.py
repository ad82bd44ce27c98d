"""The calendar feeds: the club's and a member's own, behind private links made, renewed
and withdrawn like the share links, read back with the icalendar library as a calendar
app reads them."""

from datetime import date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from icalendar import Calendar

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import CalendarLink, CalendarMove, Membership
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import LeagueNight
from scorekeeper.league.night_services import (
    NightTaken,
    OutsideSeason,
    night_move,
    night_round_start,
)
from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
YESTERDAY = TODAY - timedelta(days=1)
HOST = "testserver"


@pytest.fixture
def anna(club, member, owner) -> Player:
    """The member's player: Anna."""
    player = services.player_add(club=club, name="Anna", owner=owner)
    services.player_link(player=player, user=member)
    return player


@pytest.fixture
def roster(club, anna) -> dict[str, Player]:
    others = ("Ben", "Carl", "Dora", "Emil", "Fay")
    return {"Anna": anna} | {name: Player.objects.create(club=club, name=name) for name in others}


def round_start(season, owner, *tables, byes=(), round=1, day=TODAY) -> LeagueNight:
    seating = Pairing(tuple(Table(n, t) for n, t in enumerate(tables, start=1)), byes)
    return night_round_start(
        season=season, owner=owner, seating=seating, played_on=day, round=round
    )


def logged_in(user: User, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def club_link(user: User, club, language: str = "en") -> str:
    """The user makes his link to the club's calendar on its page; its address."""
    logged_in(user, language).post(reverse("club_calendar_link", args=[club.slug]))
    return reverse("calendar_feed", args=[CalendarLink.objects.get(user=user, club=club).token])


def own_link(user: User, language: str = "en") -> str:
    logged_in(user, language).post(reverse("my_calendar_link"))
    return reverse("calendar_feed", args=[CalendarLink.objects.get(user=user, club=None).token])


def events(response) -> dict[str, dict]:
    """The feed as a calendar app reads it: each event by its UID."""
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    return {
        str(event["UID"]): {
            "summary": str(event["SUMMARY"]),
            "day": event.decoded("DTSTART"),
            "end": event.decoded("DTEND"),
            "sequence": int(event.get("SEQUENCE", 0)),
            "modified": event.decoded("LAST-MODIFIED"),
            "stamp": event.decoded("DTSTAMP"),
            "description": str(event.get("DESCRIPTION", "")),
            "url": str(event.get("URL", "")),
        }
        for event in calendar.walk("VEVENT")
    }


def test_the_club_feed_holds_its_league_nights_and_the_seasons_last_days(
    club, season, owner, member, roster
):
    night = round_start(season, owner, ("Anna", "Ben"), ("Carl", "Dora"))

    found = events(Client().get(club_link(member, club)))

    assert set(found) == {f"night-{night.pk}@{HOST}", f"season-end-{season.pk}@{HOST}"}
    tonight = found[f"night-{night.pk}@{HOST}"]
    assert tonight["summary"] == "League night: Club league · Autumn"
    assert (tonight["day"], tonight["end"]) == (TODAY, TODAY + timedelta(days=1))  # all day
    assert tonight["url"] == f"http://{HOST}/seasons/{season.pk}/"
    assert tonight["sequence"] == 0
    assert tonight["modified"].tzinfo is not None  # in UTC, written with a Z
    end = found[f"season-end-{season.pk}@{HOST}"]
    assert end["summary"] == "Last day of the season: Club league · Autumn"
    assert (end["day"], end["end"]) == (season.ends_on, season.ends_on + timedelta(days=1))
    assert isinstance(end["day"], date) and not isinstance(end["day"], datetime)


def test_the_member_feed_has_his_tables_and_byes_once_a_round_is_out(
    club, season, owner, member, roster
):
    address = own_link(member)
    night = round_start(season, owner, ("Carl", "Dora"), ("Anna", "Ben"))
    uid = f"night-{night.pk}@{HOST}"
    assert events(Client().get(address))[uid]["description"] == (
        "Round 1, table 2: you against Ben"
    )

    round_start(season, owner, ("Emil", "Fay"), byes=("Anna",), round=2)

    assert events(Client().get(address))[uid]["description"] == (
        "Round 1, table 2: you against Ben\nRound 2: you sit out"
    )


def test_the_member_feed_leaves_out_seasons_he_neither_plays_nor_is_listed_in(
    club, season, owner, member, roster
):
    other = league_services.season_create(
        league=season.league, name="Side", starts_on=TODAY, ends_on=TODAY + timedelta(days=9)
    )
    listed = league_services.season_create(
        league=season.league, name="Cup", starts_on=TODAY, ends_on=TODAY + timedelta(days=20)
    )
    league_services.season_players_set(
        season=listed, players_from="roster", players=[roster["Anna"]]
    )
    round_start(other, owner, ("Ben", "Carl"))
    cup_night = round_start(listed, owner, ("Ben", "Dora"))

    found = events(Client().get(own_link(member)))

    assert set(found) == {f"night-{cup_night.pk}@{HOST}", f"season-end-{listed.pk}@{HOST}"}
    assert found[f"night-{cup_night.pk}@{HOST}"]["description"] == ""  # not seated tonight


def test_a_moved_night_keeps_its_uid_and_moves_with_a_higher_sequence(
    club, season, owner, member, roster
):
    night = round_start(season, owner, ("Anna", "Ben"), day=YESTERDAY)
    made = timezone.now() - timedelta(hours=1)  # a feed's times count whole seconds
    LeagueNight.objects.filter(pk=night.pk).update(created_at=made)
    Partie.objects.filter(night_table__night=night).update(started_at=made)
    address = club_link(member, club)
    uid = f"night-{night.pk}@{HOST}"
    before = events(Client().get(address))[uid]

    night_move(night=night, played_on=TODAY)

    after = events(Client().get(address))
    assert uid in after and len(after) == 2  # moved, not doubled
    assert after[uid]["day"] == TODAY
    assert after[uid]["sequence"] == before["sequence"] + 1 == 1
    assert after[uid]["modified"] > before["modified"]
    assert after[uid]["stamp"] == after[uid]["modified"] > before["stamp"]
    assert CalendarMove.objects.get().event == f"night-{night.pk}"


def test_a_night_moves_only_to_a_free_day_of_its_season(club, season, owner, roster):
    night = round_start(season, owner, ("Anna", "Ben"))
    round_start(season, owner, ("Carl", "Dora"), day=YESTERDAY)

    with pytest.raises(NightTaken):
        night_move(night=night, played_on=YESTERDAY)
    with pytest.raises(OutsideSeason):
        night_move(night=night, played_on=season.ends_on + timedelta(days=1))
    night_move(night=night, played_on=TODAY)  # its own day: nothing to move

    assert not CalendarMove.objects.exists()
    assert LeagueNight.objects.get(pk=night.pk).played_on == TODAY


def test_a_season_given_another_last_day_moves_its_end(club, season, owner, member):
    address = club_link(member, club)
    uid = f"season-end-{season.pk}@{HOST}"
    later = season.ends_on + timedelta(days=7)

    league_services.season_settings_change(season=season, user=owner, ends_on=later)

    end = events(Client().get(address))[uid]
    assert (end["day"], end["sequence"]) == (later, 1)


def test_an_unchanged_feed_answers_304_and_a_change_answers_anew(
    club, season, owner, member, roster
):
    address = club_link(member, club)
    first = Client().get(address)
    etag = first["ETag"]
    assert first["Last-Modified"]
    assert "private" in first["Cache-Control"]

    again = Client().get(address, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again["ETag"], again.content) == (304, etag, b"")

    round_start(season, owner, ("Anna", "Ben"))
    changed = Client().get(address, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_renewed_link_ends_the_old_one_and_a_withdrawn_link_answers_404(club, season, member):
    old = club_link(member, club)
    new = club_link(member, club)  # renewed: a new address

    assert old != new
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200

    logged_in(member).post(reverse("club_calendar_link", args=[club.slug]), {"link": "0"})
    assert Client().get(new).status_code == 404
    assert not CalendarLink.objects.exists()


def test_a_member_removed_from_the_club_reads_its_feeds_no_more(
    club, season, owner, member, roster
):
    round_start(season, owner, ("Anna", "Ben"))
    club_address, own_address = club_link(member, club), own_link(member)
    link = CalendarLink.objects.get(club=club)
    assert len(events(Client().get(own_address))) == 2

    club_services.membership_remove(membership=Membership.objects.get(club=club, user=member))

    assert Client().get(club_address).status_code == 404
    assert events(Client().get(own_address)) == {}  # the club's nights are gone from his own
    # Joining again does not bring the old address back.
    club_services.invitation_accept(
        invitation=club_services.invitation_create(club=club, role="member", created_by=owner),
        user=member,
    )
    assert not CalendarLink.objects.filter(pk=link.pk).exists()
    assert Client().get(club_address).status_code == 404


def test_a_link_checks_membership_at_each_request(club, season, member):
    """A membership gone by another way than the service (the admin) ends it too."""
    address = club_link(member, club)
    Membership.objects.filter(club=club, user=member).delete()

    assert Client().get(address).status_code == 404


def test_an_outsider_gets_404_for_the_club_and_for_a_guessed_link(club, season, outsider):
    response = logged_in(outsider).post(reverse("club_calendar_link", args=[club.slug]))

    assert response.status_code == 404
    assert not CalendarLink.objects.exists()
    guessed = reverse("calendar_feed", args=["guessed-0123456789abcdefghij"])
    assert Client().get(guessed).status_code == 404


def test_a_deleted_club_feeds_nothing(club, season, owner, member):
    address = club_link(member, club)
    club_services.club_delete(club=club)

    assert Client().get(address).status_code == 404


def test_the_feed_speaks_the_language_the_link_was_made_in(club, season, owner, member, roster):
    """Fetched without a session, the feed speaks the language of the page the link was
    made on (German here), whatever the calendar app asks for."""
    night = round_start(season, owner, ("Anna", "Ben"))
    address = own_link(member, language="de")

    found = events(Client(HTTP_ACCEPT_LANGUAGE="en").get(address))

    with translation.override("de"):
        summary = gettext("League night: %(season)s") % {"season": season}
        table = gettext("Round %(round)s, table %(table)s: you against %(others)s")
        last_day = gettext("Last day of the season: %(season)s") % {"season": season}
    tonight = found[f"night-{night.pk}@{HOST}"]
    assert tonight["summary"] == summary
    assert tonight["description"] == table % {"round": 1, "table": 1, "others": "Ben"}
    assert found[f"season-end-{season.pk}@{HOST}"]["summary"] == last_day
    assert CalendarLink.objects.get().language == "de"


def test_a_feed_is_the_same_bytes_until_something_changes(club, season, owner, member, roster):
    round_start(season, owner, ("Anna", "Ben"))
    address = club_link(member, club)

    assert Client().get(address).content == Client().get(address).content


def test_the_pages_offer_the_link_and_its_renewal(club, season, member):
    client = logged_in(member)
    page = client.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert "Make my calendar link" in page

    client.post(reverse("club_calendar_link", args=[club.slug]))
    token = CalendarLink.objects.get().token
    page = client.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert f'href="webcal://{HOST}/calendar/{token}.ics"' in page
    assert f'value="http://{HOST}/calendar/{token}.ics"' in page
    assert "New link (the old one stops working)" in page

    mine = client.get(reverse("my_games")).content.decode()
    assert "Make my calendar link" in mine  # his own feed is another link
