"""Run the frozen protocol: every method on every stream, scored on one split."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from . import evaluate as ev
from .data import Stream, load_stream
from .methods import run
from .protocol import Protocol, label

CI_METHOD = (
    "percentile bootstrap resampling periods (clusters) within each dataset, {r} resamples; "
    "pooled = equal-weight mean of the datasets' differences; Holm step-down across "
    "{m} comparisons (methods x (datasets + pooled)), family-wise alpha {a}"
)


def predictions(
    proto: Protocol, st: Stream, methods: Sequence[str], split: str, log: Callable
) -> tuple[ev.Comparisons, dict[str, ev.Held]]:
    """Every method's held-out predictions on the stream's scored periods of `split`."""
    scored = sorted({P for ps in st.scored(split).values() for P in ps})
    first_dev = min(P for ps in st.scored("dev").values() for P in ps)
    comp = ev.comparisons(st)
    held = {}
    for name in methods:
        if proto.methods[name].get("needs_dd") and not st.has_dd:
            continue
        t0 = time.perf_counter()
        preds = {label(s): run(name, st, s, first_dev) for s in proto.grid(name)}
        held[name] = ev.select_and_predict(st, preds, comp, scored, proto.selection_start)
        log(f"{st.name}: {name} ({len(preds)} settings) in {time.perf_counter() - t0:.1f} s")
    return comp, held


def score(
    proto: Protocol, streams: Sequence[Stream], methods: Sequence[str], split: str,
    log: Callable, resamples: int | None = None,
) -> list[dict]:  # fmt: skip
    """Per-dataset and pooled rows, with the primary's clustered, Holm-adjusted differences."""
    inf = proto.inference
    r = int(resamples or inf["resamples"])
    alpha = float(inf["alpha"])
    bins = int(proto.data["targets"]["calibration_bins"])
    primary = proto.primary
    seed = int(proto.data["protocol"]["seed"])
    boot: dict[str, dict[str, dict[str, np.ndarray]]] = {}  # dataset -> method -> metric
    info: dict[str, dict] = {}
    cal_all: dict[str, tuple[list, list]] = {}
    for st in streams:
        comp, held = predictions(proto, st, methods, split, log)
        for ds, periods in st.scored(split).items():
            # One generator per dataset: its resamples do not depend on the streams run with it.
            rng = np.random.default_rng([seed, *ds.encode()])
            w = ev.cluster_weights(len(periods), r, rng)
            boot[ds] = {}
            info[ds] = {}
            in_ds = np.isin(comp.period, periods)
            for m, h in held.items():
                sums = ev.period_sums(st, h, comp, periods)
                boot[ds][m] = ev.metrics(sums, w)
                cal = ev.calibration(h.prob[in_ds], comp.y[in_ds], bins)
                pa, ya = cal_all.setdefault(m, ([], []))
                pa.append(h.prob[in_ds])
                ya.append(comp.y[in_ds])
                info[ds][m] = {
                    "n_results": int(sums["n_rows"].sum()),
                    "n_comparisons": int(sums["n_comp"].sum()),
                    "n_clusters": len(periods),
                    "periods": [int(periods[0]), int(periods[-1])],
                    "ece": ev.ece(cal),
                    "chosen": sorted(set(h.chosen[P] for P in periods)),
                }
    # Pooled: the equal-weight mean over the datasets a method ran on.
    pooled: dict[str, dict[str, np.ndarray]] = {}
    for m in methods:
        dss = [ds for ds in boot if m in boot[ds]]
        if dss:
            pooled[m] = {k: np.mean([boot[ds][m][k] for ds in dss], axis=0)
                         for k in boot[dss[0]][m]}  # fmt: skip
            info.setdefault("pooled", {})[m] = {
                "n_results": sum(info[ds][m]["n_results"] for ds in dss),
                "n_comparisons": sum(info[ds][m]["n_comparisons"] for ds in dss),
                "n_clusters": sum(info[ds][m]["n_clusters"] for ds in dss),
                "pooled_over": dss,
            }
    boot["pooled"] = pooled
    # Differences primary minus method; Holm across the whole family.
    diffs: dict[tuple[str, str], np.ndarray] = {}
    for ds in boot:
        if primary not in boot[ds]:
            continue
        for m in boot[ds]:
            if m == primary:
                continue
            if ds == "pooled":
                both = [d for d in boot if d != "pooled" and m in boot[d] and primary in boot[d]]
                diff = np.mean([boot[d][primary]["log_loss"] - boot[d][m]["log_loss"]
                                for d in both], axis=0)  # fmt: skip
            else:
                diff = boot[ds][primary]["log_loss"] - boot[ds][m]["log_loss"]
            diffs[(ds, m)] = diff
    pvals = {k: ev.boot_p(d[1:]) for k, d in diffs.items()}
    levels = ev.holm_levels(pvals, alpha)
    ci = CI_METHOD.format(r=r, m=len(diffs), a=alpha)
    out = []
    for ds in boot:
        for m, vals in boot[ds].items():
            row = {"dataset": ds, "method": m, "split": split, "protocol_sha256": proto.sha256}
            row.update(info[ds][m])
            for k, v in vals.items():
                row[k] = float(v[0])
            lo, hi = np.percentile(vals["log_loss"][1:], [2.5, 97.5])
            row["log_loss_ci95"] = [float(lo), float(hi)]
            row["delta"], row["delta_vs"], row["p_holm_level"], row["p_boot"] = {}, {}, {}, {}
            keys = [(ds, o) for o in boot[ds] if o != m] if m == primary else [(ds, m)]
            for key in keys:
                if key not in diffs:
                    continue
                sign = 1.0 if m == primary else -1.0  # row method minus the other
                other = key[1] if m == primary else primary
                d, lvl = sign * diffs[key], levels[key]
                qlo, qhi = np.percentile(d[1:], [100 * lvl / 2, 100 * (1 - lvl / 2)])
                row["delta"][other] = float(d[0])
                row["delta_vs"][other] = [float(qlo), float(qhi)]
                row["p_holm_level"][other] = float(lvl)
                row["p_boot"][other] = pvals[key]
            row["ci_method"] = ci
            out.append(row)
    for m, (pa, ya) in cal_all.items():
        cal = ev.calibration(np.concatenate(pa), np.concatenate(ya), bins)
        for row in out:
            if row["dataset"] == "pooled" and row["method"] == m:
                row["calibration"] = cal
                row["ece"] = ev.ece(cal)
    return out


def load_streams(proto: Protocol, names: Sequence[str] | None, log: Callable) -> list[Stream]:
    out = []
    for spec in proto.streams:
        if names and spec["name"] not in names:
            continue
        t0 = time.perf_counter()
        st = load_stream(spec)
        log(f"{st.name}: {len(st.rows)} table results, DD facts: {st.has_dd}, "
            f"loaded in {time.perf_counter() - t0:.1f} s")  # fmt: skip
        for ds, (w, d, t) in st.splits.items():
            log(f"  {ds}: warm-up {len(w)}, dev periods {d[0]}-{d[-1]}, test {t[0]}-{t[-1]}")
        out.append(st)
    return out
