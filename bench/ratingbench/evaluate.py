"""Selection, metrics and inference of the rating benchmark.

Selection is the nested time split of the protocol. Metrics are summed per period (the bootstrap
cluster), so a resample is a weighted sum; intervals resample periods, per dataset and pooled
(equal-weight mean of the datasets' differences), and are Holm-adjusted across the family
methods x (datasets + pooled).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .data import Stream

LOG2PI = float(np.log(2 * np.pi))


@dataclass
class Comparisons:
    """Every two tables on the same board: row indices, outcome (1, .5, 0) and period."""

    i: np.ndarray
    j: np.ndarray
    y: np.ndarray
    period: np.ndarray


def comparisons(st: Stream) -> Comparisons:
    by: dict[str, list[int]] = defaultdict(list)
    for k, r in enumerate(st.rows):
        by[r.board].append(k)
    ii, jj = [], []
    for rows in by.values():
        for a in range(len(rows)):
            for b in range(a + 1, len(rows)):
                ii.append(rows[a])
                jj.append(rows[b])
    i, j = np.array(ii, dtype=int), np.array(jj, dtype=int)
    score = np.array([r.ns_score for r in st.rows])
    y = np.where(score[i] > score[j], 1.0, np.where(score[i] < score[j], 0.0, 0.5))
    period = np.array([r.period for r in st.rows])
    return Comparisons(i, j, y, period[i])


def logloss(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def fit_scale(z: np.ndarray, y: np.ndarray) -> float:
    """The a >= 0 minimising the log-loss of sigmoid(a z) (Newton steps on a 1-D convex loss)."""
    if not np.any(z):
        return 0.0
    a = 0.0
    for _ in range(30):
        p = 1 / (1 + np.exp(-a * z))
        step = np.sum((p - y) * z) / (np.sum(p * (1 - p) * z * z) + 1e-12)
        a = max(a - step, 0.0)
        if abs(step) < 1e-9 * (1 + abs(a)):
            break
    return a


@dataclass
class Held:
    """A method's predictions for the scored periods: probability per comparison, IMP mean
    and sd per row (NaN elsewhere), and the setting chosen for each scored period."""

    prob: np.ndarray
    imp_mean: np.ndarray
    imp_sd: np.ndarray
    chosen: dict[int, str]


def select_and_predict(
    st: Stream, preds: Mapping[str, np.ndarray], comp: Comparisons, scored: Sequence[int],
    selection_start: int,
) -> Held:  # fmt: skip
    """For each scored period P: choose the setting and the calibration on the prequential
    predictions of periods selection_start..P-1 only, then predict P."""
    prob = np.full(len(comp.y), np.nan)
    mean = np.full(len(st.rows), np.nan)
    sd = np.full(len(st.rows), np.nan)
    row_period = np.array([r.period for r in st.rows])
    actual = np.array([r.imps for r in st.rows])
    z_of = {label: d[comp.i] - d[comp.j] for label, d in preds.items()}
    chosen = {}
    for P in scored:
        tr = (comp.period < P) & (comp.period >= selection_start)
        te = comp.period == P
        best = None
        for label, z in z_of.items():
            a = fit_scale(z[tr], comp.y[tr])
            loss = logloss(1 / (1 + np.exp(-a * z[tr])), comp.y[tr]).mean()
            if best is None or loss < best[0] - 1e-12:
                best = (loss, label, a)
        assert best is not None
        _, label, a = best
        chosen[P] = label
        prob[te] = 1 / (1 + np.exp(-a * z_of[label][te]))
        d = preds[label]
        rtr = (row_period < P) & (row_period >= selection_start)
        rte = row_period == P
        b = float(np.dot(d[rtr], actual[rtr]) / np.dot(d[rtr], d[rtr])) if np.any(d[rtr]) else 0.0
        resid = actual[rtr] - b * d[rtr]
        mean[rte] = b * d[rte]
        sd[rte] = float(np.sqrt(np.mean(resid**2))) if len(resid) else float(np.std(actual))
    return Held(prob, mean, sd, chosen)


# ------------------------------------------------------------------------- per-period sums

SUMS = ("ll", "brier", "n_comp", "hit", "n_nontie", "se", "nll", "n_rows")


def period_sums(
    st: Stream, held: Held, comp: Comparisons, periods: Sequence[int]
) -> dict[str, np.ndarray]:
    """Each metric's sum and count per period (the bootstrap's clusters)."""
    pos = {P: k for k, P in enumerate(periods)}
    n = len(periods)
    out = {k: np.zeros(n) for k in SUMS}
    m = np.isin(comp.period, periods)
    # A board played at one table has no comparison: its rows are left out of every target.
    boards_compared = {st.rows[k].board for k in comp.i[m]}
    c = np.array([pos[P] for P in comp.period[m]], dtype=int)
    p, y = held.prob[m], comp.y[m]
    np.add.at(out["ll"], c, logloss(p, y))
    np.add.at(out["brier"], c, (p - y) ** 2)
    np.add.at(out["n_comp"], c, 1.0)
    nt = y != 0.5
    hit = np.where(p == 0.5, 0.5, ((p > 0.5) == (y == 1.0)).astype(float))
    np.add.at(out["hit"], c[nt], hit[nt])
    np.add.at(out["n_nontie"], c[nt], 1.0)
    rows = [k for k, r in enumerate(st.rows) if r.period in pos and r.board in boards_compared]
    rc = np.array([pos[st.rows[k].period] for k in rows], dtype=int)
    actual = np.array([st.rows[k].imps for k in rows])
    mu, s = held.imp_mean[rows], np.maximum(held.imp_sd[rows], 1e-6)
    np.add.at(out["se"], rc, (actual - mu) ** 2)
    np.add.at(out["nll"], rc, 0.5 * LOG2PI + np.log(s) + 0.5 * ((actual - mu) / s) ** 2)
    np.add.at(out["n_rows"], rc, 1.0)
    return out


def metrics(sums: Mapping[str, np.ndarray], w: np.ndarray) -> dict[str, np.ndarray]:
    """The metrics under cluster weights w (rows: resamples; columns: periods)."""
    return {
        "log_loss": w @ sums["ll"] / (w @ sums["n_comp"]),
        "brier": w @ sums["brier"] / (w @ sums["n_comp"]),
        "non_tie_accuracy": w @ sums["hit"] / np.maximum(w @ sums["n_nontie"], 1e-12),
        "imp_rmse": np.sqrt(w @ sums["se"] / (w @ sums["n_rows"])),
        "imp_nll": w @ sums["nll"] / (w @ sums["n_rows"]),
    }


def cluster_weights(n_clusters: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Row 0: the data as observed; then multinomial resamples of the periods."""
    w = rng.multinomial(n_clusters, np.full(n_clusters, 1 / n_clusters), size=resamples)
    return np.vstack([np.ones(n_clusters), w.astype(float)])


