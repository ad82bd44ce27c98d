"""The front door: failed logins lock an account from one address, and an address that
guesses at many accounts; an account guessed at from many addresses is slowed down, never
locked; sign-ups are limited.

The real login and sign-up views on the real database, where django-axes and the sign-up
limit keep their counts: a second client (another phone, another app server) meets the
same lockout.
"""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.db.models import F, Max, Sum
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from scorekeeper.accounts import throttle
from scorekeeper.accounts.models import SignupAttempt
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
HOME, ATTACKER, CLUB = "192.0.2.10", "198.51.100.66", "203.0.113.50"
LOCKED = "Too many failed logins for this account or from this address."
SLOWED = "Many failed logins for this account. Wait {seconds}, then try again."


def log_in(username: str, password: str, address: str = HOME):
    return Client(REMOTE_ADDR=address).post(
        reverse("login"), {"username": username, "password": password}
    )


def fail(times: int, username: str = "owner", address: str = ATTACKER) -> None:
    for _ in range(times):
        response = log_in(username, "wrong guess", address)
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.text


def lock(username: str = "owner", address: str = ATTACKER) -> None:
    """Four wrong passwords, then the fifth locks the account from the address."""
    fail(4, username, address)
    expect_locked(log_in(username, "fifth guess", address))


def expect_locked(response) -> None:
    assert response.status_code == 429
    assert LOCKED in response.text
    assert "Wait 15 minutes, then try again." in response.text
    assert response["Retry-After"] == "900"
    # The login page itself, ready for the next try, not a bare error text.
    assert '<form method="post"' in response.text
    assert "_auth_user_id" not in response.wsgi_request.session


def test_the_fifth_wrong_password_locks_the_account(owner: User):
    lock()


def test_the_right_password_does_not_get_in_during_a_lockout(owner: User):
    lock()
    expect_locked(log_in("owner", PASSWORD, ATTACKER))


def test_a_stranger_cannot_lock_a_player_out_from_another_address(owner: User):
    lock(address=ATTACKER)
    response = log_in("owner", PASSWORD, HOME)
    assert response.status_code == 302
    assert response.wsgi_request.user == owner
    # Logging in at home does not lift the lockout where the guesses came from.
    expect_locked(log_in("owner", PASSWORD, ATTACKER))


def test_two_servers_count_the_failures_of_one_account_and_address_together(owner: User):
    """Two clients on one database stand for two app servers behind a load balancer."""
    servers = [Client(REMOTE_ADDR=ATTACKER), Client(REMOTE_ADDR=ATTACKER)]
    url = reverse("login")
    for n in range(4):
        response = servers[n % 2].post(url, {"username": "owner", "password": "wrong guess"})
        assert "Please enter a correct username and password" in response.text
    expect_locked(servers[0].post(url, {"username": "owner", "password": "fifth guess"}))
    for server in servers:
        expect_locked(server.post(url, {"username": "owner", "password": PASSWORD}))


def test_members_mistyping_at_the_club_lock_only_their_own_accounts_there(django_user_model):
    """Six members behind the club's one address mistype five times each: 30 failures
    from the address. Each is locked out of his own account there, and of nothing else."""
    members = [django_user_model.objects.create_user(f"m{n}", password=PASSWORD) for n in range(7)]
    *mistyping, seventh = members
    for member in mistyping:
        lock(username=member.username, address=CLUB)

    response = log_in(seventh.username, PASSWORD, CLUB)
    assert response.status_code == 302
    assert response.wsgi_request.user == seventh
    for member in mistyping:
        expect_locked(log_in(member.username, PASSWORD, CLUB))
        response = log_in(member.username, PASSWORD, HOME)
        assert response.wsgi_request.user == member


def test_a_clubs_shared_address_does_not_lock_out_its_members(django_user_model):
    """Six members behind the club's one address mistype twice each: twelve failures
    from the address, more than the limit of one account, and everyone gets in."""
    members = [django_user_model.objects.create_user(f"m{n}", password=PASSWORD) for n in range(6)]
    for member in members:
        fail(2, username=member.username, address=CLUB)
    for member in members:
        response = log_in(member.username, PASSWORD, CLUB)
        assert response.status_code == 302
        assert response.wsgi_request.user == member


@override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=8)
def test_an_address_guessing_at_many_accounts_is_locked_for_every_account(
    owner: User, outsider: User
):
    """Two guesses each at four accounts, alternately through two servers: the eighth
    failure from the address locks it, though no account reached its own limit."""
    servers = [Client(REMOTE_ADDR=ATTACKER), Client(REMOTE_ADDR=ATTACKER)]
    url = reverse("login")
    *first, eighth = ["owner", "outsider", "guess0", "guess1"] * 2
    for n, username in enumerate(first):
        response = servers[n % 2].post(url, {"username": username, "password": "wrong guess"})
        assert response.status_code == 200
    expect_locked(servers[1].post(url, {"username": eighth, "password": "wrong guess"}))
    expect_locked(servers[0].post(url, {"username": "outsider", "password": PASSWORD}))
    # Only the address is locked: the same account from its own address gets in.
    response = log_in("outsider", PASSWORD, HOME)
    assert response.status_code == 302
    assert response.wsgi_request.user == outsider


