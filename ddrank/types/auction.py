"""Calls and auctions: the value objects, and the notation of calls as sources write them
('PASS', 'DBL', 'XX', '1NT', 'AP'), read into clean tokens (P, X, R, 1C..7N)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from ddrank.types.contract import Contract
from ddrank.types.errors import DomainError
from ddrank.types.seat import Seat
from ddrank.types.strain import Strain


class CallKind(IntEnum):
    BID = 0
    PASS = 1
    DOUBLE = 2
    REDOUBLE = 3


@dataclass(frozen=True, slots=True)
class Call:
    kind: CallKind
    level: int = 0
    strain: Strain | None = None

    def __post_init__(self) -> None:
        if self.kind == CallKind.BID and not (1 <= self.level <= 7 and self.strain is not None):
            raise DomainError(f"bad bid: level={self.level} strain={self.strain}")

    @property
    def is_bid(self) -> bool:
        return self.kind == CallKind.BID

    @property
    def rank(self) -> int:
        """Position among the 35 bids 1C..7N (0..34); only for bids."""
        assert self.strain is not None
        return (self.level - 1) * 5 + int(self.strain)

    def __str__(self) -> str:
        if self.kind == CallKind.BID:
            assert self.strain is not None
            return f"{self.level}{self.strain.letter}"
        return "PXR"[self.kind - 1]

    @classmethod
    def parse(cls, text: str) -> Call:
        """Parse a clean call token: P, X, R, or a bid like 1C..7N (NT accepted)."""
        t = text.strip().upper()
        if t in ("P", "PASS"):
            return PASS
        if t in ("X", "D", "DBL"):
            return DOUBLE
        if t in ("R", "XX", "RDBL", "REDBL"):
            return REDOUBLE
        if len(t) >= 2 and t[0] in "1234567":
            return cls(CallKind.BID, int(t[0]), Strain.parse(t[1:]))
        raise DomainError(f"not a call: {text!r}")


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)
ALL_BIDS: tuple[Call, ...] = tuple(
    Call(CallKind.BID, level, Strain(s)) for level in range(1, 8) for s in range(5)
)


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls in order, starting with `first` (normally the dealer)."""

    first: Seat
    calls: tuple[Call, ...]

    def seat_of(self, k: int) -> Seat:
        return self.first.offset(k)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.calls)

    @property
    def final_contract(self) -> Contract | None:
        """The contract the auction reached, None when passed out (or no bid at all)."""
        last_bid_at = None
        doubled = 0
        for k, call in enumerate(self.calls):
            if call.is_bid:
                last_bid_at, doubled = k, 0
            elif call.kind == CallKind.DOUBLE:
                doubled = 1
            elif call.kind == CallKind.REDOUBLE:
                doubled = 2
        if last_bid_at is None:
            return None
        bid = self.calls[last_bid_at]
        assert bid.strain is not None
        side = self.seat_of(last_bid_at) % 2
        declarer = next(
            self.seat_of(k)
            for k, c in enumerate(self.calls)
            if c.is_bid and c.strain == bid.strain and self.seat_of(k) % 2 == side
        )
        return Contract(bid.level, bid.strain, doubled, declarer)


# ---------------------------------------------------------------- call tokens as written
_BIDS = {f"{lv}{s}" for lv in range(1, 8) for s in "CDHSN"}
_BID_ORDER = {b: (int(b[0]) - 1) * 5 + "CDHSN".index(b[1]) for b in _BIDS}
_TOKEN_MAP = {"PASS": ["P"], "PAS": ["P"], "AP": ["P", "P", "P"], "DBL": ["X"],
              "REDBL": ["R"], "XX": ["R"], "XXX": ["X", "R"], "S3": ["3S"]}  # fmt: skip
_SCAN = re.compile(r"XX|PASS|R|X|[1-7][CDHSN]")


def clean_call_token(token: str) -> list[str]:
    """One raw auction token as clean calls (reference §2.4 token cleaning; bid_map.txt)."""
    t = token.upper().rstrip("!").lstrip("=0")
    if t in ("P", "X", "R") or t in _BIDS:
        return [t]
    if t in _TOKEN_MAP:
        return list(_TOKEN_MAP[t])
    return ["R" if m == "XX" else "P" if m == "PASS" else m for m in _SCAN.findall(t)]


def clean_calls(auction: str) -> list[str]:
    return [c for token in auction.split() for c in clean_call_token(token)]


def auction_contract(calls: list[str]) -> str:
    """'P' when no bid was made, else the last bid with 'X'/'R' (reference dc:295-317)."""
    last = None
    mark = ""
    for c in calls:
        if c in _BID_ORDER:
            last, mark = c, ""
        elif c == "X" and last:
            mark = "X"
        elif c == "R" and last:
            mark = "R"
    return "P" if last is None else last + mark


def auction_declarer(calls: list[str], bidstart: int) -> int | None:
    """First player of the side that made the last bid to name its strain; None if no bid."""
    last_at = max((k for k, c in enumerate(calls) if c in _BID_ORDER), default=None)
    if last_at is None:
        return None
    strain, side = calls[last_at][1], (bidstart + last_at) % 2
    for k, c in enumerate(calls):
        if c in _BID_ORDER and c[1] == strain and (bidstart + k) % 2 == side:
            return (bidstart + k) % 4
    return None  # unreachable
