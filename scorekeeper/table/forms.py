"""Forms clean into engine values; the engine decides what a hand scores."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper import engine
from scorekeeper.engine import bounds
from scorekeeper.engine.record import RecordError, loads
from scorekeeper.renderers import DateInput
from scorekeeper.sheets.data import PAD_KINDS
from scorekeeper.vocabulary import CHOICE_WORDS, KIND_NAMES, PRESET_LABELS, RULE_HELP, games_text

from .messages import explain, explain_record, record_text_message
from .models import Evening, Hand, Partie, Player

CHOICE_ENUMS = {
    "shutout": engine.Shutout,
    "dealer_rule": engine.DealerRule,
    "spade_double": engine.SpadeDouble,
    "oklahoma_ace": engine.OklahomaAce,
}


_PLAIN_NUMBER = re.compile(r"[0-9.,'\u00a0\u202f ]*[0-9][0-9.,'\u00a0\u202f ]*")


class PlainDecimalField(forms.DecimalField):
    """An amount as people write it: digits and a decimal point (or comma), within the
    bounds of engine/bounds.py. An exponent (``1e3``), a sign or a word is refused:
    DecimalField alone would take ``1e3`` for 1000."""

    default_error_messages = {
        "plain": _("Enter a number like 0.05: digits and a decimal point only."),
    }

    def __init__(self, *, min_value: Decimal, max_value: Decimal, **kwargs: Any):
        # No max_digits: max_value says the same, and one message is enough.
        super().__init__(
            min_value=min_value,
            max_value=max_value,
            decimal_places=bounds.MONEY_PLACES,
            **kwargs,
        )

    def to_python(self, value: Any) -> Decimal | None:
        if isinstance(value, str) and value.strip() and not _PLAIN_NUMBER.fullmatch(value.strip()):
            raise forms.ValidationError(self.error_messages["plain"], code="plain")
        return super().to_python(value)


def printable(value: str) -> None:
    """A name without control characters (a tab, a line break) or broken Unicode."""
    if bounds.unprintable(value) is not None:
        raise forms.ValidationError(
            _("A name may not hold control characters such as tabs or line breaks."),
            code="unprintable",
        )


def stake_field(**options: Any) -> PlainDecimalField:
    return PlainDecimalField(min_value=Decimal(0), max_value=bounds.MAX_STAKE, **options)


def rule_field(name: str) -> forms.Field:
    """The form field for one rule parameter, labelled and explained."""
    label, help_text = RULE_HELP[name]
    options = {"label": label, "help_text": help_text}
    if name == "knock_limit":
        choices = [(str(n), str(n)) for n in range(11)] + [(engine.UPCARD, _("upcard"))]
        return forms.ChoiceField(choices=choices, **options)
    if name in CHOICE_ENUMS:
        return forms.ChoiceField(choices=list(CHOICE_WORDS[name].items()), **options)
    if name in ("tie_is_undercut", "round_the_corner", "hollywood_game3_double"):
        return forms.BooleanField(required=False, **options)
    if name == "money_unit":
        return PlainDecimalField(
            min_value=bounds.MIN_MONEY_UNIT, max_value=bounds.MAX_MONEY_UNIT, **options
        )
    low, high = bounds.RULE_INTEGERS[name]
    if name == "big_gin_bonus":
        return forms.IntegerField(min_value=low, max_value=high, required=False, **options)
    return forms.IntegerField(min_value=low, max_value=high, **options)


def rule_initial(ruleset: engine.Ruleset) -> dict[str, Any]:
    values = ruleset.to_dict()
    values["knock_limit"] = str(values["knock_limit"])
    return values


class RulesForm(forms.Form):
    """A preset and every rule, each overridable; cleans into ``cleaned_data["ruleset"]``."""

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=list(PRESET_LABELS.items()),
        initial="classic",
        error_messages={
            "invalid_choice": _("%(value)s is not a preset: choose one from the list."),
            "required": _("Choose the rules: one of the presets."),
        },
    )
    # The preset whose values fill the rule fields; differs from `preset` only when
    # the preset was changed without JavaScript, which then reloads the values.
    shown_preset = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name in engine.PARAMETERS:
            self.fields[name] = rule_field(name)
        if not self.is_bound and "shown_preset" not in self.initial:
            self.initial.update(rule_initial(engine.preset("classic")), shown_preset="classic")

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in engine.PARAMETERS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        if preset and data.get("shown_preset") != preset:
            raise forms.ValidationError(_("The preset changed."), code="preset_changed")
        if preset and not any(name in self.errors for name in engine.PARAMETERS):
            try:
                data["ruleset"] = engine.preset(preset, **self._overrides(data))
            except engine.RulesError as error:
                raise forms.ValidationError(str(error)) from error
        return data

    def _overrides(self, data: dict[str, Any]) -> dict[str, Any]:
        values = {name: data[name] for name in engine.PARAMETERS}
        if values["knock_limit"] != engine.UPCARD:
            values["knock_limit"] = int(values["knock_limit"])
        return values


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

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for n in range(MOST_SEATS, 0, -1):  # inserted after `kind`, so the last first
            self.fields = {
                "kind": self.fields.pop("kind"),
                f"player_{n}": forms.CharField(
                    label=SEAT_LABELS[n - 1],
                    max_length=bounds.MAX_NAME_LENGTH,
                    required=False,
                    validators=[printable],
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
    def seat_fields(self) -> list[tuple[forms.BoundField, forms.BoundField | None]]:
        return [
            (self[f"player_{n}"], self[f"stake_{n}"] if n > 1 else None)
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


class KnockerField(forms.ChoiceField):
    """The knocker: the two at the table are offered; a seated player who sits out the
    hand (chouette, three players) gets through, for the engine to say who plays it."""

    seated: tuple[str, ...] = ()

    def valid_value(self, value: Any) -> bool:
        return value in self.seated or super().valid_value(value)


class HandForm(forms.Form):
    """One hand: who knocked, how it ended, the deadwoods, and the upcard under Oklahoma."""

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
    # Instead of the deadwoods, both hands' cards: the evaluator finds the melds, the
    # deadwood and the lay-offs, and fills in the hand.
    knocker_cards = forms.CharField(
        label=_("Knocker's cards"),
        required=False,
        max_length=80,
        help_text=_("10 cards (11 before the discard), e.g. 7h 8h 9h KS KD KC 2c 3c 4c 5d."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )
    defender_cards = forms.CharField(
        label=_("Defender's cards"),
        required=False,
        max_length=80,
        help_text=_("His 10 cards."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
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

    def _clean_cards(self, data: dict[str, Any]) -> dict[str, Any]:
        """The hand played out from both hands' cards by the evaluator."""
        for field in ("knocker_cards", "defender_cards"):
            if not data.get(field):
                self.add_error(field, _("Enter both hands' cards, or neither."))
        if not data.get("knocker") and "knocker" not in self.errors:
            self.add_error("knocker", _("Say who knocked."))
        if self.rules.is_oklahoma and data.get("upcard") is None and "upcard" not in self.errors:
            self.add_error("upcard", _("Oklahoma rules need the upcard."))
        hands = {}
        for field, counts in (("knocker_cards", (10, 11)), ("defender_cards", (10,))):
            if not data.get(field):
                continue  # asked for above; "0 cards" would say it twice
            try:
                hands[field] = engine.parse_cards(data.get(field) or "")
            except engine.CardError as error:
                self.add_error(field, card_message(error))
                continue
            if len(hands[field]) not in counts:
                self.add_error(field, count_message(field, len(hands[field])))
        if self.errors:
            return data
        try:
            self.outcome = engine.knock_outcome(
                hands["knocker_cards"],
                hands["defender_cards"],
                self.rules,
                upcard=data.get("upcard"),
                knocker=data["knocker"],
            )
        except engine.CardError as error:  # a card in both hands
            self.add_error("defender_cards", card_message(error))
        except engine.HandError as error:
            self.add_error("knocker_cards", explain(error))
        else:
            data["hand"] = self.outcome.hand
        return data

    def filled(self) -> HandForm:
        """The form again with the result the cards gave filled in, to check before saving."""
        if self.outcome is None:
            return self
        hand = self.outcome.hand
        data = self.data.copy()
        data[self.add_prefix("kind")] = hand.kind.value
        data[self.add_prefix("knocker_deadwood")] = hand.knocker_deadwood or ""
        data[self.add_prefix("defender_deadwood")] = hand.defender_deadwood
        filled = type(self)(
            data,
            players=self.players,
            rules=self.rules,
            prefix=self.prefix,
            seated=list(self.fields["knocker"].seated),
        )
        filled.is_valid()
        filled.outcome = self.outcome
        return filled

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


def card_message(error: engine.CardError) -> str:
    """A card error in the player's words (its English text when no code is known)."""
    if error.code == "duplicate_card":
        return _("%(card)s is given twice: each card of the deck appears once.") % error.params
    if error.code == "unknown_card" and error.token:
        return _("%(text)s is not a card: give a rank of A23456789TJQK and a suit of SHDC: 7S.") % {
            "text": error.token
        }
    return str(error)


def count_message(field: str, count: int) -> str:
    if field == "knocker_cards":
        return _("%(count)s cards: the knocker holds 10 (11 before his discard).") % {
            "count": count
        }
    return _("%(count)s cards: the defender holds 10.") % {"count": count}


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


class EveningForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=80, initial=_("Card night"), validators=[printable]
    )
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
