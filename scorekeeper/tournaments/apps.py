from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "scorekeeper.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The league counts every partie of a club in its books unless told which to
        # leave out: an unrated tournament's (it imports no app above it).
        from scorekeeper.league.selectors import parties_unrated

        from .selectors import unrated_parties

        parties_unrated(unrated_parties)
        # A merge deletes the player merged away: not one a tournament's draw names.
        from scorekeeper.table.services.players import MERGE_CHECKS

        from .selectors import merge_refusal

        MERGE_CHECKS.append(merge_refusal)
