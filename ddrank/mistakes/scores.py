"""Cached duplicate scores for the mistake accounting.

The auction analysis scores up to 35 bids x 2 seats x 3 doublings per board; a small cache over
`duplicate_score` keeps that cheap. Only the pre-1988 penalty rule depends on the year, so the year
is folded to 0 (modern) or 1 (old rule) before it reaches the cache key.
"""

from __future__ import annotations

from functools import lru_cache

from ddrank.scoring.arithmetic.duplicate import MODERN_PENALTY_FROM_YEAR, duplicate_score
from ddrank.types import Contract, Strain


@lru_cache(maxsize=65536)
def _score(level: int, strain: Strain, doubled: int, tricks: int, vul: bool, old: bool) -> int:
    return duplicate_score(Contract(level, strain, doubled), tricks, vul, 1 if old else 0)


def score(level: int, strain: Strain, doubled: int, tricks: int, vul: bool, year: int) -> int:
    """Declarer side's duplicate score; `vul` is that side's vulnerability."""
    return _score(level, strain, doubled, tricks, bool(vul), 1 <= year < MODERN_PENALTY_FROM_YEAR)


def contract_score(contract: Contract, tricks: int, vul: bool, year: int) -> int:
    return score(contract.level, contract.strain, contract.doubled, tricks, vul, year)


def assumed_doubled_score(level: int, strain: Strain, tricks: int, vul: bool, year: int) -> int:
    """Score of a contract the side did not bid: doubled by the opponents if it goes down.

    Reference dds:166/:303: a side that could have bid a failing contract expects to be doubled.
    """
    doubled = 1 if tricks < level + 6 else 0
    return score(level, strain, doubled, tricks, vul, year)
