"""An owner deletes a club by typing its name: it leaves every page and list at once, its
owners can restore it from their clubs page for 30 days, and ``purge_clubs`` then deletes
it for good. A personal club cannot be deleted."""

from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs import services
from scorekeeper.clubs.models import RESTORE_DAYS, Club, Invitation, Membership, Role
from scorekeeper.clubs.services import ClubError
from scorekeeper.league import services as league_services
from scorekeeper.league.models import League
from scorekeeper.table import services as table_services
from scorekeeper.table.models import ClosedGame, Evening, EveningPayment, Hand, Partie, Player
from tests.clubs.conftest import ClubThings, G, start

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"


def delete_url(club: Club) -> str:
    return reverse("club_delete", args=[club.slug])


def deleted_days_ago(club: Club, days: float) -> None:
    Club.all_objects.filter(pk=club.pk).update(deleted_at=timezone.now() - timedelta(days=days))


def test_the_owner_finds_the_delete_link_on_the_club_page(client_of, club):
    owner = client_of("owner").get(club.get_absolute_url()).content.decode()
    scorer = client_of("scorer").get(club.get_absolute_url()).content.decode()

    assert f'href="{delete_url(club)}"' in owner
    assert delete_url(club) not in scorer


def test_the_confirmation_asks_for_the_clubs_name(client_of, club):
    page = client_of("owner").get(delete_url(club))

    assert page.status_code == 200
    content = page.content.decode()
    assert "Type Skat Club to confirm." in content
    assert "For 30 days you can restore it" in content


@pytest.mark.parametrize("typed", ["", "Skat", "Skat Club!", "Bridge Club"])
def test_a_wrong_name_deletes_nothing_and_says_what_to_type(client_of, club, typed):
    response = client_of("owner").post(delete_url(club), {"name": typed})

    assert response.status_code == 400
    content = response.content.decode()
    assert "That is not the club&#x27;s name: type Skat Club to delete the club." in content or (
        typed == "" and "This field is required." in content
    )
    assert Club.objects.filter(pk=club.pk).exists()


@pytest.mark.parametrize("typed", ["Skat Club", "  skat club "])
def test_the_name_typed_in_any_case_deletes_the_club(client_of, club, typed):
    response = client_of("owner").post(delete_url(club), {"name": typed})

    assert response.status_code == 302
    assert response.url == reverse("club_list")
    assert not Club.objects.filter(pk=club.pk).exists()
    assert Club.all_objects.get(pk=club.pk).deleted_at is not None


def test_a_deleted_club_is_hidden_from_every_page_and_list(client_of, things: ClubThings):
    owner = client_of("owner")
    share = things.partie.share_token
    table_services.evening_share(evening=things.evening)
    things.evening.refresh_from_db()
    league = league_services.league_create(club=things.club, name="Club league")
    season = league_services.season_create(
        league=league, name="Autumn", starts_on=timezone.localdate(), ends_on=timezone.localdate()
    )
    league_services.season_share(season=season, shared=True)
    season.refresh_from_db()
    owner.post(delete_url(things.club), {"name": "Skat Club"})

    for who in ("owner", "scorer", "member"):
        client = client_of(who)
        for url in (
            things.club.get_absolute_url(),
            things.partie.get_absolute_url(),
            things.evening.get_absolute_url(),
            reverse("player_detail", args=[things.player.pk]),
            reverse("player_list", args=[things.club.slug]),
            reverse("club_board", args=[things.club.slug]),
            reverse("league_list", args=[things.club.slug]),
            season.get_absolute_url(),
        ):
            assert client.get(url).status_code == 404, (who, url)
        for url in (reverse("club_list"), reverse("home"), reverse("evening_list")):
            page = client.get(url).content.decode()
            assert things.partie.get_absolute_url() not in page, (who, url)
            assert things.evening.get_absolute_url() not in page, (who, url)
            assert f'href="{things.club.get_absolute_url()}"' not in page, (who, url)
        clubs = client.get(reverse("partie_new")).context["club_form"].fields["club"].queryset
        assert things.club not in clubs
    anybody = client_of("anonymous")
    for url in (
        reverse("shared_partie", args=[share]),
        reverse("shared_partie_pdf", args=[share]),
        reverse("shared_partie_ruleset", args=[share]),
        reverse("shared_evening_board", args=[things.evening.share_token]),
        reverse("season_public", args=[season.share_token]),
        reverse("season_public_pdf", args=[season.share_token]),
        reverse("season_public_json", args=[season.share_token]),
    ):
        assert anybody.get(url).status_code == 404, url


def test_deleting_keeps_everything_for_a_restore(client_of, things):
    counts = (Partie.objects.count(), Evening.objects.count(), Player.objects.count())
    client_of("owner").post(delete_url(things.club), {"name": "Skat Club"})

    assert (Partie.objects.count(), Evening.objects.count(), Player.objects.count()) == counts
    assert Membership.objects.filter(club=things.club).count() == 3


