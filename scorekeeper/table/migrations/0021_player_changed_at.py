import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0020_results_change_outbox"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="changed_at",
            field=models.DateTimeField(
                auto_now=True, default=django.utils.timezone.now, verbose_name="changed"
            ),
            preserve_default=False,
        ),
    ]
