"""A player's answer to a closed game's result: confirm it, or dispute it saying why."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import ResultConfirmation

CONFIRM, DISPUTE = "confirm", "dispute"


class AnswerForm(forms.Form):
    """The answer; ``game`` is the key of the game as the page showed it, so that a
    result corrected meanwhile (a new key) is not confirmed unseen."""

    game = forms.IntegerField(widget=forms.HiddenInput)
    answer = forms.ChoiceField(
        choices=[(CONFIRM, _("Confirm")), (DISPUTE, _("Dispute"))], widget=forms.HiddenInput
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
        if data.get("answer") == DISPUTE and not data.get("note", "").strip():
            self.add_error("note", _("Say what is wrong with the result, for the scorers."))
        return data
