"""Forms that start a partie: its kind, players, first dealer, stakes and rules; or a
game record imported."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.engine.record import RecordError, loads
from scorekeeper.inputs import NameField

from ..messages import explain_record, record_text_message
from ..models import Partie
from .players import NameQuestion, answer_of, roster_answer, roster_input
from .rules import PlainDecimalField, RulesForm, stake_field

KIND_HELP = _(
    "A partnership seats four: the first and third play against the second and fourth. "
    "For a chouette or three players, name them in the order of the cut, highest first: "
    "the first is in the box, the second captains."
)


MOST_SEATS = max(cls.seats.stop - 1 for cls in engine.SESSION_KINDS.values())


SEAT_LABELS = [format_lazy(_("Player {number}"), number=n) for n in range(1, MOST_SEATS + 1)]


@dataclass(frozen=True)
class KindSeats:
    """What the start form shows for a kind: its seats beyond the first two, whether
    members bring stakes of their own, and how many players may deal first (none
    where the roles say who deals)."""

    kind: str
    seats: tuple[int, ...]
    own_stakes: bool
    dealers: int
    fewest: int = 2  # the seats it needs: a chouette shows more only when asked for

    @property
    def selector(self) -> str:
        """The start form while this kind is chosen, as a CSS selector."""
        return f".partie-form:has([name=kind][value={self.kind}]:checked)"


def kind_seats() -> list[KindSeats]:
    return [
        KindSeats(
            kind,
            tuple(range(3, cls.seats.stop)),
            cls.own_stakes,
            cls.dealer_seats(),
            cls.seats.start,
        )
        for kind, cls in engine.SESSION_KINDS.items()
    ]


class PartieStartForm(RulesForm):
    """The kind of partie, the names in seating (or cut) order, a stake, the first dealer,
    and the rules."""

    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=Partie.Kind.choices,
        initial=Partie.Kind.TWO_PLAYER,
        widget=forms.RadioSelect,
        help_text=KIND_HELP,
    )
    first_dealer = forms.ChoiceField(
        label=_("First dealer"),
        choices=[(str(n), label) for n, label in enumerate(SEAT_LABELS[:4], start=1)],
        initial="1",
        widget=forms.RadioSelect,
        required=False,
    )
    stake = stake_field(
        label=_("Stake per point"),
        initial=Decimal("0"),
        help_text=_("Money per point, e.g. 0.05; 0 to play for honour."),
    )

    def __init__(self, *args: Any, roster: Sequence[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.roster = list(roster)  # the club's names: offered, and asked about when near
        self.questions: dict[int, NameQuestion] = {}
        for n in range(MOST_SEATS, 0, -1):  # inserted after `kind`, so the last first
            self.fields = {
                "kind": self.fields.pop("kind"),
                f"player_{n}": NameField(
                    label=SEAT_LABELS[n - 1],
                    max_length=bounds.MAX_NAME_LENGTH,
                    required=False,
                    widget=roster_input(),
                ),
                **({} if n == 1 else {f"stake_{n}": _member_stake_field(n)}),
                **self.fields,
            }
        # The first dealer by the names typed (static/js/partie-form.js keeps them up to
        # date as they are typed; this is what a form shown again says).
        self.fields["first_dealer"].choices = [
            (value, (self.data.get(f"player_{value}") or "").strip()[:60] or label)
            for value, label in self.fields["first_dealer"].choices
        ]

    @property
    def seat_fields(
        self,
    ) -> list[tuple[forms.BoundField, forms.BoundField | None, NameQuestion | None]]:
        """Each seat's name, member stake and the question about its name, if any."""
        return [
            (self[f"player_{n}"], self[f"stake_{n}"] if n > 1 else None, self.questions.get(n))
            for n in range(1, MOST_SEATS + 1)
        ]

    def clean_player_4(self) -> str:
        """A partnership's team columns are named after their players: the names must differ."""
        fourth = self.cleaned_data["player_4"]
        names = [self.cleaned_data.get(f"player_{n}") for n in (1, 2, 3)] + [fourth]
        kind = self.cleaned_data.get("kind") or Partie.Kind.TWO_PLAYER
        if all(names):
            team = engine.session_class(kind).name_clash(names)
            if team:
                # add_error, not raise: the name stays, so clean() does not ask for one too
                self.add_error(
                    "player_4",
                    forms.ValidationError(
                        _("Both teams would be called %(team)s: rename a player."),
                        params={"team": team},
                    ),
                )
        return fourth

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        session = engine.session_class(data.get("kind") or Partie.Kind.TWO_PLAYER)
        fewest, most = session.seats.start, session.seats.stop - 1
        names = [(data.get(f"player_{n}") or "").strip() for n in range(1, MOST_SEATS + 1)]
        seats = max(
            fewest, min(most, max((n for n, name in enumerate(names, 1) if name), default=0))
        )
        for n in range(seats + 1, MOST_SEATS + 1):
            if names[n - 1]:
                self.add_error(f"player_{n}", _("This kind of partie seats no more players."))
        for n in range(1, seats + 1):
            field = f"player_{n}"
            if not names[n - 1]:
                self.add_error(field, _("Enter a name."))
            elif names[n - 1].casefold() in (m.casefold() for m in names[: n - 1]):
                self.add_error(field, _("Each player needs a name of their own."))
        self._ask_the_roster(names, seats)
        data["names"] = names[:seats]
        try:
            data["dealer"] = session.first_dealer_at(
                data["names"], int(data.get("first_dealer") or 1)
            )
        except ValueError:
            self.add_error("first_dealer", _("The first dealer must be one of the players."))
        data["stakes"] = session.stakes_played(
            {
                names[n - 1]: data[f"stake_{n}"]
                for n in range(2, seats + 1)
                if data.get(f"stake_{n}") is not None
            }
        )
        return data

    def _ask_the_roster(self, names: list[str], seats: int) -> None:
        """Seat the roster's player where a typed name is a slip for his (once the form
        has asked and been answered); ask where it is not answered yet."""
        for n in range(1, seats + 1):
            field = f"player_{n}"
            if not names[n - 1] or field in self.errors:
                continue
            others = {name.casefold() for i, name in enumerate(names[:seats], 1) if i != n}
            roster = [name for name in self.roster if name.casefold() not in others]
            answered = roster_answer(names[n - 1], roster, answer_of(self.data, field))
            if isinstance(answered, NameQuestion):
                self.questions[n] = answered
                self.add_error(field, answered.message)
            else:
                names[n - 1] = answered

    @property
    def first_dealer_name(self) -> str | None:
        """Who deals first; None where the roles say who deals."""
        return self.cleaned_data["dealer"]


def _member_stake_field(n: int) -> PlainDecimalField:
    return stake_field(
        label=format_lazy(_("Own stake of player {number}"), number=n),
        required=False,
        # Said once, under the first member's stake: not once per member.
        help_text=_("Chouette: this member's stake against the box, if not the partie's.")
        if n == 2
        else "",
    )


class ImportForm(forms.Form):
    """A game record (FORMAT.md), pasted or uploaded."""

    text = forms.CharField(
        label=_("Game record (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("or a file"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        text: str | bytes = data.get("text") or ""
        upload = data.get("file")
        if upload:
            if upload.size > bounds.MAX_RECORD_BYTES:  # refused before it is read
                raise forms.ValidationError(record_text_message("too_large"))
            text = upload.read()
            if not text.strip():
                raise forms.ValidationError(_("The file is empty."))
        elif not text.strip():
            raise forms.ValidationError(_("Paste a game record or choose a file."))
        try:
            data["record"] = loads(text)  # any text: a record or a RecordError, never worse
        except RecordError as error:  # each problem in the player's words
            raise forms.ValidationError(explain_record(error)) from None
        return data
