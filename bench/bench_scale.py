"""A federation-scale run: each stage's wall time, rate and peak memory at two or more sizes.

GENERATED DATA, FOR SCALE ONLY. The archive is built from the bundled 2012 world-class PBN
(7,632 real table results on 2,298 real deals, with their real auctions, plays and results):
each copy of each of its events becomes a distinct generated event ("GEN 0042 Vanderbilt"), with
its own date (spread over three years), its own team names, and its players re-keyed into a
pool of generated players (default: one per 20 table results, so 50,000 at 1M), drawn at random
for each copy so that every generated player plays many events with many partners. Deals,
contracts, auctions, plays and results are the real ones; no value is invented. Nothing of it is
a real event: it measures speed and memory only, and no rating it gives means anything.

Each size runs the stage list (`stages.pipeline.STAGES`, the same list `ddrank run` and
`ddrank results` run) in a fresh process without Prefect, on a new store, with the double-dummy
stage off (DD's rate is `bench/bench_dd.py`'s: about 0.15-0.2 s of one core per distinct deal,
so 20,000 deals are about an hour of 2 cores, and a million results' DD is out of reach here),
and with names and the regression off (they need DD or a ranking list). For each stage it
prints the wall time, table results per second and the peak resident memory of the run's
process tree (the run's process and its pool workers, sampled every 0.1 s) and of the run's own
process (its VmHWM, reset before each stage), and its CPU time (the process and its reaped pool
workers: steadier than wall time on a shared machine), the peak of the process tree over the
whole run, and the site's full-build rate. Then, with the site built (sizes up to `--site-max`),
one more generated event of 300 results is added to the inbox and the stage list runs again on
the same store: the time to add one event, per stage, and how many site pages it wrote new or
rewrote (`--add-event`: add it even where the site is not built, to time each stage's share of
adding one event without the site). DuckDB's own memory (`duckdb_memory()`) is printed after each
stage. Last, how each stage's time grew from one size to the next.

    .venv/bin/python bench/bench_scale.py --results 100000,300000,1000000 --json scale.json
        [--workers 2] [--players-per-result 0.05] [--site-max N] [--keep /tmp/scale/archive]

Everything goes to a temporary folder (or `--keep`); nothing goes into the repository.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
SEATS = ("West", "North", "East", "South")
TAG = re.compile(r'^\[(\w+) "([^"]*)"\]', re.M)


# ------------------------------------------------------------------------------ the archive
def source_events() -> list[tuple[str, list[str]]]:
    """The source's games grouped by event (in file order): (event name, game texts)."""
    text = SOURCE.read_text(encoding="latin-1")
    events: list[tuple[str, list[str]]] = []
    for game in text.split("\n\n"):
        if "[" not in game:
            continue
        named = re.search(r'^\[Event "([^"]*)"\]', game, re.M)
        if named and (not events or events[-1][0] != named.group(1)):
            events.append((named.group(1), []))
        events[-1][1].append(game.strip("\n"))
    return events


def generate(results: int, players: int, folder: Path, seed: int = 2026, prefix: str = "GEN",
             start: date = date(2023, 1, 2)) -> dict[str, int]:  # fmt: skip
    """Write about `results` generated table results as one PBN file per generated event."""
    rng = random.Random(seed)
    events = source_events()
    names = sorted({v for _, games in events for g in games
                    for k, v in TAG.findall(g) if k in SEATS})  # fmt: skip
    players = max(players, len(names))
    written = copies = files = 0
    while written < results:
        pool = rng.sample(range(players), len(names))  # this copy's players
        who = {n: f"Gen{p:06d} Player" for n, p in zip(names, pool, strict=True)}
        for e, (event, games) in enumerate(events):
            if written >= results:
                break
            day = start + timedelta(days=(copies * len(events) + e) % 1095)
            label = f"{prefix} {copies:04d} {event}"

            def rekey(m: re.Match[str], label: str = label, day: date = day,
                      who: dict[str, str] = who, copy: int = copies) -> str:  # fmt: skip
                tag, value = m.group(1), m.group(2)
                if tag in SEATS:
                    value = who.get(value, value)
                elif tag == "Event":
                    value = label
                elif tag == "Date":
                    value = day.strftime("%Y.%m.%d")
                elif tag in ("HomeTeam", "VisitTeam"):
                    value = f"{value} {copy:04d}"
                return f'[{tag} "{value}"]'

            out = []
            for g in games:
                if written >= results:
                    break
                out.append(TAG.sub(rekey, g))
                written += g.count("[Contract ")
            path = folder / f"{prefix.lower()}-{copies:04d}-{e:02d}.pbn"
            path.write_text("% GENERATED for scale tests only (bench/bench_scale.py)\n"
                            + "\n\n".join(out) + "\n", encoding="latin-1")  # fmt: skip
            files += 1
        copies += 1
    return {"results": written, "players": players, "files": files, "copies": copies}


