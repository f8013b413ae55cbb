"""DD stage benchmark: the pipeline against bare endplay batch calls on the same real boards.

Run: `nice -n 10 .venv/bin/python bench/bench_dd.py [--games 600] [--split-games 200]`

In one process, on the first `--games` table results of the 2012 world-class sample:
  (a) bare: endplay `calc_all_tables` (8 deals per call) on every distinct deal and
      `analyse_all_plays` (200 per call) on every valid play, nothing else;
  (b) the pipeline: `dd_analysis` on a fresh copy of the cleaned store (validation, planning, dedup,
      sandboxed solver processes, Prefect process pool, DuckDB writes, mistake tally), with the
      same resources as (a) (1 worker x 2 DDS threads) and with the default split (2 x 1).
Distinct deals are solved once in both. Then: DD tables/s and traces/s; every split of workers x
DDS threads on `--split-games` results; and an incremental rerun after adding 5% new boards, as a
fraction of the full run. Prints everything side by side; timings only, no assertions.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
WORLDCLASS = ROOT / "ddrank/data/sample/pbn/worldclass-2012-example3.pbn"


def pbn_blocks() -> list[str]:
    return WORLDCLASS.read_text(encoding="latin-1").split("\n\n")


def board_start(blocks: list[str], i: int) -> int:
    """First index >= i where a block carries its own [Deal] (later tables inherit it)."""
    while i < len(blocks) and "[Deal " not in blocks[i]:
        i += 1
    return i


def make_store(db: Path, pbn_text: str) -> None:
    from stages.clean import clean_pending
    from stages.ingest import ingest_paths
    from store import Store

    src = db.with_suffix(".pbn")
    src.write_text(pbn_text, encoding="latin-1")
    with Store(db) as store:
        ingest_paths(store, [src], partition_size=100)
        clean_pending(store, workers=1)


def solve_inputs(db: Path) -> tuple[list[str], list]:
    """Distinct deals and valid trace requests of the store, as the pipeline would see them."""
    from ddrank.dd import board_from_row, has_play, trace_request
    from store import Store

    with Store(db, read_only=True) as store:
        rows = store.rows("boards_by_record_id")
    deals: dict[str, str] = {}
    traces = []
    for row in rows:
        b = board_from_row(row)
        deals.setdefault(b.deal_id, b.deal.to_pbn())
        if has_play(b):
            with contextlib.suppress(ValueError):
                traces.append(trace_request(b))
    return list(deals.values()), traces


def bare(deals: list[str], traces: list) -> tuple[float, float]:
    """Plain endplay batch calls in this process, DDS on all cores."""
    import endplay._dds as _dds
    from endplay.dds import analyse_all_plays, calc_all_tables
    from endplay.types import Deal, Denom, Player

    _dds.SetMaxThreads(0)
    t0 = time.perf_counter()
    for i in range(0, len(deals), 8):
        calc_all_tables([Deal(p) for p in deals[i : i + 8]])
    t1 = time.perf_counter()
    for i in range(0, len(traces), 200):
        chunk = traces[i : i + 200]
        ds = []
        for r in chunk:
            d = Deal(r.deal_pbn)
            d.first, d.trump = Player(int(r.leader)), Denom(r.trump.dds_index)
            ds.append(d)
        analyse_all_plays(ds, [list(r.cards) for r in chunk])
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (pool workers and solver processes)."""
    import resource

    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def pipeline(base: Path, work: Path, workers: int, threads: int) -> tuple[float, dict]:
    from flows.dd_analysis import dd_analysis

    shutil.copy(base, work)
    t0, c0 = time.perf_counter(), cpu_seconds()
    summary = dd_analysis(db=str(work), workers=workers, dds_threads=threads, refresh_cache=True)
    summary["cpu"] = cpu_seconds() - c0
    return time.perf_counter() - t0, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600, help="table results for the main runs")
    ap.add_argument("--split-games", type=int, default=200, help="table results for the splits")
    ap.add_argument("--skip-splits", action="store_true")
    ap.add_argument(
        "--rounds", type=int, default=1, help="alternate bare/pipeline this often; keep the best"
    )
    args = ap.parse_args()
    os.environ.setdefault("DO_NOT_TRACK", "1")
    from flows.dd_analysis import dd_analysis, prefect_api

    blocks = pbn_blocks()
    n = board_start(blocks, args.games)
    extra = board_start(blocks, n + max(1, n // 20))
    tmp = Path(tempfile.mkdtemp(prefix="bench_dd_"))
    base = tmp / "base.duckdb"
    make_store(base, "\n\n".join(blocks[:n]) + "\n")
    deals, traces = solve_inputs(base)
    print(f"boards: {n} table results, {len(deals)} distinct deals, {len(traces)} valid plays")
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")

    with prefect_api():
        dd_analysis(db=str(tmp / "warmup.duckdb"), workers=1)  # first flow run pays API set-up
        best_bare = best_pipe = (float("inf"), 0.0)
        for r in range(args.rounds):
            c0 = cpu_seconds()
            t_tab, t_tr = bare(deals, traces)
            c_bare = cpu_seconds() - c0
            print(f"\n(a) bare endplay: tables {t_tab:.1f} s ({len(deals) / t_tab:.2f}/s), "
                  f"traces {t_tr:.1f} s ({len(traces) / t_tr:.1f}/s), "
                  f"total {t_tab + t_tr:.1f} s wall, {c_bare:.1f} s CPU")  # fmt: skip
            best_bare = min(best_bare, (t_tab + t_tr, c_bare))
            t_same, s_same = pipeline(base, tmp / f"p12_{r}.duckdb", 1, 2)
            print(f"(b) pipeline 1 worker x 2 DDS threads: {t_same:.1f} s wall, "
                  f"{s_same['cpu']:.1f} s CPU (solve {s_same['seconds_solve']:.1f} s, "
                  f"tally {s_same['seconds_tally']:.1f} s) -> {t_same / (t_tab + t_tr):.3f} x bare "
                  f"(load {os.getloadavg()[0]:.1f})")  # fmt: skip
            best_pipe = min(best_pipe, (t_same, s_same["cpu"]))
        t_bare = best_bare[0]
        print(f"best of {args.rounds}: pipeline / bare = {best_pipe[0] / best_bare[0]:.3f} wall, "
              f"{best_pipe[1] / best_bare[1]:.3f} CPU")  # fmt: skip
        t_def, s_def = pipeline(base, tmp / "p21.duckdb", 2, 1)
        print(f"    pipeline 2 workers x 1 DDS thread:  {t_def:.1f} s -> ratio "
              f"{t_def / t_bare:.3f} x bare; tables/s {s_def['tables_computed'] / t_def:.2f}, "
              f"boards/s {s_def['boards_tallied'] / t_def:.1f}")  # fmt: skip

        # incremental: 5% new boards into the store that has the full run
        from stages.clean import clean_pending
        from stages.ingest import ingest_paths
        from store import Store

        inc = tmp / "p21.duckdb"
        src = tmp / "extra.pbn"
        # the file up to the new boards: PBN tags (names, event) are inherited from earlier games,
        # and records already in the store are recognised and not added again
        src.write_text("\n\n".join(blocks[:extra]) + "\n", encoding="latin-1")
        with Store(inc) as store:
            ingest_paths(store, [src], partition_size=100)
            clean_pending(store, workers=1)
        t0 = time.perf_counter()
        s_inc = dd_analysis(db=str(inc), refresh_cache=True)  # no help from earlier runs' cache
        t_inc = time.perf_counter() - t0
        print(f"\nincremental: +{extra - n} table results ({(extra - n) / n:.1%}): {t_inc:.1f} s "
              f"= {t_inc / t_def:.1%} of the full run ({s_inc['tables_computed']} tables, "
              f"{s_inc['traces_computed']} traces computed)")  # fmt: skip
        t0 = time.perf_counter()
        s_again = dd_analysis(db=str(inc), refresh_cache=True)
        print(f"rerun with nothing new: {time.perf_counter() - t0:.1f} s, "
              f"{s_again['solver_runs']} solver runs")  # fmt: skip

        if not args.skip_splits:
            m = board_start(blocks, args.split_games)
            small = tmp / "small.duckdb"
            make_store(small, "\n\n".join(blocks[:m]) + "\n")
            print(f"\nsplits on {m} table results (workers x DDS threads):")
            times = {}
            for w, th in ((1, 1), (1, 2), (2, 1), (2, 2)):
                t, s = pipeline(small, tmp / f"s{w}{th}.duckdb", w, th)
                times[(w, th)] = t
                print(f"  {w} x {th}: {t:6.1f} s  (solve {s['seconds_solve']:.1f} s)")
            best = min(times, key=times.get)
            print(f"  fastest: {best[0]} x {best[1]}; speed-up of 2 workers over 1 "
                  f"(1 thread each): {times[(1, 1)] / times[(2, 1)]:.2f}x")  # fmt: skip
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
