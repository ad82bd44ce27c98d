"""Forms of the league night page: who is present and how to pair them; a proposed
seating carried from page to page (and swapped) until the organiser starts it. Forms of
the season's nights page: a night planned on one day or a weekday every week, a planned
night moved."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.pairings import Method, Pairing, PairingError, Table
from scorekeeper.renderers import DateInput
from scorekeeper.table.models import Player

METHOD_CHOICES = [
    (Method.ROUND_ROBIN.value, _("Round robin: who has met least this season")),
    (Method.SWISS.value, _("Swiss: neighbours in tonight's standings, no rematch tonight")),
]


class NightForm(forms.Form):
    """Who is present, and how the tables are proposed."""

    present = forms.ModelMultipleChoiceField(
        label=_("Who is here?"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    method = forms.ChoiceField(
        label=_("Tables"), choices=METHOD_CHOICES, widget=forms.RadioSelect, initial="round_robin"
    )
    three_player_table = forms.BooleanField(
        label=_("An odd count plays one table of three instead of a bye"), required=False
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**31, required=False, widget=forms.HiddenInput
    )
    # Players at a table still playing are left out of the proposal; these are not.
    anyway = forms.ModelMultipleChoiceField(
        label=_("Propose anyway"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, players: Any, playing: Any = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["present"].queryset = players
        self.fields["present"].label_from_instance = lambda player: player.name
        self.fields["anyway"].queryset = players.filter(name__in=list(playing))

    def clean_present(self) -> list[Player]:
        present = list(self.cleaned_data["present"])
        if len(present) < 2:
            raise forms.ValidationError(_("Tick at least two players."))
        return present


def seating_text(seating: Pairing, ids: dict[str, int]) -> tuple[str, str]:
    """A seating as the hidden fields carry it: tables "1,2;3,4" and byes "5"."""
    tables = ";".join(",".join(str(ids[n]) for n in t.players) for t in seating.tables)
    return tables, ",".join(str(ids[n]) for n in seating.byes)


class SeatingForm(forms.Form):
    """A proposed seating (player ids of the club), optionally with two players to swap,
    and the round it is for."""

    tables = forms.CharField(widget=forms.HiddenInput)
    byes = forms.CharField(widget=forms.HiddenInput, required=False)
    round = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)
    one = forms.TypedChoiceField(label=_("Swap"), coerce=int, required=False)
    other = forms.TypedChoiceField(label=_("with"), coerce=int, required=False)

    def __init__(self, *args: Any, players: dict[int, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.players = players  # the club's players: id → name
        choices = [("", "–"), *players.items()]
        self.fields["one"].choices = self.fields["other"].choices = choices

    def _ids(self, text: str) -> list[int]:
        try:
            ids = [int(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(self.stale) from None
        if any(pk not in self.players for pk in ids):
            raise forms.ValidationError(self.stale)
        return ids

    stale = _("These tables are no longer valid: propose them again.")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            groups = [self._ids(text) for text in data["tables"].split(";")]
            byes = self._ids(data.get("byes") or "")
        except forms.ValidationError as error:
            raise forms.ValidationError(error.messages) from None
        everyone = [pk for group in groups for pk in group] + byes
        sizes = sorted(len(group) for group in groups)
        if len(set(everyone)) != len(everyone) or not groups or sizes[0] < 2 or sizes[-1] > 3:
            raise forms.ValidationError(self.stale)
        if sizes.count(3) > 1:
            raise forms.ValidationError(self.stale)
        name = self.players.__getitem__
        seating = Pairing(
            tuple(Table(n, tuple(map(name, g))) for n, g in enumerate(groups, start=1)),
            tuple(map(name, byes)),
        )
        one, other = data.get("one"), data.get("other")
        if one and other and one != other:
            try:
                seating = seating.swapped(name(one), name(other))
            except (KeyError, PairingError):
                raise forms.ValidationError(self.stale) from None
        data["seating"] = seating
        return data

    def offer_swaps(self, seating: Pairing) -> None:
        """The players of a seating as the choices of the swap fields."""
        ids = {name: pk for pk, name in self.players.items()}
        choices = [("", "–")] + [(ids[n], n) for n in seating.seated + list(seating.byes)]
        self.fields["one"].choices = self.fields["other"].choices = choices


class NightPlanForm(forms.Form):
    """One night planned: its day."""

    played_on = forms.DateField(label=_("Day"), widget=DateInput())


class NightMoveForm(forms.Form):
    """A planned night moved: its new day (each night's form has its own prefix)."""

    played_on = forms.DateField(label=_("Move to"), widget=DateInput())


class WeeklyNightsForm(forms.Form):
    """A night every week: the weekday, from a day to a day (both within the season)."""

    weekday = forms.TypedChoiceField(label=_("Every"), coerce=int, choices=sorted(WEEKDAYS.items()))
    first = forms.DateField(label=_("From"), widget=DateInput())
    last = forms.DateField(label=_("Until"), widget=DateInput())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first and last and last < first:
            self.add_error("last", _("The last day comes before the first: change one of them."))
        return data
