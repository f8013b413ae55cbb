"""Strains, ordered C<D<H<S<N as in the auction; `Strain.dds_index` gives DDS's S,H,D,C,N = 0..4."""

from __future__ import annotations

from enum import IntEnum

from ddrank.types.errors import DomainError

STRAIN_LETTERS = "CDHSN"


class Strain(IntEnum):
    C = 0
    D = 1
    H = 2
    S = 3
    N = 4

    @property
    def letter(self) -> str:
        return STRAIN_LETTERS[self]

    @property
    def dds_index(self) -> int:
        """DDS numbers strains S,H,D,C,NT as 0..4."""
        return (3 - self) if self != Strain.N else 4

    @property
    def is_major(self) -> bool:
        return self in (Strain.H, Strain.S)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.C, Strain.D)

    @classmethod
    def parse(cls, text: str) -> Strain:
        t = text.strip().upper()
        if t in ("NT", "N"):
            return cls.N
        if len(t) != 1 or t not in "CDHS":
            raise DomainError(f"not a strain: {text!r}")
        return cls(STRAIN_LETTERS.index(t))


SUITS = (Strain.S, Strain.H, Strain.D, Strain.C)  # PBN hand order
