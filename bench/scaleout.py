"""Scale-out proof: two gunicorn servers, one PostgreSQL, one user's requests alternating.

    .venv/bin/python bench/scaleout.py                  # make bench runs it

The app must hold no state in a process: sessions, CSRF, entry keys, login failures and
the live view's versions live in the database or in the client's cookies. The script
starts two gunicorn servers (production settings, loopback ports) on one scratch
database and plays the same scenario twice, as two users each on a partie of his own:
once with every request to server A, once with the requests alternating A, B, A, B...

  login (the form's page from one server, the POST to the other), import a partie,
  start an evening with it and share its board, the sheet, HTMX hands, a double submit
  of one entry key (recorded once), a hand the rules refuse (the form back with its
  error, nothing saved), an edit and a delete, the sheet as an HTMX swap, the live
  polling of the partie's shared link and of the evening's shared board (ETag, then
  If-None-Match: 304 while unchanged, 200 with a new ETag after a hand), the export,
  and login throttling (wrong passwords up to the limit, then the right one refused
  with 429).

Every answer of the two runs (status, and what the scenario checks in it) and the
exported game records must be identical, and the checks must hold. It prints each
step, then PASS or FAIL (exit status 0 or 1). Loopback only; the scratch database
is dropped at the end. Environment: BENCH_SCALEOUT_WORKERS (per server, 2).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadkit import PASSWORD, Browser, hidden_fields, scratch_site  # noqa: E402

WORKERS = int(os.environ.get("BENCH_SCALEOUT_WORKERS", 2))
RECORD = {
    "format": "scorekeeper/1",
    "kind": "two_player",
    "rules": {"preset": "classic"},
    "players": ["Anna", "Ben"],
    "hands": [
        {"knocker": "Anna", "knocker_deadwood": 5, "defender_deadwood": 27},
        {"knocker": "Ben", "knocker_deadwood": 3, "defender_deadwood": 12},
    ],
}
HANDS = [  # as the hand form posts them
    {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "2", "defender_deadwood": "9"},
    {"kind": "gin", "knocker": "Ben", "knocker_deadwood": "0", "defender_deadwood": "31"},
    {"kind": "no_game"},
    {"kind": "knock", "knocker": "Ben", "knocker_deadwood": "7", "defender_deadwood": "4"},
    {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "1", "defender_deadwood": "22"},
]
OVER_THE_LIMIT = {"kind": "knock", "knocker": "Anna", "knocker_deadwood": "15",
                  "defender_deadwood": "30"}  # fmt: skip
EDITED = {"kind": "knock", "knocker": "Ben", "knocker_deadwood": "4", "defender_deadwood": "20"}


class Alternating(Browser):
    """A browser whose every request goes to the next of ``ports``, round the ring."""

    def __init__(self, ports: list[int], address: str):
        super().__init__(ports[0], address=address)
        self.ring = itertools.cycle(ports)

    def request(self, method, path, form=None, headers=None, port=None):
        return super().request(method, path, form, headers, port or next(self.ring))


def scenario(ports: list[int], user: str, victim: str, address: str) -> tuple[list, dict]:
    """The steps, each (what, status, what was checked), and the final game record."""
    from django.conf import settings

    from scorekeeper.clubs.models import Club
    from scorekeeper.table.models import Evening, Partie

    steps: list[tuple[str, int, object]] = []

    def step(what: str, answer, checked: object = None):
        steps.append((what, answer.status, checked))
        print(f"  {what:<44} {answer.status:>4}  {checked if checked is not None else ''}")
        return answer

    me = Alternating(ports, address)
    step("login", me.login(user), "session" if "sessionid" in me.cookies else "no session")
    home = me.get("/")
    step("home, logged in", home, 'action="/accounts/logout/"' in home.body)
    club = Club.objects.get(slug="load-club").pk
    me.get("/parties/import/")
    form = {"text": json.dumps(RECORD), "club": club,
            "csrfmiddlewaretoken": me.cookies.get("csrftoken", "")}  # fmt: skip
    answer = step("import a partie", me.post("/parties/import/", form))
    pk = int(answer.header("location").rstrip("/").rsplit("/", 1)[-1])
    sheet, hands = f"/parties/{pk}/", f"/parties/{pk}/hands/"

    # The evening the partie is played in, its board shared: a second live page.
    form = {"name": "Scale-out night", "played_on": date.today().isoformat(), "club": club,
            "csrfmiddlewaretoken": me.cookies.get("csrftoken", "")}  # fmt: skip
    answer = step("start an evening", me.post("/evenings/", form))
    evening = int(answer.header("location").rstrip("/").rsplit("/", 1)[-1])
    step("add the partie to it", me.post(f"/evenings/{evening}/", {"partie": pk}))
    step("share its board", me.post(f"/evenings/{evening}/share/", {"shared": "1"}))

    spectator = Alternating(ports, "203.0.113.9")
    pages = {
        "live partie": f"/shared/{Partie.objects.get(pk=pk).share_token}/",
        "live board": f"/shared/evenings/{Evening.objects.get(pk=evening).share_token}/",
    }
    etags: dict[str, str | None] = {}

    def poll(what: str, page: str) -> None:
        """The spectator's poll of a live page, with the ETag of what he shows."""
        etag = etags.get(page)
        headers = {"HX-Request": "true"} | ({"If-None-Match": etag} if etag else {})
        answer = spectator.get(pages[page], headers=headers)
        etags[page] = answer.header("etag") or etag
        news = "no ETag" if not etags[page] else "same ETag" if etags[page] == etag else "ETag"
        step(f"{page}: {what}", answer, f"{'a body' if answer.body else 'empty'}, {news}")

    for page in pages:
        poll("first poll", page)
        poll("poll, unchanged", page)

    fields = hidden_fields(step("score sheet", me.get(sheet)).body, hands)
    keyed = "entry_key" in fields
    htmx = {"HX-Request": "true"}
    for n, hand in enumerate(HANDS):
        answer = step(f"hand {n + 3} (HTMX)", me.post(hands, fields | hand, headers=htmx))
        sent, fields = fields | hand, fields | hidden_fields(answer.body, hands)
        if n == 0:
            for page in pages:
                poll("poll after a hand", page)
                poll("poll, unchanged again", page)
    count = len(json.loads(me.get(f"/parties/{pk}/export/").body)["hands"])
    if keyed:
        answer = me.post(hands, sent, headers=htmx)  # the last hand again, its key with it
        after = len(json.loads(me.get(f"/parties/{pk}/export/").body)["hands"])
        step("double submit of the last entry key", answer, f"hands {count} -> {after}")
    else:
        steps.append(("double submit: the hand form has no entry key", 0, None))
        print("  double submit: the hand form has no entry key (not exercised)")
    answer = me.post(hands, fields | OVER_THE_LIMIT, headers=htmx)  # the form, its error
    after = len(json.loads(me.get(f"/parties/{pk}/export/").body)["hands"])
    step("a knock over the limit (HTMX)", answer, f"hands {count} -> {after}")
    step("edit hand 2", me.post(f"/parties/{pk}/hands/2/edit/", EDITED))
    step("delete hand 4", me.post(f"/parties/{pk}/hands/4/delete/"))
    swap = step("score sheet as an HTMX swap", me.get(sheet, headers=htmx))
    steps.append(("the swap is a fragment", 0, "<html" not in swap.body))
    export = me.get(f"/parties/{pk}/export/")
    step("export", export)
    record = json.loads(export.body)

    # Login throttling: failures count in the database, whichever server saw them.
    stranger = Alternating(ports, address)
    limit = getattr(settings, "AXES_FAILURE_LIMIT", None)
    if limit is None:
        steps.append(("login throttling: not installed", 0, None))
        print("  login throttling: no AXES_FAILURE_LIMIT (not exercised)")
    else:
        for n in range(limit):
            step(f"wrong password {n + 1} of {limit}", stranger.login(victim, "wrong"))
        answer = stranger.login(victim)
        step("the right password, locked out", answer, "sessionid" not in stranger.cookies)
    return steps, record


