"""Evenings: the parties of one table night, settled up with the fewest transfers.

Unpaid transfers stay open debts: the players' pages show them, and the players'
next evening takes them into its balances and, once settled, over.
"""

import io
import random
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from pypdf import PdfReader

from scorekeeper import engine
from scorekeeper.formats import number_text
from scorekeeper.table import selectors, services
from scorekeeper.table.forms.evenings import EveningPartieForm, partie_label
from scorekeeper.table.models import Evening, EveningPayment, Partie, Player

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
K, G = engine.Hand.knock, engine.Hand.gin


def wins(knocker, points):
    """A knock with 1 deadwood that scores ``points`` for the knocker."""
    return K(1, points + 1, knocker=knocker)


# The club night: three kinds of partie among Anna, Ben, Carl and Dora.
#   two players, RULES.md §9 at 0.05: Ben pays Anna 175 points = 8.75;
#   chouette, §6 with Anna box, Ben captain, Carl at 0.10 (Carl at his own 0.20):
#     Anna pays Ben 235 points = 23.50 and Carl 235 points = 47.00;
#   three players, §6 with Dora box, Ben captain, Anna out at 0.05, Anna to the target:
#     Ben pays Dora 40 = 2.00, Dora pays Anna 227 = 11.35, Ben pays Anna 367 = 18.35.
CLUB_BALANCES = {  # points, money (won +, paid −, as the score sheets print it)
    "Anna": (175 - 235 - 235 + 227 + 367, "−32.05"),
    "Ben": (-175 + 235 - 40 - 367, "−5.60"),
    "Carl": (235, "+47.00"),
    "Dora": (40 - 227, "−9.35"),
}
# Carl alone is owed: the three others each pay him; no fewer transfers can do.
CLUB_TRANSFERS = ["Anna pays Carl 32.05", "Ben pays Carl 5.60", "Dora pays Carl 9.35"]


def two_player(owner, play, worked_example, names=("Anna", "Ben")):
    """RULES.md §9 at 0.05 a point, ``names[0]`` in Anna's place: Ben pays him 8.75."""
    partie = services.partie_start(
        owner=owner,
        names=list(names),
        rules=engine.preset("classic"),
        stake=Decimal("0.05"),
        first_dealer=names[1],
    )
    seat = {"Anna": names[0], "Ben": names[1], None: None}
    return play(partie, [replace(hand, knocker=seat[hand.knocker]) for hand in worked_example])


def chouette(owner, play):
    partie = services.partie_start(
        owner=owner,
        names=["Anna", "Ben", "Carl"],
        rules=engine.preset("classic"),
        kind="chouette",
        stake=Decimal("0.10"),
        stakes={"Carl": Decimal("0.20")},
    )
    hands = [("Ben", 20), ("Ben", 15), ("Anna", 30), ("Carl", 40), ("Carl", 30)]
    return play(partie, [wins(who, points) for who, points in hands])


def three_player(owner, play):
    partie = services.partie_start(
        owner=owner,
        names=["Dora", "Ben", "Anna"],
        rules=engine.preset("classic"),
        kind="three_player",
        stake=Decimal("0.05"),
    )
    hands = [("Dora", 20), ("Anna", 15), ("Anna", 12), ("Anna", 80)]
    return play(partie, [wins(who, points) for who, points in hands])


@pytest.fixture
def club_parties(owner, play, worked_example):
    """A two-player partie, a chouette and a three-player rotation, each with its result."""
    return [
        two_player(owner, play, worked_example),
        chouette(owner, play),
        three_player(owner, play),
    ]


@pytest.fixture
def club(evening, club_parties):
    """The club night with its three parties in it, not settled yet."""
    for partie in club_parties:
        services.partie_evening_set(partie=partie, evening=evening)
    return evening


def detail(client, evening, **extra):
    return client.get(reverse("evening_detail", args=[evening.pk]), **extra)


def html_of(client, evening):
    return detail(client, evening).content.decode()


def settle(client, evening):
    return client.post(reverse("evening_settle", args=[evening.pk]))


def paid(client, evening, payment, value="1", **extra):
    url = reverse("evening_payment_paid", args=[evening.pk, payment.pk])
    return client.post(url, {"paid": value}, **extra)


def text(fragment):
    """A fragment's text: tags removed, whitespace folded."""
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def balances(html):
    """Each player's net points and money, as the evening page's table shows them."""
    table = html[html.index('<table class="compare">') : html.index("</table>")]
    rows = re.findall(
        r'<tr><th scope="row"><a href="[^"]*">([^<]+)</a></th><td>([^<]*)</td><td>([^<]*)</td>',
        table,
    )
    return {name: (points_of(points), amount) for name, points, amount in rows}


