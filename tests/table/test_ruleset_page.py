"""The rules at the table: the partie page links to a page that lists every value of the
partie's rules with what it means, in English and German, for whoever may see the
partie, and behind its share link."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.vocabulary import RULE_HELP, rule_label

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def rules_of(html: str) -> dict[str, tuple[str, str, bool]]:
    """Each rule listed: its label, its value, its meaning and whether it is marked changed."""
    found = {}
    for name, body in re.findall(r'<div class="rule[^"]*" id="rule-(\w+)">(.*?)</div>', html, re.S):
        label = re.search(r"<dt>(.*?)</dt>", body).group(1)
        value = re.search(r"<strong>(.*?)</strong>", body).group(1)
        meaning = re.search(r"<small>(.*?)</small>", body, re.S).group(1).strip()
        found[name] = (label, value, meaning, "changed</span>" in body or "geändert</span>" in body)
    return found


@pytest.fixture
def changed(owner):
    """A Hollywood under Modern rules with a gin bonus of 30 and a money unit of 0.05."""
    rules = engine.preset("modern", gin_bonus=30, money_unit=Decimal("0.05"))
    return services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=rules, kind="hollywood", stake=Decimal("0.1")
    )


def test_the_partie_page_links_to_its_rules(client_owner, changed):
    html = client_owner.get(changed.get_absolute_url()).content.decode()
    url = reverse("partie_ruleset", args=[changed.pk])
    assert f'<a href="{url}">Every rule and what it means</a>' in html


def test_every_value_of_the_rules_is_listed_with_its_meaning(client_owner, changed):
    response = client_owner.get(reverse("partie_ruleset", args=[changed.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    listed = rules_of(html)
    assert list(listed) == [name for name in engine.PARAMETERS if name != "best_of"] + [
        "best_of"
    ]  # a match's rule comes last, under "not played"
    for name, (label, _value, meaning, _changed) in listed.items():
        assert label == rule_label(name)
        assert meaning == str(RULE_HELP[name][1]).replace("'", "&#x27;")
    assert listed["gin_bonus"][1:] == ("30", "Extra points for going gin.", True)
    assert listed["money_unit"][1] == "0.05" and listed["money_unit"][3]
    assert listed["undercut_bonus"][1] == "25" and not listed["undercut_bonus"][3]
    assert listed["knock_limit"][1] == "10"
    assert listed["big_gin_bonus"][1] == "31"
    assert "Hollywood (three games at once) · preset Modern" in html
    unused = html[html.index("Not played in this kind of partie") :]
    assert 'id="rule-best_of"' in unused and 'id="rule-gin_bonus"' not in unused
    assert reverse("partie_rules_change", args=[changed.pk]) in html  # a scorer may change them


def test_the_rules_speak_german_with_the_german_decimal_mark(client_owner, changed):
    html = client_owner.get(reverse("partie_ruleset", args=[changed.pk]), **GERMAN)
    listed = rules_of(html.content.decode())

    assert listed["gin_bonus"] == ("Gin-Prämie", "30", "Zusatzpunkte für Gin.", True)
    assert listed["money_unit"][1] == "0,05"
    assert listed["tie_is_undercut"][1] == "ja"
    assert (
        "Alle Regeln und was sie bedeuten"
        in client_owner.get(changed.get_absolute_url(), **GERMAN).content.decode()
    )


def test_the_rules_are_seen_as_the_partie_is(client, client_outsider, changed):
    url = reverse("partie_ruleset", args=[changed.pk])
    assert client_outsider.get(url).status_code == 404
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_the_share_link_shows_the_rules_too(client, changed):
    services.partie_share(partie=changed)
    shared = client.get(reverse("shared_partie", args=[changed.share_token])).content.decode()
    url = reverse("shared_partie_ruleset", args=[changed.share_token])
    assert f'<a href="{url}">Every rule and what it means</a>' in shared

    html = client.get(url).content.decode()
    assert rules_of(html)["gin_bonus"][1] == "30"
    assert reverse("partie_rules_change", args=[changed.pk]) not in html  # read only
    assert reverse("shared_partie", args=[changed.share_token]) in html
    assert changed.get_absolute_url() not in html

    assert client.get(reverse("shared_partie_ruleset", args=["no-such-token"])).status_code == 404
