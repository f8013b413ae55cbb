"""The site of an archive: its full-build rate, and what adding one event costs it.

GENERATED DATA, FOR SCALE ONLY: the archive is `bench/bench_scale.py`'s (generated events made
from the bundled 2012 world-class PBN's real deals, auctions, plays and results, with generated
players and dates; nothing of it is a real event). The stage list (`stages.pipeline.STAGES`,
what `ddrank run` runs; no DD, no names, no regression) fills a store; then, in one run:

1. the full build: the site stage from scratch into an empty folder, in results per second;
2. a rebuild with nothing new (the build record keeps every page);
3. one generated event of 300 results added to the inbox and the stage list run again: the
   whole run's time, the site stage's time, and the site's files touched (written new or
   rewritten: a different inode or time than before), beside the summary's own counts (pages
   rendered, kept from the last build, written).

    .venv/bin/python bench/bench_site.py --results 10000 [--players-per-result 0.05] [--keep DIR]

Prints one line per measurement; `--json FILE` also writes them. Run it alone, on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_scale import generate  # noqa: E402


def files_of(site: Path) -> dict[str, tuple[int, int]]:
    """Every file of a site: (inode, mtime_ns)."""
    return {str(p.relative_to(site)): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in site.rglob("*") if p.is_file()}  # fmt: skip


def run(base: Path, results: int, players_per_result: float) -> dict[str, Any]:
    from stages.pipeline import open_run, run_stages
    from stages.settings import load_settings
    from stages.site import build_site

    inbox, db, out = base / "inbox", base / "s.duckdb", base / "out"
    inbox.mkdir(parents=True, exist_ok=True)
    players = int(results * players_per_result)
    made = generate(results, players, inbox)
    settings = load_settings(inputs=[str(inbox)], db=str(db), out=str(out), workers=2,
                             double_dummy=False, regression=False, names_scope="none",
                             ratings=True)  # fmt: skip
    timed: dict[str, float] = {}

    def call(stage: Any, r: Any) -> Any:
        t = time.perf_counter()
        try:
            return stage.run(r)
        finally:
            timed[stage.name] = time.perf_counter() - t

    with open_run(settings) as r:
        run_stages(r, call)
    m: dict[str, Any] = {"results": made["results"], "players": made["players"]}
    site = out / "site"

    # 1. the full build, from scratch (a fresh folder)
    t = time.perf_counter()
    full = build_site(db, base / "full", fill_par=False)
    m["full_seconds"] = time.perf_counter() - t
    m["full_rate"] = made["results"] / m["full_seconds"]
    m["full_pages"] = full["pages_written"]
    # 2. the same site again, nothing new
    before = files_of(site)
    t = time.perf_counter()
    again = build_site(db, out, fill_par=False)
    m["again_seconds"] = time.perf_counter() - t
    m["again_touched"] = sum(1 for p, f in files_of(site).items() if before.get(p) != f)
    m["again_rendered"] = again["pages_rendered"]
    # 3. one more event of 300 results, through the whole stage list
    before = files_of(site)
    added = generate(300, players, inbox, seed=7, prefix="ADDED", start=date(2026, 6, 1))
    timed.clear()
    t = time.perf_counter()
    with open_run(settings) as r:
        summary = run_stages(r, call)
    m["added_results"] = added["results"]
    m["added_seconds"] = time.perf_counter() - t
    m["added_site_seconds"] = timed.get("site", 0.0)
    m["added_stages"] = dict(timed)
    after = files_of(site)
    m["added_touched"] = sum(1 for p, f in after.items() if before.get(p) != f)
    m["files"] = len(after)
    s = summary.get("site") or {}
    m.update({f"added_{k}": s.get(k) for k in ("pages_rendered", "pages_reused", "pages_written")})
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])  # fmt: skip
    ap.add_argument("--results", type=int, default=10_000)
    ap.add_argument("--players-per-result", type=float, default=0.05)
    ap.add_argument("--keep", type=Path, help="write the archive, store and sites here (kept)")
    ap.add_argument("--json", type=Path, help="also write the measurements here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        base = args.keep or Path(tmp)
        m = run(base, args.results, args.players_per_result)
    print(f"GENERATED archive: {m['results']:,} table results, {m['players']:,} players")
    print(f"site full build: {m['full_rate']:,.0f} results/s ({m['full_seconds']:.1f} s, "
          f"{m['full_pages']:,} pages)")  # fmt: skip
    print(f"rebuild with nothing new: {m['again_seconds']:.1f} s, {m['again_touched']} files "
          f"touched, {m['again_rendered']} pages rendered")  # fmt: skip
    print(f"add one event of {m['added_results']} results: whole run {m['added_seconds']:.1f} s, "
          f"site stage {m['added_site_seconds']:.1f} s; site files touched "
          f"{m['added_touched']:,} of {m['files']:,} (pages rendered {m['added_pages_rendered']}, "
          f"kept {m['added_pages_reused']}, written {m['added_pages_written']})")  # fmt: skip
    for name, sec in m["added_stages"].items():
        print(f"  {name:<16}{sec:>8.1f} s")
    if args.json:
        args.json.write_text(json.dumps(m, indent=1))


if __name__ == "__main__":
    main()
