"""Who may open which address: every URL of the table and the clubs apps, for the club's
owner, scorer and member, an outsider and an anonymous visitor.

The rule, from scorekeeper/clubs/access.py:
  - the anonymous visitor is sent to log in (the share links and the front page excepted);
  - a user who is not a member of the club gets 404, whatever he asks: nothing says the
    partie, evening, player or club exists;
  - a member whose role is short of what the request needs gets 403 (he sees the thing
    anyway): reading needs a member, recording and running evenings a scorer, members
    and invitation links an owner;
  - starting a partie, an import or an evening in a club where one does not score is a
    form error (400; the start form, as for its other errors, 200): the club is not among
    the form's choices.
A refused request changes nothing; an allowed change is made.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse

from scorekeeper.accounts import urls as account_urls
from scorekeeper.clubs import urls as club_urls
from scorekeeper.clubs.models import Club, Invitation, Membership, Role
from scorekeeper.league import urls as league_urls
from scorekeeper.table import services as table_services
from scorekeeper.table import urls as table_urls
from scorekeeper.table.models import Evening, EveningPayment, Hand, HandChange, Partie, Player
from tests.clubs.conftest import ClubThings
from tests.table.helpers import rules_form_data, start_form_data, wins

pytestmark = pytest.mark.django_db

CAST = ["owner", "scorer", "member", "outsider", "anonymous"]
ROLES = {"owner": Role.OWNER, "scorer": Role.SCORER, "member": Role.MEMBER}
PUBLIC, LOGIN = "anyone", "logged in"

RECORD = {
    "format": "scorekeeper/1",
    "kind": "two_player",
    "rules": {"preset": "classic"},
    "players": ["Anna", "Ben"],
    "hands": [{"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27}],
}


@dataclass(frozen=True)
class Url:
    name: str
    method: str
    need: Role | str  # a role in the club, or PUBLIC, or LOGIN
    ok: int  # the answer to whoever may
    args: Callable[[ClubThings], list] = lambda things: []
    data: Callable[[ClubThings], dict[str, Any]] | None = None
    query: Callable[[ClubThings], str] | None = None
    special: dict[str, int] = field(default_factory=dict)  # where the rule says more

    def __str__(self) -> str:
        return f"{self.method} {self.name}{'?…' if self.query else ''}"


def partie(things):
    return [things.partie.pk]


def hand_1(things):
    return [things.partie.pk, 1]


def slug(things):
    return [things.club.slug]


def dora(things):
    """A player who never sat with ``things.player`` (Anna): she can be merged into her."""
    return Player.objects.get(club=things.club, name="Dora")


def owner_of(things):
    return things.club.memberships.get(role=Role.OWNER).user


def deleted_hand(things):
    """The partie's hand 1, deleted: its entry in the audit trail undoes it."""
    written = table_services.hand_delete(partie=things.partie, number=1, user=owner_of(things))
    return [things.partie.pk, written.change.pk]


def deleted_loose(things):
    table_services.partie_delete(partie=things.loose, user=owner_of(things))
    return [things.loose.pk]


def reopened(things):
    change = table_services.evening_reopen(evening=things.settled, user=owner_of(things))
    return [things.settled.pk, change.pk]


def shared_board(things):
    """The evening's board opened to anyone by its read-only link."""
    return [table_services.evening_share(evening=things.evening).share_token]


def in_club(things):
    return {"club": things.club.pk}


NO_CLUB = {"member": 400, "outsider": 400}  # the club is not among the form's choices
ALREADY_MEMBERS = {"owner": 200, "scorer": 200, "member": 200}  # the page says so

