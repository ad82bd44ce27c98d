"""Forms of the tournament pages: a new tournament (its system, options and what a match
plays), the roster's check-in, the seeding, and the organiser's correction."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine import bounds
from scorekeeper.inputs import NameField
from scorekeeper.league.forms import NightTablesForm
from scorekeeper.renderers import DateInput
from scorekeeper.table.models import Player

from .models import Tournament
from .services import Seeding

MATCH_KINDS_HELP = _(
    "A partie to the target, a best-of match or a Hollywood (three games at once: who wins "
    "two goes on)."
)


class TournamentForm(forms.Form):
    name = NameField(label=_("Name"), max_length=80)
    played_on = forms.DateField(label=_("Date"), widget=DateInput())
    system = forms.ChoiceField(
        label=_("System"),
        choices=Tournament.System.choices,
        widget=forms.RadioSelect,
        initial=Tournament.System.SINGLE_ELIMINATION,
    )
    third_place = forms.BooleanField(
        label=_("A match for third place (single elimination)"), required=False
    )
    consolation = forms.BooleanField(
        label=_("A consolation bracket for the first round's losers (single elimination)"),
        required=False,
    )
    rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        min_value=0,
        max_value=bounds.MAX_SWISS_ROUNDS,
        required=False,
        help_text=_("Swiss only: how many rounds everyone plays."),
    )
    top_cut = forms.IntegerField(
        label=_("Top cut"),
        min_value=0,
        max_value=bounds.MAX_TOURNAMENT_PLAYERS,
        required=False,
        help_text=_("Swiss only: the best 2, 4, 8, … then play a knockout; empty or 0 for none."),
    )
    confirmed_only = forms.BooleanField(
        label=_("A winner moves on once the players confirmed the result"), required=False
    )
    rated = forms.BooleanField(
        label=_("The games count in the club's ratings"), required=False, initial=True
    )
    round_minutes = forms.IntegerField(
        label=_("Time limit of a round (minutes)"),
        min_value=0,
        max_value=600,
        required=False,
        help_text=_("Empty or 0 for none. The screen in the bar counts it down."),
    )
    at_time = forms.ChoiceField(
        label=_("A partie unfinished at time"),
        choices=Tournament.AtTime.choices,
        widget=forms.RadioSelect,
        initial=Tournament.AtTime.LEADER,
        required=False,
        help_text=_("The leader: more games won, then more points; level, they play on."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        system = data.get("system")
        swiss = system == Tournament.System.SWISS
        single = system == Tournament.System.SINGLE_ELIMINATION
        data["rounds"] = data.get("rounds") or 0
        data["top_cut"] = data.get("top_cut") or 0
        data["round_minutes"] = data.get("round_minutes") or 0
        data["at_time"] = data.get("at_time") or Tournament.AtTime.LEADER
        if swiss and data["rounds"] < 1:
            self.add_error("rounds", _("A Swiss plays at least one round: give how many."))
        cut = data["top_cut"]
        if swiss and cut and (cut < 2 or cut & (cut - 1)):
            self.add_error("top_cut", _("The top cut is 2, 4, 8, 16, …: choose one, or 0."))
        if not swiss:
            data["rounds"] = data["top_cut"] = 0
        if not single:
            data["third_place"] = data["consolation"] = False
        return data


class MatchForm(NightTablesForm):
    """What a match plays: the kind, the preset or own rules, the stake."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, counted=[], **kwargs)
        self.fields["kind"].label = _("A match is")
        self.fields["kind"].help_text = MATCH_KINDS_HELP


class CheckInForm(forms.Form):
    """The roster's ticks: who is here."""

    players = forms.ModelMultipleChoiceField(
        label=_("Who is here?"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args: Any, roster: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = roster
        self.fields["players"].label_from_instance = lambda player: player.name


SEEDING_CHOICES = [
    (Seeding.RATING, _("By club rating, best first")),
    (Seeding.RANDOM, _("At random")),
    (Seeding.HAND, _("By hand, in the order given")),
]


class SeedForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Seed the players"),
        choices=SEEDING_CHOICES,
        widget=forms.RadioSelect,
        initial=Seeding.RATING,
    )
    seed = forms.IntegerField(
        label=_("Seed of the draw"),
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        help_text=_("At random: the same number draws the same seeds; empty for a new draw."),
    )

    def __init__(self, *args: Any, entries: list, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.entries = entries
        for entry in entries:
            self.fields[f"seed_{entry.pk}"] = forms.IntegerField(
                label=entry.player.name,
                min_value=1,
                max_value=len(entries),
                required=False,
                initial=entry.seed,
            )

    @property
    def hand_fields(self) -> list[forms.BoundField]:
        return [self[f"seed_{entry.pk}"] for entry in self.entries]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("method") != Seeding.HAND:
            return data
        given = {e.pk: data.get(f"seed_{e.pk}") for e in self.entries}
        if None in given.values() or sorted(given.values()) != list(range(1, len(given) + 1)):
            raise forms.ValidationError(
                _("By hand, give every player a different seed from 1 to %(count)s."),
                params={"count": len(given)},
            )
        data["order"] = sorted(given, key=given.__getitem__)
        return data


class CorrectionForm(forms.Form):
    """The organiser's result of a match: its winner, or none (voids it), and why."""

    winner = forms.ChoiceField(label=_("Winner"), widget=forms.RadioSelect)
    reason = forms.CharField(label=_("Why"), max_length=200, required=False)

    def __init__(self, *args: Any, players: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            *((name, name) for name in players),
            ("", _("No result: void it")),
        ]
        self.fields["winner"].required = False
