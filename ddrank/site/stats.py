"""Small statistics the site shows: Wilson intervals, percentiles in a field, the model verdict.

Pure functions (no I/O), so the terminal and the site say exactly the same thing.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a rate k/n (k may be fractional: tied auction mistakes)."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(k / n, 0.0), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends: 0 mistakes has a lower bound of 0 (floating point leaves 1e-18 otherwise,
    # which would rank the player below everyone tied at 0)
    lo = 0.0 if k <= 0 else max(0.0, centre - half)
    hi = 1.0 if k >= n else min(1.0, centre + half)
    return lo, hi


def share_worse(rate: float, field: Sequence[float]) -> float:
    """Percent of `field` (sorted ascending) making mistakes MORE often than `rate`; ties count
    half. 100 = fewer mistakes than everyone, 0 = more than everyone."""
    if not field:
        return math.nan
    below_or_equal = bisect_right(field, rate)
    below = bisect_left(field, rate)
    ties = below_or_equal - below
    return 100.0 * ((len(field) - below_or_equal) + ties / 2) / len(field)


def percentile_interval(k: float, n: float, field: Sequence[float]) -> tuple[float, float, float]:
    """(percentile, low, high): the player's place in `field` at its observed rate and at both ends
    of its Wilson interval (a lower true rate gives a better place)."""
    lo, hi = wilson(k, n)
    return share_worse(k / n, field), share_worse(hi, field), share_worse(lo, field)


def _label(name: str) -> str:
    return name.replace("_per_", " per ").replace("_", " ")


def regression_verdict(report: Mapping[str, Any] | None, alpha: float = 0.05) -> str:
    """One plain sentence on what the regression report found (from its report.json)."""
    if not report:
        return "No regression report: the store has too few players past the thresholds."
    if "skipped" in report:
        return f"No regression was run: {report['skipped']}."
    if "failed" in report:
        return f"The regression stage failed: {report['failed']}"
    response = {"pp": "placing points", "mp": "masterpoints"}.get(
        str(report.get("response", "")), str(report.get("response", "the response"))
    )
    final = (report.get("final") or {}).get("model") or {}
    coefs = [c for c in final.get("coefficients", []) if c.get("variable") != "Intercept"]
    n = final.get("n", report.get("players_analysed"))
    significant = [c for c in coefs if c.get("p_value") is not None and c["p_value"] < alpha]
    if not significant:
        best = min(coefs, key=lambda c: c.get("p_value", 1.0), default=None)
        detail = (
            f" (best candidate: {_label(best['variable'])}, p = {best['p_value']:.2f}"
            f", R² = {final.get('r_squared', math.nan):.3f})"
            if best
            else ""
        )
        return (
            f"No variable predicts {response} at the {alpha:g} level on this data: "
            f"{n} players{detail}."
        )
    parts = ", ".join(
        f"{_label(c['variable'])} (coefficient {c['estimate']:.3g}, p = {c['p_value']:.3g})"
        for c in significant
    )
    return (
        f"{len(significant)} variable(s) predict {response} at the {alpha:g} level on this data "
        f"({n} players, adjusted R² = {final.get('adj_r_squared', math.nan):.3f}): {parts}."
    )


def fmt_num(value: Any, digits: int = 2) -> str:
    """Numbers as the site prints them ('' for missing or NaN)."""
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return f"{value:.{digits}f}"
    return str(value)
