"""Playing cards: the 52-card deck of gin rummy, with card codes players type.

>>> Card.parse("7H")
Card(rank=7, suit=<Suit.HEARTS: 'H'>)
>>> Card.parse("10d").code, Card.parse("Q♠").code, Card.parse("ts").code
('TD', 'QS', 'TS')
>>> Card.parse("KC").value, Card.parse("AS").value
(10, 1)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

RANKS = "A23456789TJQK"


class CardError(ValueError):
    """A card code that names no card of the deck."""


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
                f"{text!r} is not a card: give a rank of A23456789TJQK and a suit of SHDC, like 7S"
            )
        return cls(RANKS.index(rank_text) + 1, _SUIT_BY_TEXT[suit_text])

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, pips at face value, court cards 10."""
        return min(self.rank, 10)

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit.value

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit.symbol