URLS = [
    # The table app
    Url("home", "get", PUBLIC, 200),
    Url("signup", "get", PUBLIC, 200),
    Url("partie_new", "get", LOGIN, 200),
    Url("partie_new", "post", Role.SCORER, 302, data=lambda t: start_form_data() | in_club(t),
        special={"member": 200, "outsider": 200}),  # the start form shows its errors with 200
    Url("partie_new", "get", Role.SCORER, 200, query=lambda t: f"evening={t.evening.pk}"),
    Url("partie_rules", "get", LOGIN, 200),
    Url("partie_import", "get", LOGIN, 200),
    Url("partie_import", "post", Role.SCORER, 302,
        data=lambda t: {"text": json.dumps(RECORD)} | in_club(t), special=NO_CLUB),
    Url("partie_detail", "get", Role.MEMBER, 200, partie),
    Url("partie_ruleset", "get", Role.MEMBER, 200, partie),
    Url("hand_create", "post", Role.SCORER, 302, partie, data=lambda t: wins("Ben", 10)),
    Url("hand_edit", "get", Role.SCORER, 200, hand_1),
    Url("hand_edit", "post", Role.SCORER, 302, hand_1, data=lambda t: wins("Ben", 10)),
    Url("hand_delete", "get", Role.SCORER, 200, hand_1),
    Url("hand_delete", "post", Role.SCORER, 302, hand_1),
    Url("partie_export", "get", Role.MEMBER, 200, partie),
    Url("partie_rules_change", "get", Role.SCORER, 200, partie),
    Url("partie_rules_change", "post", Role.SCORER, 200, partie,
        data=lambda t: rules_form_data("modern")),  # the preview
    Url("shared_partie", "get", PUBLIC, 200, lambda t: [t.partie.share_token]),
    Url("shared_partie_ruleset", "get", PUBLIC, 200, lambda t: [t.partie.share_token]),
    Url("shared_partie_pdf", "get", PUBLIC, 200, lambda t: [t.partie.share_token]),
    Url("partie_share", "post", Role.SCORER, 302, partie, data=lambda t: {"shared": "1"}),
    Url("partie_share", "post", Role.SCORER, 302, partie, data=lambda t: {"shared": "0"}),
    Url("evening_board", "get", Role.MEMBER, 200, lambda t: [t.evening.pk]),
    Url("evening_share", "post", Role.SCORER, 302, lambda t: [t.evening.pk],
        data=lambda t: {"shared": "1"}),
    Url("shared_evening_board", "get", PUBLIC, 200, shared_board),
    Url("club_board", "get", Role.MEMBER, 200, slug),
    Url("partie_pdf", "get", Role.MEMBER, 200, partie),
    Url("partie_delete", "get", Role.SCORER, 200, partie),
    Url("partie_delete", "post", Role.SCORER, 302, partie),
    Url("partie_restore", "post", Role.SCORER, 302, deleted_loose),
    Url("partie_archive", "post", Role.SCORER, 302, partie),
    Url("change_undo", "post", Role.SCORER, 302, deleted_hand),
    Url("evening_reopen", "get", Role.OWNER, 200, lambda t: [t.settled.pk]),
    Url("evening_reopen", "post", Role.OWNER, 302, lambda t: [t.settled.pk]),
    Url("evening_reopen_undo", "post", Role.OWNER, 302, reopened),
    Url("evening_pdf", "get", Role.MEMBER, 200, lambda t: [t.evening.pk]),
    Url("pad", "get", LOGIN, 200),
    Url("evening_list", "get", LOGIN, 200),
    Url("evening_list", "post", Role.SCORER, 302,
        data=lambda t: {"name": "Friday", "played_on": "2026-11-27"} | in_club(t),
        special=NO_CLUB),
    Url("evening_detail", "get", Role.MEMBER, 200, lambda t: [t.evening.pk]),
    Url("evening_detail", "post", Role.SCORER, 302, lambda t: [t.evening.pk],
        data=lambda t: {"partie": t.loose.pk}),
    Url("evening_settle", "post", Role.SCORER, 302, lambda t: [t.evening.pk]),
    Url("evening_payment_paid", "post", Role.SCORER, 302,
        lambda t: [t.settled.pk, t.payment.pk], data=lambda t: {"paid": "1"}),
    Url("player_detail", "get", Role.MEMBER, 200, lambda t: [t.player.pk]),
    Url("player_account", "post", Role.SCORER, 302, lambda t: [t.player.pk],
        data=lambda t: {"user": t.membership.user_id}),
    Url("player_list", "get", Role.MEMBER, 200, slug),
    Url("player_list", "get", Role.MEMBER, 200, slug, query=lambda t: "q=an"),
    Url("player_rename", "post", Role.SCORER, 302, lambda t: [t.player.pk],
        data=lambda t: {"name": "Annie"}),
    Url("player_merge", "post", Role.SCORER, 200, lambda t: [t.player.pk],
        data=lambda t: {"other": dora(t).name}),  # what the merge will do: nothing yet
    Url("player_merge", "post", Role.SCORER, 302, lambda t: [t.player.pk],
        data=lambda t: {"other": dora(t).name, "confirm": "1"}),
    Url("my_games", "get", LOGIN, 200),
    # The clubs app
    Url("club_list", "get", LOGIN, 200),
    Url("club_list", "post", LOGIN, 302, data=lambda t: {"name": "Rummy Friends"}),
    Url("club_detail", "get", Role.MEMBER, 200, slug),
    Url("club_leave", "post", Role.MEMBER, 302, slug, special={"owner": 400}),  # the last owner
    Url("membership_role", "post", Role.OWNER, 302, lambda t: [t.club.slug, t.membership.pk],
        data=lambda t: {"role": "scorer"}),
    Url("membership_remove", "post", Role.OWNER, 302, lambda t: [t.club.slug, t.membership.pk]),
    Url("invitation_create", "post", Role.OWNER, 302, slug, data=lambda t: {"role": "member"}),
    Url("invitation_revoke", "post", Role.OWNER, 302, lambda t: [t.club.slug, t.invitation.pk]),
    Url("invitation_accept", "get", LOGIN, 200, lambda t: [t.invitation.token]),
    Url("invitation_accept", "post", LOGIN, 302, lambda t: [t.invitation.token],
        special=ALREADY_MEMBERS),
]  # fmt: skip