def test_the_owner_restores_it_from_his_clubs_page(client_of, things):
    owner = client_of("owner")
    owner.post(delete_url(things.club), {"name": "Skat Club"})

    page = owner.get(reverse("club_list")).content.decode()
    restore = reverse("club_restore", args=[things.club.slug])
    assert f'action="{restore}"' in page
    until = (timezone.localdate() + timedelta(days=RESTORE_DAYS)).strftime("%m/%d/%Y")
    assert f"can be restored until {until}" in page
    scorer_page = client_of("scorer").get(reverse("club_list")).content.decode()
    assert restore not in scorer_page  # only an owner restores

    response = owner.post(restore)

    assert response.status_code == 302
    assert response.url == things.club.get_absolute_url()
    for who in ("owner", "scorer", "member"):
        client = client_of(who)
        assert client.get(things.club.get_absolute_url()).status_code == 200, who
        assert client.get(things.partie.get_absolute_url()).status_code == 200, who
    assert restore not in owner.get(reverse("club_list")).content.decode()


def test_restoring_refuses_a_scorer_and_a_stranger(client_of, things):
    services.club_delete(club=things.club)
    restore = reverse("club_restore", args=[things.club.slug])

    assert client_of("scorer").post(restore).status_code == 403
    assert client_of("outsider").post(restore).status_code == 404
    assert Club.all_objects.get(pk=things.club.pk).deleted_at is not None


def test_after_30_days_it_can_no_longer_be_restored(client_of, club):
    services.club_delete(club=club)
    deleted_days_ago(club, RESTORE_DAYS + 0.01)
    owner = client_of("owner")

    assert club.slug not in owner.get(reverse("club_list")).content.decode()
    response = owner.post(reverse("club_restore", args=[club.slug]), follow=True)

    assert "This club was deleted more than 30 days ago" in response.content.decode()
    assert not Club.objects.filter(pk=club.pk).exists()


def test_a_personal_club_cannot_be_deleted(client_of, owner):
    personal = services.personal_club(owner)
    client = client_of("owner")

    page = client.get(delete_url(personal))
    response = client.post(delete_url(personal), {"name": personal.name})

    for answer in (page, response):
        assert answer.status_code == 400
        assert "it cannot be deleted" in answer.content.decode()
    assert Club.objects.filter(pk=personal.pk).exists()
    with pytest.raises(ClubError):
        services.club_delete(club=personal)
    club_page = client.get(personal.get_absolute_url()).content.decode()
    assert delete_url(personal) not in club_page


def test_a_deleted_clubs_name_stays_taken_until_it_is_purged(club, owner):
    services.club_delete(club=club)

    again = services.club_create(name="Skat Club", owner=owner)

    assert again.slug == "skat-club-2"


def test_purge_clubs_deletes_what_is_past_its_time_with_all_it_holds(things, owner):
    table_services.hand_record(partie=things.loose, hand=G(80, knocker="Anna"), user=owner)
    league_services.league_create(club=things.club, name="Club league")
    kept = services.club_create(name="Rummy Friends", owner=owner)
    start(kept, owner)
    recent = services.club_create(name="Bridge Club", owner=owner)
    services.club_delete(club=things.club)
    services.club_delete(club=recent)
    deleted_days_ago(things.club, RESTORE_DAYS + 1)
    deleted_days_ago(recent, RESTORE_DAYS - 1)
    dry = StringIO()
    call_command("purge_clubs", "--dry-run", stdout=dry)
    assert dry.getvalue() == "Skat Club\n1 club(s) would be purged.\n"
    assert Club.all_objects.filter(pk=things.club.pk).exists()

    out = StringIO()
    call_command("purge_clubs", stdout=out)

    assert out.getvalue() == "Skat Club\n1 club(s) purged.\n"
    gone = things.club
    assert not Club.all_objects.filter(pk=gone.pk).exists()
    assert not Partie.all_objects.filter(club=gone).exists()
    assert not Evening.objects.filter(club=gone).exists()
    assert not EveningPayment.objects.filter(pk=things.payment.pk).exists()
    assert not Player.objects.filter(club=gone).exists()
    assert not Membership.objects.filter(club=gone).exists()
    assert not Invitation.objects.filter(club=gone).exists()
    assert not League.objects.filter(club=gone).exists()
    assert not ClosedGame.objects.filter(club=gone).exists()
    assert not Hand.objects.filter(partie_id=things.partie.pk).exists()
    assert Club.objects.filter(pk=kept.pk).exists()
    assert Partie.objects.filter(club=kept).count() == 1
    assert Club.all_objects.filter(pk=recent.pk).exists()  # restorable a day longer

    again = StringIO()
    call_command("purge_clubs", stdout=again)
    assert again.getvalue() == "0 club(s) purged.\n"


def test_purge_leaves_a_club_restored_in_time_alone(club):
    services.club_delete(club=club)
    deleted_days_ago(club, RESTORE_DAYS - 1)
    services.club_restore(club=club)

    call_command("purge_clubs", stdout=StringIO())

    assert Club.objects.filter(pk=club.pk).exists()


def test_the_readme_says_how_to_purge():
    text = README.read_text(encoding="utf-8")

    assert "manage.py purge_clubs" in text
    assert "30 days" in text


def test_owners_of_a_deleted_club_may_all_restore_it(client_of, club, scorer):
    Membership.objects.filter(club=club, user=scorer).update(role=Role.OWNER)
    services.club_delete(club=club)

    assert client_of("scorer").post(reverse("club_restore", args=[club.slug])).status_code == 302
    assert Club.objects.filter(pk=club.pk).exists()
