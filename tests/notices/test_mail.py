"""The notices by mail, read as a member reads them from a real SMTP server: each kind's
subject and words in his language, the link to the page where he acts, the one-click
unsubscribe (RFC 8058) and the settings; once per member and event, however often the
worker runs; a refusing server tried again later, then reported to the club's owner;
nothing to a member who opted out, nor to anyone outside the club."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scorekeeper import tasks
from scorekeeper.clubs import services as club_services
from scorekeeper.league import services as league_services
from scorekeeper.notices import outbox
from scorekeeper.notices.models import MAX_ATTEMPTS, Delivery, Notice, Preferences
from scorekeeper.notices.services import preferences_language_set
from scorekeeper.table import services
from scorekeeper.table.models import ClosedGame, Player
from scorekeeper.table.services import confirmations
from tests.league.conftest import G, K, work
from tests.notices.conftest import SITE, address_verified, release

pytestmark = pytest.mark.django_db


def link_in(mail) -> str:
    """The first link of the mail's body: the page where the member acts."""
    return next(word for word in mail.get_content().split() if word.startswith(SITE))


def test_a_released_round_mails_each_seated_member_his_table_in_his_language(
    season, owner, addresses, roster, inbox
):
    preferences_language_set(user=Player.objects.get(name="Ben").user, language="de")
    first, second = release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    assert inbox.mails == []  # the request only wrote what is due

    work()

    anna, ben = inbox.to("anna@gin.example"), inbox.to("ben@gin.example")
    assert len(inbox.mails) == 2  # Carl and Dora have no account
    assert anna[0]["Subject"] == "Gin Club: Table 1: you against Carl"
    assert "Round 1 of Autumn has started" in anna[0].get_content()
    assert link_in(anna[0]) == f"{SITE}/parties/{first.pk}/"
    assert ben[0]["Subject"] == "Gin Club: Tisch 2: Sie gegen Dora"
    assert ben[0]["Content-Language"] == "de"
    assert "Runde 1 von Autumn hat begonnen" in ben[0].get_content()
    assert link_in(ben[0]) == f"{SITE}/parties/{second.pk}/"
    assert anna[0]["From"] == "Scorekeeper <scores@gin.example>"


def test_every_mail_carries_the_one_click_unsubscribe_and_the_settings_link(
    season, owner, addresses, roster, inbox
):
    release(season, owner, ("Anna", "Carl"))
    work()

    (mail,) = inbox.mails
    unsubscribe = mail["List-Unsubscribe"].strip()  # a long header is folded
    assert unsubscribe.startswith(f"<{SITE}/notices/unsubscribe/") and unsubscribe.endswith(">")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    body = mail.get_content()
    assert f"{SITE}{reverse('notices_settings')}" in body
    assert unsubscribe[1:-1] in body


def test_one_mail_per_member_and_event_however_often_the_round_and_the_worker_run(
    season, owner, addresses, roster, inbox
):
    release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))  # a second tap: no new round
    work()
    work()
    assert len(inbox.mails) == 2
    assert Notice.objects.count() == 2


def test_a_second_worker_leaves_the_mails_another_has_claimed(
    season, owner, addresses, roster, inbox
):
    release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    claimed = outbox._claim()  # the first worker holds them while it sends

    assert outbox.send_due() == 0  # the second finds nothing due
    assert outbox._send(claimed) == 2
    assert outbox.send_due() == 0
    assert len(inbox.mails) == 2


def test_a_worker_killed_while_sending_leaves_the_mails_due_after_its_lease(
    season, owner, addresses, roster, inbox
):
    release(season, owner, ("Anna", "Carl"))
    outbox._claim()  # ... and the worker dies before sending
    assert outbox.send_due() == 0

    Delivery.objects.update(next_try_at=timezone.now())  # its lease ran out
    work()
    assert len(inbox.mails) == 1


def test_a_refused_mail_is_tried_again_later_then_reported_to_the_owner(
    season, owner, addresses, roster, inbox, club
):
    inbox.refusal = "451 4.3.0 Mail server temporarily unavailable"
    release(season, owner, ("Anna", "Carl"))
    waits = []
    for attempt in range(1, MAX_ATTEMPTS + 1):
        before = timezone.now()
        work()
        delivery = Delivery.objects.get()
        assert delivery.attempts == attempt and delivery.sent_at is None
        assert "451" in delivery.error
        if delivery.failed_at is None:
            waits.append(round((delivery.next_try_at - before).total_seconds() / 60))
            Delivery.objects.update(next_try_at=timezone.now())  # the wait is over
    assert waits == [1, 2, 4, 8, 16]  # minutes, doubled after each refusal
    assert delivery.failed_at is not None
    assert inbox.mails == []
    work()
    assert Delivery.objects.get().attempts == MAX_ATTEMPTS  # given up: not tried again

    client = Client()
    client.force_login(owner)
    page = client.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert "Notifications that could not be sent" in page
    assert "anna" in page and "451 4.3.0 Mail server temporarily unavailable" in page


