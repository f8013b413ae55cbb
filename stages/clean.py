"""The clean stage: every raw record not yet judged goes to `boards` or to `exclusions`, with reasons.

Workers never open the store (DuckDB has one writer process). The pending raw records are
exported to a parquet file; each worker cleans chunks of it (`stages.clean_slice`) and writes
its boards, exclusions and issues as parquet files; the store loads them in one transaction.
Nothing but file names and counters crosses a process boundary.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from ddrank.cleaning import records_leading_passes
from stages.clean_slice import CleanSummary, clean_slice
from stages.ingest import as_store, spawn_pool
from stages.run import give_back_memory
from store import Store

PARALLEL_THRESHOLD = 20_000  # below this, a process pool costs more than it saves
#: Records a worker cleans at a time (a row group of the pending file each): a worker holds one
#: chunk, whatever the archive's size, and many chunks keep every worker busy to the end.
CHUNK_ROWS = 10_000
#: Pending records exported to one parquet file (whole partitions): DuckDB sorts one file's.
EXPORT_ROWS = 50_000

__all__ = ["CleanSummary", "clean_pending", "files_with_leading_passes"]


def clean_pending(store: Store | Any, workers: int | None = None) -> CleanSummary:
    """Judge every raw record that is neither a board nor an exclusion yet."""
    store = as_store(store)
    workers = workers or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="ddrank-clean-") as tmp:
        summary = CleanSummary()
        sources = _export_pending(store, tmp)
        if not sources:
            return summary
        passes = files_with_leading_passes(store)
        give_back_memory(store)  # the blocks the export read: not held while the workers clean
        chunks = [(source, k) for source, n in sources for k in range(0, n, CHUNK_ROWS)]
        jobs = [(source, k, CHUNK_ROWS, tmp, f"{i:05d}", passes)
                for i, (source, k) in enumerate(chunks)]  # fmt: skip
        n = sum(n for _, n in sources)
        if workers <= 1 or n < PARALLEL_THRESHOLD:
            for job in jobs:
                summary.add(clean_slice(*job))
        else:
            with spawn_pool(min(workers, len(jobs))) as pool:
                for part in pool.map(clean_slice, *zip(*jobs, strict=True)):
                    summary.add(part)
        _load(store, tmp)
    return summary


def _export_pending(store: Store, folder: str) -> list[tuple[str, int]]:
    """The pending records to parquet files of whole partitions, about EXPORT_ROWS records each,
    in the order of one export (partition, file, line), with each file's records. DuckDB sorts
    one file's records at a time: one sort of an archive's pending records grew to its memory
    limit (issue 37)."""
    ranges: list[list[int]] = []  # [first partition, last partition, records]
    for partition, count in store.tuples("pending_partitions"):
        if not ranges or ranges[-1][2] + count > EXPORT_ROWS:
            ranges.append([partition, partition, 0])
        ranges[-1][1:] = [partition, ranges[-1][2] + count]
    out = []
    for i, (first, last, _) in enumerate(ranges):
        path = str(Path(folder) / f"pending-{i:05d}.parquet")
        store.run("export_pending", path=path, first=first, last=last)
        n = pl.scan_parquet(path).select(pl.len()).collect().item()
        if n:
            out.append((path, n))
    return out


def files_with_leading_passes(store: Store | Any) -> frozenset[str]:
    """Source files with at least one auction that starts with a pass: they write leading
    passes, so the leading-pass repair must not touch their records (issue 16)."""
    firsts = as_store(store).tuples("first_calls")
    return frozenset(f for f, first in firsts if records_leading_passes([first]))


def _load(store: Store, folder: str) -> None:
    """Load every worker's parquet output into the store, all or nothing."""
    with store.transaction():
        for table in ("boards", "exclusions", "auction_issues", "play_issues"):
            store.run(f"load_{table}", files=f"{folder}/{table}-*.parquet")
