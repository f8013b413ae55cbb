"""Ingest + cleaning throughput on the real sample replicated to ~200,000 table results.

Each copy of the bundled PBN/LIN files gets its own event name, so every replicated record is a
distinct record (the store deduplicates identical content). Prints boards/s for ingest and for
cleaning, the total against the 60 s target, and the paper's 3,622 s for comparison.

    .venv/bin/python bench/bench_clean.py [--records 200000] [--workers 2]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stages.clean import clean_pending  # noqa: E402
from stages.ingest import ingest_paths  # noqa: E402
from store import Store  # noqa: E402

SAMPLE = ROOT / "ddrank" / "data" / "sample"
PAPER_CLEANING_SECONDS = 3622  # seed Table 8


def replicate(target: int, folder: Path) -> int:
    """Write copies of the sample files with distinct event names until `target` records."""
    sources = sorted(SAMPLE.rglob("*.pbn")) + sorted(SAMPLE.rglob("*.lin"))
    per_copy = {p: p.read_text() for p in sources}
    counts = {
        p: t.count("[Declarer ") if p.suffix == ".pbn" else t.count("qx|")
        for p, t in per_copy.items()
    }
    total, k = 0, 0
    while total < target:
        for path, text in per_copy.items():
            if path.suffix == ".pbn":
                text = re.sub(r'\[Event "([^"]*)"\]', rf'[Event "\1 (copy {k})"]', text)
            else:
                text = re.sub(r"vg\|([^,|]*)", rf"vg|\1 (copy {k})", text)
            (folder / f"{path.stem}-{k:03d}{path.suffix}").write_text(text)
            total += counts[path]
        k += 1
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=200_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "inbox"
        folder.mkdir()
        expected = replicate(args.records, folder)
        store = Store(Path(tmp) / "bench.duckdb")
        t0 = time.perf_counter()
        ing = ingest_paths(store, [folder], workers=args.workers)
        t1 = time.perf_counter()
        cl = clean_pending(store, workers=args.workers)
        t2 = time.perf_counter()
        raw, kept, excluded = (
            store.table_count(t) for t in ("raw_records", "boards", "exclusions")
        )
        store.close()
    ingest_s, clean_s = t1 - t0, t2 - t1
    total = ingest_s + clean_s
    print(f"records written     {expected:>10,}")
    print(
        f"records ingested    {ing.new:>10,}  in {ingest_s:6.1f} s  = {ing.new / ingest_s:>9,.0f} boards/s"
    )
    print(
        f"records cleaned     {cl.cleaned:>10,}  in {clean_s:6.1f} s  = {cl.cleaned / clean_s:>9,.0f} boards/s"
    )
    print(
        f"kept / excluded     {kept:>10,} / {excluded:,}  (raw {raw:,}: balanced={raw == kept + excluded})"
    )
    print(
        f"ingest + clean      {total:10.1f} s  (target <= 60 s: {'met' if total <= 60 else 'NOT met'})"
    )
    paper_rate = 200_472 / PAPER_CLEANING_SECONDS
    print(
        f"paper's cleaning    {PAPER_CLEANING_SECONDS:10,} s for 200,472 boards = {paper_rate:,.0f} boards/s"
    )
    print(
        f"speed-up vs paper   {cl.cleaned / total / paper_rate:10.1f} x (ingest + clean vs paper's clean)"
    )


if __name__ == "__main__":
    main()