def test_a_refused_mails_retry_is_a_task_for_when_its_wait_is_over(
    season, owner, addresses, roster, inbox
):
    inbox.refusal = "451 4.3.0 Try again later"
    release(season, owner, ("Anna", "Carl"))
    work()

    delivery = Delivery.objects.get()
    [retry] = DBTaskResult.objects.filter(
        task_path=tasks.notices_due.module_path, status=TaskResultStatus.READY
    )
    assert retry.run_after == delivery.next_try_at > timezone.now()


def test_a_mail_refused_once_arrives_once_after_the_wait(season, owner, addresses, roster, inbox):
    inbox.refusal = "451 4.3.0 Try again later"
    release(season, owner, ("Anna", "Carl"))
    work()
    inbox.refusal = None
    work()
    assert inbox.mails == []  # not before its wait is over
    Delivery.objects.update(next_try_at=timezone.now())
    work()
    work()
    assert len(inbox.mails) == 1
    assert Delivery.objects.get().sent_at is not None


def test_the_unsubscribe_link_asks_on_a_get_and_stops_every_mail_on_the_one_click_post(
    season, owner, addresses, roster, inbox, play
):
    release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    work()
    url = inbox.to("ben@gin.example")[0]["List-Unsubscribe"].strip()[1:-1].removeprefix(SITE)
    anonymous = Client(enforce_csrf_checks=True)

    page = anonymous.get(url)
    assert page.status_code == 200 and b"ben@gin.example" in page.content
    assert not Preferences.objects.filter(user__email="ben@gin.example").exists()
    assert anonymous.post(url).status_code == 403  # the page's button needs its token

    done = anonymous.post(url, {"List-Unsubscribe": "One-Click"})  # the mail reader's post
    assert done.status_code == 200
    play(["Anna", "Ben"], [G(90, knocker="Anna")])  # a result waits for both
    assert [m["Subject"] for m in inbox.mails[2:]] == [
        "Gin Club: A result waits for your confirmation"
    ]
    assert inbox.mails[2]["To"] == "anna@gin.example"
    assert not Notice.objects.filter(recipient__email="ben@gin.example", kind="confirm_wanted")


def test_a_forged_unsubscribe_link_changes_nothing(accounts, addresses):
    client = Client()
    assert client.post("/notices/unsubscribe/forged:token/").status_code == 404
    assert not Preferences.objects.exists()


def test_the_settings_page_switches_one_kind_off(
    season, owner, addresses, roster, inbox, accounts, play
):
    client = Client()
    client.force_login(accounts["Anna"])
    page = client.get(reverse("notices_settings"))
    assert page.content.count(b"checked") == 7  # every kind by mail, by default
    answer = {f"{kind}__mail": "on" for kind in Notice.Kind if kind != "tables_out"}
    answer |= {"email": "anna@gin.example", "language": "en"}
    assert client.post(reverse("notices_settings"), answer).status_code == 302

    release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    subjects = sorted(m["Subject"] for m in inbox.to("anna@gin.example"))
    assert subjects == ["Gin Club: A result waits for your confirmation"]


def test_the_language_switch_keeps_a_members_language_for_his_mails(accounts):
    client = Client()
    client.force_login(accounts["Ben"])
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert Preferences.objects.get(user=accounts["Ben"]).language == "de"


def test_nobody_outside_the_club_is_told_anything(
    season, owner, addresses, roster, inbox, club, outsider
):
    address_verified(outsider, "outsider@gin.example")
    Player.objects.filter(name="Carl").update(user=outsider)  # linked, but no member
    ben = Player.objects.get(name="Ben").user
    club_services.membership_remove(membership=club.memberships.get(user=ben))

    release(season, owner, ("Anna", "Carl"), ("Ben", "Dora"))
    work()
    assert [m["To"] for m in inbox.mails] == ["anna@gin.example"]
    assert Notice.objects.filter(recipient__in=[outsider, ben]).count() == 0


