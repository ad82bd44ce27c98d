"""Every user gets a personal club, owned by him, and his players, evenings and parties
move into it: what he kept for himself stays his alone.

Backwards, the club links are cleared and the personal clubs deleted; the rows stay.
"""

from django.conf import settings
from django.db import migrations
from django.utils.text import slugify

SLUG_LENGTH = 56  # the club's slug field holds 60: room for "-999"


def free_slug(name, taken):
    """As ``clubs.services.free_slug``, on the slugs given (the app code may change,
    a migration must not)."""
    base = slugify(name)[:SLUG_LENGTH].strip("-") or "club"
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    taken.add(slug)
    return slug


# Club._base_manager, not Club.objects: from clubs 0002 on (which may be applied before
# this one) the historical Club has only its manager all_objects.
def personal_clubs(apps, schema_editor):
    User = apps.get_model(settings.AUTH_USER_MODEL)
    Club = apps.get_model("clubs", "Club")
    Membership = apps.get_model("clubs", "Membership")
    taken = set(Club._base_manager.values_list("slug", flat=True))
    for user in User.objects.order_by("pk"):
        club = Club._base_manager.filter(
            personal=True, memberships__user=user, memberships__role="owner"
        ).first()
        if club is None:
            club = Club._base_manager.create(
                name=user.username, slug=free_slug(user.username, taken), personal=True
            )
            Membership.objects.create(club=club, user=user, role="owner")
        for model in ("Player", "Evening", "Partie"):
            apps.get_model("table", model).objects.filter(owner=user, club=None).update(club=club)


def no_clubs(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    for model in ("Player", "Evening", "Partie"):
        apps.get_model("table", model).objects.update(club=None)
    Club._base_manager.filter(personal=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("clubs", "0001_initial"),
        ("table", "0004_clubs"),
    ]

    operations = [migrations.RunPython(personal_clubs, no_clubs)]
