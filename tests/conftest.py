"""Fixtures shared by every test: the fixed cast of users; the property tests' profile."""

import os
from collections.abc import Iterator
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings
from django.utils import translation
from hypothesis import settings

# No deadline per example: on a busy machine an example that takes 3 ms alone can take
# 300 ms, and a property test must fail for what it checks, never for the machine's load.
# The "ci" profile (CI set) also prints the blob that reproduces a failure; a developer's
# run ("dev") is the same otherwise. HYPOTHESIS_PROFILE picks another one.
settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

# What lets a test reach the database (pytest-django blocks it for every other test).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that reach the database (make test's run on PostgreSQL: "
        "the run on SQLite beside it runs the pure ones)",
    )


def uses_database(item: pytest.Item) -> bool:
    return bool(item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With --database-tests-only (make test's run on PostgreSQL), leave out the tests that
    touch no database: they check the same pure code on either database, and the run on
    SQLite beside it runs them."""
    if not config.getoption("--database-tests-only"):
        return
    pure = [item for item in items if not uses_database(item)]
    if pure:
        config.hook.pytest_deselected(items=pure)
        items[:] = [item for item in items if uses_database(item)]


PASSWORD = "correct horse battery staple"
# Production hashes with PBKDF2 (a million rounds, ~0.3 s a password); tests create users
# by the hundred. MD5 is worthless for real passwords and fine for a test database.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def fast_logins() -> Iterator[None]:
    """Hash the test users' passwords with MD5 for the whole run, live server included,
    and let any number of logins be checked at once.

    override_settings swaps the settings object every thread reads and clears the cached
    hashers, so the login page of the browser tests checks passwords with MD5 too.
    """
    # Logins at once: make test's three runs and a browser test's two people log in at
    # the same moments on one machine; the login gate's own tests set the limit to 1.
    with override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS, LOGIN_CHECKS_AT_ONCE=64):
        yield


@pytest.fixture(scope="session", autouse=True)
def quick_flush_on_postgresql() -> Iterator[None]:
    """Empty the tables after a test that commits (the browser tests, say) with DELETE
    instead of TRUNCATE on PostgreSQL: the same empty tables, in 0.1 s instead of 0.8 s.

    TRUNCATE gives each table new files, which costs far more than deleting the few rows
    a test leaves. The foreign keys Django makes on PostgreSQL are deferred, and the flush
    runs in one transaction, so the order of the DELETEs does not matter. A flush that
    resets sequences keeps TRUNCATE.
    """
    if connection.vendor != "postgresql":
        yield
        return
    operations = type(connection.ops)
    truncate = operations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]

    with mock.patch.object(operations, "sql_flush", sql_flush):
        yield


@pytest.fixture
def owner(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("owner", password=PASSWORD)


@pytest.fixture
def outsider(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("outsider", password=PASSWORD)


@pytest.fixture
def client_owner(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


@pytest.fixture
def client_outsider(outsider: User) -> Client:
    client = Client()
    client.force_login(outsider)
    return client


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English: a request in German must not leak into the next test."""
    with translation.override("en"):
        yield
