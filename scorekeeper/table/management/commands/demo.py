"""Load demo data: a demo user with finished and running parties. Safe to run twice."""

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scorekeeper import engine
from scorekeeper.table.services import parties as partie_services

USERNAME, PASSWORD = "demo", "demo-gin-rummy"

K, G, NO = engine.Hand.knock, engine.Hand.gin, engine.Hand.no_game
R = engine.Round

# (kind, preset, players, first dealer, stake, hands)
# fmt: off
DEMO_PARTIES = [
    # The worked example of RULES.md §9: Anna wins, Ben pays 8.75.
    ("two_player", "classic", ("Anna", "Ben"), "Ben", "0.05",
     [K(5, 27, knocker="Anna"), G(16, knocker="Ben"), K(7, 7, knocker="Anna"),
      G(31, knocker="Anna"), NO(), K(2, 30, knocker="Anna")]),
    ("two_player", "modern", ("Clara", "David"), "Clara", "0.10",
     [G(40, knocker="Clara"), K(4, 30, knocker="David"), K(9, 3, knocker="Clara"),
      G(45, knocker="Clara")]),
    ("two_player", "classic", ("Anna", "Clara"), "Anna", "0",
     [K(6, 21, knocker="Clara"), K(3, 14, knocker="Anna"), NO()]),
    ("two_player", "oklahoma", ("Ben", "David"), "David", "0.02",
     [K(4, 19, knocker="Ben", upcard=engine.Card.parse("KS"))]),
    # RULES.md §4 ("You" and "Opp" there): Emil 80/62/37, Frida 62/50/20 after seven
    # hands. Names, not words: the demo reads the same in every language.
    ("hollywood", "hollywood", ("Emil", "Frida"), "Frida", "0.01",
     [K(2, 20, knocker="Emil"), K(3, 15, knocker="Frida"), K(1, 26, knocker="Emil"),
      G(10, knocker="Frida"), K(5, 20, knocker="Emil"), G(2, knocker="Emil"),
      K(4, 24, knocker="Frida")]),
    ("match", "classic", ("Anna", "David"), "Anna", "0.02",
     [G(60, knocker="Anna"), K(3, 40, knocker="Anna"), K(5, 9, knocker="David")]),
    ("partnership", "partnership", ("Anna", "Ben", "Clara", "David"), "Anna", "0",
     [R(tables=(K(4, 16, knocker="Anna"), K(2, 14, knocker="Clara"))),
      R(tables=(G(12, knocker="Ben"), K(8, 6, knocker="Clara")))]),
]
# fmt: on


class Command(BaseCommand):
    help = "Create the demo user and a few finished and running parties (once)."

    @transaction.atomic
    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username=USERNAME)
        if created:
            user.set_password(PASSWORD)
            user.save()
            for kind, preset, names, dealer, stake, hands in DEMO_PARTIES:
                partie = partie_services.partie_start(
                    owner=user,
                    names=names,
                    rules=engine.preset(preset),
                    kind=kind,
                    stake=Decimal(stake),
                    first_dealer=dealer,
                )
                for hand in hands:
                    partie_services.hand_record(partie=partie, hand=hand, user=user)
        self.stdout.write(f"Demo login: user {USERNAME!r}, password {PASSWORD!r}")