def points_of(shown):
    """Points as the page shows them, read back; shown signed, the one way: '+175', '−175'."""
    points = int(shown.replace("−", "-"))
    assert shown == number_text(points, sign=True), f"{shown!r} is not written the one way"
    return points


def settle_up_lines(html):
    """The transfers (or once settled, the payments) under "Settle up"."""
    block = html[html.index("<h2>Settle up</h2>") :]
    block = block[: block.index("</ul>")]
    items = re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)
    return [text(item) for item in items]


def amount_of(shown):
    """An amount as the page shows it, read back: '−9.35' is Decimal('-9.35')."""
    return Decimal(shown.replace("−", "-"))


def copy_text(html):
    match = re.search(r'<textarea id="settle-text"[^>]*>(.*?)</textarea>', html, re.S)
    return match.group(1) if match else None


def debts_listed(html):
    if "Open debts from earlier evenings" not in html:
        return []
    block = html[html.index("Open debts from earlier evenings") :]
    block = block[block.index('<ul class="debts">') : block.index("</ul>")]
    return [text(item) for item in re.findall(r"<li>(.*?)</li>", block, re.S)]


def player_page(client, name):
    player = Player.objects.get(name=name)
    html = client.get(reverse("player_detail", args=[player.pk])).content.decode()
    block = html[html.index("<h2>Open debts</h2>") :]
    items = re.findall(r"<li>(.*?)</li>", block[: block.index("</ul>")], re.S)
    net = re.search(r"<strong>Net: ([^<]+)</strong>", html).group(1)
    return [text(item) for item in items], net


def frozen(evening):
    return list(
        EveningPayment.objects.filter(evening=evening)
        .order_by("id")
        .values_list("payer__name", "payee__name", "amount", "paid_at", "carried_to")
    )


# Who may see and change an evening


def test_anonymous_is_sent_to_log_in_from_every_evening_page(client, club):
    services.evening_settle(evening=club)
    payment = club.payments.first()
    player = Player.objects.get(name="Anna")
    urls = [
        ("get", reverse("evening_list")),
        ("post", reverse("evening_list")),
        ("get", reverse("evening_detail", args=[club.pk])),
        ("post", reverse("evening_detail", args=[club.pk])),
        ("post", reverse("evening_settle", args=[club.pk])),
        ("post", reverse("evening_payment_paid", args=[club.pk, payment.pk])),
        ("get", reverse("player_detail", args=[player.pk])),
    ]

    for method, url in urls:
        data = {"name": "Mine", "played_on": "2026-11-21"} if method == "post" else None
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, (method, url)
        assert response.url == f"{reverse('login')}?next={url}", (method, url)

    assert Evening.objects.count() == 1
    assert EveningPayment.objects.filter(paid_at__isnull=False).count() == 0


def test_the_owner_starts_an_evening_and_finds_it_in_the_list(client_owner, owner):
    response = client_owner.post(
        reverse("evening_list"), {"name": " Friday ", "played_on": "2026-11-21"}
    )

    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("evening_detail", args=[evening.pk])
    assert (evening.owner, evening.name, evening.played_on) == (owner, "Friday", date(2026, 11, 21))
    assert evening.settled_at is None
    html = client_owner.get(reverse("evening_list")).content.decode()
    assert f'<a href="{evening.get_absolute_url()}">Friday</a>' in html
    assert '<span class="badge running">open</span>' in html
    assert "<h1>Friday</h1>" in html_of(client_owner, evening)


def test_an_evening_without_a_name_or_date_is_refused_beside_the_field(client_owner):
    response = client_owner.post(reverse("evening_list"), {"name": "", "played_on": "someday"})

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"name", "played_on"}
    assert Evening.objects.count() == 0


def test_an_outsider_sees_nothing_of_anothers_evening_and_changes_nothing(
    client_owner, client_outsider, club
):
    settle(client_owner, club)
    payment = club.payments.first()
    player = Player.objects.get(name="Anna")
    before = frozen(club), Evening.objects.get(pk=club.pk).settled_at

    assert detail(client_outsider, club).status_code == 404
    assert client_outsider.post(reverse("evening_detail", args=[club.pk])).status_code == 404
    assert settle(client_outsider, club).status_code == 404
    assert paid(client_outsider, club, payment).status_code == 404
    assert client_outsider.get(reverse("player_detail", args=[player.pk])).status_code == 404
    assert "Club night" not in client_outsider.get(reverse("evening_list")).content.decode()
    assert (frozen(club), Evening.objects.get(pk=club.pk).settled_at) == before


def test_an_outsider_cannot_settle_an_open_evening(client_outsider, club):
    assert settle(client_outsider, club).status_code == 404

    assert Evening.objects.get(pk=club.pk).settled_at is None
    assert EveningPayment.objects.count() == 0


