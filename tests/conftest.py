"""Fixtures shared by every test: the fixed cast of users."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

PASSWORD = "correct horse battery staple"


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
