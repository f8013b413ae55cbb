"""IMP comparisons of a board's results: cross-IMPs, Butler and Bastille (De Wael 1996).

Scores are North-South's. Cross-IMPs compare every result with every other one; Butler and
Bastille compare each result with a datum, the mean of the field after dropping extreme scores.
Dropping is either a fixed count on each side, or the seed's fractional rule: the same fraction
(e.g. 10%) of the results on each side, the last one counted in part, so that boards played by a
different number of tables (fouled boards, missing results) keep the same datum when results occur
with the same relative frequency.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from ddrank.scoring.arithmetic.duplicate import imps


def cross_imp_totals(scores: Sequence[float]) -> list[int]:
    """For each result, the sum of the IMPs it wins against every other result in its group.

    Computed once per distinct score (a board of 40 tables has a dozen), weighted by how often
    each other score occurs: the same sums, without 40 x 40 comparisons."""
    counts = Counter(scores)
    total = {s: sum(k * imps(s - o) for o, k in counts.items()) for s in counts}
    return [total[s] for s in scores]  # imps(0) = 0 against itself


def cross_imps(
    scores: Sequence[float], divide_by: Literal["comparisons", "results"] = "results"
) -> list[float]:
    """Cross-IMPs averaged per comparison (A, n-1) or per result (B, n, the seed's preference).

    Dividing by the number of results keeps a fouled board's groups on one scale: a result that
    occurs with the same relative frequency scores the same in a group of 5 and a group of 10.
    """
    n = len(scores)
    div = n - 1 if divide_by == "comparisons" else n
    totals = cross_imp_totals(scores)
    return [t / div if div else 0.0 for t in totals]


def drop_weights(n: int, drop: float) -> list[float]:
    """Weights of the n sorted results after dropping `drop` results' worth from each end.

    Result i covers [i, i+1] on the sorted axis; its weight is the part of that interval inside
    [drop, n - drop]. A whole `drop` removes whole results, a fractional one counts the last in part.
    """
    if drop < 0 or 2 * drop >= n:
        raise ValueError(f"cannot drop {drop} from each end of {n} results")
    lo, hi = drop, n - drop
    return [max(0.0, min(i + 1, hi) - max(i, lo)) for i in range(n)]


def trimmed_mean(
    scores: Sequence[float], drop_count: int | None = 1, drop_fraction: float | None = None
) -> float:
    """Mean after dropping extremes: a fixed count each side, or a fraction of the results.

    With a fixed count, a small field drops fewer (never all results): (n-1)//2 at most.
    """
    n = len(scores)
    if n == 0:
        raise ValueError("no results to average")
    if drop_fraction is not None:
        if not 0 <= drop_fraction < 0.5:
            raise ValueError("drop_fraction must be in [0, 0.5)")
        drop = drop_fraction * n
    else:
        drop = float(min(drop_count or 0, (n - 1) // 2))
    ordered = sorted(scores)
    weights = drop_weights(n, drop)
    return math.fsum(w * s for w, s in zip(weights, ordered, strict=True)) / math.fsum(weights)


def round_datum(value: float, step: int = 10) -> float:
    """Round a datum to the nearest `step` points, halves away from zero, as scorers do."""
    if step <= 0:
        return value
    return math.copysign(math.floor(abs(value) / step + 0.5) * step, value)


def butler_datum(
    scores: Sequence[float],
    drop_count: int | None = 1,
    drop_fraction: float | None = None,
    round_to: int = 10,
) -> float:
    """The Butler datum: the trimmed mean, rounded to 10 points so differences fit the IMP table."""
    return round_datum(trimmed_mean(scores, drop_count, drop_fraction), round_to)


def butler(
    scores: Sequence[float],
    drop_count: int | None = 1,
    drop_fraction: float | None = None,
    round_to: int = 10,
) -> list[int]:
    """IMPs of each result against the Butler datum of its group."""
    datum = butler_datum(scores, drop_count, drop_fraction, round_to)
    return [imps(s - datum) for s in scores]


def bastille_datum(
    scores: Sequence[float], drop_count: int | None = 1, drop_fraction: float | None = None
) -> float:
    """The Bastille datum: the same trimmed mean, not rounded (De Wael's 398.5, 380, 350)."""
    return trimmed_mean(scores, drop_count, drop_fraction)


def bastille(
    scores: Sequence[float], drop_count: int | None = 1, drop_fraction: float | None = None
) -> list[float]:
    """Each result's difference from the Bastille datum, in total points.

    The seed fixes only how the Bastille datum is formed; ddrank reports the difference in points
    (see docs/methodology.md (scoring section)), so a board's Bastille scores sum to zero when nothing
    is dropped.
    """
    datum = bastille_datum(scores, drop_count, drop_fraction)
    return [s - datum for s in scores]
