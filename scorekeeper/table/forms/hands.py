"""The form of one entry of a partie: a hand (who knocked, how it ended, the deadwoods,
the upcard), or a partnership round of one hand per table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine

from ..models import Hand, Partie
from .cards import CardsForm


class KnockerField(forms.ChoiceField):
    """The knocker: the two at the table are offered; a seated player who sits out the
    hand (chouette, three players) gets through, for the engine to say who plays it."""

    seated: tuple[str, ...] = ()

    def valid_value(self, value: Any) -> bool:
        return value in self.seated or super().valid_value(value)


class HandForm(CardsForm):
    """One hand: who knocked, how it ended, the deadwoods, and the upcard under Oklahoma;
    or both hands' cards (``CardsForm``)."""

    # The cards' fields come from the base class; they are shown after the hand's own.
    field_order = [
        "kind",
        "knocker",
        "knocker_deadwood",
        "defender_deadwood",
        "upcard",
        "knocker_cards",
        "defender_cards",
    ]

    kind = forms.ChoiceField(
        label=_("Result"),
        choices=Hand.Kind.choices,
        initial=Hand.Kind.KNOCK,
        widget=forms.RadioSelect,
    )
    knocker = KnockerField(label=_("Knocker"), required=False, widget=forms.RadioSelect)
    knocker_deadwood = forms.IntegerField(
        label=_("Knocker's deadwood"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
    )
    defender_deadwood = forms.IntegerField(
        label=_("Defender's deadwood"),
        required=False,
        help_text=_("After lay-offs."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
    )
    upcard = forms.CharField(
        label=_("Upcard"),
        required=False,
        max_length=3,
        help_text=_("Like 7S, TD or AH."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "size": 3}),
    )

    def __init__(
        self,
        *args: Any,
        players: list[str],
        rules: engine.Ruleset,
        seated: list[str] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.fields["knocker"].choices = [(name, name) for name in players]
        self.fields["knocker"].seated = tuple(seated or ())
        self.players, self.rules = players, rules
        if not rules.is_oklahoma:
            del self.fields["upcard"]
        if rules.big_gin_bonus is None:
            self.fields["kind"].choices = [
                c for c in Hand.Kind.choices if c[0] != Hand.Kind.BIG_GIN
            ]

    def offer(self, at_table: tuple[str, str] | None) -> None:
        """Offer only the two at the table as knockers; every seated player stays valid,
        for the engine to say who plays the hand."""
        if at_table:
            self.fields["knocker"].seated = tuple(self.players)
            self.fields["knocker"].choices = [(name, name) for name in at_table]
            self.players = list(at_table)

    def clean_upcard(self) -> engine.Card | None:
        text = self.cleaned_data["upcard"].strip()
        if not text:
            return None
        try:
            return engine.Card.parse(text)
        except engine.CardError:
            raise forms.ValidationError(
                _("%(text)s is not a card: give a rank of A23456789TJQK and a suit of SHDC: 7S."),
                params={"text": text},
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = engine.HandKind(data.get("kind") or "knock")
        self.outcome: engine.KnockOutcome | None = None
        if kind == engine.HandKind.NO_GAME:
            data["hand"] = engine.Hand.no_game()
            return data
        if data.get("knocker_cards") or data.get("defender_cards"):
            return self._clean_cards(data)
        if not data.get("knocker") and "knocker" not in self.errors:
            self.add_error("knocker", _("Say who knocked."))
        for field in ("knocker_deadwood", "defender_deadwood"):
            if field == "knocker_deadwood" and kind != engine.HandKind.KNOCK:
                # A gin has none: a number left there is refused, never silently dropped.
                if data.get(field):
                    self.add_error(
                        field,
                        _(
                            "A gin has no deadwood, but the knocker's deadwood is %(deadwood)s: "
                            "clear it, or enter the hand as a knock."
                        )
                        % {"deadwood": data[field]},
                    )
                continue
            if data.get(field) is None and field not in self.errors:
                self.add_error(field, _("Enter the deadwood."))
        if self.rules.is_oklahoma and data.get("upcard") is None and "upcard" not in self.errors:
            self.add_error("upcard", _("Oklahoma rules need the upcard."))
        if not self.errors:
            dk = data.get("knocker_deadwood") if kind == engine.HandKind.KNOCK else 0
            data["hand"] = engine.Hand(
                kind, data["knocker"], dk, data["defender_deadwood"], data.get("upcard")
            )
        return data

    def add_engine_error(self, error: engine.HandError, message: str) -> None:
        """Show an engine refusal beside the field it concerns."""
        field = error.field if error.field in self.fields else None
        if (
            field == "knocker_deadwood"
            and engine.HandKind(self.cleaned_data.get("kind")) != "knock"
        ):
            field = "kind"
        self.add_error(field, message)

    @classmethod
    def for_entry(
        cls,
        data: Any,
        *,
        players: list[str],
        rules: engine.Ruleset,
        hands: list[Hand],
        seated: list[str] | None,
    ) -> HandForm:
        """The form of a new hand, or of the recorded one being corrected."""
        initial = cls.initial_for(hands[0]) if hands else None
        return cls(data, players=players, rules=rules, initial=initial, seated=seated)

    @classmethod
    def initial_for(cls, hand: Hand) -> dict[str, Any]:
        return {
            "kind": hand.kind,
            "knocker": hand.knocker.name if hand.knocker_id else "",
            "knocker_deadwood": hand.knocker_deadwood,
            "defender_deadwood": hand.defender_deadwood,
            "upcard": hand.upcard,
        }


class RoundForm:
    """A partnership round: one hand form per table (prefixes t1 and t2)."""

    def __init__(
        self,
        data: Any = None,
        *,
        players: list[str],
        rules: engine.Ruleset,
        initial: list[dict] | None = None,
    ):
        initial = initial or [{}, {}]
        self.tables = [
            HandForm(data, players=players[0:2], rules=rules, prefix="t1", initial=initial[0]),
            HandForm(data, players=players[2:4], rules=rules, prefix="t2", initial=initial[1]),
        ]
        self.cleaned_data: dict[str, Any] = {}

    def is_valid(self) -> bool:
        valid = [form.is_valid() for form in self.tables]  # every table shows its errors
        if all(valid):
            hands = tuple(form.cleaned_data["hand"] for form in self.tables)
            self.cleaned_data["hand"] = engine.Round(tables=hands)
        return all(valid)

    @property
    def errors(self) -> bool:
        return any(form.errors for form in self.tables)

    def filled(self) -> RoundForm:
        """Each table whose cards were evaluated, with its result filled in."""
        self.tables = [
            form.filled() if getattr(form, "outcome", None) else form for form in self.tables
        ]
        return self

    def offer(self, at_table: tuple[str, str] | None) -> None:
        """Everyone plays a round: both tables keep their players."""

    def add_engine_error(self, error: engine.HandError, message: str) -> None:
        table = error.table if error.table in (1, 2) else 1
        self.tables[table - 1].add_engine_error(error, message)

    @classmethod
    def for_entry(
        cls,
        data: Any,
        *,
        players: list[str],
        rules: engine.Ruleset,
        hands: list[Hand],
        seated: list[str] | None,
    ) -> RoundForm:
        """The form of a new round, or of the recorded one; everyone plays a round."""
        initial = cls.initial_for(hands) if hands else None
        return cls(data, players=players, rules=rules, initial=initial)

    @classmethod
    def initial_for(cls, hands: list[Hand]) -> list[dict]:
        return [HandForm.initial_for(hand) for hand in sorted(hands, key=lambda h: h.table)]


# The form for each kind of entry the engine records.
ENTRY_FORMS: dict[type, type[HandForm] | type[RoundForm]] = {
    engine.Hand: HandForm,
    engine.Round: RoundForm,
}


def entry_form(
    partie: Partie,
    data: Any = None,
    hands: list[Hand] | None = None,
    at_table: tuple[str, str] | None = None,
):
    """The form for one entry of the partie: a hand, or a round of two tables.

    ``at_table`` names the two who play it where not everyone does (the box and the
    captain of a chouette or a three-player rotation).
    """
    form_class = ENTRY_FORMS[partie.session_class.entry]
    return form_class.for_entry(
        data,
        players=list(at_table or partie.player_names),
        rules=partie.ruleset,
        hands=hands or [],
        seated=partie.player_names if at_table else None,
    )
