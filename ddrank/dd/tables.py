"""The double-dummy trick table of one deal, in ddrank's own strain and seat order.

DDS numbers strains S,H,D,C,NT; ddrank numbers them C,D,H,S,N like the auction. Keeping the
conversion in one place means no caller ever indexes a DDS array by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ddrank.types import DomainError, Seat, Strain


@dataclass(frozen=True, slots=True)
class TrickTable:
    """Tricks each seat takes as declarer in each strain, both sides playing perfectly.

    `cells` holds 20 values, strain-major in ddrank order (C,D,H,S,N) and seat N,E,S,W inside.
    """

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != 20 or not all(0 <= t <= 13 for t in self.cells):
            raise DomainError(f"a DD table needs 20 values in 0..13, got {self.cells!r}")

    def tricks(self, strain: Strain, declarer: Seat) -> int:
        return self.cells[int(strain) * 4 + int(declarer)]

    @classmethod
    def from_dds_rows(cls, rows: Sequence[Sequence[int]]) -> TrickTable:
        """Build from a DDS-ordered table: rows S,H,D,C,NT, each N,E,S,W."""
        by_strain = {Strain.S: rows[0], Strain.H: rows[1], Strain.D: rows[2], Strain.C: rows[3]}
        by_strain[Strain.N] = rows[4]
        return cls(tuple(int(by_strain[Strain(s)][seat]) for s in range(5) for seat in range(4)))

    def to_dds_rows(self) -> list[list[int]]:
        """The table in DDS order (rows S,H,D,C,NT, columns N,E,S,W), as DDS test files print it."""
        order = (Strain.S, Strain.H, Strain.D, Strain.C, Strain.N)
        return [[self.tricks(s, Seat(p)) for p in range(4)] for s in order]

    def rows(self) -> Iterable[tuple[Strain, Seat, int]]:
        """(strain, declarer, tricks) for all 20 cells: the long form stored in `dd_tables`."""
        for s in range(5):
            for p in range(4):
                yield Strain(s), Seat(p), self.cells[s * 4 + p]
