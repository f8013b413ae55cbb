"""A card, written suit first as PBN, LIN and the paper's dump write it ('SA', 'hT', 'D10')."""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.types.errors import DomainError
from ddrank.types.strain import STRAIN_LETTERS, Strain

RANKS = "23456789TJQKA"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    suit: Strain
    rank: int  # 2..14

    def __post_init__(self) -> None:
        if self.suit == Strain.N or not 2 <= self.rank <= 14:
            raise DomainError(f"not a card: suit={self.suit!r} rank={self.rank!r}")

    def __str__(self) -> str:
        return self.suit.letter + RANKS[self.rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse 'SA', 'hT', 'D10' (suit first, as PBN/LIN/the paper's dump write cards)."""
        t = text.strip().upper()
        if t[1:] == "10":
            t = t[0] + "T"
        if len(t) != 2 or t[0] not in "CDHS" or t[1] not in RANKS:
            raise DomainError(f"not a card: {text!r}")
        return cls(Strain(STRAIN_LETTERS.index(t[0])), RANKS.index(t[1]) + 2)

    @property
    def index(self) -> int:
        """0..51, clubs 2 first: a compact key for sets and arrays."""
        return int(self.suit) * 13 + self.rank - 2


ALL_CARDS: tuple[Card, ...] = tuple(Card(Strain(s), r) for s in range(4) for r in range(2, 15))
