"""Store the league results and hand statistics of the parties played before leagues
existed: each partie is replayed by the engine once, here, so that no standings page
ever replays one."""

from decimal import Decimal

from django.db import migrations

from scorekeeper import engine
from scorekeeper.table.models import entries_to_engine


def store(apps, schema_editor):
    Partie = apps.get_model("table", "Partie")
    Hand = apps.get_model("table", "Hand")
    Seat = apps.get_model("table", "Seat")
    Game = apps.get_model("league", "Game")
    GamePlayer = apps.get_model("league", "GamePlayer")
    GamePayment = apps.get_model("league", "GamePayment")
    PartieStats = apps.get_model("league", "PartieStats")
    for partie in Partie._base_manager.select_related("first_dealer").iterator(chunk_size=500):
        seats = list(Seat.objects.filter(partie=partie).select_related("player").order_by("position"))
        players = {seat.player.name: seat.player for seat in seats}
        own = {s.player.name: Decimal(s.stake) for s in seats if s.stake is not None}
        hands = Hand.objects.filter(partie=partie).select_related("knocker").order_by("number", "table")
        cls = engine.session_class(partie.kind)
        try:
            session = cls.replay(
                list(players),
                engine.Ruleset.from_dict(partie.rules),
                partie.first_dealer.name,
                entries_to_engine(partie.kind, list(hands)),
            )
        except (engine.HandError, ValueError):
            continue  # a partie the engine refuses counts for nothing until it is mended
        PartieStats.objects.bulk_create(
            PartieStats(partie=partie, player=players[name], hands=s.hands, won=s.won,
                        gins=s.gins, undercuts=s.undercuts, points=s.points)
            for name, s in session.hand_stats().items()
        )  # fmt: skip
        for result in session.results(Decimal(partie.stake), own if cls.own_stakes else {}):
            game = Game.objects.create(
                partie=partie,
                number=result.number,
                shutout=result.shutout,
                ranking=[[players[name].pk for name in side] for side in result.ranking],
                ranks=list(result.ranks),
            )
            GamePlayer.objects.bulk_create(
                GamePlayer(game=game, player=players[name], won=name in result.winners)
                for name in (*result.winners, *result.losers)
            )
            GamePayment.objects.bulk_create(
                GamePayment(game=game, payer=players[p.payer], payee=players[p.payee],
                            points=p.points, amount=p.amount)
                for p in result.payments
            )  # fmt: skip


def forget(apps, schema_editor):
    apps.get_model("league", "Game").objects.all().delete()
    apps.get_model("league", "PartieStats").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial"), ("table", "0006_clubs_required")]

    operations = [migrations.RunPython(store, forget)]