def test_a_payment_of_another_evening_is_not_found_through_this_one(client_owner, owner, club):
    settle(client_owner, club)
    other = services.evening_start(owner=owner, name="Other", played_on=date(2026, 11, 22))

    response = paid(client_owner, other, club.payments.first())

    assert response.status_code == 404
    assert not EveningPayment.objects.filter(paid_at__isnull=False).exists()


# Parties in an evening


def options(html):
    select = html[html.index('<select name="partie"') :]
    select = select[: select.index("</select>")]
    return [int(value) for value in re.findall(r'<option value="(\d+)"', select)]


def test_only_the_users_own_parties_not_yet_in_the_evening_are_offered(
    client_owner, owner, outsider, play, evening, club_parties, start_partie
):
    theirs = start_partie(user=outsider)
    in_it = club_parties[0]
    services.partie_evening_set(partie=in_it, evening=evening)

    offered = options(html_of(client_owner, evening))

    assert sorted(offered) == sorted(p.pk for p in club_parties[1:])
    assert theirs.pk not in offered
    assert in_it.pk not in offered


def test_the_owner_adds_parties_of_several_kinds_to_the_evening(
    client_owner, evening, club_parties
):
    for partie in club_parties:
        response = client_owner.post(evening.get_absolute_url(), {"partie": partie.pk})
        assert response.status_code == 302
        assert response.url == evening.get_absolute_url()

    assert sorted(p.pk for p in evening.parties.all()) == sorted(p.pk for p in club_parties)
    html = html_of(client_owner, evening)
    block = html[html.index("<h2>Parties</h2>") : html.index("</ul>")]
    kinds = re.findall(r'<span class="tag">([^<]+)</span>', block)
    assert kinds == [
        "Two players",
        "Chouette (one in the box against a team)",
        "Three players (box, captain, out)",
    ]
    parties = [text(item) for item in re.findall(r"<li>(.*?)</li>", block, re.S)]
    assert parties == [
        "Anna – Ben Two players Ben pays Anna 175 points = 8.75",
        "Anna – Ben – Carl Chouette (one in the box against a team) "
        "Game 1: Anna pays Ben 235 points = 23.50 Game 1: Anna pays Carl 235 points = 47.00",
        "Dora – Ben – Anna Three players (box, captain, out) "
        "Ben pays Dora 40 points = 2.00 Dora pays Anna 227 points = 11.35 "
        "Ben pays Anna 367 points = 18.35",
    ]


def test_an_outsiders_partie_is_refused_by_the_form(client_owner, outsider, evening, start_partie):
    theirs = start_partie(user=outsider)

    response = client_owner.post(evening.get_absolute_url(), {"partie": theirs.pk})

    assert response.status_code == 400
    assert response.context["form"].errors == {
        "partie": ["Select a valid choice. That choice is not one of the available choices."]
    }
    theirs.refresh_from_db()
    assert theirs.evening is None


def test_a_running_partie_is_listed_as_running_and_settles_nothing(client_owner, evening, partie):
    services.partie_evening_set(partie=partie, evening=evening)

    html = html_of(client_owner, evening)

    assert '<span class="badge running">running</span>' in html
    assert balances(html) == {"Anna": (0, "0.00"), "Ben": (0, "0.00")}
    assert settle_up_lines(html) == ["Nobody owes anybody anything."]
    assert "Settle up: freeze these payments" not in html


def test_a_partie_started_from_the_evening_page_belongs_to_the_evening(
    client_owner, evening, start_data
):
    start_url = f"{reverse('partie_new')}?evening={evening.pk}"
    assert f'href="{start_url}"' in html_of(client_owner, evening)
    form = client_owner.get(start_url).content.decode()
    assert "It belongs to the evening Club night (2026-11-20)." in form
    assert f'<input type="hidden" name="evening" value="{evening.pk}">' in form

    data = start_data() | {"kind": "three_player", "player_3": "Carl", "evening": evening.pk}
    response = client_owner.post(reverse("partie_new"), data)

    partie = Partie.objects.get()
    assert response.url == partie.get_absolute_url()
    assert partie.evening == evening
    assert partie.kind == Partie.Kind.THREE_PLAYER


def test_another_users_evening_cannot_take_a_new_partie(client_owner, outsider, start_data):
    theirs = services.evening_start(owner=outsider, name="Theirs", played_on=date(2026, 1, 1))

    assert client_owner.get(f"{reverse('partie_new')}?evening={theirs.pk}").status_code == 404
    response = client_owner.post(reverse("partie_new"), start_data() | {"evening": theirs.pk})
    assert response.status_code == 404
    assert Partie.objects.count() == 0


# Each player's net and the fewest transfers


