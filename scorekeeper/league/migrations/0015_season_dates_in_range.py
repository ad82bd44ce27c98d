import datetime

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0014_season_dates_into_range"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("ends_on__lte", datetime.date(2100, 12, 31)),
                    ("starts_on__gte", datetime.date(2000, 1, 1)),
                ),
                name="season_dates_in_range",
                violation_error_message=(
                    "A season's days lie in the years 2000 to 2100: choose dates within them."
                ),
            ),
        ),
    ]
