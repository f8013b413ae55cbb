"""`ddrank report` on a whole store: wall time of the command against the 30 s target.

Copies the store first (the report fills missing par in place, and DuckDB allows one process per
file), runs the real command `--repeat` times in a fresh process each time (import, read, render
and write included), and prints wall and CPU seconds per run (CPU time says what the report costs
when other processes share the cores), pages per second, and the ratio to the target. Default store: the one `ddrank run` writes on the bundled sample.

    .venv/bin/python bench/bench_report.py [--db ddrank.duckdb] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 30.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=str(ROOT / "data" / "ddrank.duckdb"))
    ap.add_argument("--out", default=str(ROOT / "out"),
                    help="where the regression report is read from (OUT/regression)")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    src = Path(args.db)
    if not src.is_file():
        sys.exit(f"{src}: no store; run `ddrank run` first or pass --db")
    exe = Path(sys.executable).with_name("ddrank")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "store.duckdb"
        shutil.copy(src, db)
        out = Path(tmp) / "out"
        if (Path(args.out) / "regression").is_dir():
            shutil.copytree(Path(args.out) / "regression", out / "regression")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        times, cpu, summary = [], [], {}
        for _ in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            proc = subprocess.run([str(exe), "report", "--db", str(db), "--out", str(out),
                                   "--json"], env=env, capture_output=True, text=True)  # fmt: skip
            times.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if proc.returncode != 0:
                sys.exit(proc.stderr[-2000:])
            summary = json.loads(proc.stdout)
        pages = sum(1 for _ in (out / "site").rglob("*.html"))
        size = sum(p.stat().st_size for p in (out / "site").rglob("*") if p.is_file())
    best = min(times)
    print(f"store: {src} ({summary['events']} events, {summary['players']:,} players, "
          f"{summary['players_30_boards']:,} with 30+ boards)")  # fmt: skip
    print(f"ddrank report: {', '.join(f'{t:.1f}' for t in times)} s wall per run, "
          f"{', '.join(f'{c:.1f}' for c in cpu)} s CPU (wall > CPU: other processes' load) "
          f"(read {summary['seconds_read']:.1f} s, render {summary['seconds_render']:.1f} s "
          f"in the last; {summary['charts']} charts)")  # fmt: skip
    print(f"site: {pages:,} HTML pages, {size / 1e6:.1f} MB; {pages / best:,.0f} pages/s")
    print(f"best run / {TARGET_SECONDS:.0f} s target = {best / TARGET_SECONDS:.2f} "
          f"({'within' if best < TARGET_SECONDS else 'OVER'} target); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip


if __name__ == "__main__":
    main()
