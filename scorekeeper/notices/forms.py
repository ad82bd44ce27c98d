"""The member's choices: a box per kind and channel, and his language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .models import Channel, Kind, Preferences
from .selectors import push_enabled
from .vapid import b64url_bytes


def channels() -> list[Channel]:
    """The channels a member chooses between, in the page's order: push only while the
    site can push."""
    return [Channel.MAIL, Channel.PUSH] if push_enabled() else [Channel.MAIL]


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
        self.channels = channels()
        for kind in Kind:
            for channel in self.channels:
                self.fields[field_name(kind, channel)] = forms.BooleanField(
                    label=f"{kind.label}: {channel.label}",
                    required=False,
                    initial=preferences.wants(kind, channel),
                )

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each kind with its channels' boxes, for the page's table."""
        return [(kind.label, [self[field_name(kind, c)] for c in self.channels]) for kind in Kind]

    def switched_off(self, before: Preferences) -> list[str]:
        """The entries switched off: the boxes left empty, and those of a channel not on
        the page (push while the site cannot push) as they were."""
        hidden = [entry for entry in before.off if entry.split(":")[-1] not in self.channels]
        return hidden + [
            f"{kind}:{channel}"
            for kind in Kind
            for channel in self.channels
            if not self.cleaned_data[field_name(kind, channel)]
        ]


class DeviceForm(forms.Form):
    """A browser's push subscription as the page's script sends it (its ``toJSON()``):
    an https endpoint of a push service and its two keys."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=50)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint.startswith("https://"):
            raise forms.ValidationError(_("A push service is reached over https only."))
        return endpoint

    def clean_p256dh(self) -> str:
        return _key(self.cleaned_data["p256dh"], length=65)

    def clean_auth(self) -> str:
        return _key(self.cleaned_data["auth"], length=16)


def _key(text: str, length: int) -> str:
    try:
        right = len(b64url_bytes(text)) == length
    except ValueError:
        right = False
    if not right:
        raise forms.ValidationError(_("This is not a key of a push subscription."))
    return text
