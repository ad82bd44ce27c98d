"""What the front door remembers: sign-up attempts per address (logins: django-axes)."""

from django.db import models


class SignupAttempt(models.Model):
    """One sign-up form sent from an address. Kept in the database, not in a process or a
    cache, so that the limit holds across every app server."""

    address = models.GenericIPAddressField(null=True)
    attempted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["address", "attempted_at"])]

    def __str__(self) -> str:
        return f"{self.address} at {self.attempted_at:%Y-%m-%d %H:%M:%S}"