def expected(url: Url, who: str) -> int | str:
    """The status the rule gives ``who`` at ``url``; "login" for the way to log in."""
    if who in url.special:
        return url.special[who]
    if url.need == PUBLIC:
        return url.ok
    if who == "anonymous":
        return "login"
    if url.need == LOGIN:
        return url.ok
    if who == "outsider":
        return 404
    return url.ok if ROLES[who].includes(url.need) else 403


def state() -> tuple:
    """Everything a refused request must leave as it was."""
    return (
        list(Club.objects.order_by("pk").values_list("pk", "name")),
        list(Membership.objects.order_by("pk").values_list("pk", "role")),
        list(Invitation.objects.order_by("pk").values_list("pk", "revoked_at", "accepted_at")),
        list(
            Partie.objects.order_by("pk").values_list(
                "pk", "club", "evening", "rules", "state", "share_token"
            )
        ),
        list(Hand.objects.order_by("pk").values_list("pk", "number", "kind", "knocker")),
        list(Evening.objects.order_by("pk").values_list("pk", "name", "settled_at", "share_token")),
        list(EveningPayment.objects.order_by("pk").values_list("pk", "paid_at", "carried_to")),
        list(Player.objects.order_by("pk").values_list("pk", "club", "name", "user")),
        HandChange.objects.count(),
    )


@pytest.mark.parametrize("who", CAST)
@pytest.mark.parametrize("url", URLS, ids=str)
def test_the_answer_at_every_url_follows_the_role(client_of, things, url, who):
    client = client_of(who)
    address = reverse(url.name, args=url.args(things))
    if url.query:
        address += f"?{url.query(things)}"
    before = state()

    response = getattr(client, url.method)(address, url.data(things) if url.data else None)

    want = expected(url, who)
    if want == "login":
        assert response.status_code == 302
        assert response.url.startswith(f"{reverse('login')}?next=")
    else:
        assert response.status_code == want, response.content[:300]
    if want != url.ok:  # refused
        assert state() == before
    elif url.method == "post" and url.ok == 302:  # done
        assert state() != before


def test_every_url_of_the_table_and_the_clubs_is_in_the_table_above():
    # Sign-up lives in accounts and the player pages in league: they are walked here too.
    players = [p for p in league_urls.urlpatterns if p.name.startswith("player_")]
    patterns = table_urls.urlpatterns + club_urls.urlpatterns + account_urls.urlpatterns + players
    names = {p.name for p in patterns}
    assert names == {url.name for url in URLS}


def test_an_outsider_and_a_stranger_to_it_get_the_same_404_for_a_partie_that_does_not_exist(
    client_of, things
):
    client = client_of("outsider")
    theirs = client.get(reverse("partie_detail", args=[things.partie.pk]))
    nobodys = client.get(reverse("partie_detail", args=[things.partie.pk + 1000]))

    assert theirs.status_code == nobodys.status_code == 404
    assert same_page(theirs) == same_page(nobodys)


def same_page(response) -> str:
    """The page without what differs from one request to the next: its own address (the
    language switch comes back to it) and the CSRF token, masked afresh for every page."""
    page = response.content.decode().replace(response.wsgi_request.path, "")
    return re.sub(r'"X-CSRFToken": "\w+"|name="csrfmiddlewaretoken" value="\w+"', "", page)
