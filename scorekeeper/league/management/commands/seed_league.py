"""``python manage.py seed_league --players 2000 --parties 20000``: a made-up club season
for benchmarks and demos, written in bulk.

Every partie is played hand by hand through the engine (``league.seeding``), so its
hands, cached summary and stored league results are the very ones the app would
write; only the writing is batched. Idempotent per club name: an existing club of that
name is refused, not changed.
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta
from datetime import time as clock
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

from scorekeeper import engine
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.league import services as league_services
from scorekeeper.league.seeding import KIND_WEIGHTS, entries_of, play
from scorekeeper.table.models import (
    ClosedGame,
    Hand,
    Partie,
    PartieStats,
    Player,
    PlayerResult,
    ResultsChange,
    Seat,
    SettlementLine,
)
from scorekeeper.table.services import results
from scorekeeper.table.services.parties import summary_of

BATCH = 500  # parties written per transaction


def analyze(*models) -> None:
    """``ANALYZE`` the models' tables on PostgreSQL: right after a bulk write it has no
    statistics on the new rows, and planned the standings' settlement-lines query over
    them 9 times slower (2.9 s warm at 2,000 players / 20,000 parties, 310 ms after).
    SQLite plans from its indexes alone."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


STAKE = Decimal("0.05")


class Command(BaseCommand):
    help = "Fill a made-up club season: players, parties of every kind, hands, results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=2000)
        parser.add_argument("--parties", type=int, default=20000)
        parser.add_argument("--club", default="Seed Club", help="the new club's name")
        parser.add_argument("--days", type=int, default=90, help="the season's length")
        parser.add_argument("--seed", type=int, default=1, help="the random seed")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 4 or options["parties"] < 1:
            raise CommandError("a season needs at least 4 players and 1 partie")
        name = options["club"]
        if Club.objects.filter(slug=slugify(name)).exists():
            raise CommandError(f"the club {name!r} exists already: choose another --club")
        began = time.perf_counter()
        rng = random.Random(options["seed"])
        owner, _ = get_user_model().objects.get_or_create(username=f"{slugify(name)}-owner")
        club = club_services.club_create(name=name, owner=owner)
        first = timezone.localdate() - timedelta(days=options["days"] - 1)
        league = league_services.league_create(club=club, name=f"{name} league")
        season = league_services.season_create(
            league=league, name="Seeded season", starts_on=first, ends_on=timezone.localdate()
        )
        players = Player.objects.bulk_create(
            Player(club=club, owner=owner, name=f"Player {n:05d}")
            for n in range(1, options["players"] + 1)
        )
        hands = 0
        for start in range(0, options["parties"], BATCH):
            count = min(BATCH, options["parties"] - start)
            hands += self._batch(rng, club, owner, players, count, first, options["days"])
            self.stdout.write(f"  {start + count} parties, {hands} hands", ending="\r")
        # Written in bulk, past the services: the worker rates the new club from its first
        # game, and PostgreSQL learns the new rows' statistics before a page plans on them.
        ResultsChange.record(club.pk)
        analyze(Partie, Seat, Hand, Player, ClosedGame, PlayerResult, SettlementLine, PartieStats)
        self.stdout.write(
            f"\nseason {season.pk} of {club.name}: {len(players)} players, "
            f"{options['parties']} parties, {hands} hands in {time.perf_counter() - began:.1f} s"
        )

    @transaction.atomic
    def _batch(self, rng, club, owner, players, count, first, days) -> int:
        kinds, weights = list(KIND_WEIGHTS), list(KIND_WEIGHTS.values())
        played = []
        for _ in range(count):
            kind = rng.choices(kinds, weights)[0]
            cls = engine.session_class(kind)
            seated = rng.sample(players, cls.seats.start)
            session = play(rng, kind, [p.name for p in seated], engine.preset(cls.preset))
            day = first + timedelta(days=rng.randrange(days))
            when = timezone.make_aware(datetime.combine(day, clock(18)) + timedelta(
                minutes=rng.randrange(300)
            ))  # fmt: skip
            played.append((seated, session, when))
        parties = Partie.objects.bulk_create(
            Partie(
                club=club,
                owner=owner,
                kind=session.kind,
                rules=session.rules.to_dict(),
                stake=STAKE,
                first_dealer=next(p for p in seated if p.name == session.first_dealer),
                state=Partie.State.CLOSED if session.is_over() else Partie.State.RUNNING,
                summary=summary_of(session),
                closed_at=when + timedelta(hours=1) if session.is_over() else None,
            )
            for seated, session, when in played
        )
        for partie, (_, _, when) in zip(parties, played, strict=True):
            partie.started_at = when  # auto_now_add set "now" on the way in
        Partie.objects.bulk_update(parties, ["started_at"])
        seats, hand_rows, stats, games = [], [], [], []
        for partie, (seated, session, _) in zip(parties, played, strict=True):
            by_name = {p.name: p for p in seated}
            seats += [Seat(partie=partie, player=p, position=i) for i, p in enumerate(seated)]
            for number, entry in enumerate(entries_of(session), start=1):
                hand_rows += [
                    Hand(partie=partie, number=number, **row)
                    for row in partie.rows_of(entry, by_name)
                ]
            stats += results.stats_rows(partie, session, by_name)
            games += results.game_rows(partie, session, by_name)
        Seat.objects.bulk_create(seats)
        Hand.objects.bulk_create(hand_rows, batch_size=5000)
        PartieStats.objects.bulk_create(stats, batch_size=5000)
        results.games_save(games)
        return len(hand_rows)
