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
    # 7 parties: 4 two-player, Hollywood, match, partnership (2 rounds of 2 tables)
    assert counts == (7, 28, 6)
    assert first == second == "Demo login: user 'demo', password 'demo-gin-rummy'\n"
    parties = Partie.objects.filter(owner=user)
    assert parties.count() == 7
    assert set(parties.values_list("kind", flat=True)) == {
        "two_player",
        "hollywood",
        "match",
        "partnership",
    }
    assert parties.filter(state=Partie.State.CLOSED).count() >= 1
    assert parties.filter(state=Partie.State.RUNNING).count() >= 1
    assert HandChange.objects.filter(user=user).count() == 26  # one per hand or round


def test_the_demo_holds_the_worked_example_closed_at_261_to_86():
    demo()

    (partie,) = [p for p in Partie.objects.all() if p.summary["players"] == ["Anna", "Ben"]]
    assert partie.state == Partie.State.CLOSED
    assert partie.summary["totals"] == {"Anna": 261, "Ben": 86}
    assert partie.summary["winner"] == "Anna"


def test_the_demo_holds_the_hollywood_example_of_the_rules():
    demo()

    partie = Partie.objects.get(kind="hollywood")
    assert partie.game_totals == [
        [("Emil", 80), ("Frida", 62)],
        [("Emil", 62), ("Frida", 50)],
        [("Emil", 37), ("Frida", 20)],
    ]
