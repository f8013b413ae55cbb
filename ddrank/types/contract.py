"""A final contract ('4S', '3NT', '7NTXX'), and the record notation of contracts."""

from __future__ import annotations

from dataclasses import dataclass

from ddrank.types.errors import DomainError
from ddrank.types.seat import Seat
from ddrank.types.strain import STRAIN_LETTERS, Strain


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract. `doubled` is 0, 1 (X) or 2 (R)."""

    level: int
    strain: Strain
    doubled: int = 0
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7 or self.doubled not in (0, 1, 2):
            raise DomainError(f"bad contract: {self.level}{self.strain} doubled={self.doubled}")

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    def __str__(self) -> str:
        return f"{self.level}{self.strain.letter}{['', 'X', 'R'][self.doubled]}"

    def with_doubling(self, doubled: int) -> Contract:
        return Contract(self.level, self.strain, doubled, self.declarer)

    @classmethod
    def parse(cls, text: str, declarer: Seat | None = None) -> Contract:
        """Parse '4S', '3NT', '7NTXX', '4SX', '2HR' (no declarer letter inside)."""
        t = text.strip().upper().replace("NT", "N")
        doubled = 0
        if t.endswith("XX") or t.endswith("R"):
            doubled, t = 2, t[:-2] if t.endswith("XX") else t[:-1]
        elif t.endswith("X"):
            doubled, t = 1, t[:-1]
        if len(t) != 2 or t[0] not in "1234567" or t[1] not in STRAIN_LETTERS:
            raise DomainError(f"not a contract: {text!r}")
        return cls(int(t[0]), Strain.parse(t[1]), doubled, declarer)


def normalise_contract(text: str) -> str:
    """Record contract as 'P' or LSD (S in CDHSN, D in '', X, R); '' when absent or unreadable."""
    t = text.strip().upper().replace(" ", "")
    if not t:
        return ""
    if t in ("PASS", "P", "AP", "PASSED", "PASSEDOUT", "ALLPASS"):
        return "P"
    if t.endswith("XX"):
        t = t[:-2] + "R"
    t = t.replace("NT", "N")
    if len(t) >= 2 and t[0] in "1234567" and t[1] in "CDHSN" and t[2:] in ("", "X", "R"):
        return t
    return "?" + text.strip()  # unreadable: it can only contradict a known auction
