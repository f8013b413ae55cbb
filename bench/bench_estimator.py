"""Positions per second: the learned estimator vs DDS, on one core, on the same positions.

    nice -n 15 .venv/bin/python bench/bench_estimator.py [--positions 300] [--model gbm-compact]

Takes held-out positions of the estimator's dataset (every hand size, as in real screening; run
`ddrank dd-estimate train` first), solves each with DDS's SolveBoard (one thread, best card only:
the cheapest exact evaluation) and scores the same positions with the estimator, repeated until
the timing is stable. Speeds are positions per CPU-second of this single-threaded process (the
machine is shared, so wall-clock rates are printed too but depend on the neighbours).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # LightGBM and BLAS: one core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from ddrank.estimate import tricks, tricks_many  # noqa: E402
from ddrank.estimate.metrics import point_prediction  # noqa: E402
from ddrank.estimate.state import hands_from_owner, owner_to_pbn  # noqa: E402
from stages.estimate import arrays  # noqa: E402
from store.estimator import CACHE_DIR, MODELS_DIR, load_dataset, load_model  # noqa: E402


def dds_position_tricks(owner: np.ndarray, strain: int, leader: int) -> int:
    """Exact DD tricks NS take from a position, by SolveBoard (best card only)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    deal = Deal(owner_to_pbn(owner))
    deal.first = Player(leader)
    deal.trump = Denom([3, 2, 1, 0, 4][strain])  # ddrank C..N -> endplay/DDS S,H,D,C,N
    (_card, lead_side), *_ = list(solve_board(deal, SolveMode.OptimalOne))
    size = int((owner >= 0).sum()) // 4
    return lead_side if leader % 2 == 0 else size - lead_side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=300, help="positions DDS solves")
    parser.add_argument("--model", default="gbm-compact")
    parser.add_argument("--repeat-to", type=int, default=200_000, help="estimator batch size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=5, help="timed estimator runs (best kept)")
    args = parser.parse_args()

    from threadpoolctl import threadpool_limits

    from ddrank.dd.solver import set_dds_threads

    set_dds_threads(1)
    threadpool_limits(1)
    model = load_model(args.model, MODELS_DIR)
    test = load_dataset(CACHE_DIR).filter(pl.col("split") == "test")
    sample = test.sample(n=min(args.positions, test.height), seed=args.seed)
    a = arrays(sample)
    n = len(a["owners"])
    print(f"{n} held-out positions, hand sizes {np.bincount(a['sizes'], minlength=14)[1:]} (1..13)")

    # DDS: each position once (SolveBoard is deterministic; no cache shared between positions)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    positions = zip(a["owners"], a["strains"], a["leaders"], strict=True)
    dds = np.array([dds_position_tricks(o, s, lead) for o, s, lead in positions])
    dds_cpu, dds_wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if not np.array_equal(dds, a["ns_tricks"]):
        bad = int((dds != a["ns_tricks"]).sum())
        print(f"WARNING: SolveBoard disagrees with the stored labels on {bad} positions")

    # Estimator: the same positions tiled into one large batch (the screening use case)
    reps = max(1, args.repeat_to // n)
    owners = np.tile(a["owners"], (reps, 1, 1))
    strains, leaders = np.tile(a["strains"], reps), np.tile(a["leaders"], reps)
    tricks_many(owners[:1000], strains[:1000], leaders[:1000], model)  # warm-up
    runs = []
    for _ in range(args.runs):  # the best of a few runs: neighbours only ever slow us down
        cpu0, wall0 = time.process_time(), time.perf_counter()
        _, dist = tricks_many(owners, strains, leaders, model)
        runs.append((time.process_time() - cpu0, time.perf_counter() - wall0))
    est_cpu, est_wall = min(runs)
    median_cpu = sorted(r[0] for r in runs)[len(runs) // 2]
    pred = point_prediction(dist[:n])

    # One position at a time through the public API (latency, not throughput)
    hands = [hands_from_owner(o) for o in a["owners"][:200]]
    cpu0 = time.process_time()
    for h, s, lead in zip(hands, a["strains"][:200], a["leaders"][:200], strict=False):
        tricks(h, s, lead, model)
    single_cpu = (time.process_time() - cpu0) / len(hands)

    dds_rate, est_rate = n / dds_cpu, len(owners) / est_cpu
    print(f"model {model.name} ({model.feature_version})")
    print(f"DDS SolveBoard : {dds_rate:12,.1f} positions/s  ({1000 * dds_cpu / n:.2f} ms each; "
          f"wall {n / dds_wall:,.1f}/s)")  # fmt: skip
    print(f"estimator batch: {est_rate:12,.0f} positions/s  ({1e6 * est_cpu / len(owners):.2f} us "
          f"each; wall {len(owners) / est_wall:,.0f}/s; batch of {len(owners):,}; best of "
          f"{args.runs}, median {len(owners) / median_cpu:,.0f}/s)")  # fmt: skip
    print(f"estimator single call via tricks(): {1e6 * single_cpu:.0f} us each")
    print(f"ratio estimator/DDS: {est_rate / dds_rate:,.0f}x")
    print(
        f"agreement with DDS on these positions: exact {np.mean(pred == dds):.1%}, "
        f"within one {np.mean(np.abs(pred - dds) <= 1):.1%}"
    )
    print(f"target >= 50,000 positions/s: {'met' if est_rate >= 50_000 else 'NOT met'}")


if __name__ == "__main__":
    main()
