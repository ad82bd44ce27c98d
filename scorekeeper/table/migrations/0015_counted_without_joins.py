"""A season counted without joins: each partie's hand statistics carry its club, kind and
start, as its result rows do, and each result row its game's number (its place in the
season's order: started_at, partie, number); the running parties are indexed by club and
start (the players a season lists before their first closed game)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def copy_from_parties(apps, schema_editor):
    Partie = apps.get_model("table", "Partie")
    PartieStats = apps.get_model("table", "PartieStats")
    partie = Partie._base_manager.filter(pk=OuterRef("partie_id"))
    PartieStats.objects.update(
        club_id=Subquery(partie.values("club_id")[:1]),
        kind=Subquery(partie.values("kind")[:1]),
        started_at=Subquery(partie.values("started_at")[:1]),
    )
    ClosedGame = apps.get_model("table", "ClosedGame")
    game = ClosedGame.objects.filter(pk=OuterRef("game_id"))
    apps.get_model("table", "PlayerResult").objects.update(
        number=Subquery(game.values("number")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("table", "0014_result_confirmations"),
    ]

    operations = [
        migrations.AddField(
            model_name="partiestats",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="clubs.club",
            ),
        ),
        migrations.AddField(
            model_name="partiestats",
            name="kind",
            field=models.CharField(max_length=20, null=True, verbose_name="kind"),
        ),
        migrations.AddField(
            model_name="partiestats",
            name="started_at",
            field=models.DateTimeField(null=True, verbose_name="started"),
        ),
        migrations.AddField(
            model_name="playerresult",
            name="number",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="game"),
        ),
        migrations.RunPython(copy_from_parties, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="playerresult",
            name="number",
            field=models.PositiveSmallIntegerField(verbose_name="game"),
        ),
        migrations.AlterField(
            model_name="partiestats",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="clubs.club"
            ),
        ),
        migrations.AlterField(
            model_name="partiestats",
            name="kind",
            field=models.CharField(
                choices=[
                    ("two_player", "Two players"),
                    ("hollywood", "Hollywood (three games at once)"),
                    ("match", "Match (best of several games)"),
                    ("partnership", "Partnership (four players, two tables)"),
                    ("chouette", "Chouette (one in the box against a team)"),
                    ("three_player", "Three players (box, captain, out)"),
                ],
                max_length=20,
                verbose_name="kind",
            ),
        ),
        migrations.AlterField(
            model_name="partiestats",
            name="started_at",
            field=models.DateTimeField(verbose_name="started"),
        ),
        migrations.AddIndex(
            model_name="partiestats",
            index=models.Index(
                fields=["club", "started_at"],
                include=("player", "hands", "won", "gins", "undercuts", "points", "kind", "partie"),
                name="stats_club_started",
            ),
        ),
        migrations.AddIndex(
            model_name="partie",
            index=models.Index(
                condition=models.Q(("state", "running")),
                fields=["club", "started_at"],
                name="partie_running",
            ),
        ),
    ]
