"""Forms of evenings: a new evening, and a partie put into one."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper.inputs import NameField
from scorekeeper.renderers import DateInput
from scorekeeper.vocabulary import games_text

from ..models import Evening, Partie


class EveningForm(forms.Form):
    name = NameField(label=_("Name"), max_length=80, initial=_("Card night"))
    played_on = forms.DateField(label=_("Date"), widget=DateInput(), initial=date.today)


class EveningPartieForm(forms.Form):
    """One of the club's parties, to put into its evening.

    The list offers the parties of no evening first, then those of the club's other
    open evenings, under a heading that says they move from there: the OFFERED most
    recent (a club's history runs to thousands). A partie of a settled evening stays
    where it is, and the refusal names that evening."""

    OFFERED = 50

    partie = forms.ModelChoiceField(
        label=_("Partie"), queryset=Partie.objects.none(), empty_label=_("Choose a partie")
    )

    def __init__(self, *args: Any, evening: Evening, **kwargs: Any):
        super().__init__(*args, **kwargs)
        field = self.fields["partie"]
        field.queryset = (
            Partie.objects.filter(club_id=evening.club_id)
            .exclude(evening=evening)
            .select_related("evening")
            .order_by("-started_at", "-id")
        )
        free, elsewhere = [], {}
        movable = field.queryset.filter(Q(evening=None) | Q(evening__settled_at=None))
        for partie in movable[: self.OFFERED]:
            if partie.evening is None:
                free.append((partie.pk, partie_label(partie)))
            elif not partie.evening.is_settled:
                group = _("Moves it here from %(evening)s") % {
                    "evening": evening_label(partie.evening)
                }
                elsewhere.setdefault(group, []).append((partie.pk, partie_label(partie)))
        field.choices = [("", field.empty_label), *free, *elsewhere.items()]

    @property
    def offers_any(self) -> bool:
        return len(self.fields["partie"].choices) > 1

    def clean_partie(self) -> Partie:
        partie = self.cleaned_data["partie"]
        if partie.evening is not None and partie.evening.is_settled:
            raise forms.ValidationError(
                _(
                    "This partie belongs to the evening %(evening)s, which is settled up: "
                    "it cannot move."
                ),
                code="evening_settled",
                params={"evening": evening_label(partie.evening)},
            )
        return partie


def evening_label(evening: Evening) -> str:
    """An evening named in a sentence: “Club night” (20.11.2026)."""
    return _("“%(name)s” (%(date)s)") % {
        "name": evening.name,
        "date": date_format(evening.played_on, "SHORT_DATE_FORMAT"),
    }


def partie_label(partie: Partie) -> str:
    """A partie in a list of choices, told apart from the same players' others: players,
    kind, when it started and how it stands (Anna – Ben · Two players · 23.11.2026 20:15
    · Anna won 261 : 86); a Hollywood by its three games, a chouette by its current one
    (vocabulary.games_text)."""
    summary = partie.summary
    players = summary.get("players", [])
    names = " – ".join(players) or str(partie)
    started = date_format(timezone.localtime(partie.started_at), "SHORT_DATETIME_FORMAT")
    # A summary written before it kept each game's totals has the current game's alone, in
    # no order (jsonb): the players' where the columns are players.
    totals = summary.get("totals", {})
    current = [(name, totals[name]) for name in players if name in totals]
    games = partie.game_totals or [current or list(totals.items())]
    score = games_text(games, partie.session_class)
    if partie.is_running:
        hands = summary.get("hands", 0)
        state = ngettext("running, %(hands)d hand", "running, %(hands)d hands", hands) % {
            "hands": hands
        }
    elif summary.get("winner"):
        state = _("%(winner)s won") % {"winner": summary["winner"]}
    else:
        state = _("over")
    if score and summary.get("hands"):
        state = f"{state}: {score}" if partie.session_class.numbered else f"{state} {score}"
    return " · ".join([names, partie.get_kind_display(), started, state])
