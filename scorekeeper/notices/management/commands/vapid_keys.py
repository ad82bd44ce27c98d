"""Make the site's VAPID key pair for web push, printed as the environment takes it."""

from django.core.management.base import BaseCommand

from scorekeeper.notices.vapid import new_key_pair


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair for web push as VAPID_PUBLIC_KEY=... and "
        "VAPID_PRIVATE_KEY=... lines (add VAPID_SUBJECT=mailto:you@example.org). Make it "
        "once: a new pair makes every device's subscription useless."
    )

    def handle(self, *args, **options) -> None:
        public, private = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}")
