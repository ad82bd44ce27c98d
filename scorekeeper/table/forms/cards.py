"""A hand entered as both players' cards: the evaluator finds the melds, the deadwood
and the lay-offs, and fills in the hand."""

from __future__ import annotations

from typing import Any, Self

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper import engine

from ..messages import explain


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


class CardsForm(forms.Form):
    """Both hands' cards, as a hand form may take them instead of the deadwoods; the
    subclass (``HandForm``) has the knocker, the upcard, ``players`` and ``rules``."""

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

    def filled(self) -> Self:
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
