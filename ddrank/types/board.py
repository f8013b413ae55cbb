"""One table result as value objects, and the year of a board as records write it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ddrank.types.auction import Auction
from ddrank.types.contract import Contract
from ddrank.types.deal import Deal
from ddrank.types.play import Play
from ddrank.types.seat import Seat
from ddrank.types.vulnerability import Vulnerability


@dataclass(frozen=True, slots=True)
class Board:
    """One table result: a deal, how it was bid and played, and who sat where."""

    record_id: str
    deal: Deal
    dealer: Seat | None
    vulnerability: Vulnerability
    names: tuple[str, str, str, str]  # indexed by Seat
    auction: Auction | None = None
    contract: Contract | None = None  # None: passed out or unknown, see `passed_out`
    passed_out: bool = False
    play: Play | None = None
    claim_tricks: int | None = None
    result: int | None = None
    year: int = 0
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def declarer(self) -> Seat | None:
        return self.contract.declarer if self.contract else None

    @property
    def deal_id(self) -> str:
        return self.deal.deal_id


_DATE_YEAR = re.compile(r"^(\d{4})")
_ANY_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


def board_year(date: str, event: str, lo: int = 1900, hi: int = 2100) -> int:
    """The year from the date, else from the event name; 0 when none is plausible."""
    m = _DATE_YEAR.match(date.strip())
    if m and lo <= int(m.group(1)) <= hi:
        return int(m.group(1))
    for y in _ANY_YEAR.findall(event):
        if lo <= int(y) <= hi:
            return int(y)
    return 0