def calibration(prob: np.ndarray, y: np.ndarray, bins: int) -> dict[str, list[float]]:
    """Reliability: mean predicted probability and observed frequency in equal-count bins."""
    order = np.argsort(prob, kind="stable")
    parts = np.array_split(order, bins)
    return {
        "p": [float(prob[k].mean()) for k in parts if len(k)],
        "y": [float(y[k].mean()) for k in parts if len(k)],
        "n": [int(len(k)) for k in parts if len(k)],
    }


def ece(cal: Mapping[str, list[float]]) -> float:
    n = np.asarray(cal["n"], dtype=float)
    return float(np.sum(n * np.abs(np.asarray(cal["p"]) - np.asarray(cal["y"]))) / n.sum())


def holm_levels(pvals: Mapping[tuple, float], alpha: float) -> dict[tuple, float]:
    """Each hypothesis's Holm step-down level alpha / (m - rank + 1); after the first
    hypothesis not rejected, the later ones keep that level."""
    m = len(pvals)
    levels: dict[tuple, float] = {}
    stopped: float | None = None
    for rank, (key, p) in enumerate(sorted(pvals.items(), key=lambda kv: kv[1])):
        level = stopped if stopped is not None else alpha / (m - rank)
        levels[key] = level
        if stopped is None and p > level:
            stopped = level
    return levels


def boot_p(diff: np.ndarray) -> float:
    """Two-sided bootstrap p-value of a difference being 0 (resamples only)."""
    r = len(diff)
    return float(
        min(1.0, 2 * min((np.sum(diff <= 0) + 1) / (r + 1), (np.sum(diff >= 0) + 1) / (r + 1)))
    )
