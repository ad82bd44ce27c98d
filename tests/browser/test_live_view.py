"""The live view in a real browser: a spectator's page follows the scorer's hands.

Two browser contexts, two people: the scorer, logged in, records hands on his phone;
the spectator has only the read-only link (or the board's). The spectator's page polls
every 2 seconds with the ETag of what it shows: unchanged, the server answers 304 and
nothing on the page moves; a new hand arrives within 3 seconds, the page scrolled where
the spectator left it.
"""

import time
from collections.abc import Callable

from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, Response, expect

from scorekeeper import engine
from scorekeeper.table import services
from scorekeeper.table.models import Partie
from tests.browser.conftest import expect_same_page, fill_hand, hand_rows, mark_page, screenshot

SEEN_WITHIN_MS = 3_000
SHORT_SCREEN = {"width": 360, "height": 420}  # so that the sheet scrolls


def one_point_hands(partie: Partie, owner: User, count: int) -> None:
    """``count`` knocks of one point each, Anna's: a long sheet, far from the end."""
    for _ in range(count):
        services.hand_record(
            partie=partie, hand=engine.Hand.knock(1, 2, knocker="Anna"), user=owner
        )


def polls_of(page: Page, path: str) -> list[Response]:
    """Every answer to the page's polling requests (htmx's, to its own address)."""
    answers: list[Response] = []

    def seen(response: Response) -> None:
        if response.url.endswith(path) and response.request.headers.get("hx-request"):
            answers.append(response)

    page.on("response", seen)
    return answers


def record_hand(page: Page, kind: str, **fields) -> None:
    """The scorer fills the hand form and sends it, as at the table."""
    form = page.locator("form.hand-form")
    fill_hand(form, kind, **fields)
    form.get_by_role("button", name="Record the hand").click()


def unchanged(path: str) -> Callable[[Response], bool]:
    return lambda response: response.url.endswith(path) and response.status == 304


def scorer_page(open_context: Callable[..., BrowserContext], log_in, owner: User, partie: Partie):
    page = open_context().new_page()
    log_in(page, owner.username)
    page.goto(reverse("partie_detail", args=[partie.pk]))
    return page


def test_a_spectator_sees_the_scorers_hand_within_3_seconds_and_keeps_his_place(
    open_context, log_in, owner, partie
):
    one_point_hands(partie, owner, 12)
    partie.refresh_from_db()
    path = reverse("shared_partie", args=[partie.share_token])
    spectator = open_context().new_page()
    spectator.set_viewport_size(SHORT_SCREEN)
    answers = polls_of(spectator, path)
    spectator.goto(path)
    expect(hand_rows(spectator)).to_have_count(12)
    mark_page(spectator)
    link = spectator.get_by_role("link", name="Score sheet (PDF)")
    link.focus()  # the spectator's focus, below the sheet; then he scrolls up a bit
    spectator.evaluate("window.scrollTo(0, 300)")
    assert spectator.evaluate("window.scrollY") == 300
    spectator.evaluate("window.region = document.getElementById('table')")

    # Unchanged: a 304 with no body, and the very same region stays on the page.
    with spectator.expect_response(unchanged(path), timeout=5_000):
        pass
    assert spectator.evaluate("document.getElementById('table') === window.region")
    assert spectator.evaluate("window.scrollY") == 300

    scorer = scorer_page(open_context, log_in, owner, partie)
    record_hand(scorer, "gin", knocker="Ben", dd=10)
    expect(hand_rows(scorer)).to_have_count(13)
    recorded = time.monotonic()

    expect(hand_rows(spectator)).to_have_count(13, timeout=SEEN_WITHIN_MS)
    assert time.monotonic() - recorded < SEEN_WITHIN_MS / 1000
    expect(hand_rows(spectator).last.locator(".total")).to_have_text(["12", "30"])
    expect_same_page(spectator)  # swapped in place, no reload
    assert spectator.evaluate("window.scrollY") == 300
    expect(link).to_be_focused()
    statuses = [answer.status for answer in answers]
    assert 304 in statuses and 200 in statuses, statuses
    # The answer that brought the hand was the region, not the page.
    changed = next(answer for answer in answers if answer.status == 200)
    assert changed.text().lstrip().startswith('<section id="table"')


def test_the_spectators_page_stops_polling_when_the_partie_ends(
    open_context, log_in, owner, partie
):
    for knocker, dk, dd in [("Anna", 5, 27), ("Anna", 2, 30), ("Anna", 1, 30)]:
        hand = engine.Hand.knock(dk, dd, knocker=knocker)
        services.hand_record(partie=partie, hand=hand, user=owner)
    partie.refresh_from_db()
    path = reverse("shared_partie", args=[partie.share_token])
    spectator = open_context().new_page()
    answers = polls_of(spectator, path)
    spectator.goto(path)
    scorer = scorer_page(open_context, log_in, owner, partie)

    record_hand(scorer, "gin", knocker="Anna", dd=20)  # 22 + 28 + 29 + 40: 119

    status = spectator.locator("#status")
    expect(status).to_have_text("The partie is over: Anna won.", timeout=SEEN_WITHIN_MS)
    assert 286 in [answer.status for answer in answers]
    polled = len(answers)
    spectator.wait_for_timeout(2_500)  # a poll would have come by now
    assert len(answers) == polled


def test_the_evening_board_follows_every_table_for_anyone_with_its_link(
    open_context, log_in, owner, partie
):
    evening = services.evening_start(
        owner=owner, name="Club night", played_on=partie.started_at.date()
    )
    services.partie_evening_set(partie=partie, evening=evening)
    services.evening_share(evening=evening)
    path = reverse("shared_evening_board", args=[evening.share_token])
    spectator = open_context().new_page()  # not logged in
    answers = polls_of(spectator, path)
    spectator.goto(path)
    table = spectator.locator(f"#board-partie-{partie.pk}")
    expect(table).to_contain_text("0 hands played")
    with spectator.expect_response(unchanged(path), timeout=5_000):
        pass

    scorer = scorer_page(open_context, log_in, owner, partie)
    record_hand(scorer, "knock", knocker="Anna", dk=5, dd=27)

    expect(table).to_contain_text("1 hand played", timeout=SEEN_WITHIN_MS)
    expect(table.locator(".board-totals")).to_have_text("Anna 22 · Ben 0")
    assert {304, 200} <= {answer.status for answer in answers}


def test_the_board_and_the_share_buttons_fit_a_phone(open_context, log_in, owner, partie):
    names = ["Alexandra-Konstantina", "Maximilian-Bartholomäus"]
    wide = services.partie_start(owner=owner, names=names, rules=engine.preset("classic"))
    played_on = partie.started_at.date()
    evening = services.evening_start(owner=owner, name="Club night", played_on=played_on)
    for each in (partie, wide):
        services.partie_evening_set(partie=each, evening=evening)
    services.evening_share(evening=evening)
    page = open_context().new_page()
    log_in(page, owner.username)

    for path in (
        reverse("evening_board", args=[evening.pk]),
        reverse("partie_detail", args=[wide.pk]),
    ):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (path, width)
    page.goto(reverse("evening_board", args=[evening.pk]))
    expect(page.get_by_role("button", name="Withdraw the link")).to_be_visible()
    screenshot(page, "live_board")
