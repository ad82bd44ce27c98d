"""A member subscribes to the club's calendar on a phone (360 px): he makes his link, his
calendar app reads it, he renews it (the old address stops working) and withdraws it.

Set SCREENSHOTS to a folder to keep pictures of the steps.
"""

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import Page, expect

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.night_services import night_round_start
from scorekeeper.table import services
from scorekeeper.table.models import Player
from tests.browser.conftest import expect_no_sideways_scroll, screenshot
from tests.clubs.conftest import join
from tests.conftest import PASSWORD

LONG_NAME = "Maximiliane Hohenzollern-Sigmaringen"


def club_with_a_night(owner: User, member: User):
    """A club whose season has tonight's first round: the member's player at table 1."""
    club = club_services.club_create(name=f"Gin Club {LONG_NAME}", owner=owner)
    join(club, member, Role.MEMBER)
    player = services.player_add(club=club, name=LONG_NAME, owner=owner)
    services.player_link(player=player, user=member)
    Player.objects.create(club=club, name="Ben")
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=today, ends_on=today + timedelta(days=60)
    )
    night = night_round_start(
        season=season,
        owner=owner,
        seating=Pairing((Table(1, (LONG_NAME, "Ben")),), ()),
        played_on=today,
        round=1,
    )
    return club, night


def feed(page: Page, address: str) -> Calendar | int:
    """What a calendar app gets at the address: the calendar, or the status of a refusal."""
    response = page.context.request.get(address)  # without the page's session
    if response.status != 200:
        return response.status
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.body())


def test_a_member_makes_renews_and_withdraws_his_calendar_link(
    open_context, log_in, owner: User, django_user_model
):
    member = django_user_model.objects.create_user(
        "Maximiliane.Hohenzollern-Sigmaringen", password=PASSWORD
    )
    club, night = club_with_a_night(owner, member)
    page = open_context().new_page()
    log_in(page, member.username)
    page.goto(f"{club.get_absolute_url()}#calendar")
    section = page.locator("#calendar")
    expect(section.get_by_role("heading", name="Calendar")).to_be_visible()

    section.get_by_role("button", name="Make my calendar link").click()

    subscribe = section.get_by_role("link", name="Subscribe in your calendar")
    expect(subscribe).to_be_visible()
    address = section.get_by_label("Calendar address").input_value()
    assert subscribe.get_attribute("href") == "webcal://" + address.split("://", 1)[1]
    calendar = feed(page, address)
    summaries = {str(event["SUMMARY"]) for event in calendar.walk("VEVENT")}
    assert summaries == {
        "League night: Club league · Autumn",
        "Last day of the season: Club league · Autumn",
    }
    uids = {str(event["UID"]) for event in calendar.walk("VEVENT")}
    assert any(uid.startswith(f"night-{night.pk}@") for uid in uids)
    expect_no_sideways_scroll(page)
    screenshot(page, "calendar-link-360")

    section.get_by_role("button", name="New link (the old one stops working)").click()

    renewed = page.locator("#calendar").get_by_label("Calendar address")
    expect(renewed).not_to_have_value(address)
    assert feed(page, address) == 404
    assert isinstance(feed(page, renewed.input_value()), Calendar)

    last = renewed.input_value()
    page.locator("#calendar").get_by_role("button", name="Withdraw the link").click()

    expect(
        page.locator("#calendar").get_by_role("button", name="Make my calendar link")
    ).to_be_visible()
    expect(page.locator("#calendar").get_by_label("Calendar address")).to_have_count(0)
    assert feed(page, last) == 404
