from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Who may try to log in or sign up, and the request log: the app's front door."""

    name = "scorekeeper.accounts"
    verbose_name = "Accounts"
