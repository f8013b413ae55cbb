"""Work that runs in worker processes: parsing files and cleaning slices of pending records.

This module imports neither Prefect nor DuckDB, so a spawned worker starts in a fraction of a
second, and workers never touch the store (DuckDB allows one writer process): they get file names
and return records or write parquet files.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import polars as pl

from ddrank.cleaning import clean_record
from ddrank.parsers.bridgedeals import parse_dump, record_from_row
from ddrank.parsers.lin import parse_lin
from ddrank.parsers.pbn import parse_pbn
from ddrank.raw import RawRecord, number_repeats

FORMATS = {".pbn": "pbn", ".lin": "lin", ".sql": "dump", ".dump": "dump", ".csv": "csv",
           ".db": "sqlite", ".sqlite": "sqlite", ".sqlite3": "sqlite"}  # fmt: skip


def _text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # old hand records are often Windows-1252/Latin-1


def read_records(path: Path) -> tuple[str, list[RawRecord]]:
    """Parse one file by its extension; unreadable content becomes records with parse_error."""
    fmt = FORMATS.get(path.suffix.lower(), "pbn")
    name = str(path)
    if fmt == "sqlite":
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                db.row_factory = sqlite3.Row
                rows = db.execute("SELECT * FROM bridgedeals").fetchall()
            return fmt, number_repeats(
                [record_from_row(dict(r), name, k + 1) for k, r in enumerate(rows)]
            )
        except sqlite3.DatabaseError as exc:
            return fmt, [RawRecord(name, 1, "bridgedeals", parse_error=f"not readable: {exc}")]
    text = _text(path)
    if fmt == "csv":
        try:
            df = pl.read_csv(path, infer_schema=False, truncate_ragged_lines=False)
        except (pl.exceptions.PolarsError, OSError) as exc:
            return fmt, [RawRecord(name, 1, "bridgedeals", parse_error=f"bad CSV: {exc}")]
        return fmt, number_repeats(
            [record_from_row(r, name, k + 2) for k, r in enumerate(df.iter_rows(named=True))]
        )
    if fmt == "lin":
        return fmt, parse_lin(text, name)
    if fmt == "dump":
        return fmt, parse_dump(text, name)
    return fmt, parse_pbn(text, name)


def read_with_ids(path: Path) -> tuple[str, list[RawRecord], list[str]]:
    fmt, records = read_records(path)
    return fmt, records, [r.record_id for r in records]


_RAW_FIELDS = list(RawRecord.__dataclass_fields__)
BOARD_SCHEMA = {
    "record_id": pl.Utf8, "deal_id": pl.Utf8, "event": pl.Utf8, "year": pl.Int32,
    "board_no": pl.Utf8, "room": pl.Utf8, "home_team": pl.Utf8, "visit_team": pl.Utf8,
    "northname": pl.Utf8, "eastname": pl.Utf8, "southname": pl.Utf8, "westname": pl.Utf8,
    "ns_vulnerable": pl.Boolean, "ew_vulnerable": pl.Boolean, "dealer": pl.Utf8, "deal": pl.Utf8,
    "bidstart": pl.Utf8, "auction": pl.Utf8, "contract": pl.Utf8, "declarer": pl.Utf8,
    "opening_leader": pl.Utf8, "play": pl.List(pl.Utf8), "play_seats": pl.List(pl.Int8),
    "claim_tricks": pl.Int8, "result": pl.Int8, "repairs": pl.Utf8,
}  # fmt: skip
_ISSUE_SCHEMA = {"record_id": pl.Utf8, "reason": pl.Utf8, "detail": pl.Utf8}
_EXCLUSION_SCHEMA = {**_ISSUE_SCHEMA, "source_file": pl.Utf8, "source_line": pl.Int32}
PARALLEL_THRESHOLD = 20_000  # below this, a process pool costs more than it saves
_OUTPUTS = ("boards", "exclusions", "auction_issues", "play_issues")


@dataclass
class CleanSummary:
    cleaned: int = 0
    kept: int = 0
    excluded: Counter = field(default_factory=Counter)
    auction_issues: Counter = field(default_factory=Counter)
    play_issues: Counter = field(default_factory=Counter)
    repairs: Counter = field(default_factory=Counter)

    def add(self, other: CleanSummary) -> None:
        self.cleaned += other.cleaned
        self.kept += other.kept
        for name in ("excluded", "auction_issues", "play_issues", "repairs"):
            getattr(self, name).update(getattr(other, name))

    def as_dict(self) -> dict[str, object]:
        return {
            "cleaned": self.cleaned, "kept": self.kept, "excluded": dict(self.excluded),
            "auction_issues": dict(self.auction_issues), "play_issues": dict(self.play_issues),
            "repairs": dict(self.repairs),
        }  # fmt: skip


def clean_slice(source: str, offset: int, length: int, out_dir: str, tag: str) -> CleanSummary:
    """Clean rows [offset, offset+length) of the pending-records parquet file into parquet files."""
    rows = pl.read_parquet(source).slice(offset, length).to_dicts()
    summary = CleanSummary(cleaned=len(rows))
    out: dict[str, list[dict[str, object]]] = {name: [] for name in _OUTPUTS}
    for row in rows:
        rid = str(row.pop("record_id"))
        rec = RawRecord(**{k: ("" if v is None else v) for k, v in row.items()})  # type: ignore[arg-type]
        res = clean_record(rec, rid)
        if res.exclusion:
            reason, detail = res.exclusion
            summary.excluded[reason] += 1
            out["exclusions"].append({"record_id": rid, "reason": reason, "detail": detail,
                                      "source_file": rec.source_file,
                                      "source_line": rec.source_line})  # fmt: skip
            continue
        board = res.board
        assert board is not None
        summary.kept += 1
        out["boards"].append({name: getattr(board, name) for name in BOARD_SCHEMA})
        for kind, issue in (("auction_issues", res.auction_issue), ("play_issues", res.play_issue)):
            if issue:
                getattr(summary, kind)[issue[0]] += 1
                out[kind].append({"record_id": rid, "reason": issue[0], "detail": issue[1]})
        for repair in (board.repairs or "").split("; "):
            if repair:
                summary.repairs[repair.split(":")[0]] += 1
    schemas = {"boards": BOARD_SCHEMA, "exclusions": _EXCLUSION_SCHEMA,
               "auction_issues": _ISSUE_SCHEMA, "play_issues": _ISSUE_SCHEMA}  # fmt: skip
    for name in _OUTPUTS:
        pl.DataFrame(out[name], schema=schemas[name]).write_parquet(
            Path(out_dir) / f"{name}-{tag}.parquet"
        )
    return summary


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """Spawned, not forked: a fork of a process running polars or DuckDB threads can deadlock."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