def test_the_evening_page_shows_each_players_net_and_the_fewest_transfers(
    client_owner, club, club_parties
):
    html = html_of(client_owner, club)

    assert balances(html) == CLUB_BALANCES
    # the same figures as the engine's settlement of each partie, added up
    payments = [p for partie in club_parties for p in selectors.partie_sheet(partie).payments]
    assert {
        name: (points, number_text(amount, sign=True))
        for (name, points), amount in zip(
            engine.points_of(payments).items(), engine.balances_of(payments).values(), strict=True
        )
    } == CLUB_BALANCES
    assert len(engine.settle_up(engine.balances_of(payments))) == 3
    assert settle_up_lines(html) == CLUB_TRANSFERS
    assert "Settle up: freeze these payments" in html


def brute_force_fewest(owed):
    """The fewest transfers that square ``owed``, by trying every way to split the players.

    The transfers of any settlement join the players into groups (the connected parts
    of who pays whom); each group sums to zero and a group of k needs at least k − 1
    transfers, which also suffice. So the fewest = players − the most zero-sum groups,
    over every partition of the players with a balance.
    """
    names = [name for name, amount in owed.items() if amount]

    def partitions(items):
        if not items:
            yield []
            return
        first, rest = items[0], items[1:]
        for smaller in partitions(rest):
            yield [[first], *smaller]
            for i in range(len(smaller)):
                yield [*smaller[:i], [first, *smaller[i]], *smaller[i + 1 :]]

    most = max(
        (
            len(blocks)
            for blocks in partitions(names)
            if all(sum(owed[n] for n in block) == 0 for block in blocks)
        ),
        default=0,
    )
    return len(names) - most


def test_the_brute_force_knows_that_two_pairs_square_apart():
    assert brute_force_fewest({"A": 7, "B": -7, "C": 5, "D": -5}) == 2
    assert brute_force_fewest({"A": 5, "B": -3, "C": -2}) == 2
    assert brute_force_fewest({"A": 0, "B": 0}) == 0


POOL = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fay"]


@pytest.mark.parametrize("seed", range(6))
def test_a_random_evening_settles_with_the_brute_force_fewest_transfers(client_owner, owner, seed):
    rng = random.Random(seed)
    evening = services.evening_start(owner=owner, name=f"Night {seed}", played_on=date.today())
    expected = dict.fromkeys(POOL, Decimal(0))
    for _ in range(rng.randint(3, 7)):
        names = rng.sample(POOL, 2)
        # A gin of 80 or 85 closes the partie at once: 100 or 105 points, the game
        # bonus, one box and the shutout: a net of 320 or 325. Few distinct amounts
        # make groups that square among themselves likely.
        stake = rng.choice(["0.01", "0.02", "0.05"])
        partie = services.partie_start(
            owner=owner,
            names=names,
            rules=engine.preset("classic"),
            stake=Decimal(stake),
            evening=evening,
        )
        winner, deadwood = rng.choice(names), rng.choice([80, 85])
        services.hand_record(partie=partie, hand=G(deadwood, knocker=winner), user=owner)
        loser = names[1] if winner == names[0] else names[0]
        amount = Decimal(220 + deadwood + 20) * Decimal(stake)
        expected[winner] += amount
        expected[loser] -= amount

    html = html_of(client_owner, evening)

    shown = {name: amount_of(amount) for name, (_, amount) in balances(html).items()}
    assert shown == {name: amount for name, amount in expected.items() if name in shown}
    assert all(not amount for name, amount in expected.items() if name not in shown)
    lines = settle_up_lines(html)
    transfers = [re.fullmatch(r"(\w+) pays (\w+) (\d+\.\d\d)", line) for line in lines]
    if not any(shown.values()):
        assert lines == ["Nobody owes anybody anything."]
        return
    assert all(transfers), lines
    squared = dict(shown)
    for match in transfers:
        payer, payee, amount = match.group(1), match.group(2), Decimal(match.group(3))
        assert payer != payee and amount > 0
        squared[payer] += amount
        squared[payee] -= amount
    assert not any(squared.values())
    assert len(transfers) == brute_force_fewest(shown)


# Settling up


def test_settling_up_freezes_the_transfers_shown_as_payments(client_owner, club):
    response = settle(client_owner, club)

    assert response.status_code == 302
    assert response.url == club.get_absolute_url()
    club.refresh_from_db()
    assert club.is_settled
    payments = frozen(club)
    assert [payment[:3] for payment in payments] == [
        ("Anna", "Carl", Decimal("32.05")),
        ("Ben", "Carl", Decimal("5.60")),
        ("Dora", "Carl", Decimal("9.35")),
    ]
    assert all(paid_at is None and carried is None for *_, paid_at, carried in payments)
    html = html_of(client_owner, club)
    assert settle_up_lines(html) == [f"{line} Mark paid" for line in CLUB_TRANSFERS]
    assert balances(html) == CLUB_BALANCES  # the figures stay as they were
    assert "Settle up: freeze these payments" not in html
    assert "Start a partie in this evening" not in html
    assert '<select name="partie"' not in html
    assert (
        '<span class="badge">settled</span>'
        in client_owner.get(reverse("evening_list")).content.decode()
    )


