"""Where one `ddrank run` spends its CPU: the process tree's CPU seconds, per kind of process.

    python bench/bench_run_cpu.py [--runs 2] [--before DIR] [FILE] [-- extra ddrank run options]

Runs `ddrank run FILE` (default: the bundled LIN, 15 deals) into a new store and output folder,
with a fresh Prefect result storage (so no DD unit is read from an earlier run's cache) and a
PREFECT_HOME whose database is migrated once before the first timed run (a first run's
migrations are a one-off cost). While it runs, the command's process tree is read from /proc
every 0.1 s; each process's CPU (user + system) is summed by kind: the run's own process, the
temporary Prefect API server, process-pool workers, DDS solver children, other. CPU seconds are
steadier than wall time on a shared machine; the load average before and after each run is
printed beside it. With `--before DIR` (a checkout of another commit, e.g. `git worktree add
--detach DIR <commit>` or `git archive <commit> | tar -x -C DIR`) the same run of that code
alternates with this one's.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
TICK = os.sysconf("SC_CLK_TCK")


def kind(cmdline: str) -> str:
    if "uvicorn" in cmdline and "prefect.server" in cmdline:
        return "API server"
    if "ddrank.dd.sandbox" in cmdline:
        return "DDS solvers"
    if "multiprocessing.spawn" in cmdline:
        return "spawned workers"
    return "other"


def tree(root: int) -> dict[int, tuple[float, str]]:
    """(CPU seconds, command line) of every living descendant of `root`."""
    parent, info = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            cmd = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()
        pid = int(stat.parent.name)
        parent[pid] = int(fields[1])
        info[pid] = ((int(fields[11]) + int(fields[12])) / TICK, cmd)
    found, frontier = {}, [root]
    while frontier:
        kids = [p for p, pp in parent.items() if pp in frontier]
        found.update({k: info[k] for k in kids})
        frontier = kids
    return found


def one_run(code: Path, inputs: list[str], home: Path, extra: list[str]) -> dict[str, float]:
    work = Path(tempfile.mkdtemp(prefix="bench-run-cpu-"))
    env = {**os.environ, "PREFECT_HOME": str(home), "PYTHONPATH": str(code), "DO_NOT_TRACK": "1",
           "PREFECT_LOCAL_STORAGE_PATH": str(work / "results")}  # fmt: skip
    env.pop("PREFECT_API_URL", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "run", *inputs, "--db",
                             str(work / "x.duckdb"), "--out", str(work / "out"), *extra],
                            cwd=code, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    seen: dict[int, tuple[float, str]] = {}
    main_cpu = 0.0
    while proc.poll() is None:
        for pid, (cpu, cmd) in tree(os.getpid()).items():
            if pid == proc.pid:
                main_cpu = cpu
            elif cmd:
                seen[pid] = (cpu, cmd)
        time.sleep(0.1)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = {"wall": wall, "total CPU": total, "run's process": main_cpu, "exit": proc.returncode}
    for cpu, cmd in seen.values():
        out[kind(cmd)] = out.get(kind(cmd), 0.0) + cpu
    shutil.rmtree(work, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="*", default=[str(LIN)])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--before", type=Path, help="a checkout of another commit, run alternately")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, extra = ap.parse_args(argv[:cut]), argv[cut + 1 :]  # after "--": `ddrank run` options
    home = Path(tempfile.mkdtemp(prefix="bench-run-cpu-home-"))
    codes = [("before", args.before), ("this", ROOT)] if args.before else [("this", ROOT)]
    one_run(ROOT, args.inputs, home, extra)  # migrates PREFECT_HOME's database: not timed
    columns = ["total CPU", "run's process", "API server", "spawned workers", "DDS solvers",
               "other", "wall"]  # fmt: skip
    print(f"{'code':7} {'load':>11}  " + "  ".join(f"{c:>15}" for c in columns), flush=True)
    for _ in range(args.runs):
        for name, code in codes:
            load0 = os.getloadavg()[0]
            r = one_run(code, args.inputs, home, extra)
            load = f"{load0:.1f}->{os.getloadavg()[0]:.1f}"
            cells = "  ".join(f"{r.get(c, 0.0):>14.1f}s" for c in columns)
            print(f"{name:7} {load:>11}  {cells}" + ("" if r["exit"] == 0 else f"  exit {r['exit']}"),
                  flush=True)  # fmt: skip
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