# ------------------------------------------------------------------------------ one size, measured
class Peak:
    """Peak RSS of this process and its descendants (sampled), and this process's VmHWM."""

    def __init__(self) -> None:
        import psutil

        self.me = psutil.Process()
        self.tree = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.1):
            total = 0
            for p in [self.me, *self.me.children(recursive=True)]:
                with contextlib.suppress(Exception):  # a worker that just ended
                    total += p.memory_info().rss
            self.tree = max(self.tree, total)

    def __enter__(self) -> Peak:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
        self.tree = self.me.memory_info().rss
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    @staticmethod
    def hwm() -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0


def cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the stage's pool workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def child(inbox: str, db: str, out: str, workers: int, site: bool, players: int,
          add: bool = False) -> None:  # fmt: skip
    """In a fresh process: the stage list on a new store, each stage timed and measured (the
    site stage left out unless `site`). Then one generated 300-result event is added to the
    inbox and the stage list runs again: the time to add one event, and the site pages it
    touched (written new or rewritten)."""
    sys.path.insert(0, str(ROOT))
    from stages.pipeline import open_run, run_stages
    from stages.settings import load_settings

    settings = load_settings(inputs=[inbox], db=db, out=out, workers=workers, double_dummy=False,
                             regression=False, names_scope="none", ratings=True)  # fmt: skip

    def measured_run() -> tuple[dict[str, dict[str, Any]], dict, float, dict]:
        measured: dict[str, dict[str, Any]] = {}

        def call(stage: Any, run: Any) -> Any:
            if stage.name == "site" and not site:
                return {"skipped": "above --site-max"}
            began, cpu = time.perf_counter(), cpu_seconds()
            with Peak() as peak:
                result = stage.run(run)
            measured[stage.name] = {"seconds": time.perf_counter() - began,
                                    "cpu": cpu_seconds() - cpu, "tree_rss": peak.tree,
                                    "own_rss": Peak.hwm(),
                                    "duckdb": run.store.scalar(sql="select sum(memory_usage_bytes) "
                                                                   "from duckdb_memory()")}  # fmt: skip
            if stage.name == "site" and isinstance(result, dict):  # what the site read, wrote
                measured["site"].update({k: result.get(k) for k in
                                         ("events_read", "events", "render_processes",
                                          "pages_written")})  # fmt: skip
            return result

        began = time.perf_counter()
        with open_run(settings) as run:
            summary = run_stages(run, call)
            counts = {t: run.store.table_count(t) for t in
                      ("raw_records", "boards", "exclusions", "scored_results")}  # fmt: skip
        return measured, counts, time.perf_counter() - began, summary

    measured, counts, total, summary = measured_run()
    result: dict[str, Any] = {"stages": measured, "counts": counts, "total": total,
                              "failed": {k: v["failed"] for k, v in summary.items()
                                         if isinstance(v, dict) and "failed" in v}}  # fmt: skip
    if site or add:  # one more event, as a federation adds one a week
        before = _pages(Path(out))
        added = generate(300, players, Path(inbox), seed=7, prefix="ADDED",
                         start=date(2026, 6, 1))  # fmt: skip
        measured2, counts2, total2, _ = measured_run()
        after = _pages(Path(out))
        touched = sum(1 for p, stamp in after.items() if before.get(p) != stamp)
        result["added"] = {"results": added["results"], "stages": measured2, "total": total2,
                           "pages_touched": touched, "pages": len(after),
                           "pages_before": len(before), "counts": counts2}  # fmt: skip
    print(json.dumps(result))


def _pages(out: Path) -> dict[str, tuple[int, int]]:
    """Every file of the built site with its (mtime_ns, size): what a rebuild touched."""
    site = out / "site"
    if not site.is_dir():
        return {}
    return {str(p.relative_to(site)): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in site.rglob("*") if p.is_file()}  # fmt: skip


def run_size(results: int, players_per_result: float, workers: int, keep: Path | None,
             site: bool, add: bool = False) -> dict:  # fmt: skip
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        base = keep / f"{results}" if keep else Path(tmp)
        inbox = base / "inbox"
        inbox.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        made = generate(results, int(results * players_per_result), inbox)
        gen_s = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in inbox.iterdir())
        print(f"generated {made['results']:,} table results ({made['players']:,} players, "
              f"{made['files']:,} files, {size / 2**20:,.0f} MB) in {gen_s:.1f} s", flush=True)  # fmt: skip
        done = subprocess.run([sys.executable, __file__, "--child", str(inbox), str(base / "s.duckdb"),
                               str(base / "out"), str(workers), str(int(site)),
                               str(int(results * players_per_result)), str(int(add))],
                              capture_output=True, text=True)  # fmt: skip
        if done.returncode != 0:
            sys.exit(f"the run of {results:,} failed:\n{done.stderr[-4000:]}")
        measured = json.loads(done.stdout.strip().splitlines()[-1])
        return {"results": made["results"], "players": made["players"], "mb": size / 2**20,
                **measured}  # fmt: skip


