"""A member's mail address is checked before any notice is mailed to it: the settings
page's new address makes a link due, the worker mails it to a real SMTP server
(aiosmtpd), and the member follows it from the mail as he would: a page that asks, a
button that verifies it. Until then, and again once he changes it, the address gets no
notice; the page says so and sends the link again."""

from __future__ import annotations

import importlib
import time
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from scorekeeper import engine, tasks
from scorekeeper.notices.models import ADDRESS_LINKS_A_DAY, AddressCheck, Delivery, Kind
from scorekeeper.notices.services import address_verified as verified
from scorekeeper.notices.services import preferences_language_set
from scorekeeper.table import services
from tests.league.conftest import work
from tests.notices.conftest import SITE, Inbox, release

pytestmark = pytest.mark.django_db

DATE_MAX = get_date_max()  # a task's run_after when it was not deferred
CHOICES = {f"{kind}__mail": "on" for kind in Kind}  # every kind by mail, as by default


def address_verified(user: User) -> bool:
    """Whether notices may be mailed to the user's address as the database has it now."""
    return verified(User.objects.get(pk=user.pk))


def logged_in(user: User) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def give_address(client: Client, address: str, language: str = "en"):
    """The settings page's form, sent with ``address`` (the CSRF token of its page)."""
    page = client.get(reverse("notices_settings"))
    token = page.context["csrf_token"]
    data = CHOICES | {"email": address, "language": language, "csrfmiddlewaretoken": str(token)}
    return client.post(reverse("notices_settings"), data, follow=True)


def the_link(mail) -> str:
    """The link of a mail that checks an address, as a path of the site."""
    link = next(word for word in mail.get_content().split() if "/me/address/" in word)
    return link.removeprefix(SITE)


def verify(client: Client, path: str):
    """The link's page, and its button."""
    page = client.get(path)
    assert page.status_code == 200, page.content
    data = {"csrfmiddlewaretoken": str(page.context["csrf_token"])}
    return client.post(path, data, follow=True)


def settings_page(client: Client) -> str:
    return client.get(reverse("notices_settings")).content.decode()


def test_a_new_address_is_mailed_its_link_and_no_notice_until_the_member_follows_it(
    season, owner, accounts, roster, inbox: Inbox
):
    anna = accounts["Anna"]
    client = logged_in(anna)
    answer = give_address(client, "anna@gin.example")
    assert "A link to verify anna@gin.example is on its way" in answer.content.decode()
    assert inbox.mails == []  # the request only wrote that it is due, and the task that mails it
    [task] = DBTaskResult.objects.filter(task_path=tasks.notices_due.module_path)
    assert task.status == TaskResultStatus.READY

    [partie] = release(season, owner, ("Anna", "Carl"))
    assert not Delivery.objects.exists()  # nothing to mail her yet
    page = settings_page(client)
    assert "anna@gin.example is not verified yet" in page
    assert "(waiting for verification)" in page
    assert "Send the link again" in page

    work()
    [mail] = inbox.mails
    assert mail["To"] == "anna@gin.example"
    assert mail["Subject"] == "Scorekeeper: verify your mail address"
    assert mail["Content-Language"] == "en"
    assert mail["List-Unsubscribe"] is None  # not a notice: nothing to unsubscribe from
    body = mail.get_content()
    assert "anna@gin.example was given as the mail address of the Scorekeeper account anna" in (
        " ".join(body.split())
    )
    assert "it works for 3 days" in body
    assert "follow it from your mail" in settings_page(client)

    # The link's page asks, and writes nothing until its button is pressed.
    path = the_link(mail)
    page = client.get(path)
    assert "Is anna@gin.example your mail address?" in page.content.decode()
    assert not address_verified(anna)
    done = verify(client, path)
    assert done.redirect_chain[-1][0] == reverse("notices_settings")
    assert "anna@gin.example is verified: your notices are mailed there." in done.content.decode()
    assert "Your mails go to anna@gin.example, a verified address." in settings_page(client)
    assert "(waiting for verification)" not in settings_page(client)

    # Her game's end is mailed to her.
    services.hand_record(partie=partie, hand=engine.Hand.gin(90, knocker="Anna"), user=owner)
    work()
    assert [m["Subject"] for m in inbox.mails[1:]] == [
        "Gin Club: A result waits for your confirmation"
    ]


