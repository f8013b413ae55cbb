"""The bid/play split alone: its peak RSS on a copy of a kept store, in a process of its own.

    python bench/bench_split_memory.py STORE [--work DIR]

STORE is a store that `bench/bench_scale.py --keep DIR` kept (`DIR/<size>/s.duckdb`, generated
data, scored). It is copied to `--work`, the split's kept work is deleted from the copy (so every
IMP event is split, as on a first run) and `stages.split.split_imp_events` runs in this process,
then again (nothing changed: the kept sums written again). The peak (VmHWM, reset through
/proc/self/clear_refs before each run) is the split's own: no earlier part of the scoring stage
left memory behind (`bench/bench_scoring_memory.py` measures the split after them). Linux only.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_scoring_memory import memory_mb, reset_peak, store_copy, store_parser  # noqa: E402

#: The split's kept work: deleted from the copy so that every event is split.
KEPT = ("split_tables", "split_events", "split_totals", "split_state")


def main(argv: list[str] | None = None) -> int:
    a = store_parser(__doc__).parse_args(argv)
    db = store_copy(a, "bench-split-memory-")
    work = db.parent

    import stages.split as split
    from store import Store

    with Store(db) as store:
        for table in KEPT:
            store.run(sql=f"delete from {table}")
        imp = [ev for (ev,) in store.tuples(sql="select event from scored_events where scoring "
                                                "in ('IMP', 'TEAMS', 'BUTLER') order by 1")]  # fmt: skip
        print(f"{a.store}: {len(imp):,} IMP events; before: {memory_mb()['VmRSS']:,} MB")
        for name in ("first run", "again"):
            reset_peak()
            t, cpu = time.perf_counter(), time.process_time()
            out = split.split_imp_events(store, imp, work / name.replace(" ", "-"))
            m = memory_mb()
            duck = store.scalar(sql="select sum(memory_usage_bytes) from duckdb_memory()") or 0
            print(f"  {name:<10} {time.perf_counter() - t:7.1f} s  cpu {time.process_time() - cpu:6.1f} s"
                  f"  peak {m['VmHWM']:>5,} MB  now {m['VmRSS']:>5,} MB  DuckDB {duck // 2**20:>4,} MB"
                  f"  tables {out.get('tables', 0):,} pairs {out.get('pairs', 0):,} players "
                  f"{out.get('players', 0):,}", flush=True)  # fmt: skip
    print(f"copy and outputs in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