def test_failures_are_counted_in_the_database(owner: User):
    fail(3)
    attempt = AccessAttempt.objects.get(username="owner")
    assert (attempt.ip_address, attempt.failures_since_start) == (ATTACKER, 3)
    assert PASSWORD not in attempt.post_data


def test_the_lockout_ends_after_the_cool_off(owner: User):
    lock()
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )
    response = log_in("owner", PASSWORD, ATTACKER)
    assert response.status_code == 302
    assert response.wsgi_request.user == owner


def minutes_pass(minutes: int) -> None:
    """Moves every recorded failure back in time, as if the minutes had passed."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))


def test_a_try_during_the_lockout_does_not_prolong_it(owner: User):
    lock()
    minutes_pass(14)
    expect_locked(log_in("owner", "another guess", ATTACKER))
    expect_locked(log_in("owner", PASSWORD, ATTACKER))
    minutes_pass(2)  # 16 minutes after the failure that locked, whatever came since
    response = log_in("owner", PASSWORD, ATTACKER)
    assert response.status_code == 302
    assert response.wsgi_request.user == owner


def test_an_address_lockout_is_not_prolonged_by_more_tries(owner: User, outsider: User):
    with override_settings(LOGIN_ADDRESS_FAILURE_LIMIT=4):
        for username in ("guess0", "guess1", "guess2", "guess3"):
            log_in(username, "wrong guess", ATTACKER)
        minutes_pass(14)
        for username in ("guess4", "owner", "outsider"):
            expect_locked(log_in(username, "wrong guess", ATTACKER))
        minutes_pass(2)
        assert log_in("outsider", PASSWORD, ATTACKER).wsgi_request.user == outsider


# An account guessed at from many addresses: slowed down, never locked.

ADDRESSES = [f"203.0.113.{n}" for n in range(100, 130)]


def seconds_pass(seconds: float) -> None:
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=seconds))


def log_in_at_once(username: str, password: str, address: str):
    """A try at the very moment of the account's last failure, whatever the machine's
    load: the wait it meets is the whole wait, not the whole wait less the test's time."""
    last = AccessAttempt.objects.aggregate(last=Max("attempt_time"))["last"]
    with mock.patch("scorekeeper.accounts.throttle.timezone.now", return_value=last):
        return log_in(username, password, address)


def expect_slowed(response, seconds: str) -> None:
    assert response.status_code == 429
    assert SLOWED.format(seconds=seconds) in response.text
    assert response["Retry-After"] == seconds.split()[0]
    assert "_auth_user_id" not in response.wsgi_request.session


def test_ten_wrong_passwords_from_ten_addresses_slow_the_account_down(owner: User):
    for address in ADDRESSES[:10]:
        fail(1, address=address)

    # At once, from an eleventh address: refused without checking the password.
    expect_slowed(log_in_at_once("owner", PASSWORD, ADDRESSES[10]), "1 second")
    assert AccessAttempt.objects.aggregate(n=Sum("failures_since_start"))["n"] == 10
    seconds_pass(1)
    response = log_in("owner", PASSWORD, ADDRESSES[10])
    assert response.status_code == 302
    assert response.wsgi_request.user == owner


def test_the_wait_doubles_with_each_failure_up_to_its_bound(owner: User):
    for address in ADDRESSES[:10]:
        fail(1, address=address)
    for n, address in enumerate(ADDRESSES[10:20]):
        seconds_pass(60)  # each try waits out the wait before it
        fail(1, address=address)
        wait = min(2 ** (n + 1), 30)
        expect_slowed(log_in_at_once("owner", PASSWORD, HOME), f"{wait} seconds")
    # Never a lock: after the longest wait, the right password gets in from anywhere.
    seconds_pass(30)
    assert log_in("owner", PASSWORD, HOME).wsgi_request.user == owner


def test_a_player_who_mistypes_a_few_times_is_not_slowed_down(owner: User):
    fail(2, address=HOME)
    fail(2, address=CLUB)
    assert log_in("owner", PASSWORD, CLUB).wsgi_request.user == owner


def test_a_successful_login_clears_the_failures(owner: User):
    fail(4, address=HOME)
    assert log_in("owner", PASSWORD, HOME).status_code == 302
    fail(4, address=HOME)
    assert log_in("owner", PASSWORD, HOME).status_code == 302


def test_the_lockout_keeps_the_typed_name_and_the_next_page(owner: User):
    lock()
    response = Client(REMOTE_ADDR=ATTACKER).post(
        reverse("login"), {"username": "owner", "password": PASSWORD, "next": "/evenings/"}
    )
    expect_locked(response)
    assert 'value="owner"' in response.text
    assert 'name="next" value="/evenings/"' in response.text


# A login flood: at most LOGIN_CHECKS_AT_ONCE logins handled at once on the machine.

BUSY = "Many logins are being checked at this moment. Try again in a few seconds."


def expect_busy(response) -> None:
    assert response.status_code == 429
    assert BUSY in response.text
    assert response["Retry-After"] == "2"
    assert '<form method="post"' in response.text
    assert "_auth_user_id" not in response.wsgi_request.session


