"""A hand: a set of cards, written in PBN as four suits S.H.D.C."""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.types.card import RANKS, Card
from ddrank.types.errors import DomainError
from ddrank.types.strain import SUITS, Strain


@dataclass(frozen=True, slots=True)
class Hand:
    cards: frozenset[Card]

    def suit(self, suit: Strain) -> list[Card]:
        return sorted((c for c in self.cards if c.suit == suit), key=lambda c: -c.rank)

    def to_pbn(self) -> str:
        return ".".join("".join(RANKS[c.rank - 2] for c in self.suit(s)) for s in SUITS)

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        suits = text.split(".")
        if len(suits) != 4:
            raise DomainError(f"hand {text!r} does not have 4 suits")
        cards: list[Card] = []
        for suit, holding in zip(SUITS, suits, strict=True):
            for ch in holding.upper():
                if ch not in RANKS:
                    raise DomainError(f"bad rank {ch!r} in hand {text!r}")
                cards.append(Card(suit, RANKS.index(ch) + 2))
        if len(set(cards)) != len(cards):
            raise DomainError(f"card repeated in hand {text!r}")
        return cls(frozenset(cards))

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def hcp(self) -> int:
        return sum(max(0, c.rank - 10) for c in self.cards)
