"""The ingest stage: read hand-record files into `raw_records`, once per distinct record, in
partitions; their events, published rankings and hand-record deals beside them."""

from __future__ import annotations

import os
import tempfile
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from operator import attrgetter
from pathlib import Path
from typing import Any

import polars as pl

from ddrank.events import group_unnamed, named_by_path
from ddrank.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from ddrank.parsers.values import check_lengths
from ddrank.processes import detach_worker
from ddrank.raw import RAW_COLUMNS, ParsedFile, RawRecord
from stages.ingest_events import EventRows, registered
from stages.ingest_ids import SeenIds
from stages.progress import report
from stages.run import trim_heap
from store import Store
from store.inputs.files import expand_paths, file_sha1, shown
from store.inputs.read import check_size, detect_format, read_with_ids
from store.inputs.stream import StreamedFile, streams

DEFAULT_PARTITION_SIZE = 500
_INT_COLUMNS = ("source_line", "partition_id", "occurrence")
_COLUMNS = [*RAW_COLUMNS, "partition_id"]
_TYPES = {c: pl.Int64 if c in _INT_COLUMNS else pl.Utf8 for c in _COLUMNS}


#: A raw record's values in RAW_COLUMNS' order (after record_id).
_raw_values = attrgetter(*RAW_COLUMNS[1:])
#: Parse in worker processes only when there is this much to parse (a spawned worker's imports
#: cost a second or more; under about 16 MB of files, one process parses them sooner).
PARALLEL_BYTES = 16_000_000
#: Input bytes a worker parses in one task at most (a chunk of small files, or one file).
CHUNK_BYTES = 4_000_000


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
    refused: list[dict[str, object]] = field(default_factory=list)  # whole files, over a limit
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
            "duplicate": self.duplicate, "unreadable": self.unreadable, "refused": self.refused,
            "warnings": self.warnings,
            "hand_record_deals": self.hand_record_deals, "new_deals": self.new_deals,
            "new_events": self.new_events, "new_standings": self.new_standings,
            "per_file": self.per_file, "new_partitions": self.partitions,
        }  # fmt: skip


#: Records of small files gathered before they are written in one go: a folder of 10,000
#: one-table files costs a few writes and look-ups, not 10,000 of each.
FLUSH_RECORDS = 20_000
#: Files parsed between two progress reports.
REPORT_EVERY = 50


def _parsed(files: list[Path], workers: int, limits: Limits
            ) -> Iterator[tuple[ParsedFile, list[str]]]:  # fmt: skip
    """Parse files, several at a time in worker processes when there are many."""
    read = partial(read_with_ids, limits=limits)
    if workers <= 1 or len(files) < 2 or sum(_size(f) for f in files) < PARALLEL_BYTES:
        yield from map(read, files)
        return
    with spawn_pool(workers) as pool:
        ahead: deque[Future] = deque()  # parsed and not taken yet: a few chunks, not the archive
        for chunk in _chunks(files, workers):
            ahead.append(pool.submit(_read_all, read, chunk))
            if len(ahead) > 2 * workers:
                yield from ahead.popleft().result()
        while ahead:
            yield from ahead.popleft().result()


