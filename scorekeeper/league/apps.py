from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "scorekeeper.league"
    label = "league"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        # The table announces closed games without importing the league (layering).
        from scorekeeper.table.signals import games_changed, games_closed

        from .services import games_changed_rate, games_closed_rate

        games_closed.connect(games_closed_rate, dispatch_uid="league.games_closed_rate")
        games_changed.connect(games_changed_rate, dispatch_uid="league.games_changed_rate")
