"""Ingest: read hand-record files into `raw_records`, once per distinct record, in partitions."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl
from prefect import task

from ddrank.raw import RAW_COLUMNS, ParsedFile, RawRecord
from tasks.db import connect
from tasks.events_store import EventRows
from tasks.workers import (
    FORMATS,
    StreamedFile,
    detect_format,
    read_records,
    read_with_ids,
    spawn_pool,
    streams,
)

__all__ = [
    "FORMATS",
    "IngestSummary",
    "expand_paths",
    "ingest_paths",
    "ingest_task",
    "read_records",
]

DEFAULT_PARTITION_SIZE = 500
_INT_COLUMNS = ("source_line", "partition_id", "occurrence")


@dataclass
class IngestSummary:
    files: int = 0
    read: int = 0
    new: int = 0
    duplicate: int = 0
    unreadable: list[dict[str, object]] = field(default_factory=list)
    warnings: list[dict[str, object]] = field(default_factory=list)  # kept, but off-standard
    per_file: list[dict[str, object]] = field(default_factory=list)
    partitions: list[int] = field(default_factory=list)
    hand_record_deals: int = 0  # games with a deal and no table result: stored in `deals`
    new_deals: int = 0
    new_events: int = 0
    new_standings: int = 0

    def as_dict(self) -> dict[str, object]:
        return {
            "files": self.files, "records_read": self.read, "new": self.new,
            "duplicate": self.duplicate, "unreadable": self.unreadable,
            "warnings": self.warnings,
            "hand_record_deals": self.hand_record_deals, "new_deals": self.new_deals,
            "new_events": self.new_events, "new_standings": self.new_standings,
            "per_file": self.per_file, "new_partitions": self.partitions,
        }  # fmt: skip


def expand_paths(paths: list[str | Path]) -> list[Path]:
    """Files as given, and the hand-record files inside given folders (sorted, recursive)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() in FORMATS))
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    return out


def _parsed(
    files: list[Path], workers: int
) -> Iterator[tuple[ParsedFile, list[RawRecord], list[str]]]:
    """Parse files, several at a time in worker processes when there are many."""
    if workers <= 1 or len(files) < 4:
        yield from map(read_with_ids, files)
        return
    with spawn_pool(workers) as pool:
        yield from pool.map(read_with_ids, files)


def ingest_paths(
    con: duckdb.DuckDBPyConnection,
    paths: list[str | Path],
    partition_size: int = DEFAULT_PARTITION_SIZE,
    workers: int = 1,
) -> IngestSummary:
    """Add the records of these files that the store does not have yet.

    New records go to new partitions (never into existing ones), so the content of a finished
    partition never changes and its cached downstream results stay valid.
    """
    summary = IngestSummary()
    files = expand_paths(paths)
    digests = {p: _sha1(p) for p in files}
    unchanged = _unchanged_files(con, digests)
    for path, count in unchanged.items():  # same bytes as last time: nothing to parse
        summary.files += 1
        summary.read += count
        summary.duplicate += count
        summary.per_file.append({"file": str(path), "format": "unchanged", "records": count,
                                 "new": 0})  # fmt: skip
    todo = [p for p in files if p not in unchanged]
    extras = EventRows()
    con.execute("BEGIN TRANSACTION").fetchall()  # records and their files land together or not
    try:
        next_partition = con.execute(
            "SELECT coalesce(max(partition_id) + 1, 0) FROM raw_records"
        ).fetchall()[0][0]
        large = [p for p in todo if streams(p)]  # read and stored in batches, in order
        small = [p for p in todo if p not in large]
        for path, (parsed, deals, ids) in zip(small, _parsed(small, workers), strict=True):
            extras.add(parsed, deals)
            summary.warnings += [{"file": str(path), "line": line, "warning": w}
                                 for line, w in parsed.warnings]  # fmt: skip
            fresh = _fresh(con, parsed.records, ids, summary)
            _insert(con, fresh, summary, next_partition, partition_size)
            _file_done(con, summary, path, digests[path], parsed.format, len(parsed.records),
                       len(fresh), len(deals), len(parsed.standings))  # fmt: skip
            del parsed, deals, ids, fresh
        for path in large:
            stream = StreamedFile(detect_format(path))
            new = 0
            for batch in stream.batches(path):
                extras.add_records(batch)
                fresh = _fresh(con, batch, [r.record_id for r in batch], summary)
                _insert(con, fresh, summary, next_partition, partition_size)
                new += len(fresh)
            extras.add(stream.parsed(), stream.deals)
            _file_done(con, summary, path, digests[path], stream.format, stream.count, new,
                       len(stream.deals), len(stream.standings))  # fmt: skip
        summary.new_events, summary.new_standings, summary.new_deals = extras.store(con)
        con.execute("COMMIT").fetchall()
    except BaseException:
        con.execute("ROLLBACK").fetchall()
        raise
    summary.partitions = sorted(set(summary.partitions))
    return summary


