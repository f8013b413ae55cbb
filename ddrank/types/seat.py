"""Seats, numbered N=0, E=1, S=2, W=3 clockwise, as in the Marriner code and DDS."""

from __future__ import annotations

from enum import IntEnum

from ddrank.types.errors import DomainError

SEAT_LETTERS = "NESW"


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise, who leads against this declarer."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def rho(self) -> Seat:
        return Seat((self + 3) % 4)

    @property
    def is_ns(self) -> bool:
        return self in (Seat.N, Seat.S)

    def offset(self, k: int) -> Seat:
        return Seat((self + k) % 4)

    @classmethod
    def parse(cls, text: str) -> Seat:
        t = text.strip().upper()
        if len(t) != 1 or t not in SEAT_LETTERS:
            raise DomainError(f"not a seat: {text!r}")
        return cls(SEAT_LETTERS.index(t))
