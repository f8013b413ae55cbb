"""The ingest stage: read hand-record files into `raw_records`, once per distinct record, in
partitions; their events, published rankings and hand-record deals beside them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import polars as pl

from ddrank.processes import detach_worker
from ddrank.raw import RAW_COLUMNS, ParsedFile, RawRecord
from stages.ingest_events import EventRows, registered
from store import Store
from store.inputs.files import expand_paths, file_sha1
from store.inputs.read import detect_format, read_with_ids
from store.inputs.stream import StreamedFile, streams

DEFAULT_PARTITION_SIZE = 500
_INT_COLUMNS = ("source_line", "partition_id", "occurrence")
_COLUMNS = [*RAW_COLUMNS, "partition_id"]
_TYPES = {c: pl.Int64 if c in _INT_COLUMNS else pl.Utf8 for c in _COLUMNS}


def as_store(store: Store | Any) -> Store:
    """A `Store`; a bare DuckDB connection (older callers) is wrapped in one."""
    return store if isinstance(store, Store) else Store(con=store)


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """Spawned, not forked: a fork of a process running polars or DuckDB threads can deadlock."""
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=get_context("spawn"), initializer=detach_worker
    )


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


def _parsed(files: list[Path], workers: int) -> Iterator[tuple[ParsedFile, list[str]]]:
    """Parse files, several at a time in worker processes when there are many."""
    if workers <= 1 or len(files) < 4:
        yield from map(read_with_ids, files)
        return
    with spawn_pool(workers) as pool:
        yield from pool.map(read_with_ids, files)


def ingest_paths(
    store: Store | Any,
    paths: list[str | Path],
    partition_size: int = DEFAULT_PARTITION_SIZE,
    workers: int = 1,
    digest: Callable[[Path], str] = file_sha1,
) -> IngestSummary:
    """Add the records of these files that the store does not have yet.

    New records go to new partitions (never into existing ones), so the content of a finished
    partition never changes and its cached downstream results stay valid. `digest` is the
    run's hash of a file (`stages.run.InputFiles.digest`: each file hashed once per run).
    """
    store = as_store(store)
    summary = IngestSummary()
    files = expand_paths(paths)
    digests = {p: digest(p) for p in files}
    unchanged = _unchanged_files(store, digests)
    for path, count in unchanged.items():  # same bytes as last time: nothing to parse
        summary.files += 1
        summary.read += count
        summary.duplicate += count
        summary.per_file.append({"file": str(path), "format": "unchanged", "records": count,
                                 "new": 0})  # fmt: skip
    todo = [p for p in files if p not in unchanged]
    extras = EventRows()
    with store.transaction():  # records and their files land together or not at all
        next_partition = store.scalar("next_partition")
        large = [p for p in todo if streams(p)]  # read and stored in batches, in order
        small = [p for p in todo if p not in large]
        for path, (parsed, ids) in zip(small, _parsed(small, workers), strict=True):
            extras.add(parsed)
            summary.warnings += [{"file": str(path), "line": line, "warning": w}
                                 for line, w in parsed.warnings]  # fmt: skip
            fresh = _fresh(store, parsed.records, ids, summary)
            _insert(store, fresh, summary, next_partition, partition_size)
            _file_done(store, summary, path, digests[path], parsed.format, len(parsed.records),
                       len(fresh), len(parsed.deals), len(parsed.standings))  # fmt: skip
            del parsed, ids, fresh
        for path in large:
            stream = StreamedFile(detect_format(path))
            new = 0
            for batch in stream.batches(path):
                extras.add_records(batch)
                fresh = _fresh(store, batch, [r.record_id for r in batch], summary)
                _insert(store, fresh, summary, next_partition, partition_size)
                new += len(fresh)
            extras.add(stream.parsed())
            _file_done(store, summary, path, digests[path], stream.format, stream.count, new,
                       len(stream.deals), len(stream.standings))  # fmt: skip
        summary.new_events, summary.new_standings, summary.new_deals = extras.store(store)
    summary.partitions = sorted(set(summary.partitions))
    return summary


def _fresh(
    store: Store, records: list[RawRecord], ids: list[str], summary: IngestSummary
) -> list[tuple[RawRecord, str]]:
    """The records the store does not have yet; unreadable ones are reported. Records of this
    run are already in the store (same transaction); `seen` covers the batch at hand."""
    seen: set[str] = set()
    known = _known_ids(store, ids)
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


def _file_done(store: Store, summary: IngestSummary, path: Path, sha1: str, fmt: str,
               records: int, new: int, deals: int, standings: int) -> None:  # fmt: skip
    """Count one ingested file and record it in `source_files` (same transaction)."""
    summary.files += 1
    summary.read += records
    summary.hand_record_deals += deals
    summary.per_file.append({"file": str(path), "format": fmt, "records": records, "new": new,
                             "hand_record_deals": deals, "standings": standings})  # fmt: skip
    store.run("record_source_file", path=str(path.resolve()), sha1=sha1, format=fmt,
              records=records, new_records=new)  # fmt: skip


def _insert(store: Store, fresh: list[tuple[RawRecord, str]], summary: IngestSummary,
            first_partition: int, partition_size: int) -> None:  # fmt: skip
    """Append records to `raw_records`: the k-th new record of this run (`summary.new` are
    already written) goes to partition `first_partition + k // partition_size`."""
    if not fresh:
        return
    data: dict[str, list] = {c: [getattr(rec, c) for rec, _ in fresh] for c in RAW_COLUMNS[1:]}
    data["record_id"] = [rid for _, rid in fresh]
    k0 = summary.new
    data["partition_id"] = [first_partition + (k0 + k) // partition_size for k in range(len(fresh))]
    summary.partitions.extend(sorted(set(data["partition_id"])))
    with registered(store, "new_raw", pl.DataFrame(data, schema=_TYPES)):
        store.run("insert_raw_records")
    summary.new += len(fresh)


def _unchanged_files(store: Store, digests: dict[Path, str]) -> dict[Path, int]:
    """Files whose content is already recorded, with their record counts: by content, so the
    same file named by another path (a rerun from another folder, a copy) is not read again."""
    known = {h: n for _, h, n in store.tuples("source_file_digests")}
    return {p: known[h] for p, h in digests.items() if h in known}


def _known_ids(store: Store, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    with registered(store, "probe", pl.DataFrame({"record_id": ids})):
        return set(store.frame("known_record_ids")["record_id"].to_list())