def test_the_link_is_mailed_in_the_members_language(accounts, inbox: Inbox):
    ben = accounts["Ben"]
    preferences_language_set(user=ben, language="de")
    give_address(logged_in(ben), "ben@gin.example", language="de")
    work()
    [mail] = inbox.mails
    assert mail["Content-Language"] == "de"
    with translation.override("de"):  # the catalogue's German
        assert mail["Subject"] == gettext("Scorekeeper: verify your mail address")
        assert gettext("Hello %(username)s,") % {"username": "ben"} in mail.get_content()


def test_a_changed_address_is_unverified_again_and_the_old_link_works_no_more(
    season, owner, accounts, roster, inbox: Inbox
):
    anna = accounts["Anna"]
    client = logged_in(anna)
    give_address(client, "anna@gin.example")
    work()
    old_link = the_link(inbox.mails[-1])
    verify(client, old_link)
    release(season, owner, ("Anna", "Carl"))  # due to her verified address...

    give_address(client, "anna@new.example")  # ... which she changes before it is sent
    assert not address_verified(anna)
    work()
    assert [(m["To"], m["Subject"]) for m in inbox.mails[1:]] == [
        ("anna@new.example", "Scorekeeper: verify your mail address")
    ]  # no table to either address
    refused = client.get(old_link)
    assert refused.status_code == 410
    assert "This link is for anna@gin.example, which is no longer your account&#x27;s" in (
        refused.content.decode()
    )

    # Back to the address she verified before: it is checked anew.
    give_address(client, "anna@gin.example")
    assert not address_verified(anna)
    assert AddressCheck.objects.filter(address="anna@gin.example", sent_at=None).exists()


def test_the_link_is_good_for_three_days(accounts, inbox: Inbox):
    anna = accounts["Anna"]
    client = logged_in(anna)
    give_address(client, "anna@gin.example")
    three_days_ago = int(time.time()) - 3 * 24 * 60 * 60 - 60
    with mock.patch.object(
        signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(three_days_ago)
    ):
        work()  # its mail made three days ago
    refused = client.get(the_link(inbox.mails[0]))
    assert refused.status_code == 410
    assert "This link is out of date: a link works for 3 days." in refused.content.decode()
    assert client.post(the_link(inbox.mails[0])).status_code == 403  # no token, no change
    assert not address_verified(anna)


def test_the_link_is_followed_only_by_its_own_account_logged_in(accounts, inbox: Inbox):
    give_address(logged_in(accounts["Anna"]), "anna@gin.example")
    work()
    path = the_link(inbox.mails[0])

    logged_out = Client()
    answer = logged_out.get(path)
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login"))

    ben = logged_in(accounts["Ben"])
    refused = ben.get(path)
    assert refused.status_code == 403
    assert "This link verifies the address of another account" in refused.content.decode()
    token = ben.get(reverse("notices_settings")).context["csrf_token"]
    assert ben.post(path, {"csrfmiddlewaretoken": str(token)}).status_code == 403

    mangled = logged_in(accounts["Anna"]).get(path[:-3] + "xyz/")
    assert mangled.status_code == 404
    assert not address_verified(accounts["Anna"])


