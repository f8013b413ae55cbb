"""The site's rating charts as SVG files, drawn by matplotlib (Agg backend: no display needed)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_FIG: Any = None


def _figure() -> Any:
    """One reused figure: creating a figure per player costs more than drawing it."""
    global _FIG
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller files, searchable
    plt.rcParams["svg.hashsalt"] = "ddrank"  # the same chart, the same bytes: a rebuild keeps it
    if _FIG is None:
        _FIG = plt.figure(figsize=(7.0, 3.2), dpi=100)
    _FIG.clf()
    return _FIG


def _num(v: Any) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return math.nan
    return f


def rating_chart(player: str, history: Sequence[dict[str, Any]], path: Path) -> Path:
    """Rating after each period with ±1 standard error bars, boards played in each period below."""
    fig = _figure()
    rows = sorted(history, key=lambda r: _num(r.get("period_index", 0)))
    periods = [str(r.get("period", k)) for k, r in enumerate(rows)]
    x = list(range(len(rows)))
    rating = [_num(r.get("rating")) for r in rows]
    se = [_num(r.get("se", r.get("std_error"))) for r in rows]
    boards = [
        _num(r.get("boards_in_period", r.get("period_boards", r.get("boards")))) for r in rows
    ]
    ax = fig.add_axes((0.09, 0.36, 0.89, 0.58))
    ax.errorbar(x, rating, yerr=[0 if math.isnan(s) else s for s in se], fmt="o-", color="#1f4e79",
                ecolor="#8aa9c8", capsize=3, lw=1.2, ms=4)  # fmt: skip
    ax.set_ylabel("rating")
    ax.tick_params(labelbottom=False)
    ax.grid(alpha=0.3)
    ax.set_title("Rating after each period (bars: ±1 standard error)", fontsize=9)
    bx = fig.add_axes((0.09, 0.12, 0.89, 0.2), sharex=ax)
    bx.bar(x, [0 if math.isnan(b) else b for b in boards], color="#b0b0b0")
    bx.set_ylabel("boards", fontsize=8)
    step = max(1, len(x) // 8)
    bx.set_xticks(x[::step], [p[:18] for p in periods[::step]], fontsize=7)
    fig.savefig(path, format="svg", metadata={"Date": None})
    return path


def _chart_job(job: tuple[str, list[dict[str, Any]], str]) -> str:
    player, history, path = job
    rating_chart(player, history, Path(path))
    return path


def rating_charts(jobs: Sequence[tuple[str, list[dict[str, Any]], str]]) -> int:
    """Draw many rating charts, on every core when there are enough to pay for the start-up."""
    import os
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    workers = min(os.cpu_count() or 1, max(1, len(jobs) // PER_WORKER))
    if workers <= 1:
        for job in jobs:
            _chart_job(job)
        return len(jobs)
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        return sum(1 for _ in pool.map(_chart_job, jobs, chunksize=8))


#: Charts per extra worker process: a spawned worker costs about as much as 10 charts to start.
PER_WORKER = 24
