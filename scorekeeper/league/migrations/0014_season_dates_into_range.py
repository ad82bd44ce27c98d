import datetime

from django.db import migrations, models

FIRST, LAST = datetime.date(2000, 1, 1), datetime.date(2100, 12, 31)


def dates_into_range(apps, schema_editor):
    """A season saved with a day before 2000 or after 2100 (one ending 9999-12-31 broke
    every page of its club) is brought within them, so that the constraint of 0015 can
    hold: its first day no earlier than 2000-01-01, its last no later than 2100-12-31.
    The season's audit trail keeps the dates it had, as a change by nobody."""
    Season = apps.get_model("league", "Season")
    SeasonChange = apps.get_model("league", "SeasonChange")
    outside = Season.objects.filter(models.Q(starts_on__lt=FIRST) | models.Q(ends_on__gt=LAST))
    for season in outside:
        before = {"starts_on": season.starts_on.isoformat(), "ends_on": season.ends_on.isoformat()}
        starts = min(max(season.starts_on, FIRST), LAST)
        ends = max(min(season.ends_on, LAST), starts)
        Season.objects.filter(pk=season.pk).update(starts_on=starts, ends_on=ends)
        after = {"starts_on": starts.isoformat(), "ends_on": ends.isoformat()}
        SeasonChange.objects.create(season=season, user=None, before=before, after=after)


class Migration(migrations.Migration):
    # The constraint comes in the next migration, in a transaction of its own: PostgreSQL
    # alters no table whose rows this one's updates left with pending trigger events.
    dependencies = [
        ("league", "0013_season_change"),
    ]

    operations = [
        migrations.RunPython(dates_into_range, migrations.RunPython.noop, elidable=True),
    ]
