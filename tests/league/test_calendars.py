"""The calendar feeds: the club's and a member's own, behind private links made, renewed
and withdrawn like the share links, read back with the icalendar library as a calendar
app reads them."""

from datetime import date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import parse_http_date
from django.utils.translation import gettext
from icalendar import Calendar

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import CalendarLink, CalendarMove, Membership
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import CancelledNight, LeagueNight, Season
from scorekeeper.league.night_services import (
    NightTaken,
    OutsideSeason,
    night_cancel,
    night_move,
    night_plan,
    night_round_start,
)
from scorekeeper.table import services
from scorekeeper.table.models import Player

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
YESTERDAY = TODAY - timedelta(days=1)
TOMORROW = TODAY + timedelta(days=1)
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
            "status": str(event.get("STATUS", "")),
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


def an_hour_ago(night: LeagueNight) -> None:
    """The night as if planned an hour ago: a feed's times count whole seconds, and a
    change within the second of another would not be newer."""
    made = timezone.now() - timedelta(hours=1)
    LeagueNight.objects.filter(pk=night.pk).update(created_at=made)
    CalendarMove.objects.filter(event=f"night-{night.pk}").update(at=made)


def test_a_moved_night_keeps_its_uid_and_moves_with_a_higher_sequence(
    club, season, owner, member, roster
):
    night = night_plan(season=season, played_on=TOMORROW)
    an_hour_ago(night)
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
    assert after[uid]["status"] == before["status"] == ""
    assert CalendarMove.objects.get().event == f"night-{night.pk}"


def test_a_night_moves_only_to_a_free_day_of_its_season(club, season, owner, roster):
    night = night_plan(season=season, played_on=TOMORROW)
    night_plan(season=season, played_on=TODAY)

    with pytest.raises(NightTaken):
        night_move(night=night, played_on=TODAY)
    with pytest.raises(OutsideSeason):
        night_move(night=night, played_on=season.ends_on + timedelta(days=1))
    night_move(night=night, played_on=TOMORROW)  # its own day: nothing to move

    assert not CalendarMove.objects.exists()
    assert LeagueNight.objects.get(pk=night.pk).played_on == TOMORROW


def test_a_planned_night_is_in_the_feeds_at_once(club, season, owner, member, roster):
    """In the club's feed, and in the member's own for a season that lists his player."""
    league_services.season_players_set(
        season=season, players_from="roster", players=[roster["Anna"]]
    )
    night = night_plan(season=season, played_on=TOMORROW)
    uid = f"night-{night.pk}@{HOST}"

    for address in (club_link(member, club), own_link(member)):
        planned = events(Client().get(address))[uid]
        assert (planned["day"], planned["sequence"], planned["status"]) == (TOMORROW, 0, "")
        assert planned["summary"] == "League night: Club league · Autumn"
        assert planned["description"] == ""  # no table yet


def test_a_cancelled_night_stays_in_the_feeds_cancelled_under_its_uid(
    club, season, owner, member, roster
):
    """RFC 5545: the event the calendar app holds, under its UID, with STATUS:CANCELLED
    and a higher SEQUENCE; a night that only disappeared from the feed might stay."""
    league_services.season_players_set(
        season=season, players_from="roster", players=[roster["Anna"]]
    )
    night = night_plan(season=season, played_on=TOMORROW)
    night_move(night=night, played_on=TOMORROW + timedelta(days=1))
    an_hour_ago(night)
    uid = f"night-{night.pk}@{HOST}"
    addresses = (club_link(member, club), own_link(member))
    before = [events(Client().get(address))[uid] for address in addresses]

    night_cancel(night=night, user=owner)

    for address, held in zip(addresses, before, strict=True):
        found = events(Client().get(address))
        assert len(found) == 2  # the cancelled night and the season's end: nothing doubled
        cancelled = found[uid]
        assert cancelled["status"] == "CANCELLED" and held["status"] == ""
        assert cancelled["sequence"] == held["sequence"] + 1 == 2
        assert cancelled["day"] == held["day"] == TOMORROW + timedelta(days=1)
        assert cancelled["modified"] > held["modified"]
        assert cancelled["stamp"] == cancelled["modified"]
        assert cancelled["summary"] == "League night cancelled: Club league · Autumn"

    # A night planned again on that day is a new event: the cancelled one stays cancelled.
    again = night_plan(season=season, played_on=TOMORROW + timedelta(days=1))
    found = events(Client().get(addresses[0]))
    assert found[uid]["status"] == "CANCELLED"
    assert found[f"night-{again.pk}@{HOST}"]["status"] == ""


def test_a_cancelled_night_leaves_the_member_feed_with_its_club(
    club, season, owner, member, roster
):
    """For as long as the feed shows the season: not after the member left the club."""
    round_start(season, owner, ("Anna", "Ben"))  # his player plays in the season
    night = night_plan(season=season, played_on=TOMORROW)
    night_cancel(night=night, user=owner)
    address = own_link(member)
    assert events(Client().get(address))[f"night-{night.pk}@{HOST}"]["status"] == "CANCELLED"

    club_services.membership_remove(membership=Membership.objects.get(club=club, user=member))

    assert events(Client().get(address)) == {}


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


def back_an_hour() -> None:
    """Every change so far as if made an hour ago: a feed's times count whole seconds,
    and a change within the second of the one before would not be newer."""
    past = timezone.now() - timedelta(hours=1)
    Season.objects.update(created_at=past)
    LeagueNight.objects.update(created_at=past)
    CalendarMove.objects.update(at=past)
    CancelledNight.objects.update(cancelled_at=past)


def test_planning_moving_and_cancelling_a_night_each_answer_anew(
    club, season, owner, member, roster
):
    """Each change gives the feed another ETag and a newer Last-Modified; until the next
    one, the new ETag answers 304."""
    address = club_link(member, club)
    planned = []
    changes = (
        lambda: planned.append(night_plan(season=season, played_on=TOMORROW)),
        lambda: night_move(night=planned[0], played_on=TOMORROW + timedelta(days=1)),
        lambda: night_cancel(night=planned[0], user=owner),
    )
    for change in changes:
        back_an_hour()
        before = Client().get(address)

        change()

        after = Client().get(address, HTTP_IF_NONE_MATCH=before["ETag"])
        assert after.status_code == 200 and after["ETag"] != before["ETag"]
        newer = parse_http_date(after["Last-Modified"])
        assert newer > parse_http_date(before["Last-Modified"])
        unchanged = Client().get(address, HTTP_IF_NONE_MATCH=after["ETag"])
        assert (unchanged.status_code, unchanged["ETag"]) == (304, after["ETag"])


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