def report_size(r: dict) -> None:
    """One size's table: each stage's wall time, rate and peak memory."""
    n = r["results"]
    print(f"\n{n:,} generated table results, {r['players']:,} players "
          f"(store: {r['counts']}); whole run {r['total']:.1f} s")  # fmt: skip
    print(f"{'stage':<16}{'wall s':>9}{'CPU s':>9}{'results/s':>12}{'peak RSS tree MB':>18}"
          f"{'own MB':>9}{'DuckDB MB':>10}")  # fmt: skip
    for name, m in r["stages"].items():
        rate = n / m["seconds"] if m["seconds"] else float("inf")
        print(f"{name:<16}{m['seconds']:>9.1f}{m.get('cpu', 0):>9.1f}{rate:>12,.0f}"
              f"{m['tree_rss'] / 2**20:>18,.0f}{m['own_rss'] / 2**20:>9,.0f}"
              f"{(m.get('duckdb') or 0) / 2**20:>10,.0f}")  # fmt: skip
    peak = max((m["tree_rss"] for m in r["stages"].values()), default=0)
    print(f"peak RSS of the process tree over the whole run: {peak / 2**20:,.0f} MB")
    if "site" in r["stages"]:
        m = r["stages"]["site"]
        print(f"site full build: {n / m['seconds']:,.0f} results/s ({m['seconds']:.1f} s); "
              f"{n / max(m.get('cpu', 0), 1e-9):,.0f} results per CPU-second "
              f"({m.get('cpu', 0):.1f} CPU-s, the run's process and its render workers; "
              f"events rendered by {m.get('render_processes') or 1} process(es))")  # fmt: skip
    if r["failed"]:
        print(f"failed (optional stages): {r['failed']}")
    added = r.get("added")
    if added:
        site_m = added["stages"].get("site", {})
        site = site_m.get("seconds", 0)
        print(
            f"adding one generated event of {added['results']} results: whole run "
            f"{added['total']:.1f} s (site {site:.1f} s); site pages touched "
            f"{added['pages_touched']:,} of {added['pages']:,} (were {added['pages_before']:,}); "
            f"events read {site_m.get('events_read')} of {site_m.get('events')}"
        )
        for name, m in added["stages"].items():
            print(f"  {name:<16}{m['seconds']:>9.1f} s{m.get('cpu', 0):>9.1f} CPU-s"
                  f"{m['tree_rss'] / 2**20:>9,.0f} MB tree{m['own_rss'] / 2**20:>7,.0f} MB own")  # fmt: skip
    sys.stdout.flush()


def report_growth(runs: list[dict]) -> None:
    """How each stage's time grew from one size to the next."""
    for a, b in zip(runs, runs[1:], strict=False):
        x = b["results"] / a["results"]
        print(f"\ngrowth {a['results']:,} -> {b['results']:,} (x{x:.2f} results): time ratio")
        for name, m in b["stages"].items():
            if name in a["stages"] and a["stages"][name]["seconds"] > 0:
                t = m["seconds"] / a["stages"][name]["seconds"]
                c = m.get("cpu", 0) / (a["stages"][name].get("cpu") or float("inf"))
                print(f"  {name:<16} wall x{t:6.2f}  CPU x{c:6.2f}  (linear would be x{x:.2f})")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:5], int(sys.argv[5]), sys.argv[6] == "1", int(sys.argv[7]),
              sys.argv[8:9] == ["1"])  # fmt: skip
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])  # fmt: skip
    ap.add_argument("--results", default="100000,300000,1000000", help="sizes, comma-separated")
    ap.add_argument("--players-per-result", type=float, default=0.05)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--site-max",
        type=int,
        default=100_000,
        help="build the site (and add one event to it) only up to this size (0: never: the 1M "
        "run is ingest through skill ratings, the scoring stage writing the exports)",
    )
    ap.add_argument(
        "--add-event",
        action="store_true",
        help="add one event after the full run even where the site is not built (the "
        "time to add one event, per stage, without the site)",
    )
    ap.add_argument("--keep", type=Path, help="write archives and stores here (kept)")
    ap.add_argument("--json", type=Path, help="also write the measurements here")
    args = ap.parse_args()
    runs = []
    for n in map(int, args.results.split(",")):
        runs.append(run_size(n, args.players_per_result, args.workers, args.keep,
                              n <= args.site_max, args.add_event))  # fmt: skip
        report_size(runs[-1])
    report_growth(runs)
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
