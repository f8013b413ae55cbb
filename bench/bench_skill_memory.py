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

import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_scoring_memory import memory_mb, reset_peak, store_copy, store_parser  # noqa: E402

#: Everything the skill stage keeps: emptied in the copy so that the whole stage runs.
KEPT = ("skill_ratings", "skill_history", "skill_periods", "skill_fit", "skill_events")


def duck_mb(store: Any) -> int:
    rows = store.con.execute("select sum(memory_usage_bytes) from duckdb_memory()").fetchall()
    return int(rows[0][0] or 0) // 2**20


def main(argv: list[str] | None = None) -> int:
    ap = store_parser(__doc__)
    ap.add_argument("--no-copy", action="store_true", help="use --work's copy as it is")
    ap.add_argument("--batch", type=int, default=None, help="results per read (SKILL_BATCH)")
    a = ap.parse_args(argv)
    db = store_copy(a, "bench-skill-memory-", copy=not a.no_copy)

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
    print(f"copy in {db.parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
