"""Matchpoints, and the four ways of rescaling a fouled board's groups (De Wael 1996).

All scores are in one direction (North-South). A group is the list of tables that played one
version of the board; a normal board is a single group. The methods differ only in how a small
group's matchpoints are lifted to the top of the whole field:

* Mitchell 1: add the number of tables in all other groups;
* Mitchell 1 bis: rescale by the ratio of tops, (N-1)/(n-1);
* Neuberg: (MP + 1) * N/n - 1, which keeps the average at average;
* Ascherman: (MP + 1) * N/n, the Ascherman scale in which a table also "ties with itself".
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Literal

Groups = Sequence[Sequence[float]]


def matchpoints(scores: Sequence[float]) -> list[float]:
    """2 matchpoints for every result beaten in the group, 1 for every tie.

    Counted on the sorted scores (O(n log n): a board of 2,000 lines is rescored many times by
    the checks, issue 40): results beaten are those below, ties those equal, less itself."""
    ordered = sorted(scores)
    return [
        float(2 * (lo := bisect_left(ordered, s)) + (bisect_right(ordered, s) - lo) - 1)
        for s in scores
    ]  # -1: a result ties with itself once


def percentages(mps: Sequence[float], tables: int) -> list[float]:
    """Matchpoints as a percentage of the top 2 * (tables - 1); a lone result is average."""
    top = 2 * (tables - 1)
    return [100.0 * m / top if top else 50.0 for m in mps]


def _field_size(groups: Groups, total: int | None) -> int:
    n = sum(len(g) for g in groups)
    if total is not None and total < n:
        raise ValueError(f"total {total} is smaller than the {n} results given")
    return total if total is not None else n


def mitchell1(groups: Groups, total: int | None = None) -> list[list[float]]:
    """Mitchell 1: each group's matchpoints plus the number of tables in all other groups."""
    big_n = _field_size(groups, total)
    return [[m + (big_n - len(g)) for m in matchpoints(g)] for g in groups]


def mitchell1_bis(
    groups: Groups, total: int | None = None, basis: Literal["top", "results"] = "top"
) -> list[list[float]]:
    """Mitchell 1 bis: percentages straight away, rescaling each group to the field's top.

    `basis="top"` multiplies by (N-1)/(n-1), the ratio of tops the seed defines ("x10/3 and x10/6").
    `basis="results"` multiplies by N/n, which is what the seed's 15-table special example prints
    in its mpM' column (18, 3, 19.5, 4.5); see docs/methodology.md (scoring section).
    """
    big_n = _field_size(groups, total)
    out: list[list[float]] = []
    for g in groups:
        n = len(g)
        if basis == "results":
            out.append([m * big_n / n for m in matchpoints(g)])
        elif n > 1:
            out.append([m * (big_n - 1) / (n - 1) for m in matchpoints(g)])
        else:  # a lone result has no top to rescale: it is average
            out.append([float(big_n - 1)])
    return out


def neuberg(groups: Groups, total: int | None = None) -> list[list[float]]:
    """Neuberg: (MP + 1) * N/n - 1 on the field's matchpoint scale (top 2(N-1))."""
    big_n = _field_size(groups, total)
    return [[(m + 1) * big_n / len(g) - 1 for m in matchpoints(g)] for g in groups]


def neuberg_percent(groups: Groups, total: int | None = None) -> list[list[float]]:
    """Neuberg matchpoints as a percentage of the field's top."""
    big_n = _field_size(groups, total)
    return [percentages(g, big_n) for g in neuberg(groups, total)]


def ascherman(groups: Groups, total: int | None = None) -> list[list[float]]:
    """Ascherman: (MP + 1) * N/n, where the average equals the number of comparable scores."""
    big_n = _field_size(groups, total)
    return [[(m + 1) * big_n / len(g) for m in matchpoints(g)] for g in groups]


def lift(groups: Groups, total: int | None = None, method: str = "neuberg") -> list[list[float]]:
    """Each group's matchpoints (2 per result beaten) lifted to a field of `total` results (all
    the groups' by default) by `method`: neuberg, mitchell1, mitchell1_bis or ascherman (on the
    matchpoint scale: Ascherman's is one above Neuberg's)."""
    if method == "mitchell1":
        return mitchell1(groups, total)
    if method == "mitchell1_bis":
        return mitchell1_bis(groups, total)
    if method == "ascherman":
        return [[a - 1 for a in g] for g in ascherman(groups, total)]
    return neuberg(groups, total)