def main() -> int:
    print(f"scale-out: two gunicorn servers ({WORKERS} workers each), one PostgreSQL")
    with scratch_site("scaleout") as site:
        from django.contrib.auth.models import User
        from django.db import connections
        from loadkit import seed

        from scorekeeper.clubs import services as club_services
        from scorekeeper.clubs.models import Club, Role

        seed(tables=1, users=1, league_parties=8, evening_tables=0)
        club = Club.objects.get(slug="load-club")

        owner = club.memberships.get(role=Role.OWNER).user
        for name in ("solo", "duo", "victim-solo", "victim-duo"):
            user = User.objects.create_user(name, password=PASSWORD)
            invitation = club_services.invitation_create(
                club=club, role=Role.SCORER, created_by=owner
            )
            club_services.invitation_accept(invitation=invitation, user=user)
        connections.close_all()
        a, b = site.serve(WORKERS), site.serve(WORKERS)
        print(f"\none server (all requests to :{a})")
        one, one_record = scenario([a], "solo", "victim-solo", "198.51.100.1")
        print(f"\ntwo servers (alternating :{a} and :{b})")
        two, two_record = scenario([a, b], "duo", "victim-duo", "198.51.100.2")

    problems = []
    for first, second in itertools.zip_longest(one, two):
        if first != second:
            problems.append(f"one server {first} but two servers {second}")
    if one_record != two_record:
        problems.append("the exported game records differ")
    problems += [f"check failed: {what}" for what, status, checked in two if checked is False]
    expected = {
        "login": 302,
        "import a partie": 302,
        "live partie: poll, unchanged": 304,
        "live partie: poll after a hand": 200,
        "live partie: poll, unchanged again": 304,
        "live board: poll, unchanged": 304,
        "live board: poll after a hand": 200,
        "live board: poll, unchanged again": 304,
        "double submit of the last entry key": 200,
        "a knock over the limit (HTMX)": 200,  # htmx swaps the form with its error in
        "edit hand 2": 302,
        "delete hand 4": 302,
        "the right password, locked out": 429,
    }
    got = {what: status for what, status, _ in two}
    for what, status in expected.items():
        if what in got and got[what] != status:
            problems.append(f"{what}: {got[what]}, expected {status}")
    for what, _, checked in two:
        recorded = str(checked).split()
        if what.startswith(("double submit of", "a knock over")) and recorded[1] != recorded[3]:
            problems.append(f"{what} recorded a hand ({checked})")
    if len(two_record["hands"]) != len(RECORD["hands"]) + len(HANDS) - 1:
        problems.append(f"{len(two_record['hands'])} hands in the record")
    for problem in problems:
        print(f"  {problem}")
    verdict = "PASS" if not problems else "FAIL"
    print(f"\nscale-out: {verdict} ({len(two)} steps on one server and on two)")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
