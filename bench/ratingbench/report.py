"""The benchmark's output for people: a console table, Markdown, a reliability plot."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def table(results: Sequence[dict], primary: str) -> str:
    head = (f"{'dataset':18} {'method':12} {'n':>6} {'log-loss [95% CI]':>26} {'Brier':>7} "
            f"{'acc':>6} {'ECE':>6} {'imp_rmse':>8} {'imp_nll':>7}")  # fmt: skip
    lines = [head, "-" * len(head)]
    for r in results:
        lo, hi = r["log_loss_ci95"]
        lines.append(
            f"{r['dataset']:18} {r['method']:12} {r['n_results']:6d} {r['log_loss']:.4f} "
            f"[{lo:.4f}, {hi:.4f}] {r['brier']:7.4f} {r['non_tie_accuracy']:6.3f} "
            f"{r['ece']:6.4f} {r['imp_rmse']:8.3f} {r['imp_nll']:7.4f}"
        )
    lines.append(
        f"\n{primary} log-loss minus method [Holm-adjusted clustered CI]; < 0: {primary} better"
    )
    for r in results:
        if r["method"] != primary:
            continue
        for k, (lo, hi) in r["delta_vs"].items():
            mark = "  better" if hi < 0 else "  worse" if lo > 0 else ""
            lines.append(f"  {r['dataset']:18} vs {k:12} {r['delta'][k]:+.5f} "
                         f"[{lo:+.5f}, {hi:+.5f}]{mark}")  # fmt: skip
    return "\n".join(lines)


def markdown(results: Sequence[dict], primary: str) -> str:
    lines = [f"| dataset | method | held-out results | log-loss | Brier | non-tie accuracy | ECE | "
             f"IMP RMSE | IMP NLL | {primary} minus method [Holm-adjusted CI] |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]  # fmt: skip
    prim = {r["dataset"]: r for r in results if r["method"] == primary}
    for r in results:
        p = prim.get(r["dataset"])
        d = ""
        if p and r["method"] in p["delta_vs"]:
            lo, hi = p["delta_vs"][r["method"]]
            d = f"{p['delta'][r['method']]:+.5f} [{lo:+.5f}, {hi:+.5f}]"
        lines.append(
            f"| {r['dataset']} | {r['method']} | {r['n_results']} | {r['log_loss']:.4f} | "
            f"{r['brier']:.4f} | {r['non_tie_accuracy']:.3f} | {r['ece']:.4f} | "
            f"{r['imp_rmse']:.3f} | {r['imp_nll']:.4f} | {d} |"
        )
    return "\n".join(lines)


def plot_calibration(results: Sequence[dict], path: Path) -> None:
    """Reliability curves of every method, pooled over the scored datasets."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 6))
    lo, hi = 1.0, 0.0
    for r in results:
        if r["dataset"] != "pooled" or "calibration" not in r:
            continue
        c = r["calibration"]
        ax.plot(c["p"], c["y"], marker="o", ms=3, label=f"{r['method']} (ECE {r['ece']:.4f})")
        lo, hi = min(lo, *c["p"], *c["y"]), max(hi, *c["p"], *c["y"])
    ax.plot([lo, hi], [lo, hi], color="black", lw=0.8, ls="--")
    ax.set_xlabel("predicted P(this table's NS beats the other's)")
    ax.set_ylabel("observed frequency (ties count 1/2)")
    ax.set_title(f"Reliability, pooled {results[0]['split']} periods (10 equal-count bins)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