def _chunks(files: list[Path], workers: int) -> Iterator[list[Path]]:
    """The files in order, a few at a time: many small files go to a worker together (up to 64,
    a quarter of each worker's share), but never more than CHUNK_BYTES of input, so the parsed
    records in flight are bounded by bytes, not by the archive's file count (with chunks of
    len(files) / 8 files, 525 generated files of 1 MB put 64 MB of input in each chunk: the
    process tree's peak grew from 868 MB at 300,000 results to 1,848 MB at 1M)."""
    most = max(1, min(64, len(files) // (4 * workers)))
    chunk: list[Path] = []
    size = 0
    for f in files:
        chunk.append(f)
        size += _size(f)
        if len(chunk) >= most or size >= CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _read_all(read: Callable[[Path], tuple[ParsedFile, list[str]]], files: list[Path]
              ) -> list[tuple[ParsedFile, list[str]]]:  # fmt: skip
    return [read(f) for f in files]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # read (and reported) by the reader


def grouped(files: Iterable[tuple[Path, tuple[ParsedFile, list[str]]]], summary: IngestSummary,
            store: Store) -> Iterator[tuple[Path, tuple[ParsedFile, list[str]]]]:  # fmt: skip
    """The files as read, those whose content names no event held back until their folder's
    files are all read (`expand_paths` gives a folder's files together), then grouped into their
    events (`ddrank.events.group_unnamed`, one warning per group) with their ids computed again:
    with the folder's files stored by an earlier run, so a file added to a folder joins the
    event already read."""
    held: dict[Path, list[tuple[Path, tuple[ParsedFile, list[str]]]]] = {}

    def release(folder: Path) -> Iterator[tuple[Path, tuple[ParsedFile, list[str]]]]:
        files = held.pop(folder)
        new = [(str(p), parsed.records) for p, (parsed, _) in files]
        for first, why in group_unnamed(new, stored_files(store, folder, {p for p, _ in new})):
            summary.warnings.append({"file": first, "line": 1, "warning": why})
        for path, (parsed, _) in files:
            yield path, (parsed, [r.record_id for r in parsed.records])

    for path, (parsed, ids) in files:
        for folder in [f for f in held if not path.is_relative_to(f)]:  # that folder is done
            yield from release(folder)
        if parsed.named_by_path and not parsed.refused:
            held.setdefault(path.parent, []).append((path, (parsed, ids)))
        else:
            yield path, (parsed, ids)
    for folder in list(held):
        yield from release(folder)


def stored_files(store: Store, folder: Path, reading: set[str]
                 ) -> list[tuple[str, list[RawRecord]]]:  # fmt: skip
    """The files of `folder` (not its subfolders) an earlier run stored whose events their paths
    gave (`ddrank.events.named_by_path`), with their records as stored; not those read now."""
    by_file: dict[str, list[RawRecord]] = {}
    for row in store.rows("folder_records", prefix=str(folder) + os.sep):
        path = row["source_file"]
        if path not in reading and Path(path).parent == folder:
            by_file.setdefault(path, []).append(RawRecord(**row))
    return named_by_path(list(by_file.items()))


@dataclass
class _Pending:
    """Small files read and not written yet: their records, and each file's facts."""

    records: list[RawRecord] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)


def ingest_paths(
    store: Store | Any,
    paths: list[str | Path],
    partition_size: int = DEFAULT_PARTITION_SIZE,
    workers: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
    digest: Callable[[Path], str] = file_sha1,
    skip: list[str | Path] | None = None,
) -> IngestSummary:
    """Add the records of these files that the store does not have yet.

    New records go to new partitions (never into existing ones), so the content of a finished
    partition never changes and its cached downstream results stay valid. Small files are
    written in batches (`FLUSH_RECORDS`), so many files cost about what one file with the same
    records does. A file over one of the `limits` is refused whole: nothing of it is stored, not
    even its digest, so the same file is read again once the limit is raised. `digest` is the
    run's hash of a file (`stages.run.InputFiles.digest`: each file hashed once per run).
    `workers`: processes that parse files (default: one per core; one when there is little to
    parse, see `PARALLEL_BYTES`). `skip`: folders never read (the output folder, when it lies
    among the inputs).
    """
    store = as_store(store)
    workers = workers or os.cpu_count() or 1
    summary = IngestSummary()
    files = expand_paths(paths, skip or ())
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
    done = len(unchanged)
    report("ingest", done, len(files))
    with store.transaction(), _Spool() as spool:  # records and their files: all or nothing
        first = store.scalar("next_partition")
        large = [p for p in todo if streams(p)]  # read and stored in batches, in order
        small = [p for p in todo if p not in large]
        pending = _Pending()
        for path, (parsed, ids) in grouped(zip(small, _parsed(small, workers, limits),
                                               strict=True), summary, store):  # fmt: skip
            done += 1
            if done % REPORT_EVERY == 0:
                report("ingest", done, len(files))
            if parsed.refused:
                summary.refused.append({"file": shown(path), "reason": parsed.refused})
                continue
            extras.add(parsed)
            summary.warnings += [{"file": str(path), "line": line, "warning": w}
                                 for line, w in parsed.warnings]  # fmt: skip
            pending.records += parsed.records
            pending.ids += ids
            pending.files.append({"path": path, "sha1": digests[path], "format": parsed.format,
                                  "records": len(parsed.records), "deals": len(parsed.deals),
                                  "standings": len(parsed.standings)})  # fmt: skip
            if len(pending.ids) >= FLUSH_RECORDS:
                _write(store, spool, pending, summary, first, partition_size)
                pending = _Pending()
        _write(store, spool, pending, summary, first, partition_size)
        pending = _Pending()  # its records are spooled: not held through the final insert
        for path in large:
            _ingest_streamed(store, spool, path, digests[path], extras, summary, first,
                             partition_size, limits)  # fmt: skip
            done += 1
            report("ingest", done, len(files))
        spool.load(store)
        summary.new_events, summary.new_standings, summary.new_deals = extras.store(store)
        summary.partitions = [p for (p,) in store.tuples("partitions_from", first=first)]
    report("ingest", len(files), len(files))
    return summary


class _Spool:
    """This ingest's new records, written to parquet files as they come and inserted into the
    store in one statement at the end: DuckDB holds a transaction's appends in memory (about
    1.6 KB a record when appended 20,000 at a time), but writes one large insert straight to
    the file, so memory stays flat however many records an ingest adds (issue 37)."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="ddrank-ingest-")
        self.folder = Path(self._tmp.name)
        self.ids = SeenIds()  # ids spooled (10 bytes each: stages.ingest_ids)
        self.count = 0

    def __enter__(self) -> _Spool:
        return self

    def __exit__(self, *_: object) -> None:
        self._tmp.cleanup()

    def write(self, frame: pl.DataFrame) -> Path:
        path = self.folder / f"raw-{self.count:07d}.parquet"  # in order: the store keeps it
        frame.write_parquet(path)
        self.count += 1
        return path

    def load(self, store: Store) -> None:
        trim_heap()  # the parsed files' freed heap goes back before DuckDB's insert takes its own
        if any(self.folder.glob("raw-*.parquet")):  # (a refused file's are deleted)
            store.run("insert_raw_records_from", files=str(self.folder / "raw-*.parquet"))


def _write(store: Store, spool: _Spool, pending: _Pending, summary: IngestSummary,
           first_partition: int, partition_size: int) -> None:  # fmt: skip
    """The records of the pending files that the store lacks, and the files, in a few statements."""
    if not pending.files:
        return
    fresh = _fresh(store, spool, pending.records, pending.ids, summary)
    _insert(spool, fresh, summary, first_partition, partition_size)
    new = Counter(rec.source_file for rec, _ in fresh)
    rows, folders = [], {}
    for f in pending.files:
        path = f["path"]
        rows.append({"path": _resolved(path, folders), "sha1": f["sha1"], "format": f["format"],
                     "records": f["records"], "new_records": new[str(path)]})  # fmt: skip
        summary.files += 1
        summary.read += f["records"]
        summary.hand_record_deals += f["deals"]
        summary.per_file.append({"file": str(path), "format": f["format"],
                                 "records": f["records"], "new": new[str(path)],
                                 "hand_record_deals": f["deals"],
                                 "standings": f["standings"]})  # fmt: skip
    latest = {r["path"]: r for r in rows}  # a file named twice is one row
    with registered(store, "new_sources", pl.DataFrame(list(latest.values()))):
        store.run("record_source_files")


def _resolved(path: Path, folders: dict[Path, Path]) -> str:
    """`path.resolve()`, each folder resolved once (10,000 files of one folder: one walk of its
    path, not 10,000); a file that is a symbolic link is resolved itself."""
    if path.is_symlink():
        return str(path.resolve())
    if path.parent not in folders:
        folders[path.parent] = path.parent.resolve()
    return str(folders[path.parent] / path.name)


def _ingest_streamed(store: Store, spool: _Spool, path: Path, sha1: str, extras: EventRows,
                     summary: IngestSummary, first_partition: int, partition_size: int,
                     limits: Limits) -> None:  # fmt: skip
    """A large PBN or LIN file, read and stored batch by batch; refused whole (its rows of this
    run deleted again) when it turns out to be over `max_rows`."""
    try:
        check_size(path, limits)
    except LimitExceeded as exc:
        summary.refused.append({"file": str(path), "reason": str(exc)})
        return
    stream = StreamedFile(detect_format(path))
    mine = EventRows()
    before = (summary.new, summary.duplicate, len(summary.unreadable))
    new = 0
    spooled: list[tuple[Path, list[str]]] = []  # this file's: forgotten if it is refused
    try:
        for batch in stream.batches(path):
            limits.check_rows(stream.count + len(stream.deals) + len(stream.standings))
            checked = ParsedFile(stream.format, batch)
            check_lengths(checked, limits)  # (and cuts a long shared value, with a warning)
            said = {w for _, w in stream.warnings}  # a value cut in each batch: said once
            stream.warnings += [(n, w) for n, w in checked.warnings if w not in said]
            mine.add_records(batch)
            fresh = _fresh(store, spool, batch, [r.record_id for r in batch], summary)
            written = _insert(spool, fresh, summary, first_partition, partition_size)
            if written:
                spooled.append((written, [rid for _, rid in fresh]))
            new += len(fresh)
        limits.check_rows(stream.count + len(stream.deals) + len(stream.standings))
        check_lengths(stream.parsed(), limits)
    except LimitExceeded as exc:
        for written, ids in spooled:
            written.unlink()
            spool.ids.difference_update(ids)
        summary.new, summary.duplicate = before[0], before[1]
        del summary.unreadable[before[2] :]
        summary.refused.append({"file": str(path), "reason": str(exc)})
        return
    mine.add(stream.parsed())
    extras.absorb(mine)
    summary.warnings += [{"file": str(path), "line": line, "warning": w}
                         for line, w in stream.warnings]  # fmt: skip
    summary.files += 1
    summary.read += stream.count
    summary.hand_record_deals += len(stream.deals)
    summary.per_file.append({"file": str(path), "format": stream.format, "records": stream.count,
                             "new": new, "hand_record_deals": len(stream.deals),
                             "standings": len(stream.standings)})  # fmt: skip
    store.run("record_source_file", path=str(path.resolve()), sha1=sha1, format=stream.format,
              records=stream.count, new_records=new)  # fmt: skip


def _fresh(store: Store, spool: _Spool, records: list[RawRecord], ids: list[str],
           summary: IngestSummary) -> list[tuple[RawRecord, str]]:  # fmt: skip
    """The records neither the store (earlier runs) nor this run (`spool.ids`) has; unreadable
    ones are reported."""
    known = _known_ids(store, ids)
    earlier = spool.ids.among(ids)  # spooled by this run before this batch
    mine: set[str] = set()  # this batch's
    fresh: list[tuple[RawRecord, str]] = []
    for rec, rid in zip(records, ids, strict=True):
        if rec.parse_error:
            summary.unreadable.append(
                {"file": rec.source_file, "line": rec.source_line, "error": rec.parse_error}
            )
        if rid in known or rid in earlier or rid in mine:
            summary.duplicate += 1
            continue
        mine.add(rid)
        fresh.append((rec, rid))
    spool.ids.update(mine)
    return fresh


def _insert(spool: _Spool, fresh: list[tuple[RawRecord, str]], summary: IngestSummary,
            first_partition: int, partition_size: int) -> Path | None:  # fmt: skip
    """Spool new records for `raw_records`: the k-th new record of this run (`summary.new` are
    already written) goes to partition `first_partition + k // partition_size`."""
    if not fresh:
        return None
    columns = zip(*(_raw_values(rec) for rec, _ in fresh), strict=True)  # one C call a record
    data = {c: list(v) for c, v in zip(RAW_COLUMNS[1:], columns, strict=True)}
    data["record_id"] = [rid for _, rid in fresh]
    k0 = summary.new
    data["partition_id"] = [first_partition + (k0 + k) // partition_size for k in range(len(fresh))]
    summary.new += len(fresh)
    return spool.write(pl.DataFrame(data, schema=_TYPES))


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
