"""Duplicate bridge score of one table result, and the WBF IMP scale.

Every measure in ddrank (DD mistakes weighted in points, Butler, cross-IMPs, the Cammarata split,
Lehman ratings) is built on these two functions, so they follow the law book exactly
(Marriner 2024 Tables A1-A7; reference behaviour §4 "Score S").
"""

from __future__ import annotations

from bisect import bisect_right

from ddrank.types import Contract, DomainError, Strain

#: First year of the modern (1988) penalty table; 1 <= year <= 1987 uses Table A7.
MODERN_PENALTY_FROM_YEAR = 1988

#: WBF IMP table: the smallest point difference that earns 1, 2, ..., 24 IMPs.
IMP_THRESHOLDS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def trick_value(strain: Strain) -> int:
    """Undoubled contract points of one odd trick (NT: the 2nd and later; the 1st is +10)."""
    return 20 if strain.is_minor else 30


def contract_points(level: int, strain: Strain, doubled: int) -> int:
    """Points below the line for `level` odd tricks: decides part-score versus game."""
    points = level * trick_value(strain) + (10 if strain == Strain.N else 0)
    return points * (1, 2, 4)[doubled]


def penalty(undertricks: int, doubled: int, vulnerable: bool, year: int = 0) -> int:
    """Points the defenders earn for `undertricks` (>= 1) down (Tables A6 and A7)."""
    if undertricks < 1:
        raise DomainError(f"penalty needs at least one undertrick, got {undertricks}")
    if doubled == 0:
        return undertricks * (100 if vulnerable else 50)
    if vulnerable:
        points = 200 + 300 * (undertricks - 1)
    else:
        old_rule = 1 <= year < MODERN_PENALTY_FROM_YEAR
        later = 200 if old_rule else 300
        points = 100 + 200 * min(undertricks - 1, 2) + later * max(undertricks - 3, 0)
    return points * doubled  # redoubled = 2 x doubled


def duplicate_score(contract: Contract, tricks: int, vulnerable: bool, year: int = 0) -> int:
    """The declarer side's score when `contract` takes `tricks` (0..13) tricks.

    `vulnerable` is the declarer side's vulnerability. `year` 0 means "modern"; 1..1987 applies the
    pre-1988 penalty table (NV doubled 4th and later undertricks 200, not 300).
    """
    if not 0 <= tricks <= 13:
        raise DomainError(f"a declarer takes 0..13 tricks, not {tricks}")
    needed = contract.tricks_needed
    if tricks < needed:
        return -penalty(needed - tricks, contract.doubled, vulnerable, year)
    below = contract_points(contract.level, contract.strain, contract.doubled)
    score = below
    score += (500 if vulnerable else 300) if below >= 100 else 50
    if contract.level == 6:
        score += 750 if vulnerable else 500
    elif contract.level == 7:
        score += 1500 if vulnerable else 1000
    over = tricks - needed
    if contract.doubled == 0:
        score += over * trick_value(contract.strain)
    else:
        score += over * (200 if vulnerable else 100) * contract.doubled
        score += 50 * contract.doubled  # the insult
    return score


def imps(diff: int | float) -> int:
    """IMPs for a point difference on the WBF table, with the sign of `diff`.

    A difference between two table rows (only possible against a non-rounded datum) falls into the
    lower row: 15 -> 0, 45 -> 1, so a row is reached only at its published lower bound.
    """
    n = bisect_right(IMP_THRESHOLDS, abs(diff))
    return n if diff >= 0 else -n