def _fresh(
    con: duckdb.DuckDBPyConnection,
    records: list[RawRecord],
    ids: list[str],
    summary: IngestSummary,
) -> list[tuple[RawRecord, str]]:
    """The records the store does not have yet; unreadable ones are reported. Records of this
    run are already in the store (same transaction); `seen` covers the batch at hand."""
    seen: set[str] = set()
    known = _known_ids(con, ids)
    fresh: list[tuple[RawRecord, str]] = []
    for rec, rid in zip(records, ids, strict=True):
        if rec.parse_error:
            summary.unreadable.append(
                {"file": rec.source_file, "line": rec.source_line, "error": rec.parse_error}
            )
        if rid in known or rid in seen:
            summary.duplicate += 1
            continue
        seen.add(rid)
        fresh.append((rec, rid))
    return fresh


def _file_done(
    con: duckdb.DuckDBPyConnection,
    summary: IngestSummary,
    path: Path,
    sha1: str,
    fmt: str,
    records: int,
    new: int,
    deals: int,
    standings: int,
) -> None:
    """Count one ingested file and record it in `source_files` (same transaction)."""
    summary.files += 1
    summary.read += records
    summary.hand_record_deals += deals
    summary.per_file.append({"file": str(path), "format": fmt, "records": records, "new": new,
                             "hand_record_deals": deals, "standings": standings})  # fmt: skip
    con.execute(
        "INSERT OR REPLACE INTO source_files (path, sha1, format, records, new_records) "
        "VALUES (?, ?, ?, ?, ?)",
        [str(path), sha1, fmt, records, new],
    ).fetchall()


def _sha1(path: Path) -> str:
    h = hashlib.sha1()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_COLUMNS = [*RAW_COLUMNS, "partition_id"]
_TYPES = {c: pl.Int64 if c in _INT_COLUMNS else pl.Utf8 for c in _COLUMNS}


def _insert(
    con: duckdb.DuckDBPyConnection,
    fresh: list[tuple[RawRecord, str]],
    summary: IngestSummary,
    first_partition: int,
    partition_size: int,
) -> None:
    """Append records to `raw_records`: the k-th new record of this run (`summary.new` are
    already written) goes to partition `first_partition + k // partition_size`."""
    if not fresh:
        return
    data: dict[str, list] = {c: [getattr(rec, c) for rec, _ in fresh] for c in RAW_COLUMNS[1:]}
    data["record_id"] = [rid for _, rid in fresh]
    k0 = summary.new
    data["partition_id"] = [first_partition + (k0 + k) // partition_size for k in range(len(fresh))]
    summary.partitions.extend(sorted(set(data["partition_id"])))
    con.register("new_raw", pl.DataFrame(data, schema=_TYPES))
    names = ", ".join(_COLUMNS)
    con.execute(f"INSERT INTO raw_records ({names}) SELECT {names} FROM new_raw").fetchall()
    con.unregister("new_raw")
    summary.new += len(fresh)


def _unchanged_files(con: duckdb.DuckDBPyConnection, digests: dict[Path, str]) -> dict[Path, int]:
    """Files whose path and content are already recorded, with their record counts."""
    known = dict(
        ((p, h), n)
        for p, h, n in con.execute("SELECT path, sha1, records FROM source_files").fetchall()
    )
    return {p: known[(str(p), h)] for p, h in digests.items() if (str(p), h) in known}


def _known_ids(con: duckdb.DuckDBPyConnection, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    con.register("probe", pl.DataFrame({"record_id": ids}))
    return set(
        con.sql("SELECT r.record_id FROM raw_records r JOIN probe USING (record_id)")
        .pl()["record_id"]
        .to_list()
    )


@task(name="ingest", retries=2, retry_delay_seconds=[2, 10])
def ingest_task(db: str, paths: list[str], partition_size: int = DEFAULT_PARTITION_SIZE) -> dict:
    """Prefect task: ingest files into the store at `db`; returns the summary."""
    con = connect(db)
    try:
        return ingest_paths(con, paths, partition_size).as_dict()
    finally:
        con.close()
