"""Purge the clubs deleted more than RESTORE_DAYS ago, with all they hold: run it daily
(cron, a systemd timer). A club deleted more recently is left for its owner to restore."""

from django.core.management.base import BaseCommand

from scorekeeper.clubs.models import RESTORE_DAYS
from scorekeeper.clubs.selectors import clubs_to_purge
from scorekeeper.table.services.purge import clubs_purge


class Command(BaseCommand):
    help = f"Purge the clubs deleted more than {RESTORE_DAYS} days ago, with all they hold."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Only list the clubs that would be purged.",
        )

    def handle(self, *args, dry_run: bool = False, **options):
        due = clubs_to_purge().values_list("name", flat=True)
        names = list(due) if dry_run else clubs_purge()
        for name in names:
            self.stdout.write(name)
        verb = "would be purged" if dry_run else "purged"
        self.stdout.write(f"{len(names)} club(s) {verb}.")