def test_send_the_link_again_mails_a_new_one_up_to_a_few_a_day(accounts, inbox: Inbox):
    anna = accounts["Anna"]
    client = logged_in(anna)
    give_address(client, "anna@gin.example")
    again = reverse("address_link_send")
    token = str(client.get(reverse("notices_settings")).context["csrf_token"])
    client.post(again, {"csrfmiddlewaretoken": token})  # before the worker ran: the same
    work()
    assert len(inbox.mails) == 1

    for _ in range(ADDRESS_LINKS_A_DAY - 1):
        answer = client.post(again, {"csrfmiddlewaretoken": token}, follow=True)
        assert "A link to verify anna@gin.example is on its way" in answer.content.decode()
        work()
    assert len(inbox.mails) == ADDRESS_LINKS_A_DAY
    assert len({the_link(mail) for mail in inbox.mails}) == ADDRESS_LINKS_A_DAY

    answer = client.post(again, {"csrfmiddlewaretoken": token}, follow=True)
    assert "You have asked for 5 links within a day: ask again tomorrow." in (
        answer.content.decode()
    )
    work()
    assert len(inbox.mails) == ADDRESS_LINKS_A_DAY
    verify(client, the_link(inbox.mails[0]))  # any of them verifies the address
    assert address_verified(anna)
    answer = client.post(again, {"csrfmiddlewaretoken": token}, follow=True)
    assert "Your mail address is verified already." in answer.content.decode()


def test_a_link_refused_by_the_mail_server_is_tried_again_and_the_page_says_so(
    accounts, inbox: Inbox
):
    client = logged_in(accounts["Anna"])
    give_address(client, "anna@gin.example")
    inbox.refusal = "550 5.1.1 No such mailbox"
    for _ in range(6):
        work()
        AddressCheck.objects.update(next_try_at=timezone.now())  # its wait is over
    check = AddressCheck.objects.get()
    assert check.failed_at is not None and "550" in check.error
    retries = DBTaskResult.objects.filter(task_path=tasks.notices_due.module_path)
    assert retries.exclude(run_after=DATE_MAX).count() == 5  # each deferred to its wait
    assert "The link could not be sent to this address" in settings_page(client)

    inbox.refusal = None
    give_address(client, "anna@gin.example")  # the same address: nothing changes
    assert AddressCheck.objects.count() == 1
    token = str(client.get(reverse("notices_settings")).context["csrf_token"])
    client.post(reverse("address_link_send"), {"csrfmiddlewaretoken": token})
    work()
    assert [m["To"] for m in inbox.mails] == ["anna@gin.example"]


def test_addresses_given_before_they_were_checked_count_as_verified(accounts, inbox: Inbox):
    """What migration 0004 does to the accounts of a site that mailed notices before."""
    migration = importlib.import_module(
        "scorekeeper.notices.migrations.0004_existing_addresses_verified"
    )
    User.objects.filter(pk=accounts["Anna"].pk).update(email="anna@gin.example")
    migration.existing_addresses_verified(apps, None)

    anna, ben = (User.objects.get(pk=accounts[name].pk) for name in ("Anna", "Ben"))
    assert address_verified(anna) and not address_verified(ben)  # Ben gave none
    work()
    assert inbox.mails == []  # nobody is mailed a link for an address he gave before
    client = logged_in(anna)
    assert "a verified address" in settings_page(client)

    give_address(client, "anna@new.example")  # a change voids it: it is mailed nothing
    work()
    assert [m["To"] for m in inbox.mails] == ["anna@new.example"]


def test_a_password_reset_is_mailed_to_a_verified_address_only(accounts, inbox: Inbox):
    """Django's password reset mails a link that takes the account over: a stranger whose
    address Anna mistyped gets none for her account."""
    anna = accounts["Anna"]
    anna.set_password("an old passphrase 42")
    anna.save()
    give_address(logged_in(anna), "anna@gin.example")
    reset = Client(enforce_csrf_checks=False)
    answer = reset.post(reverse("password_reset"), {"email": "anna@gin.example"})
    assert answer.status_code == 302  # the same answer as for any address
    work()
    assert [m["Subject"] for m in inbox.mails] == ["Scorekeeper: verify your mail address"]

    verify(logged_in(anna), the_link(inbox.mails[0]))
    reset.post(reverse("password_reset"), {"email": "anna@gin.example"})
    [mail] = inbox.mails[1:]
    assert mail["To"] == "anna@gin.example"
    assert "/accounts/reset/" in mail.get_content()
