"""The walk: every URL pattern of the project, GET and POST, for everyone who may come.

The cast: the ``anonymous`` visitor (logged out, holds no link: he guesses a token), the
``share`` holder (logged out, holds the partie's read-only link and the season's public
link), the ``outsider`` (logged in, a member of another club only), the ``former`` member
(removed from the club after he played as Anna), the club's ``member``, ``scorer`` and
``owner`` (tests/clubs/conftest.py), and the ``seated`` member (his account linked to Ben,
who sits at the club's partie). Each line of ``WALKS``
says what one address needs for GET and for POST; ``expected`` turns that into the
status each of the cast gets, by the rule of scorekeeper/clubs/access.py:

  - a logged-out visitor is sent to log in, except on the public pages and the links;
  - a link answers whoever holds it, and a guessed token is a 404;
  - a user who is not a member of the club gets 404, whatever he asks; except the
    former member on what is his own (``his``: a partie he played, an evening he played
    in, his player), which he reads as a member does, and is refused more with 403;
  - a member whose role is short of what the request needs gets 403; except a member
    seated at the partie, who scores its hands as a scorer does (``seated``: its hands
    entered, corrected, deleted and put back), and may do no more;
  - a method the address does not serve is 405 (after the login, where it asks one).

A refused request changes no row of the project's tables; an allowed POST that
redirects (302) changes some. The club, its things and the cast's sessions are made
once for the module (``world``); every test runs in a savepoint of that, and every
request in a savepoint of its own that is rolled back, so each of the eight of the cast
meets the same club, the one the module made.

The walk iterates the project's resolver: a URL added without a line here fails
``test_every_url_of_the_project_has_a_line_in_the_walk``. Adding one is one line:
``Walk("name", args, get=..., post=...)``. The admin is covered by one check: it sends
whoever is not staff to its own login.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import CalendarLink, Club, Role
from scorekeeper.clubs.services import personal_club
from scorekeeper.league import services as league_services
from scorekeeper.league.models import LeagueNight, Season
from scorekeeper.league.night_services import night_plan
from scorekeeper.notices.models import AddressCheck
from scorekeeper.notices.services import address_check_request, address_token, unsubscribe_token
from scorekeeper.table import services
from scorekeeper.table.models import HandChange, Partie, Player, PlayerMerge
from scorekeeper.table.services import confirmations
from scorekeeper.tournaments import services as tournament_services
from scorekeeper.tournaments.models import Tournament
from tests.clubs.conftest import (
    ClubThings,
    G,
    K,
    club_things,
    join,
    remove_after_playing,
    skat_club,
    start,
)
from tests.conftest import PASSWORD
from tests.table.helpers import rules_form_data, start_form_data, wins

pytestmark = pytest.mark.django_db

CAST = ["anonymous", "share", "outsider", "former", "member", "seated", "scorer", "owner"]
LOGGED_OUT = {"anonymous", "share"}
ROLES = {"owner": Role.OWNER, "scorer": Role.SCORER, "member": Role.MEMBER, "seated": Role.MEMBER}

PUBLIC = "anyone"  # no login, no club
LOGIN = "logged in"  # any user, club or not
LINK = "the link's holder"  # a share token in the address
NO = "not served"  # 405

GUESSED_TOKEN = "guessed-0123456789abcdefghij"


@dataclass
class Things(ClubThings):
    """The club's things (tests/clubs/conftest.py), its league season and its links."""

    season: Season | None = None
    past: Season | None = None  # an earlier season of the league, closed: to be reopened
    gone: Partie | None = None  # deleted, to be restored
    dropped: HandChange | None = None  # the partie's hand 2, deleted: to be undone
    reopened: HandChange | None = None  # an evening settled and reopened: to be undone
    merge: PlayerMerge | None = None  # Zed merged into Anna: to be undone
    deleted: Club | None = None  # another club of the cast, deleted: to be restored
    asked: Partie | None = None  # Anna (the former member's) won: he is asked to confirm
    locked: Partie | None = None  # Anna won again and the former member confirmed it
    calendar: CalendarLink | None = None  # the member's link to the club's calendar
    planned: LeagueNight | None = None  # a night of the season planned ahead, no round yet
    address_check: AddressCheck | None = None  # the link that checks the member's address
    tournament: Tournament | None = None  # started: Carl v Eve play W1-1
    draft: Tournament | None = None  # Ben and Finn checked in, not started


@dataclass(frozen=True)
class Ask:
    """What one method of one address needs, and what it answers to whoever may."""

    need: Role | str  # a role in the club, PUBLIC, LOGIN, LINK or NO
    ok: int = 200
    data: Callable[[Things], dict[str, Any]] | None = None
    special: dict[str, int] = field(default_factory=dict)  # where the rule says more
    changes: bool | None = None  # None: a POST answered with 302 changes something