def test_settling_twice_does_not_freeze_the_payments_twice(client_owner, club):
    settle(client_owner, club)
    first = frozen(club), Evening.objects.get(pk=club.pk).settled_at

    response = settle(client_owner, club)

    assert response.status_code == 302
    assert (frozen(club), Evening.objects.get(pk=club.pk).settled_at) == first
    assert EveningPayment.objects.count() == 3


def test_a_settled_evening_refuses_another_partie_and_nothing_changes(
    client_owner, club, partie, start_data
):
    settle(client_owner, club)
    before = frozen(club), sorted(club.parties.values_list("pk", flat=True))

    response = client_owner.post(club.get_absolute_url(), {"partie": partie.pk})

    assert response.status_code == 400
    assert (
        '<p class="error" role="alert">The evening “Club night” (11/20/2026) is settled up: '
        "its parties cannot change.</p>" in response.content.decode()
    )
    partie.refresh_from_db()
    assert partie.evening is None
    assert (frozen(club), sorted(club.parties.values_list("pk", flat=True))) == before

    # nor can a partie be started in it
    start_url = f"{reverse('partie_new')}?evening={club.pk}"
    assert client_owner.get(start_url).url == club.get_absolute_url()
    response = client_owner.post(reverse("partie_new"), start_data() | {"evening": club.pk})
    assert response.url == club.get_absolute_url()
    assert Partie.objects.count() == 4
    assert Partie.objects.filter(evening=club).count() == 3


def test_a_partie_of_a_settled_evening_cannot_move_to_another(
    client_owner, owner, club, club_parties
):
    settle(client_owner, club)
    other = services.evening_start(owner=owner, name="Later", played_on=date(2026, 11, 27))

    response = client_owner.post(other.get_absolute_url(), {"partie": club_parties[0].pk})

    assert response.status_code == 400
    assert response.context["form"].errors == {
        "partie": [
            "This partie belongs to the evening “Club night” (11/20/2026), which is settled "
            "up: it cannot move."
        ]
    }
    assert f'<option value="{club_parties[0].pk}"' not in response.content.decode()
    club_parties[0].refresh_from_db()
    assert club_parties[0].evening == club


def option_groups(html):
    """The add-a-partie list as shown: (group label or None, [option texts])."""
    select = html[html.index('<select name="partie"') :]
    select = select[: select.index("</select>")]
    groups = [(None, select.split("<optgroup")[0])]
    groups += re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', select, re.S)
    return [
        (label, [text(o) for o in re.findall(r'<option value="\d+"[^>]*>(.*?)</option>', body)])
        for label, body in groups
    ]


def test_the_add_list_offers_parties_of_no_evening_and_says_which_would_move(
    client_owner, owner, evening, start_partie, play, worked_example
):
    running = start_partie()
    services.hand_record(partie=running, hand=wins("Anna", 20), user=owner)
    over = two_player(owner, play, worked_example)
    moving = start_partie()
    other = services.evening_start(owner=owner, name="Friday", played_on=date(2026, 11, 13))
    services.partie_evening_set(partie=moving, evening=other)
    settled = services.evening_start(owner=owner, name="Old", played_on=date(2026, 11, 6))
    stuck = start_partie()
    services.partie_evening_set(partie=stuck, evening=settled)
    services.evening_settle(evening=settled)

    html = html_of(client_owner, evening)

    groups = option_groups(html)
    when = {
        p.pk: date_format(timezone.localtime(p.started_at), "SHORT_DATETIME_FORMAT")
        for p in (running, over, moving)
    }
    # newest first; the same players told apart by their start and how they stand
    assert groups == [
        (
            None,
            [
                f"Anna – Ben · Two players · {when[over.pk]} · Anna won 261 : 86",
                f"Anna – Ben · Two players · {when[running.pk]} · running, 1 hand 20 : 0",
            ],
        ),
        (
            "Moves it here from “Friday” (11/13/2026)",
            [f"Anna – Ben · Two players · {when[moving.pk]} · running, 0 hands"],
        ),
    ]
    assert stuck.pk not in options(html)  # a settled evening's partie stays there
    assert '<option value="" selected>Choose a partie</option>' in html

    assert client_owner.post(evening.get_absolute_url(), {"partie": moving.pk}).status_code == 302
    moving.refresh_from_db()
    assert moving.evening == evening


def hollywood(owner, play, stake="0.05"):
    """Anna and Ben's Hollywood, Anna's four gins win its three games; each game's payment
    is a line of its own."""
    partie = services.partie_start(
        owner=owner,
        names=["Anna", "Ben"],
        rules=engine.preset("hollywood"),
        kind="hollywood",
        stake=Decimal(stake),
    )
    return play(partie, [G(60, knocker="Anna")] * 4)


