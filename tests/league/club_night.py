"""A club night as the board shows it, built through the services as at the tables: a
season around today with its closed games, and tables of every kind being played.

Plain functions, imported by the board's view tests and its browser tests.
"""

from datetime import timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.clubs.models import Club
from scorekeeper.league import services as league_services
from scorekeeper.league.models import Season
from scorekeeper.table import services
from scorekeeper.table.models import Partie, Player

K, G = engine.Hand.knock, engine.Hand.gin
ROUND = engine.Round

# Closed games of the season: (winner, loser, the loser's knock first or not). Eleven
# players have a counted game; a gin of 60 twice ends a game (classic: target 100).
SEASON_GAMES = [
    ("Anna", "Ben", True),
    ("Carl", "Dora", False),
    ("Emil", "Fay", True),
    ("Gus", "Hal", True),
    ("Ida", "Jo", False),
    ("Anna", "Kai", True),
    ("Carl", "Emil", True),
    ("Ben", "Gus", False),
]


def season_around_today(club: Club, name: str = "Autumn") -> Season:
    today = timezone.localdate()
    league = league_services.league_create(club=club, name="Club league")
    return league_services.season_create(
        league=league,
        name=name,
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30),
    )


def start(owner: User, club: Club, names: list[str], kind: str = "two_player") -> Partie:
    cls = engine.session_class(kind)
    return services.partie_start(
        owner=owner,
        club=club,
        names=names,
        rules=engine.preset(cls.preset),
        kind=kind,
        stake=Decimal("0.05"),
        first_dealer=None if cls.dealt_by_roles else names[0],
    )


def play(partie: Partie, owner: User, hands: list) -> Partie:
    for hand in hands:
        services.hand_record(partie=partie, hand=hand, user=owner)
    partie.refresh_from_db()
    return partie


def season_games(owner: User, club: Club) -> None:
    """The season's closed games (SEASON_GAMES), two-player parties played to the end on
    an earlier night: a board shows none of them but in its season's table."""
    played = []
    for winner, loser, knock_first in SEASON_GAMES:
        hands = [K(2, 12, knocker=loser)] if knock_first else []
        partie = play(
            start(owner, club, [winner, loser]), owner, hands + [G(40, knocker=winner)] * 2
        )
        played.append(partie.pk)
    earlier = timezone.now() - timedelta(days=7)
    Partie.objects.filter(pk__in=played).update(closed_at=earlier)


def chouette_between_games(owner: User, club: Club) -> Partie:
    """Olga in the box has won game 1 against Pia, Quin and Rosa; game 2 not started."""
    partie = start(owner, club, ["Olga", "Pia", "Quin", "Rosa"], kind="chouette")
    return play(partie, owner, [G(40, knocker="Olga")] * 2)


def hollywood_one_game_won(owner: User, club: Club) -> Partie:
    """Sven has won game 1 of a Hollywood against Tess; games 2 and 3 run."""
    partie = start(owner, club, ["Sven", "Tess"], kind="hollywood")
    return play(partie, owner, [G(40, knocker="Sven")] * 2)


def tables_of_a_night(owner: User, club: Club, count: int = 14) -> list[Partie]:
    """``count`` tables being played, of every kind, a few hands in: the chouette between
    its games and a Hollywood with one game won among them."""
    parties = [
        play(start(owner, club, ["Anna", "Ben"]), owner, [K(3, 20, knocker="Ben")]),
        chouette_between_games(owner, club),
        hollywood_one_game_won(owner, club),
        play(
            start(owner, club, ["Uwe", "Vera", "Walt", "Xena"], kind="partnership"),
            owner,
            [ROUND((K(2, 30, knocker="Uwe"), G(10, knocker="Walt")))],
        ),
        play(
            start(owner, club, ["Carl", "Dora", "Emil"], kind="three_player"),
            owner,
            [K(4, 25, knocker="Carl")],
        ),
        play(start(owner, club, ["Fay", "Gus"], kind="match"), owner, [G(12, knocker="Gus")]),
    ]
    names = iter(
        ["Hal", "Ida", "Jo", "Kai", "Lena", "Mats", "Nils", "Ole", "Paula", "Quentin"]
        + ["Rita", "Stan", "Theo", "Ulla", "Vik", "Wilma", "Xaver", "Yara", "Zeno", "Abel"]
    )
    while len(parties) < count:
        first, second = next(names), next(names)
        partie = start(owner, club, [first, second])
        parties.append(play(partie, owner, [K(2, 10 + len(parties), knocker=first)]))
    return parties


def league_night(
    owner: User, club: Club, season: Season, rounds: list[tuple[list[tuple[str, ...]], list[str]]]
) -> list[list[Partie]]:
    """Tonight's league night: each round's tables (players) and byes, started through
    the night's service one after the other; every table of a round but the last is
    played out (its first player wins 330 to 0), the last round's first table runs with
    a hand played. The parties, by round and table."""
    from scorekeeper.engine.pairings import Pairing, Table
    from scorekeeper.league import night_services
    from scorekeeper.league.models import NightTable

    names = {name for tables, byes in rounds for table in tables for name in table} | {
        name for _tables, byes in rounds for name in byes
    }
    known = set(Player.objects.filter(club=club).values_list("name", flat=True))
    for name in sorted(names - known):
        services.player_add(club=club, name=name, owner=owner)
    parties = []
    for number, (tables, byes) in enumerate(rounds, start=1):
        seating = Pairing(tuple(Table(n, t) for n, t in enumerate(tables, 1)), tuple(byes))
        night = night_services.night_round_start(
            season=season, owner=owner, seating=seating, played_on=timezone.localdate(),
            round=number,
        )  # fmt: skip
        seated = NightTable.objects.filter(night=night, round=number).order_by("number")
        played = []
        for table in seated.select_related("partie"):
            first = table.partie.summary["players"][0]
            last_round = number == len(rounds)
            hands = [K(2, 12, knocker=first)] if last_round and table.number == 1 else []
            hands = hands or [G(40, knocker=first)] * 2
            played.append(play(table.partie, owner, hands))
        parties.append(played)
    call_command("worker", until_idle=True)  # the ratings land, as beside the server
    return parties