@dataclass(frozen=True)
class Walk:
    name: str
    args: Callable[[Things], list] = lambda t: []
    get: Ask = Ask(NO)
    post: Ask = Ask(NO)
    query: Callable[[Things], str] | None = None
    variant: str = ""  # tells two lines of one address apart
    his: bool = False  # the former member's own thing: he reads it, and may do no more
    seated: bool = False  # a hand of the partie: the seated member scores it as a scorer

    def __str__(self) -> str:
        return (
            f"{self.name}{'?…' if self.query else ''}{' ' + self.variant if self.variant else ''}"
        )

    @property
    def logs_in(self) -> bool:
        """Whether the address sends a logged-out visitor to log in before anything."""
        return not {self.get.need, self.post.need} & {PUBLIC, LINK}


READ = Ask(Role.MEMBER)  # a page of the club's: its members read it
PAGE = Ask(LOGIN)  # a page of one's own: any logged-in user
OPEN = Ask(PUBLIC)  # a page for anyone
LINKED = Ask(LINK)  # behind a share link


def partie(t: Things) -> list:
    return [t.partie.pk]


def hand_1(t: Things) -> list:
    return [t.partie.pk, 1]


def evening(t: Things) -> list:
    return [t.evening.pk]


def player(t: Things) -> list:
    return [t.player.pk]


def slug(t: Things) -> list:
    return [t.club.slug]


def season(t: Things) -> list:
    return [t.season.pk]


def partie_link(t: Things) -> list:
    return [t.partie.share_token]


def season_link(t: Things) -> list:
    return [t.season.share_token]


def in_club(t: Things) -> dict[str, Any]:
    return {"club": t.club.pk}