def test_each_payment_line_of_the_evening_names_its_game_where_the_kind_plays_several(
    client_owner, owner, play, evening
):
    partie = hollywood(owner, play)
    services.partie_evening_set(partie=partie, evening=evening)
    sheet = selectors.partie_sheet(partie)
    assert len(sheet.payment_lines) == 3

    html = html_of(client_owner, evening)

    block = html[html.index("<h2>Parties</h2>") : html.index("</ul>")]
    lines = [text(item) for item in re.findall(r"<span>(.*?)</span>", block, re.S)]
    assert lines == [
        f"{line.game}: Ben pays Anna {line.points} points = {number_text(line.amount)}"
        for line in sheet.payment_lines
    ]
    assert [line.split(":")[0] for line in lines] == [f"Game {n}" for n in range(1, len(lines) + 1)]


def test_the_add_list_shows_a_hollywood_by_its_games_and_a_chouette_by_its_current_one(
    client_owner, owner, play, evening
):
    partie = services.partie_start(
        owner=owner, names=["Anna", "Ben"], rules=engine.preset("hollywood"), kind="hollywood"
    )
    holly = play(partie, [K(2, 20, knocker="Anna"), K(2, 20, knocker="Ben")])
    partie = services.partie_start(
        owner=owner, names=["Anna", "Ben", "Cleo"], rules=engine.preset("classic"), kind="chouette"
    )
    # Anna in the box wins game 1 in three hands, then loses the first hand of game 2.
    chou = play(partie, [wins("Anna", 40)] * 3 + [wins("Cleo", 40)])

    groups = option_groups(html_of(client_owner, evening))

    shown = {label.split(" · ")[0]: label.split(" · ")[-1] for label in groups[0][1]}
    assert shown == {
        "Anna – Ben": "running, 2 hands: Game 1 18 : 18, Game 2 0 : 0, Game 3 0 : 0",
        "Anna – Ben – Cleo": "running, 4 hands: Game 2 Anna 0 : Team 40",
    }
    with translation.override("de"):
        assert partie_label(chou).endswith("läuft, 4 Spiele: Partie 2 Anna 0 : Team 40")
        assert partie_label(holly).endswith(": Partie 1 18 : 18, Partie 2 0 : 0, Partie 3 0 : 0")


def test_with_no_partie_to_add_the_page_says_so_instead_of_an_empty_list(client_owner, evening):
    html = html_of(client_owner, evening)

    assert '<select name="partie"' not in html
    assert "There is no partie outside an evening to add." in html
    assert "Start a partie in this evening" in html


# Paying


def test_marking_a_payment_paid_and_not_paid_after_all(client_owner, club):
    settle(client_owner, club)
    payment = club.payments.get(payer__name="Ben")

    response = paid(client_owner, club, payment)

    assert response.status_code == 302
    assert response.url == club.get_absolute_url()
    payment.refresh_from_db()
    assert payment.paid_at is not None
    html = html_of(client_owner, club)
    assert f'<li id="payment-{payment.pk}" class="payment paid">' in html
    assert settle_up_lines(html)[1] == "Ben pays Carl 5.60 paid not paid after all"

    assert paid(client_owner, club, payment, "0").status_code == 302

    payment.refresh_from_db()
    assert payment.paid_at is None
    assert settle_up_lines(html_of(client_owner, club))[1] == "Ben pays Carl 5.60 Mark paid"


def test_marking_a_payment_paid_by_htmx_answers_with_its_list_item(client_owner, club):
    settle(client_owner, club)
    payment = club.payments.get(payer__name="Anna")

    response = paid(client_owner, club, payment, **HTMX)

    assert response.status_code == 200
    html = response.content.decode().strip()
    assert html.startswith(f'<li id="payment-{payment.pk}" class="payment paid">')
    assert html.endswith("</li>")
    assert html.count("<li") == 1
    assert "<h1>" not in html
    assert text(re.sub(r"<form.*?</form>", "", html, flags=re.S)) == "Anna pays Carl 32.05"
    assert 'name="paid" value="0"' in html  # the button now undoes it

    response = paid(client_owner, club, payment, "0", **HTMX)

    html = response.content.decode().strip()
    assert html.startswith(f'<li id="payment-{payment.pk}" class="payment">')
    assert 'name="paid" value="1"' in html
    payment.refresh_from_db()
    assert payment.paid_at is None


# Open debts


