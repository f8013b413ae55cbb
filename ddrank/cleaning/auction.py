"""The laws of the auction as the paper states them, and the leading-pass repair."""

from __future__ import annotations

from ddrank.types import Reject, auction_declarer
from ddrank.types.auction import _BID_ORDER


def check_auction(calls: list[str]) -> None:
    """The laws of the auction as the paper states them (reference §2.4b-d)."""
    n = len(calls)
    if n < 4 or calls[-3:] != ["P", "P", "P"]:
        raise Reject("pass_rule", "the auction does not end with three passes")
    for i in range(1, n - 3):
        if calls[i] == calls[i + 1] == calls[i + 2] == "P":
            raise Reject("pass_rule", f"three passes at call {i + 1} before the end")
    last_bid = -1
    for c in calls:
        if c in _BID_ORDER:
            if _BID_ORDER[c] <= last_bid:
                raise Reject("contract_bid_order", f"{c} after a higher or equal bid")
            last_bid = _BID_ORDER[c]
    bid_seen = False
    pos = 0
    doubled = redoubled = False
    for c in calls:
        if c in _BID_ORDER:
            bid_seen, pos, doubled, redoubled = True, 0, False, False
            continue
        if c == "X" and (not bid_seen or doubled or redoubled or pos % 2 == 1):
            raise Reject("illegal_double", f"double at position {pos} after the last bid")
        if c == "R" and (not bid_seen or not doubled or redoubled or pos % 2 == 0):
            raise Reject("illegal_redouble", f"redouble at position {pos} after the last bid")
        doubled = doubled or c == "X"
        redoubled = redoubled or c == "R"
        pos += 1


def restore_leading_passes(calls: list[str], bidstart: int, declarer: int) -> tuple[list[str], int]:
    """Some exports drop the passes before the opening bid, so the calls sit one to three seats
    off. When the recorded declarer agrees with exactly one such shift, restore the passes."""
    if not calls or calls[0] not in _BID_ORDER:
        return calls, 0
    fits = [k for k in (1, 2, 3) if auction_declarer(calls, (bidstart + k) % 4) == declarer]
    if len(fits) != 1:
        return calls, 0
    return ["P"] * fits[0] + calls, fits[0]
