"""The organiser at a desktop sets the season's night tables (a preset and a stake) on its
settings page, starts a round (the app cuts for the deal, and the night page says who deals
first), and settles the night's money from the night page: a disputed game holds the
settle-up back, named, until its player takes the dispute back."""

import os
import re
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Role
from scorekeeper.engine.pairings import Pairing, Table
from scorekeeper.league import services as league_services
from scorekeeper.league.models import NightSettings, NightTable, Season
from scorekeeper.league.night_services import night_round_start
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, EveningPayment, Player
from scorekeeper.table.services import confirmations
from tests.browser.conftest import (
    PHONE,
    expect_no_sideways_scroll,
    screenshot,
    set_night_tables,
)
from tests.clubs.conftest import join

DESKTOP = {"width": 1280, "height": 900}
LONG = "Maximiliane Hohenzollern-Sigmaringen"


def a_season(owner: User, django_user_model, names=("Anna", "Ben")) -> tuple[Season, dict]:
    """A club's open season; its players linked to members' accounts, asked to confirm."""
    club = club_services.club_create(name="Gin Club", owner=owner)
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=today - timedelta(days=9), ends_on=today
    )
    users = {}
    for number, name in enumerate(names):
        user = django_user_model.objects.create_user(f"player{number}")
        join(club, user, Role.MEMBER)
        player = services.player_add(club=club, name=name, owner=owner)
        services.player_link(player=player, user=user)
        users[name] = user
    return season, users


def desktop(open_context: Callable[..., BrowserContext], log_in, owner: User, **options) -> Page:
    page = open_context(viewport=DESKTOP, **options).new_page()
    log_in(page, owner.username)
    return page


def test_the_night_plays_the_season_s_stake_and_rules_and_settles_in_one_tap(
    open_context, log_in, owner: User, django_user_model
):
    season, users = a_season(owner, django_user_model)
    page = desktop(open_context, log_in, owner)

    # The season's settings: the Modern preset (swapped in by HTMX) at 0.05 a point.
    page.goto(reverse("season_settings", args=[season.pk]))
    set_night_tables(page, "modern", "0.05")
    expect(page).to_have_url(season.get_absolute_url())
    season.refresh_from_db()
    assert season.night_settings.rules.preset == "modern"
    assert season.night_settings.stake == Decimal("0.05")

    # The night: the tables play them, and the app cuts for the deal.
    page.goto(reverse("league_night", args=[season.pk]))
    for name in users:
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Propose tables").click()
    expect(page.locator(".night-settings > summary")).to_contain_text(
        "The tables play: Two players, Modern rules, stake 0.05 per point"
    )
    page.get_by_role("button", name="Start round 1: 1 partie").click()
    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    partie = NightTable.objects.get().partie
    assert (partie.ruleset.preset, partie.stake) == ("modern", Decimal("0.05"))
    expect(page.locator(".night-round .cut")).to_have_text(
        f"Cut for the deal: {partie.first_dealer.name} deals first"
    )

    # Anna wins; Ben disputes the result on his phone.
    services.hand_record(partie=partie, hand=engine.Hand.gin(90, knocker="Anna"), user=owner)
    game = ClosedGame.objects.get(partie=partie)
    confirmations.result_dispute(game=game, user=users["Ben"], note="I had gin")

    page.get_by_role("link", name="Settle the night's money").click()
    expect(page).to_have_url(partie.evening.get_absolute_url())
    held = page.locator(".held-games")
    expect(held).to_contain_text("The settle-up waits for this game")
    expect(held.get_by_role("link", name=" – ".join(partie.player_names))).to_be_visible()
    expect(held).to_contain_text("disputed")
    expect(page.get_by_role("button", name="Settle up: freeze these payments")).to_have_count(0)
    assert not EveningPayment.objects.exists()

    # Ben takes the dispute back: the night's money settles in one tap.
    confirmations.result_confirm(game=game, user=users["Ben"])
    confirmations.result_confirm(game=game, user=users["Anna"])
    page.reload()
    expect(page.locator(".held-games")).to_have_count(0)
    page.get_by_role("button", name="Settle up: freeze these payments").click()
    expect(page.locator(".payments li")).to_have_count(1)
    (payment,) = EveningPayment.objects.all()
    assert (payment.payer.name, payment.payee.name) == ("Ben", "Anna")


@pytest.mark.skipif(not os.environ.get("SCREENSHOTS"), reason="pictures only")
@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_the_night_s_settings_and_money(
    open_context, log_in, owner: User, django_user_model, language: str
):
    season, users = a_season(owner, django_user_model, names=(LONG, "Ben"))
    league_services.season_settings_change(
        season=season, night=NightSettings("match", engine.preset("modern"), Decimal("0.05"))
    )
    night = night_round_start(
        season=season,
        owner=owner,
        seating=Pairing((Table(1, (LONG, "Ben")),), ()),
        played_on=timezone.localdate(),
        round=1,
    )
    pages = {"settings": reverse("season_settings", args=[season.pk]),
             "night": reverse("league_night", args=[season.pk]),
             "partie": night.tables.get().partie.get_absolute_url()}  # fmt: skip
    present = Player.objects.filter(club=season.league.club).values_list("pk", flat=True)
    for width, size in (("360", PHONE), ("1280", DESKTOP)):
        page = open_context(viewport=size).new_page()
        log_in(page, owner.username, language)
        for name, url in pages.items():
            page.goto(url)
            expect_no_sideways_scroll(page)
            screenshot(page, f"{name}-{language}-{width}")
        # The next round proposed, tonight's settings opened to change them.
        page.goto(f"{pages['night']}?{urlencode([('present', pk) for pk in present])}")
        for anyway in page.locator(".still-playing input[type=checkbox]").all():
            anyway.check()  # round 1 still plays: its players proposed anyway
        page.get_by_role("button", name=re.compile("Propose tables|Tische vorschlagen")).click()
        page.locator(".night-settings").evaluate("details => { details.open = true; }")
        expect_no_sideways_scroll(page)
        screenshot(page, f"night-proposal-{language}-{width}")
    partie = night.tables.get().partie
    services.hand_record(partie=partie, hand=engine.Hand.gin(90, knocker="Ben"), user=owner)
    services.hand_record(partie=partie, hand=engine.Hand.gin(90, knocker="Ben"), user=owner)
    for game in ClosedGame.objects.filter(partie=partie):
        confirmations.result_dispute(game=game, user=users[LONG], note="no")
    for width, size in (("360", PHONE), ("1280", DESKTOP)):
        page = open_context(viewport=size).new_page()
        log_in(page, owner.username, language)
        page.goto(night.evening.get_absolute_url())
        expect_no_sideways_scroll(page)
        screenshot(page, f"evening-held-{language}-{width}")
