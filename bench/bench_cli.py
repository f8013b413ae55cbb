"""How long the command line takes: start-up, a no-op `ddrank run`, a director's `ddrank results`
and the terminal's lookups.

    python bench/bench_cli.py [--runs 5] [--before DIR] [--only results]

Sections (each prints medians of `--runs` runs, wall and CPU seconds, beside its target):

* start-up: `ddrank --help` and `ddrank ingest --help` (< 0.5 s), a `ddrank run` with nothing new
  (< 3 s; timed only when a finished run is in `--out`, or with `--prepare`);
* results: `ddrank results FILE` on a club night, Welwyn (USEBIO, BriAn; read from
  ../shared/data/events when present) and the bundled Bridgemate game, cold (a new output folder:
  no store, nothing cached) and warm (the same command again: nothing new), against
  `ddrank score FILE` on the same file; the targets are cold <= 3 s on 2 cores and cold <= 3 x
  score + 1 s. With `--before DIR` (a git worktree of an older commit: `git worktree add --detach
  DIR <commit>`) the same commands of that code are timed in the same session, and the time its
  command spends starting the temporary Prefect API (`flows.server.prefect_api`) is shown as a
  share of its cold run;
* lookups: `ddrank player` and `ddrank event` on the store the results section made (< 1 s).

Run it on an idle machine when absolute seconds matter: the figures are wall times, and a busy
2-core machine inflates them; the ratios (after / before, cold / score) are measured in one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The real event files that may not be bundled (../shared beside the repository; --events).
EVENTS = ROOT.parent / "shared" / "data" / "events"
CLUB_NIGHTS = {
    "Welwyn (USEBIO, 24 boards, 144 results)": Path("usebio") / "welwyn-2025-04-09.usebio.xml",
    "Bridgemate LBC (27 boards, 270 results)": ROOT / "tests" / "data" / "bridgemate"
    / "LBC-2026-01-26.bws",
}  # fmt: skip


def ddrank_command() -> list[str]:
    """`python -m cli.main`: run with the code's folder as working directory and PYTHONPATH
    (`environment`), it is that code's command (this checkout, or an older worktree)."""
    return [sys.executable, "-m", "cli.main"]