RECORD = {
    "format": "scorekeeper/1",
    "kind": "two_player",
    "rules": {"preset": "classic"},
    "players": ["Anna", "Ben"],
    "hands": [{"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27}],
}
NOT_HIS = {who: 403 for who in ("outsider", "former", "seated", "scorer", "owner")}
NO_CLUB = {"member": 400, "outsider": 400, "former": 400}  # not among the form's choices
ALREADY_MEMBERS = {"owner": 200, "scorer": 200, "member": 200}  # the page says so
NEW_PASSWORD = "a quite different passphrase 42"
# No player of theirs was asked (Ben's account was linked after the game closed).
NOT_ASKED = {"member": 403, "seated": 403, "scorer": 403, "owner": 403}

WALKS = [
    # Accounts (django.contrib.auth) and the language switch
    Walk("login", get=OPEN, post=Ask(PUBLIC, 302, changes=False,
         data=lambda t: {"username": "owner", "password": PASSWORD})),
    Walk("logout", post=Ask(PUBLIC, 302, changes=False)),  # GET is 405 since Django 5
    Walk("password_change", get=PAGE, post=Ask(LOGIN, 302, data=lambda t: {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})),
    Walk("password_change_done", get=PAGE),
    Walk("password_reset", get=OPEN, post=Ask(PUBLIC, 302, changes=False,
         data=lambda t: {"email": "nobody@example.com"})),  # never says who has an account
    Walk("password_reset_done", get=OPEN),
    Walk("password_reset_confirm", lambda t: ["MQ", "set-by-a-guess"],
         get=OPEN, post=OPEN),  # "the link is not valid": nothing changes
    Walk("password_reset_complete", get=OPEN),
    Walk("set_language", get=Ask(PUBLIC, 302, changes=False),
         post=Ask(PUBLIC, 302, changes=False, data=lambda t: {"language": "de", "next": "/"})),
    # The table app
    Walk("home", get=OPEN),
    Walk("signup", get=OPEN, post=Ask(PUBLIC, 302, data=lambda t: {
        "username": "newcomer", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})),
    Walk("partie_new", get=PAGE, post=Ask(Role.SCORER, 302,
         data=lambda t: start_form_data() | in_club(t),
         special={"member": 200, "outsider": 200, "former": 200})),  # the form's errors: 200
    Walk("partie_new", get=Ask(Role.SCORER), query=lambda t: f"evening={t.evening.pk}",
         post=Ask(Role.SCORER, 302, data=lambda t: start_form_data() | in_club(t)), his=True),
    Walk("partie_rules", get=PAGE),
    Walk("partie_import", get=PAGE, post=Ask(Role.SCORER, 302, special=NO_CLUB,
         data=lambda t: {"text": json.dumps(RECORD)} | in_club(t))),
    Walk("partie_detail", partie, get=READ, his=True),
    Walk("hand_create", partie, post=Ask(Role.SCORER, 302, data=lambda t: wins("Ben", 10)),
         his=True, seated=True),
    Walk("hand_edit", hand_1, get=Ask(Role.SCORER),
         post=Ask(Role.SCORER, 302, data=lambda t: wins("Ben", 10)), his=True, seated=True),
    Walk("hand_delete", hand_1, get=Ask(Role.SCORER), post=Ask(Role.SCORER, 302), his=True,
         seated=True),
    # A hand of a locked game: the page says so, and who unlocks it (409), form or not.
    Walk("hand_edit", lambda t: [t.locked.pk, 1], get=Ask(Role.SCORER, 409),
         post=Ask(Role.SCORER, 409, data=lambda t: wins("Ben", 10)), variant="locked",
         his=True, seated=True),
    Walk("hand_delete", lambda t: [t.locked.pk, 1], get=Ask(Role.SCORER, 409),
         post=Ask(Role.SCORER, 409), variant="locked", his=True, seated=True),
    Walk("partie_export", partie, get=READ, his=True),
    Walk("partie_rules_change", partie, get=Ask(Role.SCORER),
         post=Ask(Role.SCORER, data=lambda t: rules_form_data("modern")), his=True),  # the preview
    Walk("partie_first_dealer", lambda t: [t.loose.pk],  # no hand yet: the dealer changes
         post=Ask(Role.SCORER, 302, data=lambda t: {"first_dealer": "Carl"}), his=True),
    Walk("shared_partie", partie_link, get=LINKED),
    Walk("shared_partie_pdf", partie_link, get=LINKED),
    Walk("partie_ruleset", partie, get=READ, his=True),
    Walk("shared_partie_ruleset", partie_link, get=LINKED),
    Walk("partie_pdf", partie, get=READ, his=True),
    Walk("evening_pdf", evening, get=READ, his=True),
    Walk("pad", get=PAGE),
    Walk("evening_list", get=PAGE, post=Ask(Role.SCORER, 302, special=NO_CLUB,
         data=lambda t: {"name": "Friday", "played_on": "2026-11-27"} | in_club(t))),
    Walk("evening_detail", evening, get=READ,
         post=Ask(Role.SCORER, 302, data=lambda t: {"partie": t.loose.pk}), his=True),
    Walk("evening_settle", evening, post=Ask(Role.SCORER, 302), his=True),
    Walk("evening_payment_paid", lambda t: [t.settled.pk, t.payment.pk],
         post=Ask(Role.SCORER, 302, data=lambda t: {"paid": "1"})),
    Walk("player_detail", player, get=READ, his=True),
    Walk("player_account", player,
         post=Ask(Role.SCORER, 302, data=lambda t: {"user": t.membership.user_id}), his=True),
    Walk("player_rename", player, post=Ask(Role.SCORER, 302, data=lambda t: {"name": "Annie"}),
         his=True),
    Walk("player_merge", player, post=Ask(Role.SCORER, 302, data=lambda t: {
        "other": "Dora", "confirm": "1"}), his=True),  # Dora never sat with Anna
    Walk("player_merge", player, post=Ask(Role.SCORER, data=lambda t: {"other": "Dora"}),
         variant="preview", his=True),  # what the merge will do: nothing yet
    Walk("player_list", slug, get=READ,
         post=Ask(Role.SCORER, 302, data=lambda t: {"name": "Quentin"})),
    Walk("player_list", slug, get=READ, query=lambda t: "q=an",
         post=Ask(Role.SCORER, 302, data=lambda t: {"name": "Quentin"})),
    Walk("player_merge_undo", lambda t: [t.merge.pk], post=Ask(Role.SCORER, 302)),
    Walk("my_games", get=PAGE),
    # The clubs app
    Walk("club_list", get=PAGE, post=Ask(LOGIN, 302, data=lambda t: {"name": "Rummy Friends"})),
    Walk("club_detail", slug, get=READ),
    Walk("club_leave", slug, post=Ask(Role.MEMBER, 302, special={"owner": 400})),  # last owner
    Walk("club_delete", slug, get=Ask(Role.OWNER),
         post=Ask(Role.OWNER, 302, data=lambda t: {"name": "Skat Club"})),
    Walk("club_restore", lambda t: [t.deleted.slug], post=Ask(Role.OWNER, 302,
         special={"seated": 404})),  # he was no member of the deleted club
    Walk("membership_role", lambda t: [t.club.slug, t.membership.pk],
         post=Ask(Role.OWNER, 302, data=lambda t: {"role": "scorer"})),
    Walk("membership_remove", lambda t: [t.club.slug, t.membership.pk],
         post=Ask(Role.OWNER, 302)),
    Walk("invitation_create", slug, post=Ask(Role.OWNER, 302, data=lambda t: {"role": "member"})),
    Walk("invitation_revoke", lambda t: [t.club.slug, t.invitation.pk], post=Ask(Role.OWNER, 302)),
    # The link shows its club to whoever holds it, logged in or not; joining needs a login.
    Walk("invitation_accept", lambda t: [t.invitation.token], get=LINKED,
         post=Ask(LOGIN, 302, special=ALREADY_MEMBERS | {"anonymous": 404, "share": "login"})),
    # The league app
    Walk("league_list", slug, get=READ,
         post=Ask(Role.OWNER, 302, data=lambda t: {"name": "Winter league"})),
    Walk("season_new", lambda t: [t.season.league_id], get=Ask(Role.OWNER),
         post=Ask(Role.OWNER, 302, data=lambda t: {
             "name": "Spring", "starts_on": "2027-03-01", "ends_on": "2027-05-31",
             "points_win": 2, "points_shutout_win": 3, "points_loss": 0, "min_games": 0})),
    Walk("season_detail", season, get=READ),
    Walk("season_share", season, post=Ask(Role.OWNER, 302, data=lambda t: {"shared": "0"})),
    Walk("season_csv", season, get=READ),
    Walk("season_hands_csv", season, get=READ),
    Walk("season_pdf", season, get=READ),
    Walk("partie_season", partie, get=READ,
         post=Ask(Role.SCORER, 302, data=lambda t: {"season": t.season.pk}), his=True),
    Walk("league_night", season, get=Ask(Role.SCORER),
         post=Ask(Role.SCORER, 302, data=lambda t: {"round": 1, "byes": "", "tables": ",".join(
             str(seat.player_id) for seat in t.partie.seats.all())})),
    Walk("season_public", season_link, get=LINKED),
    Walk("season_public_pdf", season_link, get=LINKED),
    Walk("season_json", season, get=READ),
    Walk("season_public_json", season_link, get=LINKED),
    # A season's end
    Walk("season_close", season, get=Ask(Role.OWNER), post=Ask(Role.OWNER, 302)),
    Walk("season_reopen", lambda t: [t.past.pk], get=Ask(Role.OWNER), post=Ask(Role.OWNER, 302)),
    Walk("season_next", lambda t: [t.past.pk], get=Ask(Role.OWNER),
         post=Ask(Role.OWNER, 302, data=lambda t: {
             "name": "Winter", "starts_on": "2027-01-01", "ends_on": "2027-03-31"})),
    Walk("league_archive", lambda t: [t.season.league_id], get=READ),
    # A season's players (issue 18)
    Walk("season_players", season, get=READ,
         post=Ask(Role.OWNER, 302, data=lambda t: {"players_from": "roster", "players": [
             seat.player_id for seat in t.partie.seats.all()]})),
    Walk("season_settings", season, get=Ask(Role.OWNER),
         post=Ask(Role.OWNER, 302, data=lambda t: {
             "name": "Autumn", "starts_on": "2026-01-01", "ends_on": "2026-12-31",
             "points_win": 2, "points_shutout_win": 3, "points_loss": 0, "min_games": 0,
             "confirmed_games_only": "on"})),
    # Added while issues 11 and 12 were worked on: repair, share links, live boards
    Walk("favicon.ico", get=Ask(PUBLIC, 301)),
    Walk("partie_delete", partie, get=Ask(Role.SCORER), post=Ask(Role.SCORER, 302), his=True),
    Walk("partie_restore", lambda t: [t.gone.pk], post=Ask(Role.SCORER, 302)),
    Walk("partie_archive", partie, post=Ask(Role.SCORER, 302, data=lambda t: {"archived": "1"}),
         his=True),
    Walk("change_undo", lambda t: [t.partie.pk, t.dropped.pk], post=Ask(Role.SCORER, 302),
         his=True, seated=True),
    Walk("evening_reopen", lambda t: [t.settled.pk], get=Ask(Role.OWNER),
         post=Ask(Role.OWNER, 302)),
    Walk("evening_reopen_undo", lambda t: [t.reopened.evening_id, t.reopened.pk],
         post=Ask(Role.OWNER, 302)),
    Walk("partie_share", partie, post=Ask(Role.SCORER, 302, data=lambda t: {"shared": "1"}),
         his=True),
    Walk("partie_share", partie, post=Ask(Role.SCORER, 302, data=lambda t: {"shared": "0"}),
         variant="withdrawn", his=True),
    Walk("evening_board", evening, get=READ, his=True),
    Walk("evening_share", evening, post=Ask(Role.SCORER, 302, data=lambda t: {"shared": "1"}),
         his=True),
    Walk("shared_evening_board", lambda t: [t.evening.share_token], get=LINKED),
    Walk("club_board", slug, get=READ),
    # Added for issue 18: results both players confirm (only the player himself confirms)
    Walk("game_detail", lambda t: [t.asked.pk, 1], get=READ, his=True),
    Walk("game_confirmation", lambda t: [t.asked.pk, 1], post=Ask(Role.MEMBER, 302,
         special=NOT_ASKED | {"former": 403},  # removed: he reads his game, confirms no more
         data=lambda t: {"game": t.asked.closed_games.get().pk, "confirmation": "confirm"}),
         his=True),
    Walk("game_unlock", lambda t: [t.locked.pk, 1], post=Ask(Role.OWNER, 302), his=True),
    # The owner decides a dispute, or a confirmation nobody can give (the former member's)
    Walk("game_decide", lambda t: [t.asked.pk, 1], post=Ask(Role.OWNER, 302,
         data=lambda t: {"game": t.asked.closed_games.get().pk, "reason": "It stands"}),
         his=True),
    Walk("account_changes", get=PAGE, post=Ask(LOGIN, 302, data=lambda t: {"upto": "0"})),
    # The season's nights planned, moved and cancelled (its organisers: a scorer or the owner)
    Walk("season_nights", season, get=Ask(Role.SCORER), post=Ask(Role.SCORER, 302,
         data=lambda t: {"played_on": (t.planned.played_on + timedelta(days=1)).isoformat()})),
    Walk("season_nights_weekly", season, post=Ask(Role.SCORER, 302, data=lambda t: {
        "weekday": t.planned.played_on.weekday(), "first": t.planned.played_on.isoformat(),
        "last": t.season.ends_on.isoformat()})),
    Walk("night_move", lambda t: [t.planned.pk], post=Ask(Role.SCORER, 302, data=lambda t: {
        f"night-{t.planned.pk}-played_on": (t.planned.played_on + timedelta(days=2)).isoformat()
    })),
    Walk("night_cancel", lambda t: [t.planned.pk], post=Ask(Role.SCORER, 302)),
    # Added for issue 19: on a phone's home screen and without a network
    Walk("service_worker", get=OPEN),
    Walk("manifest", get=OPEN),
    Walk("offline", get=OPEN),
    # Added for issue 31: calendar feeds behind each member's own link (whoever holds it
    # reads it; the member's removal ends it: tests/league/test_calendars.py)
    Walk("calendar_feed", lambda t: [t.calendar.token], get=LINKED),
    Walk("club_calendar_link", slug, post=Ask(Role.MEMBER, 302)),
    Walk("club_calendar_link", slug, post=Ask(Role.MEMBER, 302, changes=False,
         data=lambda t: {"link": "0"}), variant="withdrawn"),  # the member's goes
    Walk("my_calendar_link", post=Ask(LOGIN, 302)),
    Walk("my_calendar_link", post=Ask(LOGIN, 302, changes=False, data=lambda t: {"link": "0"}),
         variant="withdrawn"),
    # Added for issue 31: notices by mail, each member's choices, the one-click unsubscribe
    Walk("notices_settings", get=PAGE, post=Ask(LOGIN, 302, data=lambda t: {
        "email": "someone@example.com", "language": "de", "tables_out__mail": "on"})),
    Walk("notices_unsubscribe", lambda t: [unsubscribe_token(User.objects.get(username="member"))],
         get=LINKED, post=Ask(LINK, 200, changes=True,
                              data=lambda t: {"List-Unsubscribe": "One-Click"})),
    # The link that checks a member's mail address is his alone: it confirms it (POST),
    # for him logged in. Asking for it again while it is on its way changes nothing.
    Walk("address_verify", lambda t: [address_token(t.address_check)],
         get=Ask(LOGIN, special=NOT_HIS), post=Ask(LOGIN, 302, special=NOT_HIS)),
    Walk("address_link_send", post=Ask(LOGIN, 302, changes=False)),
    # Web push: the walk's site has no VAPID keys, so a device is refused (404) whoever
    # asks; tests/notices/test_push.py walks it with keys. Stopping a device not one's own
    # changes nothing.
    Walk("push_subscribe", post=Ask(LOGIN, 404, changes=False, data=lambda t: {
        "endpoint": "https://push.example.net/send/1", "p256dh": "x", "auth": "y"})),
    Walk("push_unsubscribe", post=Ask(LOGIN, 302, changes=False,
         data=lambda t: {"endpoint": "https://push.example.net/send/1"})),
    # Added for issue 30: club tournaments (the organiser: a scorer or the owner)
    Walk("tournament_list", slug, get=READ, post=Ask(Role.SCORER, 302, data=lambda t: {
        "name": "Open", "played_on": "2026-12-05", "system": "round_robin", "rated": "on",
        "kind": "two_player", "stake": "0", **rules_form_data("classic")})),
    Walk("tournament_detail", lambda t: [t.tournament.pk], get=READ),
    Walk("tournament_detail", lambda t: [t.draft.pk], get=READ, variant="check-in"),
    Walk("tournament_bracket_pdf", lambda t: [t.tournament.pk], get=READ),
    Walk("tournament_placings_pdf", lambda t: [t.tournament.pk], get=READ),
    Walk("tournament_entries", lambda t: [t.draft.pk], get=Ask(Role.SCORER),
         post=Ask(Role.SCORER, 302, data=lambda t: {"players": list(Player.objects.filter(
             club=t.club, name__in=("Ben", "Finn", "Anna")).values_list("pk", flat=True))})),
    Walk("tournament_seed", lambda t: [t.draft.pk],
         post=Ask(Role.SCORER, 302, data=lambda t: {"method": "random", "seed": "5"})),
    Walk("tournament_start", lambda t: [t.draft.pk], post=Ask(Role.SCORER, 302)),
    Walk("entry_withdraw", lambda t: [t.draft.pk, t.draft.entries.first().pk],
         post=Ask(Role.SCORER, 302)),
    Walk("tournament_match", lambda t: [t.tournament.pk, "W1-1"], get=Ask(Role.SCORER),
         post=Ask(Role.SCORER, 302, data=lambda t: {"winner": "Carl", "reason": "walkover"})),
    Walk("tournament_screen", lambda t: [t.tournament.pk], get=READ),
    Walk("shared_tournament_screen", lambda t: [t.tournament.evening.share_token], get=LINKED),
    # Its tournament has no time limit: refused with a message, nothing changed.
    Walk("tournament_time", lambda t: [t.tournament.pk], post=Ask(Role.SCORER, 302, changes=False)),
]  # fmt: skip


def expected(walk: Walk, ask: Ask, who: str) -> int | str:
    """The status the rule gives ``who`` for ``ask``; "login" for the way to log in."""
    if who in ask.special:
        return ask.special[who]
    if who == "seated" and not walk.seated and "member" in ask.special:
        return ask.special["member"]  # away from his partie's hands, a member as any other
    if who in LOGGED_OUT and walk.logs_in:
        return "login"
    if ask.need == NO:
        return 405
    if ask.need == LINK:
        return 404 if who == "anonymous" else ask.ok
    if ask.need in (PUBLIC, LOGIN):
        return ask.ok
    if who == "outsider":
        return 404
    if who == "former":  # reads his own as a member does; the rest of the club is hidden
        if not walk.his:
            return 404
        return ask.ok if Role.MEMBER.includes(ask.need) else 403
    role = Role.SCORER if who == "seated" and walk.seated else ROLES[who]
    return ask.ok if role.includes(ask.need) else 403


def address(walk: Walk, t: Things, who: str) -> str:
    args = walk.args(t)
    if LINK in (walk.get.need, walk.post.need) and who == "anonymous":
        args = [GUESSED_TOKEN]  # he does not hold the link
    # A pattern without a name is walked by its route (see project_url_names).
    url = f"/{walk.name}" if {".", "/"} & set(walk.name) else reverse(walk.name, args=args)
    return f"{url}?{walk.query(t)}" if walk.query else url


def snapshot() -> dict[str, list]:
    """Every row of the project's tables and the users, for "a refused request changes
    nothing". The league's caches are left out: a page that reads may fill them.

    Plain SQL: the walk takes some 1,250 snapshots, and building 30 ORM queries each
    time took longer than the requests themselves. On PostgreSQL the 30 go to the server
    in one message and come back as 30 results: one round trip instead of 30."""
    queries = snapshot_queries()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(";".join(sql for _, sql in queries))
            rows = {}
            for table, _ in queries:
                rows[table] = cursor.fetchall()
                cursor.nextset()
            return rows
        rows = {}
        for table, sql in queries:
            cursor.execute(sql)
            rows[table] = cursor.fetchall()
    return rows


@functools.cache
def snapshot_queries() -> list[tuple[str, str]]:
    quote = connection.ops.quote_name
    models = [
        m
        for m in apps.get_models()
        if m.__module__.startswith("scorekeeper.") and not m.__name__.endswith("Cache")
    ]
    queries = [
        (
            m._meta.db_table,
            f"SELECT * FROM {quote(m._meta.db_table)} ORDER BY {quote(m._meta.pk.column)}",
        )
        for m in models
    ]
    user = User._meta.db_table
    columns = ", ".join(
        quote(User._meta.get_field(f).column) for f in ("id", "username", "password")
    )
    return [*queries, (user, f"SELECT {columns} FROM {quote(user)} ORDER BY {quote('id')}")]


def club_and_more(things: ClubThings, scorer: User, owner: User) -> Things:
    """The club's things, a season of a league counting its parties, shared by a link,
    the evening's board shared, and what the repair pages undo: a deleted partie, a
    deleted hand, a reopened evening; and another club of the cast, deleted."""
    club = things.club
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    season = league_services.season_create(
        league=league,
        name="Autumn",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
    )
    league_services.season_share(season=season, shared=True)
    past = league_services.season_create(
        league=league, name="Spring", starts_on=date(2026, 3, 1), ends_on=date(2026, 5, 31)
    )
    league_services.season_close(season=past, user=owner)
    services.evening_share(evening=things.evening)
    gone = start(club, scorer, names=("Anna", "Ben"))
    services.partie_delete(partie=gone, user=scorer)
    services.hand_record(partie=things.partie, hand=K(2, 9, knocker="Ben"), user=scorer)
    dropped = services.hand_delete(partie=things.partie, number=2, user=scorer).change
    earlier = services.evening_start(
        owner=scorer, club=club, name="Two weeks ago", played_on=date(2026, 11, 6)
    )
    closed = start(club, scorer, names=("Eve", "Finn"), evening=earlier)
    services.hand_record(partie=closed, hand=G(80, knocker="Eve"), user=scorer)
    services.evening_settle(evening=earlier)
    reopened = services.evening_reopen(evening=earlier, user=owner)
    zed = services.player_add(club=club, name="Zed", owner=scorer)
    merge = services.player_merge(keep=things.player, gone=zed, user=scorer)
    asked, locked = (start(club, scorer, names=("Anna", "Ben")) for _ in range(2))
    for won in (asked, locked):
        services.hand_record(partie=won, hand=G(90, knocker="Anna"), user=scorer)
    game = locked.closed_games.get()
    # The former member confirmed it while he was a member: removed, he confirms no more.
    membership = join(club, things.player.user, Role.MEMBER)
    confirmations.result_confirm(game=game, user=things.player.user)
    club_services.membership_remove(membership=membership)
    deleted = club_services.club_create(name="Bridge Club", owner=owner)
    join(deleted, scorer, Role.SCORER)
    join(deleted, things.membership.user, Role.MEMBER)
    club_services.club_delete(club=deleted)
    calendar = club_services.calendar_link_make(
        user=things.membership.user, club=club, language="en"
    )
    member = things.membership.user
    member.email = "member@example.com"
    member.save(update_fields=["email"])
    address_check = address_check_request(user=member)
    tournament, draft = (
        tournament_services.tournament_create(
            club=club,
            owner=owner,
            name=name,
            played_on=today,
            system="single_elimination",
            settings=season.night_settings,
        )
        for name in ("Championship", "Cup")
    )
    for held, names in ((tournament, ("Carl", "Eve")), (draft, ("Ben", "Finn"))):
        players = list(Player.objects.filter(club=club, name__in=names))
        tournament_services.entries_check_in(tournament=held, players=players)
    tournament = tournament_services.tournament_start(tournament=tournament, owner=owner)
    services.evening_share(evening=tournament.evening)  # the screen's read-only link
    planned = night_plan(season=season, played_on=today + timedelta(days=3))
    return Things(
        **vars(things),
        season=season,
        planned=planned,
        past=past,
        tournament=tournament,
        draft=draft,
        gone=gone,
        dropped=dropped,
        reopened=reopened,
        merge=merge,
        deleted=deleted,
        asked=asked,
        locked=locked,
        calendar=calendar,
        address_check=address_check,
    )


def seat_member_at_the_partie(things: Things, user: User) -> None:
    """``user`` joins as a member and is linked to Ben, who sits at the club's partie (and
    at the deleted, the asked and the locked one): he scores them. Linked once their
    games closed, he was asked about none of them."""
    join(things.club, user, Role.MEMBER)
    ben = Player.objects.get(club=things.club, name="Ben")
    services.player_link(player=ben, user=user)


@dataclass(frozen=True)
class World:
    """What the module's tests share: the club's things, the session key each of the
    logged-in cast holds, and every row as it stands before any request."""

    things: Things
    sessions: dict[str, str]
    rows: dict[str, list]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Made once, in a transaction rolled back after the module's last test: building
    the club takes some 30 service calls, and the walk asks it some 900 questions."""
    with django_db_blocker.unblock(), transaction.atomic():
        users = {
            name: User.objects.create_user(name, password=PASSWORD)
            for name in ("owner", "scorer", "member", "seated", "outsider", "former")
        }
        owner, scorer, member = users["owner"], users["scorer"], users["member"]
        things = club_things(skat_club(owner, scorer, member), owner, scorer, member)
        remove_after_playing(things, users["former"])
        sessions = {}
        for name, user in users.items():
            personal_club(user)  # made on first need: made now, it is no change of a request's
            client = Client()
            client.force_login(user)
            sessions[name] = client.cookies[settings.SESSION_COOKIE_NAME].value
        things = club_and_more(things, scorer, owner)
        seat_member_at_the_partie(things, users["seated"])
        yield World(things, sessions, snapshot())
        transaction.set_rollback(True)


@pytest.fixture
def t(world: World) -> Things:
    return world.things


@pytest.fixture
def cast(world: World) -> dict[str, Client]:
    """A client for each of the cast; the two logged-out ones differ only in what they
    hold (see ``address``). A request that logs in or out, or changes a password, gives
    its client a new session: every test starts with clients of its own."""
    clients = {name: Client() for name in CAST}
    for name, key in world.sessions.items():
        clients[name].cookies[settings.SESSION_COOKIE_NAME] = key
    return clients


def describe(response) -> int | str:
    """The status, or "login" for a redirect to the login page."""
    if response.status_code == 302 and response.url.startswith(f"{reverse('login')}?next="):
        return "login"
    return response.status_code


# A read writes nothing but the session and the login throttle's rows (its own tables).
READ_MAY_WRITE = ("django_session", "axes_")


def writing(sql: str) -> bool:
    """Whether the statement writes a table other than the session's and the throttle's."""
    verb = sql.lstrip().split(None, 1)[0].upper()
    if verb not in ("INSERT", "UPDATE", "DELETE"):
        return False
    return not any(f'"{table}' in sql or f" {table}" in sql for table in READ_MAY_WRITE)


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("walk", WALKS, ids=str)
def test_everyone_gets_the_answer_the_rule_gives(world, cast, walk, method):
    ask: Ask = getattr(walk, method)
    wrong = []
    for who in CAST:
        want = expected(walk, ask, who)
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            data = ask.data(world.things) if ask.data else None
            response = getattr(cast[who], method)(address(walk, world.things, who), data)
            got = describe(response)
            changed = snapshot() != world.rows
            transaction.set_rollback(True)
        allowed = want == ask.ok
        writes = ask.changes if ask.changes is not None else method == "post" and ask.ok == 302
        written = [q["sql"][:120] for q in queries if method == "get" and writing(q["sql"])]
        if got != want:
            wrong.append(f"{who}: {got} instead of {want} ({response.content[:200]!r})")
        elif written:
            wrong.append(f"{who}: a read wrote: {written}")
        elif not allowed and changed:
            wrong.append(f"{who}: refused with {got} but a row changed")
        elif allowed and writes and not changed:
            wrong.append(f"{who}: allowed with {got} but nothing changed")
    assert not wrong, f"{method.upper()} {walk}:\n" + "\n".join(wrong)


def project_url_names(patterns=None, namespace: str = "") -> set[str]:
    """Every URL pattern's name (its route when it has none), the admin's left out."""
    names = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == admin.site.name:
                continue
            names |= project_url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern):
            names.add(pattern.name or str(pattern.pattern))
    return names


def test_every_url_of_the_project_has_a_line_in_the_walk():
    walked = {walk.name for walk in WALKS}

    assert project_url_names() - walked == set(), "add a Walk line for each new URL"
    assert walked - project_url_names() == set(), "a Walk line for a URL that is gone"


def admin_addresses() -> list[str]:
    """The admin's front page, and the list and the add form of each model it shows."""
    urls = [reverse("admin:index")]
    for model in admin.site._registry:
        meta = model._meta
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
    return urls


def test_the_admin_sends_whoever_is_not_staff_to_its_own_login(cast):
    login = reverse("admin:login")
    for who in ["anonymous", "outsider", "owner"]:
        for url in admin_addresses():
            for method in ("get", "post"):
                response = getattr(cast[who], method)(url)
                assert response.status_code == 302, (who, method, url)
                assert response.url.startswith(f"{login}?next="), (who, method, url)


def test_the_admin_lets_staff_in():
    """Its login is the admin's one door, not a wall for everyone."""
    staff = User.objects.create_superuser("staff", password=PASSWORD)
    client = Client()
    client.force_login(staff)

    for url in admin_addresses():
        if url.endswith("/add/"):
            continue  # some models are only listed (the login attempts, say)
        assert client.get(url).status_code == 200, url


def test_a_withdrawn_link_answers_whoever_held_it_404(t, cast):
    held = [
        reverse("shared_partie", args=[t.partie.share_token]),
        reverse("shared_partie_pdf", args=[t.partie.share_token]),
        reverse("shared_partie_ruleset", args=[t.partie.share_token]),
        reverse("shared_evening_board", args=[t.evening.share_token]),
        reverse("season_public", args=[t.season.share_token]),
        reverse("season_public_pdf", args=[t.season.share_token]),
        reverse("season_public_json", args=[t.season.share_token]),
    ]
    assert [cast["share"].get(url).status_code for url in held] == [200] * len(held)

    owner = cast["owner"]
    owner.post(reverse("partie_share", args=[t.partie.pk]), {"shared": "0"})
    owner.post(reverse("evening_share", args=[t.evening.pk]), {"shared": "0"})
    owner.post(reverse("season_share", args=[t.season.pk]), {"shared": "0"})

    assert [cast["share"].get(url).status_code for url in held] == [404] * len(held)


def test_an_outsider_gets_the_same_404_for_a_partie_of_another_club_and_for_none(t, cast):
    """Nothing tells him that the partie exists."""
    theirs = cast["outsider"].get(reverse("partie_detail", args=[t.partie.pk]))
    nobodys = cast["outsider"].get(reverse("partie_detail", args=[t.partie.pk + 1000]))

    assert theirs.status_code == nobodys.status_code == 404
    assert same_page(theirs) == same_page(nobodys)


def same_page(response) -> str:
    """The page without what differs from one request to the next: its own address (the
    language switch comes back to it) and the CSRF token, masked afresh for every page."""
    page = response.content.decode().replace(response.wsgi_request.path, "")
    return re.sub(r'"X-CSRFToken": "\w+"|name="csrfmiddlewaretoken" value="\w+"', "", page)
