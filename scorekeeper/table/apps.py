from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    name = "scorekeeper.table"
    label = "table"
    verbose_name = _("Table")