def environment(code: Path) -> dict[str, str]:
    """The child's environment. Bytecode is written and read as on a user's machine (an
    installed package has its .pyc files): with PYTHONDONTWRITEBYTECODE every run would compile
    a hundred modules again, about 0.8 s of CPU that no user pays."""
    env = {**os.environ, "PYTHONPATH": str(code), "COLUMNS": "200", "DO_NOT_TRACK": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(
    args: list[str], code: Path = ROOT, cwd: Path | None = None
) -> tuple[float, float, str]:
    """Wall and CPU (user + system, children included) seconds of one run, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(args, cwd=cwd or code, env=environment(code), capture_output=True,
                          text=True)  # fmt: skip
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout


def timed(args: list[str], runs: int, code: Path = ROOT) -> tuple[float, float, str]:
    """Median wall and CPU seconds of `runs` runs, and the last run's first output line."""
    walls, cpus, first = [], [], ""
    for _ in range(runs):
        wall, cpu, out = run_once(args, code)
        walls.append(wall)
        cpus.append(cpu)
        first = (out.strip().splitlines() or [""])[0]
    return statistics.median(walls), statistics.median(cpus), first


def prefect_start(code: Path, runs: int) -> float | None:
    """Median seconds the code's temporary Prefect API takes to start and stop, or None when that
    code has no such server (its interactive path does not start one)."""
    probe = ("import time, os; os.environ.setdefault('DO_NOT_TRACK', '1'); t = time.perf_counter()\n"
             "from flows.server import prefect_api\n"
             "with prefect_api():\n    pass\nprint(time.perf_counter() - t)")  # fmt: skip
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", probe], cwd=code, env=environment(code),
                              capture_output=True, text=True)  # fmt: skip
        if done.returncode != 0:
            return None
        times.append(float(done.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def results_times(path: Path, runs: int, code: Path, work: Path) -> dict[str, float]:
    """score, cold results and warm results of one file with the code in `code` (medians). One
    untimed run first writes the code's bytecode, as installing it would."""
    cmd = ddrank_command()
    run_once(cmd + ["results", str(path), "--out", str(work / "bytecode")], code)
    out = {"score": timed(cmd + ["score", str(path), "--out", str(work / "score")], runs, code)}
    colds, warms = [], []
    for k in range(runs):
        folder = work / f"results-{k}"
        colds.append(run_once(cmd + ["results", str(path), "--out", str(folder)], code))
        warms.append(run_once(cmd + ["results", str(path), "--out", str(folder)], code))
    return {
        "score": out["score"][0], "score_cpu": out["score"][1],
        "cold": statistics.median(w for w, _, _ in colds),
        "cold_cpu": statistics.median(c for _, c, _ in colds),
        "warm": statistics.median(w for w, _, _ in warms),
        "warm_cpu": statistics.median(c for _, c, _ in warms),
        "store": str(work / "results-0" / "results.duckdb"),
    }  # fmt: skip


def results_section(runs: int, before: Path | None) -> list[dict]:
    print("\nddrank results on a club night: cold (new output folder) and warm (the same again),"
          " against ddrank score on the same file; medians, wall (CPU) seconds")  # fmt: skip
    codes = [("after", ROOT)] + ([("before", before)] if before else [])
    rows = []
    for label, path in CLUB_NIGHTS.items():
        if not path.is_file():
            print(f"  {label}: skipped, {path} is not here (it may not be bundled)")
            continue
        for name, code in codes:
            work = Path(tempfile.mkdtemp(prefix=f"bench-cli-{name}-"))
            t = results_times(path, runs, code, work)
            t.update(file=label, code=name, work=str(work))
            rows.append(t)
            target = 3 * t["score"] + 1
            print(f"  {label}, {name:6}: score {t['score']:6.2f} ({t['score_cpu']:.2f})  "
                  f"cold {t['cold']:6.2f} ({t['cold_cpu']:.2f})  warm {t['warm']:6.2f} "
                  f"({t['warm_cpu']:.2f})  cold <= 3 s: {'ok' if t['cold'] <= 3 else 'OVER'}; "
                  f"cold <= 3 x score + 1 = {target:.2f} s: "
                  f"{'ok' if t['cold'] <= target else 'OVER'}")  # fmt: skip
    if before:
        start = prefect_start(before, runs)
        for r in rows:
            if r["code"] == "before" and start is not None:
                print(f"  {r['file']}, before: starting the Prefect API {start:.2f} s = "
                      f"{100 * start / r['cold']:.0f}% of the cold run")  # fmt: skip
        print(
            f"  after: Prefect started by the interactive path: "
            f"{'yes' if prefect_imported(ROOT) else 'no (not even imported)'}"
        )
        for label in CLUB_NIGHTS:
            pair = {r["code"]: r for r in rows if r["file"] == label}
            if len(pair) == 2:
                a, b = pair["after"], pair["before"]
                print(f"  {label}: after / before, cold {a['cold'] / b['cold']:.3f}, warm "
                      f"{a['warm'] / b['warm']:.3f}")  # fmt: skip
    return rows


def prefect_imported(code: Path) -> bool:
    """Does `ddrank results` of this code import prefect (python -X importtime)?"""
    path = next((p for p in CLUB_NIGHTS.values() if p.is_file()), None)
    if path is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([*ddrank_command(), "results", str(path), "--out", tmp],
                              cwd=code, env={**environment(code), "PYTHONPROFILEIMPORTTIME": "1"},
                              capture_output=True, text=True)  # fmt: skip
    return any(line.rstrip().endswith("| prefect") for line in done.stderr.splitlines())


def lookups_section(rows: list[dict], runs: int) -> None:
    """`ddrank player` and `ddrank event` on the stores the results section made."""
    print("\nlookups from the store (target < 1 s): medians, wall (CPU) seconds")
    cmd = ddrank_command()
    for r in rows:
        if r["code"] != "after":
            continue
        db = r["store"]
        player, event = _first(db, "select northname from boards where northname <> ''"), _first(
            db, "select coalesce(e.name, s.event) from scored_events s "
            "left join events e on e.event_id = s.event")  # fmt: skip
        for args in (["player", player], ["event", event], ["player", "nobody at all"]):
            wall, cpu = _timed_allowing_failure(cmd + [*args, "--db", db], runs)
            print(f"  {r['file']}: ddrank {' '.join(repr(a) if ' ' in a else a for a in args)}: "
                  f"{wall:.2f} ({cpu:.2f})  {'ok' if wall < 1 else 'OVER'}")  # fmt: skip


def _first(db: str, sql: str) -> str:
    """The first value a query gives on the store `db`."""
    import duckdb

    con = duckdb.connect(db, read_only=True)
    try:
        return str(con.execute(sql).fetchall()[0][0])
    finally:
        con.close()


def _timed_allowing_failure(args: list[str], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(args, cwd=ROOT, env=environment(ROOT), capture_output=True)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def startup_section(runs: int, db: str, out: str, prepare: bool) -> None:
    print("\nstart-up: medians, wall (CPU) seconds")
    cmd = ddrank_command()
    rows = []
    for label, extra, target in (("ddrank --help", ["--help"], 0.5),
                                 ("ddrank ingest --help", ["ingest", "--help"], 0.5)):  # fmt: skip
        median, cpu, _ = timed(cmd + extra, runs)
        rows.append((label, median, cpu, target, ""))
    run = cmd + ["run", "--db", db, "--out", out]
    if prepare:
        subprocess.run(run, cwd=ROOT, check=True, env=environment(ROOT))
    if (Path(out) / ".ddrank-run.json").exists() or (ROOT / out / ".ddrank-run.json").exists():
        median, cpu, line = timed(run, runs)
        rows.append(("ddrank run (nothing new)", median, cpu, 3.0, line))
    else:
        rows.append(("ddrank run (nothing new)", float("nan"), float("nan"), 3.0,
                     f"no finished run in {out}/: run `ddrank run --db {db} --out {out}` "
                     "first, or pass --prepare"))  # fmt: skip
    width = max(len(r[0]) for r in rows)
    for label, median, cpu, target, note in rows:
        verdict = "" if median != median else ("ok" if median < target else "OVER")  # NaN check
        print(f"  {label:<{width}}  {median:6.3f} ({cpu:.3f})  target < {target:g} s  {verdict}")
        if note:
            print(f"  {'':<{width}}  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="Runs per command (median).")
    parser.add_argument("--before", type=Path, help="A worktree of an older commit to compare.")
    parser.add_argument("--only", choices=("startup", "results"), help="One section only.")
    parser.add_argument("--db", default="ddrank.duckdb", help="Store of the no-op run.")
    parser.add_argument("--out", default="out", help="Output folder of the no-op run.")
    parser.add_argument("--prepare", action="store_true",
                        help="Run `ddrank run` once first so that the timed runs have nothing new.")  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="Keep the results' output folders.")
    parser.add_argument("--events", type=Path, default=EVENTS,
                        help="Folder of the real event files that may not be bundled.")  # fmt: skip
    args = parser.parse_args()
    for label, path in CLUB_NIGHTS.items():  # relative: under --events
        CLUB_NIGHTS[label] = path if path.is_absolute() else args.events / path
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {args.runs} runs each")
    if args.only != "results":
        startup_section(args.runs, args.db, args.out, args.prepare)
    if args.only != "startup":
        rows = results_section(args.runs, args.before.resolve() if args.before else None)
        lookups_section(rows, args.runs)
        if not args.keep:
            for r in rows:
                shutil.rmtree(r["work"], ignore_errors=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
