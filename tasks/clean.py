"""Clean: every raw record not yet judged goes to `boards` or to `exclusions`, with reasons.

Workers never open the store (DuckDB has one writer process). The pending raw records are
exported to a parquet file; each worker cleans a slice of it and writes its boards, exclusions
and issues as parquet files; the store loads them in one transaction. Nothing but file names and
counters crosses a process boundary.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import duckdb
import polars as pl
from prefect import task

from ddrank.cleaning import records_leading_passes
from tasks.db import connect
from tasks.workers import (
    _RAW_FIELDS,
    BOARD_SCHEMA,
    PARALLEL_THRESHOLD,
    CleanSummary,
    clean_slice,
    spawn_pool,
)

_PENDING = (
    "SELECT {cols} FROM raw_records r "
    "WHERE NOT EXISTS (SELECT 1 FROM boards b WHERE b.record_id = r.record_id) "
    "AND NOT EXISTS (SELECT 1 FROM exclusions e WHERE e.record_id = r.record_id) "
    "ORDER BY r.partition_id, r.source_file, r.source_line"
)


def clean_pending(con: duckdb.DuckDBPyConnection, workers: int | None = None) -> CleanSummary:
    """Judge every raw record that is neither a board nor an exclusion yet."""
    workers = workers or os.cpu_count() or 1
    cols = ", ".join(f"r.{c}" for c in ["record_id", *_RAW_FIELDS])
    with tempfile.TemporaryDirectory(prefix="ddrank-clean-") as tmp:
        source = str(Path(tmp) / "pending.parquet")
        con.execute(
            f"COPY ({_PENDING.format(cols=cols)}) TO '{source}' (FORMAT parquet)"
        ).fetchall()
        n = pl.scan_parquet(source).select(pl.len()).collect().item()
        summary = CleanSummary()
        if n == 0:
            return summary
        passes = files_with_leading_passes(con)
        if workers <= 1 or n < PARALLEL_THRESHOLD:
            summary.add(clean_slice(source, 0, n, tmp, "0", passes))
        else:
            size = -(-n // (workers * 2))
            jobs = [(source, k, size, tmp, str(i), passes) for i, k in enumerate(range(0, n, size))]
            with spawn_pool(workers) as pool:
                for part in pool.map(clean_slice, *zip(*jobs, strict=True)):
                    summary.add(part)
        _load(con, tmp)
    return summary


def files_with_leading_passes(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """Source files with at least one auction that starts with a pass: they write leading
    passes, so the leading-pass repair must not touch their records (issue 16)."""
    firsts = con.execute(
        "SELECT DISTINCT source_file, split_part(trim(auction), ' ', 1) FROM raw_records "
        "WHERE auction IS NOT NULL AND trim(auction) <> ''"
    ).fetchall()
    return frozenset(f for f, first in firsts if records_leading_passes([first]))


def _load(con: duckdb.DuckDBPyConnection, folder: str) -> None:
    """Load every worker's parquet output into the store, all or nothing."""
    cols = ", ".join(BOARD_SCHEMA)
    picked = ", ".join(f"n.{c}" for c in BOARD_SCHEMA)
    con.execute("BEGIN TRANSACTION").fetchall()
    try:
        con.execute(
            f"INSERT INTO boards ({cols}, partition_id) SELECT {picked}, r.partition_id "
            f"FROM read_parquet('{folder}/boards-*.parquet') n "
            "JOIN raw_records r ON r.record_id = n.record_id"
        ).fetchall()
        for table in ("exclusions", "auction_issues", "play_issues"):
            con.execute(
                f"INSERT INTO {table} SELECT * FROM read_parquet('{folder}/{table}-*.parquet')"
            ).fetchall()
        con.execute("COMMIT").fetchall()
    except BaseException:
        con.execute("ROLLBACK").fetchall()
        raise


@task(name="clean", retries=2, retry_delay_seconds=[2, 10])
def clean_task(db: str, workers: int | None = None) -> dict:
    """Prefect task: clean every pending raw record in the store at `db`."""
    con = connect(db)
    try:
        return clean_pending(con, workers).as_dict()
    finally:
        con.close()
