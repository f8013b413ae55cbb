"""The cards of a play in playing order, with the seat of each; who wins a trick."""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.types.card import Card
from ddrank.types.errors import DomainError
from ddrank.types.seat import Seat
from ddrank.types.strain import Strain


@dataclass(frozen=True, slots=True)
class Play:
    """Cards in the order they were played, each with the seat that played it."""

    cards: tuple[Card, ...]
    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.seats):
            raise DomainError("a play needs one seat per card")

    @property
    def opening_leader(self) -> Seat | None:
        return self.seats[0] if self.seats else None

    def __len__(self) -> int:
        return len(self.cards)


def trick_winner(cards: list[Card], leader: Seat, trump: Strain) -> Seat:
    """The seat that wins a complete trick led by `leader` with `trump` as trumps."""
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = i
        elif c.suit == trump and trump != Strain.N:
            best = i
    return leader.offset(best)
