"""Where the scoring stage's own memory goes: each part's peak RSS on a copy of a kept store.

    python bench/bench_scoring_memory.py STORE [--work DIR]

STORE is a store that `bench/bench_scale.py --keep DIR` kept (`DIR/<size>/s.duckdb`, generated
data). It is copied to `--work`, everything scoring keeps is deleted from the copy (so the whole
stage runs, as on a first run), and the stage runs in this process: the events' batches, then
`finish` (its line: the highest of its parts' peaks), whose parts (the exports, the Lehman
ratings, ratings.csv, the bid/play split, the ranking summary) are each wrapped so that the
process's peak RSS (VmHWM, reset before each part through /proc/self/clear_refs) and DuckDB's
own memory (`duckdb_memory()`) are printed after it.
Comparing the output at two sizes shows which part grows with the archive (issue 37). Linux only.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Everything the scoring stage keeps: deleted from the copy so that the whole stage runs.
KEPT = ("scoring_groups", "scored_events", "scored_results", "rankings", "team_matches",
        "player_results", "rating_periods", "rating_history", "ratings", "export_parts",
        "split_tables", "split_events", "split_totals")  # fmt: skip


def memory_mb() -> dict[str, int]:
    """This process's peak (VmHWM) and current (VmRSS) resident memory, in MB."""
    with open("/proc/self/status") as f:
        return {k: int(v.split()[0]) // 1024 for k, _, v in (line.partition(":") for line in f)
                if k in ("VmHWM", "VmRSS")}  # fmt: skip


def cpu_seconds() -> float:
    """This process's CPU time (user + system): steadier than wall time on a shared machine."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def store_parser(doc: str) -> argparse.ArgumentParser:
    """The memory benches' arguments: a store kept by bench_scale and where its copy goes."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("store", type=Path, help="a store kept by bench/bench_scale.py --keep")
    ap.add_argument("--work", type=Path, default=None, help="where the copy goes (default: temp)")
    return ap


def store_copy(a: argparse.Namespace, prefix: str, copy: bool = True) -> Path:
    """The copy of the kept store the bench works on (never the kept store itself)."""
    work = a.work or Path(tempfile.mkdtemp(prefix=prefix))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "s.duckdb"
    if copy:
        shutil.copy(a.store, db)
    return db


def main(argv: list[str] | None = None) -> int:
    a = store_parser(__doc__).parse_args(argv)
    db = store_copy(a, "bench-scoring-memory-")
    work = db.parent

    import stages.ratings as ratings
    import stages.scoring_stage as stage
    import stages.split as split
    from stages.settings import load_settings
    from store import Store

    with Store(db) as store:
        peaks: list[int] = []  # the parts' peaks since `finish` began

        def line(name: str, seconds: float, cpu: float, whole: bool = False) -> None:
            m = memory_mb()
            peaks.append(m["VmHWM"])
            if whole:  # `finish`'s line: the highest of its parts' peaks
                m["VmHWM"] = max(peaks)
            duck = store.scalar(sql="select sum(memory_usage_bytes) from duckdb_memory()") or 0
            print(f"  {name:<20} {seconds:7.1f} s  cpu {cpu:7.1f} s  peak {m['VmHWM']:>6,} MB  now "
                  f"{m['VmRSS']:>6,} MB  DuckDB {duck // 2**20:>5,} MB", flush=True)  # fmt: skip

        def wrap(module: Any, name: str) -> None:
            inner: Callable[..., Any] = getattr(module, name)

            def measured(*args: Any, **kwargs: Any) -> Any:
                reset_peak()
                t, c = time.perf_counter(), cpu_seconds()
                out = inner(*args, **kwargs)
                line(name, time.perf_counter() - t, cpu_seconds() - c)
                return out

            setattr(module, name, measured)

        for module, name in ((stage, "export"), (ratings, "update_ratings"),
                             (stage, "write_ratings_csv"), (split, "split_imp_events"),
                             (stage, "ranking_summary")):  # fmt: skip
            wrap(module, name)
        for table in KEPT:
            store.run(sql=f"delete from {table}")
        results = store.scalar(sql="select count(*) from boards")
        print(f"{a.store}: {results:,} boards, whole scoring stage (generated data)")
        s = load_settings(db=str(db), out=str(work / "out"), ratings=True)
        reset_peak()
        t, c = time.perf_counter(), cpu_seconds()
        run = stage.ScoringRun(store, s)
        for w in run.batches():
            run.take(w, {ev: stage.score(src, run.settings) for ev, src in w.sources.items()})
            del w
        line("batches", time.perf_counter() - t, cpu_seconds() - c)
        peaks.clear()
        reset_peak()
        t, c = time.perf_counter(), cpu_seconds()
        run.finish()
        line("finish", time.perf_counter() - t, cpu_seconds() - c, whole=True)
    print(f"copy and outputs in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
