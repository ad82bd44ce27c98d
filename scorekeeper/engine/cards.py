"""Playing cards: the 52-card deck of gin rummy, with card codes players type.

>>> Card.parse("7H")
Card(rank=7, suit=<Suit.HEARTS: 'H'>)
>>> Card.parse("10d").code, Card.parse("Q♠").code, Card.parse("ts").code
('TD', 'QS', 'TS')
>>> Card.parse("KC").value, Card.parse("AS").value
(10, 1)

A hand is read from codes separated by spaces or commas:

>>> [card.code for card in parse_cards("7h, TD 10c q♠")]
['7H', 'TD', 'TC', 'QS']
>>> parse_cards("7H 7H")
Traceback (most recent call last):
...
scorekeeper.engine.cards.CardError: 7H is given twice: each card of the deck appears once
"""

from __future__ import annotations

import enum
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

RANKS = "A23456789TJQK"


class CardError(ValueError):
    """A card code that names no card of the deck, or cards that cannot form a hand.

    ``code`` (``unknown_card``, ``duplicate_card``, ``card_count``) and ``params``
    let a user interface word the message in its own language; ``token`` is the
    text at fault, if one is; ``str()`` gives the English sentence.
    """

    def __init__(
        self, message: str, *, code: str = "unknown_card", token: str | None = None, **params: Any
    ):
        super().__init__(message)
        self.code, self.token, self.params = code, token, params


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SYMBOLS.items()}


@dataclass(frozen=True)
class Card:
    rank: int  # 1 (ace) to 13 (king)
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code: rank ``A23456789TJQK`` (or ``10``) then suit ``SHDC`` or a symbol."""
        code = str(text).strip().upper()
        rank_text, suit_text = code[:-1], code[-1:]
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in _SUIT_BY_TEXT:
            raise CardError(
                f"{text!r} is not a card: give a rank of A23456789TJQK and a suit of SHDC, like 7S",
                token=str(text),
            )
        rank, suit = RANKS.index(rank_text) + 1, _SUIT_BY_TEXT[suit_text]
        return DECK[13 * _SUIT_ORDER[suit] + rank - 1] if cls is Card else cls(rank, suit)

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, pips at face value, court cards 10."""
        return min(self.rank, 10)

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit.value

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit.symbol


# The 52 cards in deck order: spades A-K, hearts, diamonds, clubs. Card.parse returns
# these very objects, and each carries ``bit``, 1 << its place in this order: the hand
# evaluator reads it rather than working it out for every card of every hand.
_SUIT_ORDER = {suit: n for n, suit in enumerate(Suit)}
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))
for _place, _card in enumerate(DECK):
    object.__setattr__(_card, "bit", 1 << _place)
del _place, _card

_SEPARATORS = re.compile(r"[\s,]+")  # between codes: spaces or commas


def parse_cards(
    text: str | Iterable[str | Card], count: int | Collection[int] | None = None
) -> tuple[Card, ...]:
    """The cards of a hand, in the order given, from codes like ``7H TD 10d Q♠``.

    ``text`` is one string of codes separated by spaces or commas, or a list of
    codes (or cards). ``count`` is the number of cards the hand must have, or a
    tuple of the numbers allowed. Raises CardError naming the first unknown or
    repeated card, or the wrong count.
    """
    tokens = _SEPARATORS.split(text.strip()) if isinstance(text, str) else list(text)
    cards: list[Card] = []
    seen: set[Card] = set()
    for token in tokens:
        if isinstance(token, str):
            # U+FE0F asks for the emoji form of a suit symbol (some phones type it
            # after ♠); it is not part of the code.
            token = token.replace("\ufe0f", "").strip()
            if not token:
                continue
        card = token if isinstance(token, Card) else Card.parse(token)
        if card in seen:
            raise CardError(
                f"{card.code} is given twice: each card of the deck appears once",
                code="duplicate_card",
                token=token if isinstance(token, str) else card.code,
                card=card.code,
            )
        seen.add(card)
        cards.append(card)
    allowed = (count,) if isinstance(count, int) else count
    if allowed is not None and len(cards) not in allowed:
        wanted = (
            f"{min(allowed)} to {max(allowed)}"
            if isinstance(allowed, range) and len(allowed) > 2
            else " or ".join(str(n) for n in allowed)
        )
        raise CardError(
            f"{len(cards)} {'card' if len(cards) == 1 else 'cards'} given: "
            f"a hand here has {wanted} cards",
            code="card_count",
            count=len(cards),
            allowed=allowed,
        )
    return tuple(cards)
