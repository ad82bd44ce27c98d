"""A player's confirmation of a closed game's result: confirm it, or dispute it saying
why; or take back a confirmation given by mistake."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import ResultConfirmation

CONFIRM, DISPUTE, WITHDRAW = "confirm", "dispute", "withdraw"


class ConfirmationForm(forms.Form):
    """What the player does with his confirmation (``confirmation``: confirm, dispute or
    withdraw); ``game`` is the key of the game as the page showed it, so that a result
    corrected meanwhile (a new key) is not confirmed unseen."""

    game = forms.IntegerField(widget=forms.HiddenInput)
    confirmation = forms.ChoiceField(
        choices=[
            (CONFIRM, _("Confirm")),
            (DISPUTE, _("Dispute")),
            (WITHDRAW, _("Take back the confirmation")),
        ],
        widget=forms.HiddenInput,
    )
    note = forms.CharField(
        label=_("What is wrong?"),
        help_text=_("The scorers read it beside the game's hands."),
        max_length=ResultConfirmation._meta.get_field("note").max_length,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("confirmation") == DISPUTE and not data.get("note", "").strip():
            self.add_error("note", _("Say what is wrong with the result, for the scorers."))
        return data


class DecisionForm(forms.Form):
    """The club's owner decides a game's disputes: the result stands, for ``reason``
    (kept in the partie's changes); ``game`` as for a confirmation."""

    game = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Why does the result stand?"),
        help_text=_("The players read it in the partie's changes."),
        max_length=ResultConfirmation._meta.get_field("note").max_length,
        error_messages={
            "required": _("Say why the result stands: the players read it in the partie's changes.")
        },
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class SeenForm(forms.Form):
    """The account changes seen: up to the newest the list showed."""

    upto = forms.IntegerField(min_value=0, max_value=2**63 - 1, widget=forms.HiddenInput)
