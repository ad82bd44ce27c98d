"""The demo command creates its user and parties once, however often it runs."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scorekeeper.table.models import Hand, HandChange, Partie, Player

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_run_twice_creates_the_user_and_its_parties_once():
    first = demo()
    counts = (Partie.objects.count(), Hand.objects.count(), Player.objects.count())
    second = demo()

    user = get_user_model().objects.get(username="demo")
    assert get_user_model().objects.filter(username="demo").count() == 1
    assert user.check_password("demo-gin-rummy")
    assert (Partie.objects.count(), Hand.objects.count(), Player.objects.count()) == counts
    assert counts == (4, 14, 4)
    assert first == second == "Demo login: user 'demo', password 'demo-gin-rummy'\n"
    parties = Partie.objects.filter(owner=user)
    assert parties.count() == 4
    assert parties.filter(state=Partie.State.CLOSED).count() >= 1
    assert parties.filter(state=Partie.State.RUNNING).count() >= 1
    assert HandChange.objects.filter(user=user).count() == 14


def test_the_demo_holds_the_worked_example_closed_at_261_to_86():
    demo()

    (partie,) = [p for p in Partie.objects.all() if p.summary["players"] == ["Anna", "Ben"]]
    assert partie.state == Partie.State.CLOSED
    assert partie.summary["totals"] == {"Anna": 261, "Ben": 86}
    assert partie.summary["winner"] == "Anna"
