"""The member's choices: a box per kind and channel, and his language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .models import Channel, Kind, Preferences

CHANNELS = [Channel.MAIL]  # the channels a member chooses between, in the page's order


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    email = forms.EmailField(
        label=_("Your mail address"),
        required=False,
        max_length=254,
        help_text=_("Only for the mails you choose below; nobody in your clubs sees it."),
    )
    language = forms.ChoiceField(label=_("Language of your mails"), choices=settings.LANGUAGES)

    def __init__(self, *args: Any, preferences: Preferences, email: str, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["email"].initial = email
        # Before he chose one: the language he reads this page in.
        self.fields["language"].initial = preferences.language or get_language()
        for kind in Kind:
            for channel in CHANNELS:
                self.fields[field_name(kind, channel)] = forms.BooleanField(
                    label=f"{kind.label}: {channel.label}",
                    required=False,
                    initial=preferences.wants(kind, channel),
                )

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each kind with its channels' boxes, for the page's table."""
        return [(kind.label, [self[field_name(kind, c)] for c in CHANNELS]) for kind in Kind]

    def switched_off(self) -> list[str]:
        return [
            f"{kind}:{channel}"
            for kind in Kind
            for channel in CHANNELS
            if not self.cleaned_data[field_name(kind, channel)]
        ]