@override_settings(LOGIN_CHECKS_AT_ONCE=1)
def test_a_login_finding_no_free_slot_is_answered_at_once_and_not_counted(owner: User):
    with throttle.login_slot() as free:  # another login, being checked
        assert free
        expect_busy(log_in("owner", PASSWORD))
        expect_busy(log_in("owner", "wrong guess"))
    assert not AccessAttempt.objects.exists()
    assert log_in("owner", PASSWORD).wsgi_request.user == owner


@override_settings(LOGIN_CHECKS_AT_ONCE=1)
def test_the_slots_are_shared_by_every_process_on_the_machine(owner: User):
    """Another worker process holding the one slot: this one answers busy until it ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(throttle.slots().path(0))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline() == "held\n"
        expect_busy(log_in("owner", PASSWORD))
    finally:
        holder.communicate("")  # it lets go when its input ends
    assert log_in("owner", PASSWORD).wsgi_request.user == owner


HOLD = """import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_other_requests_do_not_wait_for_a_slot(owner: User):
    client = Client()
    client.force_login(owner)
    with override_settings(LOGIN_CHECKS_AT_ONCE=1), throttle.login_slot():
        assert client.get(reverse("login")).status_code == 200
        assert client.get(reverse("home")).status_code == 200


LIMITS = (
    "print(s.AXES_FAILURE_LIMIT, s.LOGIN_ADDRESS_FAILURE_LIMIT, s.AXES_COOLOFF_TIME,"
    " s.LOGIN_ACCOUNT_SLOWDOWN_AFTER, s.LOGIN_ACCOUNT_SLOWDOWN_MAX)"
)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "5 100 0:15:00 10 0:00:30"),
        (
            {
                "LOGIN_FAILURE_LIMIT": "3",
                "LOGIN_ADDRESS_FAILURE_LIMIT": "100",
                "LOGIN_COOLOFF_MINUTES": "60",
                "LOGIN_ACCOUNT_SLOWDOWN_AFTER": "20",
                "LOGIN_ACCOUNT_SLOWDOWN_MAX_SECONDS": "5",
            },
            "3 100 1:00:00 20 0:00:05",
        ),
    ],
)
def test_the_limits_and_the_cool_off_come_from_the_environment(env, expected):
    result = settings_in_subprocess(env, LIMITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_a_bad_limit_stops_the_start_up():
    result = settings_in_subprocess({"LOGIN_FAILURE_LIMIT": "0"}, "")
    assert result.returncode != 0
    assert "LOGIN_FAILURE_LIMIT must be a whole number of at least 1" in result.stderr


def settings_in_subprocess(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LOGIN_") and k != "DEBUG"}
    return subprocess.run(
        [sys.executable, "-c", f"import scorekeeper.settings as s; {code}"],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
    )


# Sign-up: SIGNUP_LIMIT forms per address within SIGNUP_WINDOW, counted in the database.


def sign_up(username: str, address: str = ATTACKER, password: str = "gin rummy at the table"):
    return Client(REMOTE_ADDR=address).post(
        reverse("signup"), {"username": username, "password1": password, "password2": password}
    )


@override_settings(SIGNUP_LIMIT=3)
def test_sign_ups_from_one_address_are_limited():
    assert sign_up("first").status_code == 302
    assert sign_up("second", password="short").status_code == 200  # a refused form counts
    assert sign_up("third").status_code == 302
    response = sign_up("fourth")
    assert response.status_code == 429
    assert "Too many sign-ups from this address. Wait 60 minutes, then try again." in response.text
    assert '<form method="post"' in response.text
    assert not User.objects.filter(username="fourth").exists()
    assert SignupAttempt.objects.filter(address=ATTACKER).count() == 3


@override_settings(SIGNUP_LIMIT=2)
def test_the_sign_up_limit_is_per_address():
    sign_up("first")
    sign_up("second")
    assert sign_up("third").status_code == 429
    assert sign_up("third", address=HOME).status_code == 302
    assert User.objects.filter(username="third").exists()


@override_settings(SIGNUP_LIMIT=2)
def test_sign_up_opens_again_after_the_window():
    sign_up("first")
    sign_up("second")
    assert sign_up("third").status_code == 429
    SignupAttempt.objects.update(
        attempted_at=SignupAttempt.objects.first().attempted_at - timedelta(minutes=61)
    )
    assert sign_up("third").status_code == 302


def test_looking_at_the_sign_up_page_is_not_counted():
    for _ in range(20):
        assert Client(REMOTE_ADDR=ATTACKER).get(reverse("signup")).status_code == 200
    assert not SignupAttempt.objects.exists()


# The address both limits count: behind trusted proxies, the one they saw.


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.5", "10.0.0.1"),  # no proxy trusted: a forged header changes nothing
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the client's own entry is ignored
        (2, "203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, "", "10.0.0.1"),  # no header: the connection's address
    ],
)
def test_the_client_address_behind_trusted_proxies(proxies, forwarded, expected):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    with override_settings(TRUSTED_PROXIES=proxies):
        assert throttle.client_address(request) == expected
