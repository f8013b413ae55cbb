"""Where the skill ratings stage's own memory goes, on a copy of a kept store.

    python bench/bench_skill_memory.py STORE [--work DIR] [--batch RESULTS]

STORE is a store that `bench/bench_scale.py --keep DIR` kept (`DIR/<size>/s.duckdb`, generated
data). It is copied to `--work`, the skill tables are emptied (skill_ratings, skill_history,
skill_periods, skill_fit, skill_events: the whole stage runs, as on a first run), and the stage
(`stages.skill.rate_store`, as `stages.pipeline.skill_ratings` calls it) runs in this process.
Each named query and each Python part between two queries is measured: the process's peak RSS
(VmHWM, reset through /proc/self/clear_refs before it) and the highest of a kind is printed,
with DuckDB's own memory (`duckdb_memory()`) at the end. The process's RSS before the stage is
the floor: a peak is the floor plus what the part holds.
Comparing the output at two sizes shows which part grows with the archive (issue 37). Linux only.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Everything the skill stage keeps: emptied in the copy so that the whole stage runs.
KEPT = ("skill_ratings", "skill_history", "skill_periods", "skill_fit", "skill_events")


def memory_mb() -> dict[str, int]:
    """This process's peak (VmHWM) and current (VmRSS) resident memory, in MB."""
    with open("/proc/self/status") as f:
        return {k: int(v.split()[0]) // 1024 for k, _, v in (line.partition(":") for line in f)
                if k in ("VmHWM", "VmRSS")}  # fmt: skip


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def duck_mb(store: Any) -> int:
    rows = store.con.execute("select sum(memory_usage_bytes) from duckdb_memory()").fetchall()
    return int(rows[0][0] or 0) // 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("store", type=Path, help="a store kept by bench/bench_scale.py --keep")
    ap.add_argument("--work", type=Path, default=None, help="where the copy goes (default: temp)")
    ap.add_argument("--no-copy", action="store_true", help="use --work's copy as it is")
    ap.add_argument("--batch", type=int, default=None, help="results per read (SKILL_BATCH)")
    a = ap.parse_args(argv)
    work = a.work or Path(tempfile.mkdtemp(prefix="bench-skill-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    db = work / "s.duckdb"
    if not a.no_copy:
        shutil.copy(a.store, db)

    from stages import skill
    from store import Store

    peaks: dict[str, int] = defaultdict(int)
    calls: dict[str, int] = defaultdict(int)
    secs: dict[str, float] = defaultdict(float)
    state = {"label": "start", "t": time.perf_counter()}

    def close(label_next: str) -> None:
        """The part that ran since the last mark ends: its peak goes to its label."""
        m = memory_mb()
        peaks[state["label"]] = max(peaks[state["label"]], m["VmHWM"])
        calls[state["label"]] += 1
        secs[state["label"]] += time.perf_counter() - state["t"]
        reset_peak()
        state["label"], state["t"] = label_next, time.perf_counter()

    with Store(db) as store:
        for table in KEPT:
            store.run(sql=f"delete from {table}")
        store.con.execute("checkpoint").fetchall()
        for method in ("rows", "tuples", "run", "scalar", "frame", "insert_frame"):
            inner = getattr(store, method)

            def measured(*args: Any, _inner: Any = inner, _m: str = method, **kw: Any) -> Any:
                name = args[0] if args and isinstance(args[0], str) else "<sql>"
                if _m == "insert_frame":
                    name = f"insert:{name}"
                close(f"query {name}")
                try:
                    return _inner(*args, **kw)
                finally:
                    close(f"python after {name}")

            setattr(store, method, measured)
        results = store.con.execute("select count(*) from scored_results").fetchall()[0][0]
        floor = memory_mb()["VmRSS"]
        print(f"{a.store}: {results:,} scored results; RSS before the stage {floor:,} MB, "
              f"DuckDB {duck_mb(store):,} MB", flush=True)  # fmt: skip
        t = time.perf_counter()
        reset_peak()
        state["label"], state["t"] = "python start", time.perf_counter()
        summary = skill.rate_store(store, None, False, batch=a.batch or skill.SKILL_BATCH)
        close("end")
        whole = time.perf_counter() - t
        print(f"  {'part':<44} {'calls':>6} {'s':>7} {'peak MB':>8}")
        for label in sorted(peaks, key=lambda k: -peaks[k]):
            print(f"  {label:<44} {calls[label]:>6} {secs[label]:>7.1f} {peaks[label]:>8,}")
        print(f"whole stage {whole:.1f} s: peak {max(peaks.values()):,} MB (floor {floor:,}), "
              f"now {memory_mb()['VmRSS']:,} MB, DuckDB {duck_mb(store):,} MB; "
              f"{summary['boards']:,} boards, {len(summary['periods_rated'])} periods, "
              f"{summary['rows']:,} ratings")  # fmt: skip
        print("duckdb_memory():", [r for r in store.con.execute(
            "select tag, memory_usage_bytes // 1048576 from duckdb_memory() "
            "where memory_usage_bytes > 0").fetchall()])  # fmt: skip
    print(f"copy in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
