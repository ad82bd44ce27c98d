"""Forms of the league app: a league, a season with its points formula, the season after
a closed one, a season's players."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.inputs import NameField
from scorekeeper.renderers import DateInput
from scorekeeper.table.forms.rules import RulesForm, rule_initial, stake_field
from scorekeeper.table.models import Player
from scorekeeper.table.selectors import per_point
from scorekeeper.vocabulary import KIND_NAMES

from .models import NIGHT_KINDS, NightSettings, Season, season_dates_message


class LeagueForm(forms.Form):
    name = NameField(label=_("Name"), max_length=80)


LOWEST, HIGHEST = bounds.LEAGUE_POINTS  # a season's points for a result (engine/bounds.py)


class SeasonDatesForm(forms.Form):
    """A season's name and dates: all a season after a closed one asks (it takes the
    rest from the closed one)."""

    name = NameField(label=_("Name"), max_length=80)
    starts_on = forms.DateField(label=_("First day"), widget=DateInput())
    ends_on = forms.DateField(label=_("Last day"), widget=DateInput())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        trouble = starts and ends and bounds.season_dates_trouble(starts, ends)
        if trouble:
            self.add_error("ends_on", season_dates_message(trouble))
        return data


class SeasonForm(SeasonDatesForm):
    kinds = forms.MultipleChoiceField(
        label=_("Kinds counted"),
        choices=[(kind, KIND_NAMES[kind]) for kind in engine.KINDS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every kind counts."),
    )
    points_win = forms.IntegerField(
        label=_("Points for a win"), min_value=LOWEST, max_value=HIGHEST, initial=2
    )
    points_shutout_win = forms.IntegerField(
        label=_("Points for a shutout win"), min_value=LOWEST, max_value=HIGHEST, initial=3
    )
    points_loss = forms.IntegerField(
        label=_("Points for a loss"), min_value=LOWEST, max_value=HIGHEST, initial=0
    )
    min_games = forms.IntegerField(
        label=_("Games to be ranked"),
        min_value=0,
        max_value=bounds.MAX_MIN_GAMES,
        initial=0,
        help_text=_("Players with fewer counted games are listed after the others, unranked."),
    )
    confirmed_games_only = forms.BooleanField(
        label=_("Count only confirmed games"),
        required=False,
        help_text=_(
            "A game counts once each of its players linked to an account has confirmed its "
            "result on his phone; until then the standings show it as pending. Players "
            "without an account are not asked."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            data["points"] = engine.LeaguePoints(
                data["points_win"], data["points_shutout_win"], data["points_loss"]
            )
        return data


class PartieSeasonForm(forms.Form):
    """The season a partie counts for; empty: the season whose dates hold its start."""

    season = forms.ModelChoiceField(
        label=_("Counts for"),
        queryset=None,
        required=False,
        empty_label=_("the season of its date"),
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, seasons: Any, partie: Any, **kwargs: Any):
        assigned = getattr(partie, "season_assignment", None)
        kwargs.setdefault("initial", {"season": assigned.season_id if assigned else None})
        super().__init__(*args, **kwargs)
        # A closed season takes no partie: only the one it already counts for is offered.
        open_or_own = Q(closed_at__isnull=True)
        if assigned:
            open_or_own |= Q(pk=assigned.season_id)
        self.fields["season"].queryset = seasons.filter(open_or_own)
        self.fields["season"].label_from_instance = str


class SeasonPlayersForm(forms.Form):
    """Who the season lists: everyone who played, or players ticked on the club's roster."""

    players_from = forms.ChoiceField(
        label=_("The season's players"),
        choices=Season.Players.choices,
        widget=forms.RadioSelect,
    )
    players = forms.ModelMultipleChoiceField(
        label=_("Players chosen from the roster"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "A player ticked is no longer on the club's roster: tick the players again."
            ),
            "invalid_pk_value": _("Tick players of the club's roster."),
        },
    )

    def __init__(self, *args: Any, roster: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = roster
        self.fields["players"].label_from_instance = lambda player: player.name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        listing = data.get("players_from") == Season.Players.ROSTER
        if listing and not data.get("players") and "players" not in self.errors:
            message = _("Tick the season's players, or choose everyone who played.")
            self.add_error("players", message)
        return data


class NightTablesForm(RulesForm):
    """What a league night's tables of two play: the kind, the preset or own rules (the
    rule fields of a new partie) and the stake per point. The season's settings, and
    the night page's for one night. ``counted``: the kinds the season counts (none: all),
    which the kind must be one of, or its games would not count."""

    kind = forms.ChoiceField(
        label=_("Kind of game at a table of two"),
        choices=[(kind, KIND_NAMES[kind]) for kind in NIGHT_KINDS],
        widget=forms.RadioSelect,
        help_text=_("A table of three plays the three-player kind, under the same rules."),
    )
    stake = stake_field(
        label=_("Stake per point"), help_text=_("Money per point, e.g. 0.05; 0 to play for honour.")
    )

    def __init__(self, *args: Any, counted: list[str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.counted = counted
        self.fields = {"kind": self.fields.pop("kind"), **self.fields}

    @staticmethod
    def initial_of(settings: NightSettings) -> dict[str, Any]:
        """The form's initial values from a season's or a night's settings."""
        preset = settings.rules.preset
        return {
            **rule_initial(settings.rules),
            "preset": preset,
            "shown_preset": preset,
            "kind": settings.kind,
            "stake": per_point(settings.stake),  # 0.05 as typed, not the column's 0.0500
        }

    def clean_kind(self) -> str:
        kind = self.cleaned_data["kind"]
        if self.counted and kind not in self.counted:
            raise forms.ValidationError(
                _(
                    "The season does not count this kind: tick it under the kinds counted, "
                    "or choose another."
                ),
            )
        return kind

    @property
    def settings(self) -> NightSettings:
        data = self.cleaned_data
        return NightSettings(data["kind"], data["ruleset"], data["stake"])
