"""Forms of a club's players: linked to a member's account, renamed, merged."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ..models import Player
from .rules import printable


class PlayerAccountForm(forms.Form):
    """The member of the player's club who plays as this player, or nobody."""

    user = forms.ModelChoiceField(
        label=_("Plays as the member"),
        queryset=get_user_model().objects.none(),
        required=False,
        empty_label=_("nobody"),
        help_text=_("Link the player to a member's account: his games are then his."),
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = (
            get_user_model()
            .objects.filter(memberships__club_id=player.club_id)
            .order_by("username")
        )


class PlayerRenameForm(forms.Form):
    """The player's new name: spaces around it dropped, unique in the club (the service
    checks that, under the lock)."""

    name = forms.CharField(
        label=_("Name"),
        max_length=Player._meta.get_field("name").max_length,
        help_text=_("Every partie he sat in shows the new name."),
        validators=[printable],
    )


class PlayerMergeForm(forms.Form):
    """Another player of the club who is the same person: merged into this one."""

    # A name typed (the page offers the club's names as suggestions), not a select: a
    # club may have thousands of players.
    other = forms.ModelChoiceField(
        label=_("The same person as"),
        queryset=Player.objects.none(),
        to_field_name="name",
        widget=forms.TextInput(attrs={"list": "club-players", "autocomplete": "off"}),
        help_text=_(
            "His parties, results and debts become this player's, and his entry is deleted."
        ),
        error_messages={"invalid_choice": _("The club has no other player of that name.")},
    )

    def __init__(self, *args: Any, player: Player, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = (
            Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk).order_by("name")
        )

    @property
    def names(self) -> list[str]:
        """The other players' names, for the suggestions."""
        return list(self.fields["other"].queryset.values_list("name", flat=True))
