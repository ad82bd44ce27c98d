from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "scorekeeper.league"
    label = "league"
    verbose_name = _("Leagues")
