"""The organiser plans the season's nights on his phone (360 px): a night every week,
then one of them moved to another day and one cancelled, each by HTMX; one more planned
without JavaScript. A member's calendar app, fetching his own feed, sees each change:
the moved night on its new day under its UID, the cancelled one cancelled.

Set SCREENSHOTS to a folder to keep pictures of the page."""

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import Page, expect

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.league import services as league_services
from scorekeeper.league.calendars import feed_path
from scorekeeper.league.models import CancelledNight, LeagueNight
from scorekeeper.league.night_services import weekly
from scorekeeper.table import services
from tests.browser.conftest import DESKTOP, expect_no_sideways_scroll, small_screenshot
from tests.clubs.conftest import join

LONG = "Maximiliane Hohenzollern-Sigmaringen"


def feed_events(page: Page, address: str) -> dict[str, dict]:
    """The member's feed as his calendar app reads it: each event by its UID."""
    response = page.context.request.get(address)
    assert response.status == 200
    calendar = Calendar.from_ical(response.body())
    return {
        str(event["UID"]).split("@")[0]: {
            "day": event.decoded("DTSTART"),
            "sequence": int(event.get("SEQUENCE", 0)),
            "status": str(event.get("STATUS", "")),
        }
        for event in calendar.walk("VEVENT")
    }


def test_the_organiser_plans_moves_and_cancels_nights_and_the_calendar_follows(
    open_context, log_in, live_server, owner: User, django_user_model
):
    member = django_user_model.objects.create_user("member")
    club = club_services.club_create(name=f"Kartenfreunde {LONG} e.V.", owner=owner)
    join(club, member, Role.MEMBER)
    player = services.player_add(club=club, name=LONG, owner=owner)
    services.player_link(player=player, user=member)
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Dienstagsliga der Kartenfreunde")
    season = league_services.season_create(
        league=league,
        name=f"Herbstsaison {LONG}",
        starts_on=today,
        ends_on=today + timedelta(days=60),
    )
    league_services.season_players_set(season=season, players_from="roster", players=[player])
    link = club_services.calendar_link_make(user=member, club=None, language="en")
    address = live_server.url + feed_path(link.token)
    first, last = today + timedelta(days=1), today + timedelta(days=22)
    wanted = weekly(first, last, first.weekday())  # four: a week apart
    page = open_context().new_page()
    log_in(page, owner.username)

    page.goto(season.get_absolute_url())
    page.get_by_role("link", name="The season's nights").click()
    expect(page.get_by_role("heading", name="The season's nights", level=1)).to_be_visible()
    weekly_form = page.locator("form.night-weekly")
    weekly_form.get_by_label("Every").select_option(str(first.weekday()))
    weekly_form.get_by_label("From").fill(first.isoformat())
    weekly_form.get_by_label("Until").fill(last.isoformat())
    weekly_form.get_by_role("button", name="Plan the nights").click()

    expect(page.locator("#nights [role=status]")).to_contain_text("4 nights planned, from ")
    planned = page.locator(".planned-nights > li")
    expect(planned).to_have_count(4)
    nights = list(LeagueNight.objects.filter(season=season).order_by("played_on"))
    assert [night.played_on for night in nights] == wanted
    held = feed_events(page, address)
    assert {f"night-{night.pk}" for night in nights} <= set(held)
    expect_no_sideways_scroll(page)
    small_screenshot(page, "season-nights-en-360")

    moved, cancelled = nights[1], nights[2]
    new_day = moved.played_on + timedelta(days=2)
    row = page.locator(f"#night-{moved.pk}")
    row.get_by_label("Move to").fill(new_day.isoformat())
    row.get_by_role("button", name="Move").click()
    expect(page.locator("#nights [role=status]")).to_contain_text(" is now on ")

    page.once("dialog", lambda dialog: dialog.accept())  # hx-confirm asks first
    page.locator(f"#night-{cancelled.pk}").get_by_role("button", name="Cancel the night").click()
    expect(page.locator("#nights [role=status]")).to_contain_text(" is cancelled.")
    expect(planned).to_have_count(3)
    expect(page.locator(f"#night-{cancelled.pk}")).to_have_count(0)
    assert CancelledNight.objects.get().night == cancelled.pk

    found = feed_events(page, address)
    assert found[f"night-{moved.pk}"] == {"day": new_day, "sequence": 1, "status": ""}
    assert found[f"night-{cancelled.pk}"] == {
        "day": cancelled.played_on,
        "sequence": 1,
        "status": "CANCELLED",
    }
    for unchanged in (nights[0], nights[3]):
        assert found[f"night-{unchanged.pk}"] == held[f"night-{unchanged.pk}"]

    # Without JavaScript the form posts plainly and the page comes back, saying so.
    plain = open_context(java_script_enabled=False, viewport=DESKTOP).new_page()
    log_in(plain, owner.username)
    plain.goto(page.url)
    extra = today + timedelta(days=30)
    plain.locator("form.night-plan").get_by_label("Day").fill(extra.isoformat())
    plain.get_by_role("button", name="Plan the night", exact=True).click()
    expect(plain.locator(".messages")).to_contain_text("A night is planned on ")
    expect(plain.locator(".planned-nights > li")).to_have_count(4)
    assert LeagueNight.objects.filter(season=season, played_on=extra).exists()
    small_screenshot(plain, "season-nights-en-1280")