def test_unpaid_payments_show_on_the_players_pages(client_owner, club):
    settle(client_owner, club)
    paid(client_owner, club, club.payments.get(payer__name="Dora"))

    assert player_page(client_owner, "Carl") == (
        [
            "is owed 32.05 by Anna (Club night)",
            "is owed 5.60 by Ben (Club night)",
        ],
        "+37.65",  # a net: signed, as every page writes one
    )
    assert player_page(client_owner, "Ben") == (
        ["owes Carl 5.60 (Club night)"],
        "−5.60",
    )
    assert player_page(client_owner, "Dora") == (["Nothing open."], "0.00")


@pytest.fixture
def next_night(client_owner, owner, play, club, worked_example):
    """The club night settled, Dora's payment paid; a week later Ben and Carl play again."""
    settle(client_owner, club)
    paid(client_owner, club, club.payments.get(payer__name="Dora"))
    later = services.evening_start(owner=owner, name="Next night", played_on=date(2026, 11, 27))
    partie = two_player(owner, play, worked_example, names=("Carl", "Ben"))
    services.partie_evening_set(partie=partie, evening=later)
    return later  # Ben pays Carl 175 points = 8.75


def test_the_next_evening_of_the_players_takes_their_open_debts_into_its_balances(
    client_owner, next_night
):
    html = html_of(client_owner, next_night)

    assert debts_listed(html) == [
        "Anna owes Carl 32.05 (Club night)",
        "Ben owes Carl 5.60 (Club night)",
    ]
    # The balances are this evening's alone; Anna did not play, but her debt to Carl
    # comes along; Dora's paid one does not. The transfers add both up:
    # Ben −8.75 − 5.60 = −14.35, Carl +8.75 + 32.05 + 5.60 = +46.40.
    assert balances(html) == {"Ben": (-175, "−8.75"), "Carl": (175, "+8.75")}
    assert settle_up_lines(html) == ["Anna pays Carl 32.05", "Ben pays Carl 14.35"]
    assert "The transfers settle this evening's balances and the debts carried in." in html
    order = [html.index(words) for words in ("Each player", "Debts carried in", "Settle up</h2>")]
    assert order == sorted(order)


def test_settling_the_next_evening_carries_the_old_payments_and_closes_them(
    client_owner, next_night, club
):
    settle(client_owner, next_night)

    old = {payer: (paid_at, carried) for payer, _, _, paid_at, carried in frozen(club)}
    assert old["Anna"] == (None, next_night.pk)
    assert old["Ben"] == (None, next_night.pk)
    assert old["Dora"][0] is not None and old["Dora"][1] is None  # paid: never carried
    assert [payment[:3] for payment in frozen(next_night)] == [
        ("Anna", "Carl", Decimal("32.05")),
        ("Ben", "Carl", Decimal("14.35")),
    ]
    # the old payments are no longer open: only the new ones show
    assert player_page(client_owner, "Ben") == (
        ["owes Carl 14.35 (Next night)"],
        "−14.35",
    )
    assert player_page(client_owner, "Anna")[0] == ["owes Carl 32.05 (Next night)"]
    # the settled evening still shows what it took over and the same balances
    html = html_of(client_owner, next_night)
    assert debts_listed(html) == [
        "Anna owes Carl 32.05 (Club night)",
        "Ben owes Carl 5.60 (Club night)",
    ]
    assert balances(html)["Ben"] == (-175, "−8.75")
    # and a third evening of theirs has nothing left to carry from the first
    assert "Open debts from earlier evenings" not in html_of(client_owner, club)


def test_a_payment_paid_after_all_before_the_next_settle_is_not_carried(
    client_owner, next_night, club
):
    paid(client_owner, club, club.payments.get(payer__name="Anna"))

    html = html_of(client_owner, next_night)

    assert debts_listed(html) == ["Ben owes Carl 5.60 (Club night)"]
    assert "Anna" not in balances(html)
    settle(client_owner, next_night)
    assert [carried for *_, carried in frozen(club)] == [None, next_night.pk, None]


# The text to copy


def test_the_copyable_text_lists_who_pays_whom(client_owner, club):
    assert copy_text(html_of(client_owner, club)) == (
        "Anna → Carl: 32.05\nBen → Carl: 5.60\nDora → Carl: 9.35"
    )

    settle(client_owner, club)

    assert copy_text(html_of(client_owner, club)) == (
        "Anna → Carl: 32.05\nBen → Carl: 5.60\nDora → Carl: 9.35"
    )


def test_an_evening_where_nobody_owes_has_nothing_to_copy(client_owner, evening):
    html = html_of(client_owner, evening)

    assert copy_text(html) is None
    assert settle_up_lines(html) == ["Nobody owes anybody anything."]


# The tally PDF: the same figures in the same order, read back from real PDF bytes


