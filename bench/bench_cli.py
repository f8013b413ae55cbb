"""Start-up cost of the command line: `ddrank --help`, `ddrank ingest --help`, no-op `ddrank run`.

    python bench/bench_cli.py [--runs 7] [--db ddrank.duckdb] [--out out]

Prints the median wall time of N runs of each, next to its target (0.5 s for the two helps, 3 s
for a `ddrank run` with nothing new). The no-op run is timed on an existing store and its output
folder after a finished `ddrank run` (the script says so when there is none; `--prepare` runs the
pipeline once first, which takes minutes the first time). Run it on an idle machine: the figures
are wall times, and a busy 2-core machine inflates them.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ddrank_command() -> list[str]:
    """The installed `ddrank` entry point beside this Python, else `python -m cli.main`."""
    exe = Path(sys.executable).with_name("ddrank")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "cli.main"]


def timed(args: list[str], runs: int) -> tuple[float, float, str]:
    """Median wall and CPU (user + system) seconds of `runs` runs, and the last run's first
    output line. CPU time hardly depends on what else the machine runs; wall time does."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    times, cpus, first = [], [], ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr[-2000:]}")
        first = (done.stdout.strip().splitlines() or [""])[0]
    return statistics.median(times), statistics.median(cpus), first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="Runs per command (median).")
    parser.add_argument("--db", default="ddrank.duckdb", help="Store of the no-op run.")
    parser.add_argument("--out", default="out", help="Output folder of the no-op run.")
    parser.add_argument("--prepare", action="store_true",
                        help="Run `ddrank run` once first so that the timed runs have nothing new.")  # fmt: skip
    args = parser.parse_args()
    cmd = ddrank_command()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {args.runs} runs each")
    rows = []
    for label, extra, target in (("ddrank --help", ["--help"], 0.5),
                                 ("ddrank ingest --help", ["ingest", "--help"], 0.5)):  # fmt: skip
        median, cpu, _ = timed(cmd + extra, args.runs)
        rows.append((label, median, cpu, target, ""))
    run = cmd + ["run", "--db", args.db, "--out", args.out]
    if args.prepare:
        subprocess.run(run, cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if (Path(args.out) / ".ddrank-run.json").exists() or (
        ROOT / args.out / ".ddrank-run.json"
    ).exists():
        median, cpu, line = timed(run, args.runs)
        rows.append(("ddrank run (nothing new)", median, cpu, 3.0, line))
    else:
        rows.append(("ddrank run (nothing new)", float("nan"), float("nan"), 3.0,
                     f"no finished run in {args.out}/: run `ddrank run --db {args.db} --out "
                     f"{args.out}` first, or pass --prepare"))  # fmt: skip
    width = max(len(r[0]) for r in rows)
    for label, median, cpu, target, note in rows:
        verdict = "" if median != median else ("ok" if median < target else "OVER")  # NaN check
        print(
            f"{label:<{width}}  median wall {median:6.3f} s  cpu {cpu:6.3f} s  "
            f"target < {target:g} s wall  {verdict}"
        )
        if note:
            print(f"{'':<{width}}  {note}")


if __name__ == "__main__":
    main()
