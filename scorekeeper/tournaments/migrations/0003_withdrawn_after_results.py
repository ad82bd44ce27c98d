"""Where a withdrawal falls among a tournament's results (Entry.withdrawn_after): the
engine pairs a Swiss round without the players withdrawn before it was paired. A
withdrawal made before this field was there is placed after the results given until
it (the results are written after it in the same transaction, and later)."""

from django.db import migrations, models


def place_withdrawals(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    MatchResult = apps.get_model("tournaments", "MatchResult")
    withdrawn = Entry.objects.filter(
        withdrawn_at__isnull=False, tournament__started_at__isnull=False
    ).select_related("tournament")
    for entry in withdrawn:
        if entry.withdrawn_at < entry.tournament.started_at:
            continue  # withdrawn before the start: not in the field at all
        entry.withdrawn_after = MatchResult.objects.filter(
            tournament_id=entry.tournament_id, at__lte=entry.withdrawn_at
        ).count()
        entry.save(update_fields=["withdrawn_after"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_time_limit"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="withdrawn_after",
            field=models.PositiveIntegerField(
                blank=True, null=True, verbose_name="withdrawn after results"
            ),
        ),
        migrations.RunPython(place_withdrawals, migrations.RunPython.noop),
    ]
