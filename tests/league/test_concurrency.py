"""Eight phones open the standings and a player's page at the same moment, right after a
game closes (or right after the season's first partie is deleted): each gets the same
page and none writes. Eight scorers close games at the same moment, eight workers rate
at once (one of them rates a club, once, as a fresh rating of the season gives), and a
rating under way holds back no partie started in the club.

On PostgreSQL only: SQLite writes one transaction at a time, so requests never race
there. Each thread has its own client and its own database connection, closed at its end.
"""

import re
import threading
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.models import Count
from django.test import Client
from django.urls import reverse

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.league import outbox, ratings
from scorekeeper.league.models import CurrentRating, PlayerRating, RatedGame
from scorekeeper.league.selectors import club_book, season_book
from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player
from tests.league.conftest import G, work

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="concurrent requests race on PostgreSQL only"
    ),
    pytest.mark.django_db(transaction=True),
]

THREADS = 8


@pytest.fixture
def evening(evening, season, owner):
    """The shared evening (conftest: four players, parties of three kinds a day apart),
    the standings viewed once: their ratings are stored, as on any club night."""
    anna = Player.objects.get(club=season.league.club, name="Anna")
    viewer = Client()
    viewer.force_login(owner)
    for url in (
        reverse("season_detail", args=[season.pk]),
        reverse("player_detail", args=[anna.pk]),
    ):
        assert viewer.get(url).status_code == 200
    return evening


def standings_of(html: str) -> str:
    """The standings' section of the page."""
    found = re.search(r'<section id="standings".*?</section>', html, re.DOTALL)
    assert found, "no standings on the page"
    return found.group(0)


def main_of(html: str) -> str:
    """The page's content, without what each answer makes anew (its CSRF token)."""
    found = re.search(r"<main.*?</main>", html, re.DOTALL)
    assert found, "no content on the page"
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", found.group(0))


def at_once(member, urls: list[str]) -> list[tuple[str, int, str]]:
    """Each of THREADS threads opens every url, the threads starting together (half of
    them in the other order): each answer's url, status and page."""
    clients = []
    for _ in range(THREADS):
        client = Client(raise_request_exception=False)  # a server error is a 500 here
        client.force_login(member)
        clients.append(client)
    answers: list[list[tuple[str, int, str]]] = [[] for _ in range(THREADS)]

    def view(n: int) -> None:
        for url in urls if n % 2 == 0 else reversed(urls):
            response = clients[n].get(url)
            answers[n].append((url, response.status_code, response.content.decode()))

    together(view)
    return [answer for thread_answers in answers for answer in thread_answers]


def together(work: Callable[[int], None]) -> None:
    """``work(n)`` in THREADS threads that start together, each on its own database
    connection (closed at its end); what any of them raised is raised here."""
    start = threading.Barrier(THREADS)
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            start.wait(timeout=30)
            work(n)
        except BaseException as error:  # raised below, in the test's own thread
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    if failures:
        raise failures[0]


def stored(scope: ratings.Scope) -> dict[int, tuple[float, float, int]]:
    rows = CurrentRating.objects.filter(**scope.key)
    return {player: (mu, sigma, seq) for player, mu, sigma, seq in
            rows.values_list("player_id", "mu", "sigma", "seq")}  # fmt: skip


def assert_rated_once(scope: ratings.Scope) -> None:
    """No place or game rated twice, and every counted game rated in place."""
    rated = RatedGame.objects.filter(**scope.key)
    assert not rated.values("seq").annotate(n=Count("pk")).filter(n__gt=1).exists()
    assert not rated.values("game_id").annotate(n=Count("pk")).filter(n__gt=1).exists()
    by_player = PlayerRating.objects.filter(**scope.key).values("result_id")
    assert not by_player.annotate(n=Count("pk")).filter(n__gt=1).exists()
    games = list(scope.games.order_by(*ratings.ORDER).values_list("pk", flat=True))
    assert list(rated.order_by("seq").values_list("game_id", flat=True)) == games
    assert list(rated.order_by("seq").values_list("seq", flat=True)) == list(
        range(1, len(games) + 1)
    )


def assert_as_rated_afresh(scope: ratings.Scope) -> None:
    """The ratings stored are those of rating the scope's games again from the first."""
    kept = stored(scope)
    ratings.rate_from(scope, None)
    assert stored(scope) == kept


