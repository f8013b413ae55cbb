"""Published precision: a value printed with k decimals agrees when ours rounds to it at k.

Scorers print their numbers rounded: matchpoints with one or two decimals, line percentages
as integers or with decimals, most final percentages with two (the rulebooks say whose). Ours are
exact, so "agree" means: ours, rounded to the decimals the value is printed with, is the value.
Exactly half a unit away agrees too, since scorers round halves either way (up, or to even).

A value kept as text has its own decimals (`decimals`). A column read as numbers (a traveller's
matchpoints, once parsed) is printed with one precision for the whole column: the most decimals
any of its values needs (`column_decimals`), so "40.0" beside "28.3" is read at one decimal.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

#: Decimals beyond which a printed number is taken as exact (binary noise, not a rounding).
MAX_DECIMALS = 6
#: Significant digits a scorer's arithmetic carries at the least: single precision (one producer prints
#: 53.846153 for 700/13, the float32 of 53.8461538...); digits printed beyond are noise.
SIGNIFICANT = 7
_EPS = 1e-9


def decimals(text: object) -> int | None:
    """The decimals a number is printed with ('22.2' -> 1, '-5.00' -> 2, '42', '42%' -> 0);
    None when the text is not a number."""
    t = str(text if text is not None else "").strip().replace(",", ".").rstrip("%").strip()
    try:
        float(t)
    except ValueError:
        return None
    if "e" in t.lower():
        return MAX_DECIMALS
    return min(len(t.split(".", 1)[1]), MAX_DECIMALS) if "." in t else 0


def float_decimals(value: float) -> int:
    """The decimals a number read from print needs (28.3 -> 1, 40.0 -> 0)."""
    return decimals(repr(float(value))) if math.isfinite(value) and value != int(value) else 0  # type: ignore[return-value]


def column_decimals(values: Iterable[float | None]) -> int:
    """The precision a column of printed numbers shares: the most decimals any value needs."""
    return max((float_decimals(v) for v in values if v is not None), default=0)


def round_half_away(value: float, k: int) -> float:
    """`value` to k decimals, halves away from zero (as scorers print), robust to binary noise."""
    scaled = abs(value) * 10**k
    return math.copysign(math.floor(scaled + 0.5 + _EPS) / 10**k, value)


def agrees(ours: float | None, published: float | None, k: int) -> bool:
    """Whether `ours` printed with k decimals can be `published`."""
    if ours is None or published is None:
        return False
    return abs(ours - published) <= 0.5 * 10.0**-k + _EPS


def agrees_printed(ours: float | None, published: object) -> bool:
    """`agrees` for a value kept as printed ('55.94', '61%'): its own decimals decide, at most
    `SIGNIFICANT` significant digits of them."""
    k = decimals(published)
    if ours is None or k is None:
        return False
    value = float(str(published).strip().replace(",", ".").rstrip("%"))
    whole = len(str(int(abs(value)))) if abs(value) >= 1 else 0
    return agrees(ours, value, min(k, max(SIGNIFICANT - whole, 0)))


def shown(ours: float | None, k: int) -> str:
    """Ours printed for a reader beside a published value of k decimals: two more than it."""
    return "none" if ours is None else f"{ours:.{min(k + 2, MAX_DECIMALS)}f}"