def pdf_text(client, evening, **extra):
    response = client.get(reverse("evening_pdf", args=[evening.pk]), **extra)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_the_tally_prints_money_with_cents_and_marks_the_paid_payments(client_owner, club):
    settle(client_owner, club)
    paid(client_owner, club, club.payments.get(payer__name="Dora"))

    text = pdf_text(client_owner, club)

    # stored with four places (9.3500), printed with the stake's two
    assert not re.search(r"\d\.\d{3}", text), text
    assert "Balances Player Points Money Anna +299 −32.05 Ben −347 −5.60" in text
    assert "Pays To Amount Paid Anna Carl 32.05 open Ben Carl 5.60 open Dora Carl 9.35 ✓ paid" in (
        text
    )
    assert "Carried in" not in text


def test_the_tally_lists_the_debts_carried_in_between_the_balances_and_the_transfers(
    client_owner, next_night, club
):
    text = pdf_text(client_owner, next_night)

    balances_ = "Balances Player Points Money Ben −175 −8.75 Carl +175 +8.75"
    debts = (
        "Carried in from earlier evenings Owes To Amount From the evening "
        "Anna Carl 32.05 Club night (11/20/2026) Ben Carl 5.60 Club night (11/20/2026)"
    )
    # Ben −8.75 − 5.60 = −14.35; Carl +8.75 + 32.05 + 5.60 = +46.40
    transfers = "Settle up Pays To Amount Anna Carl 32.05 Ben Carl 14.35"
    note = "The transfers settle this evening's balances and the debts carried in."
    for words in (balances_, debts, transfers, note):
        assert words in text
    assert text.index(balances_) < text.index(debts) < text.index(transfers)

    settle(client_owner, next_night)
    paid(client_owner, next_night, next_night.payments.get(payer__name="Ben"))

    text = pdf_text(client_owner, next_night)
    assert "Anna Carl 32.05 open Ben Carl 14.35 ✓ paid" in text
    assert debts in text  # what it took over, still listed
    # and the first evening's tally says where its unpaid payments went
    assert "Anna Carl 32.05 carried to Next night" in pdf_text(client_owner, club)


# Money and dates in the reader's language

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def test_money_reads_with_a_decimal_comma_in_german_on_the_page_and_in_the_tally(
    client_owner, club
):
    html = detail(client_owner, club, **GERMAN).content.decode()

    assert balances(html)["Anna"] == (299, "−32,05")
    assert balances(html)["Carl"] == (235, "+47,00")
    assert "Ben zahlt Anna 175 Punkte = 8,75" in text(html)
    assert copy_text(html) == "Anna → Carl: 32,05\nBen → Carl: 5,60\nDora → Carl: 9,35"
    assert not re.search(r"\d\.\d\d\b", text(html[html.index("<main") :]))

    pdf = pdf_text(client_owner, club, **GERMAN)
    assert "Anna +299 −32,05" in pdf
    assert "Dora Carl 9,35" in pdf
    assert "8.75" not in pdf and "(+8,75)" in pdf


def test_money_reads_with_a_decimal_point_in_english(client_owner, club):
    html = html_of(client_owner, club)

    assert balances(html)["Dora"] == (-187, "−9.35")
    assert "Dora Carl 9.35" in pdf_text(client_owner, club)


def test_the_date_field_holds_an_iso_date_in_german_and_english(client_owner):
    for language in ("de", "en"):
        html = client_owner.get(
            reverse("evening_list"), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        field = re.search(r'<input type="date" name="played_on"[^>]*>', html).group(0)
        assert f'value="{date.today():%Y-%m-%d}"' in field, (language, field)

    response = client_owner.post(
        reverse("evening_list"), {"name": "Freitag", "played_on": "2026-11-23"}, **GERMAN
    )

    assert response.status_code == 302
    assert Evening.objects.get().played_on == date(2026, 11, 23)


def test_a_refused_evening_keeps_the_typed_iso_date_in_german(client_owner):
    response = client_owner.post(
        reverse("evening_list"), {"name": "", "played_on": "2026-11-23"}, **GERMAN
    )

    assert response.status_code == 400
    assert 'name="played_on" value="2026-11-23"' in response.content.decode()
    assert Evening.objects.count() == 0


def test_the_add_a_partie_list_offers_the_most_recent_parties_only(owner):
    """A club's history runs to thousands of parties: the list offers the latest ones,
    and any other partie of no evening can still be added by its key."""
    evening = services.evening_start(owner=owner, name="Club night", played_on=date(2026, 11, 20))
    parties = [
        services.partie_start(owner=owner, names=["Anna", "Ben"], rules=engine.preset("classic"))
        for _ in range(EveningPartieForm.OFFERED + 2)
    ]
    form = EveningPartieForm(evening=evening)
    offered = [value for value, _ in form.fields["partie"].choices if value != ""]
    assert len(offered) == EveningPartieForm.OFFERED
    assert parties[0].pk not in offered and parties[-1].pk in offered

    oldest = EveningPartieForm({"partie": parties[0].pk}, evening=evening)
    assert oldest.is_valid(), oldest.errors
