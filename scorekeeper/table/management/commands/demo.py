"""Load demo data: a demo user with finished and running parties. Safe to run twice."""

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from scorekeeper import engine
from scorekeeper.table import services

USERNAME, PASSWORD = "demo", "demo-gin-rummy"

K, G = engine.Hand.knock, engine.Hand.gin
DEMO_PARTIES = [
    # The worked example of RULES.md §9: Anna wins, Ben pays 8.75.
    (
        "classic",
        ("Anna", "Ben"),
        "Ben",
        "0.05",
        [
            K(5, 27, knocker="Anna"),
            G(16, knocker="Ben"),
            K(7, 7, knocker="Anna"),
            G(31, knocker="Anna"),
            engine.Hand.no_game(),
            K(2, 30, knocker="Anna"),
        ],
    ),
    (
        "modern",
        ("Clara", "David"),
        "Clara",
        "0.10",
        [
            G(40, knocker="Clara"),
            K(4, 30, knocker="David"),
            K(9, 3, knocker="Clara"),
            G(45, knocker="Clara"),
        ],
    ),
    (
        "classic",
        ("Anna", "Clara"),
        "Anna",
        "0",
        [K(6, 21, knocker="Clara"), K(3, 14, knocker="Anna"), engine.Hand.no_game()],
    ),
    (
        "oklahoma",
        ("Ben", "David"),
        "David",
        "0.02",
        [K(4, 19, knocker="Ben", upcard=engine.Card.parse("KS"))],
    ),
]


class Command(BaseCommand):
    help = "Create the demo user and a few finished and running parties (once)."

    @transaction.atomic
    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(username=USERNAME)
        if created:
            user.set_password(PASSWORD)
            user.save()
            for preset, names, dealer, stake, hands in DEMO_PARTIES:
                partie = services.partie_start(
                    owner=user,
                    names=names,
                    rules=engine.preset(preset),
                    stake=Decimal(stake),
                    first_dealer=dealer,
                )
                for hand in hands:
                    services.hand_record(partie=partie, hand=hand, user=user)
        self.stdout.write(f"Demo login: user {USERNAME!r}, password {PASSWORD!r}")
