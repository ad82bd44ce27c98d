"""The form of a blank score pad (PDF): its kind, the paper and the rules printed on it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.sheets.score_pad import PAD_KINDS
from scorekeeper.vocabulary import KIND_NAMES

from ..models import Partie
from .rules import RulesForm


class PadForm(RulesForm):
    """A blank score pad: its kind, the paper, and the rules printed at the top."""

    kind = forms.ChoiceField(
        label=_("Pad for"),
        choices=[(kind, KIND_NAMES[kind]) for kind in PAD_KINDS],
        initial=Partie.Kind.TWO_PLAYER,
        widget=forms.RadioSelect,
    )
    paper = forms.ChoiceField(
        label=_("Paper"),
        choices=[("a4", "A4"), ("letter", _("US Letter"))],
        initial="a4",
        widget=forms.RadioSelect,
    )
    field_order = ["kind", "paper"]
