"""Every account's mail address given before addresses were checked counts as verified.

Those addresses were given by their members on their settings page before Scorekeeper
asked them to confirm one, and notices have been mailed to them since: stopping those
mails until each member follows a link would leave every club's members untold from one
day to the next, and mailing them all a link at once is a mass mail nobody asked for.
So each gets a check followed now, with no mail sent (``sent_at`` empty: the admin can
tell them from a link followed). An address changed from now on is checked by its link.
"""

from django.conf import settings
from django.db import migrations
from django.utils import timezone


def existing_addresses_verified(apps, schema_editor):
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    users = apps.get_model(app_label, model_name).objects.exclude(email="")
    AddressCheck = apps.get_model("notices", "AddressCheck")
    now = timezone.now()
    AddressCheck.objects.bulk_create(
        [
            AddressCheck(
                user_id=user_id,
                address=email,
                created_at=now,
                next_try_at=now,
                verified_at=now,
            )
            for user_id, email in users.values_list("pk", "email").iterator(chunk_size=2000)
        ],
        batch_size=1000,
    )


def forget_them(apps, schema_editor):
    apps.get_model("notices", "AddressCheck").objects.filter(sent_at=None).exclude(
        verified_at=None
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0003_address_check"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(existing_addresses_verified, forget_them)]