def test_a_member_removed_before_the_worker_sends_gets_nothing(
    season, owner, addresses, roster, inbox, club
):
    release(season, owner, ("Anna", "Carl"))
    anna = Player.objects.get(name="Anna").user
    club_services.membership_remove(membership=club.memberships.get(user=anna))
    work()
    assert inbox.mails == []
    assert not Delivery.objects.exists()


def test_the_confirmations_tell_the_players_and_the_deciders(
    owner, addresses, inbox, accounts, play
):
    partie = play(["Anna", "Ben"], [K(5, 27, knocker="Anna"), G(90, knocker="Anna")])
    confirm_wanted = [(m["To"], m["Subject"]) for m in inbox.mails]
    assert sorted(confirm_wanted) == [
        ("anna@gin.example", "Gin Club: A result waits for your confirmation"),
        ("ben@gin.example", "Gin Club: A result waits for your confirmation"),
    ]
    game_link = f"{SITE}/parties/{partie.pk}/games/1/"
    assert link_in(inbox.mails[0]) == game_link

    game = ClosedGame.objects.get(partie=partie)
    confirmations.result_dispute(game=game, user=accounts["Ben"], note="I had 27, not 17")
    work()
    told = {m["To"]: m for m in inbox.mails[2:]}
    assert sorted(told) == ["anna@gin.example", "owner@gin.example"]
    assert told["anna@gin.example"]["Subject"] == "Gin Club: Your result was disputed"
    assert "Ben disputed game 1 of Anna and Ben." in told["anna@gin.example"].get_content()
    assert "I had 27, not 17" in told["anna@gin.example"].get_content()
    assert told["owner@gin.example"]["Subject"] == "Gin Club: Ben disputed a result"
    assert link_in(told["owner@gin.example"]) == game_link

    confirmations.result_confirm(game=game, user=accounts["Ben"])  # he took it back
    confirmations.result_confirm(game=game, user=accounts["Anna"])  # locked now
    confirmations.game_unlock(game=ClosedGame.objects.get(partie=partie), user=owner)
    work()
    unlocked = sorted((m["To"], m["Subject"]) for m in inbox.mails[4:])
    assert unlocked == [
        ("anna@gin.example", "Gin Club: The organiser unlocked your result"),
        ("ben@gin.example", "Gin Club: The organiser unlocked your result"),
    ]

    services.hand_edit(partie=partie, number=1, hand=K(5, 28, knocker="Anna"), user=owner)
    work()
    corrected = sorted((m["To"], m["Subject"]) for m in inbox.mails[6:])
    assert corrected == [
        ("anna@gin.example", "Gin Club: Your result was corrected"),
        ("ben@gin.example", "Gin Club: Your result was corrected"),
    ]


def test_a_dispute_given_again_is_told_again_and_a_retried_one_is_not(
    owner, addresses, inbox, accounts, play
):
    """Each dispute is an event of its own (its entry in the trail), though the player's
    row is changed in place: a new note is told, the same tap sent twice once."""
    partie = play(["Anna", "Ben"], [G(90, knocker="Anna")])
    game = ClosedGame.objects.get(partie=partie)
    work()
    inbox.mails.clear()

    confirmations.result_dispute(game=game, user=accounts["Ben"], note="I had gin")
    confirmations.result_dispute(game=game, user=accounts["Ben"], note="I had gin")  # retried
    work()
    assert sorted(m["To"] for m in inbox.mails) == ["anna@gin.example", "owner@gin.example"]

    confirmations.result_dispute(game=game, user=accounts["Ben"], note="Big gin, in fact")
    work()
    again = sorted(m["To"] for m in inbox.mails[2:])
    assert again == ["anna@gin.example", "owner@gin.example"]
    assert "Big gin, in fact" in inbox.mails[2].get_content()


def test_a_closed_season_tells_each_player_his_final_place(
    season, owner, addresses, inbox, accounts, play
):
    play(["Anna", "Ben"], [G(90, knocker="Anna")])
    inbox.mails.clear()
    league_services.season_close(season=season, user=owner)
    work()
    told = {m["To"]: m for m in inbox.mails}
    assert (
        told["anna@gin.example"]["Subject"]
        == "Gin Club: Autumn is over: you finished in place 1 of 2"
    )
    assert (
        told["ben@gin.example"]["Subject"]
        == "Gin Club: Autumn is over: you finished in place 2 of 2"
    )
    body = told["ben@gin.example"].get_content()
    assert f"{SITE}/seasons/{season.pk}/" in body
    assert f"{SITE}/seasons/{season.pk}/standings.pdf" in body