@pytest.mark.parametrize("change", ["a game closes last", "the first partie is deleted"])
def test_eight_viewers_at_once_after_a_change_all_get_the_same_standings(
    change, evening, play, season, member, owner
):
    if change == "a game closes last":
        play(["Anna", "Carl"], [G(90, knocker="Carl")])
    else:  # what is due waits for the worker: the viewers read the ratings as they are
        services.partie_delete(partie=evening[0], user=owner)
    carl = Player.objects.get(club=season.league.club, name="Carl")
    standings = reverse("season_detail", args=[season.pk])
    player = reverse("player_detail", args=[carl.pk])

    answers = at_once(member, [standings, player])

    assert len(answers) == 2 * THREADS
    assert [status for _, status, _ in answers] == [200] * (2 * THREADS)
    pages = {url: {(standings_of if url == standings else main_of)(html)
                   for page_url, _, html in answers if page_url == url}
             for url in (standings, player)}  # fmt: skip
    assert len(pages[standings]) == 1, "the standings differ between viewers"
    assert len(pages[player]) == 1, "the player's page differs between viewers"
    # What they saw is what a viewer sees now, alone: no rating of a state gone by.
    viewer = Client()
    viewer.force_login(member)
    assert pages[standings] == {standings_of(viewer.get(standings).content.decode())}
    assert pages[player] == {main_of(viewer.get(player).content.decode())}
    work()
    for scope in (season_book(season).rating_scope, club_book(season.league.club).rating_scope):
        assert_rated_once(scope)
        assert_as_rated_afresh(scope)


def test_eight_games_closing_at_once_each_close_and_are_rated_as_afresh(
    evening, play, season, owner, member
):
    """Eight scorers close a game at the same moment: every closing hand is recorded
    (each writes what is due), and once the worker has run the ratings are those of
    rating the games again from the first."""
    pairs = [("Anna", "Ben"), ("Carl", "Dora"), ("Ben", "Carl"), ("Dora", "Anna")] * 2
    parties = [play(pair, []) for pair in pairs]

    def close(n: int) -> None:
        services.hand_record(partie=parties[n], hand=G(90, knocker=pairs[n][0]), user=owner)

    together(close)
    assert all(Partie.objects.get(pk=p.pk).state == Partie.State.CLOSED for p in parties)
    viewer = Client()
    viewer.force_login(member)
    assert viewer.get(reverse("season_detail", args=[season.pk])).status_code == 200
    work()
    for scope in (season_book(season).rating_scope, club_book(season.league.club).rating_scope):
        assert_rated_once(scope)
        assert_as_rated_afresh(scope)


def test_eight_workers_at_once_rate_each_club_once_as_afresh(evening, season, owner):
    services.partie_delete(partie=evening[0], user=owner)
    services.hand_edit(partie=evening[2], number=1, hand=G(80, knocker="Carl"), user=owner)
    rated: list[int] = []

    together(lambda n: rated.append(outbox.rate_due()))

    assert sum(rated) == 1  # one worker rated the club; the others found it held or done
    assert outbox.rate_due() == 0
    for scope in (season_book(season).rating_scope, club_book(season.league.club).rating_scope):
        assert_rated_once(scope)
        assert_as_rated_afresh(scope)


def test_a_rating_under_way_holds_back_no_partie_started_in_the_club(evening, club, owner):
    """The worker rates a club under its row lock for a while; a partie started in the
    club meanwhile (its row refers to the club) is stored at once, not after it."""
    held, done = threading.Event(), threading.Event()

    def rate() -> None:
        try:
            with transaction.atomic():
                Club.all_objects.select_for_update(no_key=True).get(pk=club.pk)  # the worker's
                held.set()
                done.wait(timeout=30)
        finally:
            connection.close()

    rater = threading.Thread(target=rate)
    rater.start()
    try:
        assert held.wait(timeout=30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")  # a wait fails the test
            partie = services.partie_start(
                owner=owner, club=club, names=["Anna", "Ben"], rules=engine.preset("classic")
            )
    finally:
        done.set()
        rater.join(timeout=30)
    assert Partie.objects.filter(pk=partie.pk).exists()
