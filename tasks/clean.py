"""Clean: every raw record not yet judged goes to `boards` or to `exclusions`, with reasons."""

from __future__ import annotations

import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import duckdb
import polars as pl
from prefect import task

from ddrank.cleaning import CleanBoard, CleanResult, clean_record
from ddrank.raw import RawRecord
from tasks.db import connect

_RAW_FIELDS = [f for f in RawRecord.__dataclass_fields__]
_BOARD_SCHEMA = {
    "record_id": pl.Utf8, "deal_id": pl.Utf8, "event": pl.Utf8, "year": pl.Int32,
    "board_no": pl.Utf8, "room": pl.Utf8, "home_team": pl.Utf8, "visit_team": pl.Utf8,
    "northname": pl.Utf8, "eastname": pl.Utf8, "southname": pl.Utf8, "westname": pl.Utf8,
    "ns_vulnerable": pl.Boolean, "ew_vulnerable": pl.Boolean, "dealer": pl.Utf8, "deal": pl.Utf8,
    "bidstart": pl.Utf8, "auction": pl.Utf8, "contract": pl.Utf8, "declarer": pl.Utf8,
    "opening_leader": pl.Utf8, "play": pl.List(pl.Utf8), "play_seats": pl.List(pl.Int8),
    "claim_tricks": pl.Int8, "result": pl.Int8, "repairs": pl.Utf8,
}  # fmt: skip
PARALLEL_THRESHOLD = 20_000  # below this, a process pool costs more than it saves


@dataclass
class CleanSummary:
    cleaned: int = 0
    kept: int = 0
    excluded: Counter = field(default_factory=Counter)
    auction_issues: Counter = field(default_factory=Counter)
    play_issues: Counter = field(default_factory=Counter)
    repairs: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, object]:
        return {
            "cleaned": self.cleaned, "kept": self.kept, "excluded": dict(self.excluded),
            "auction_issues": dict(self.auction_issues), "play_issues": dict(self.play_issues),
            "repairs": dict(self.repairs),
        }  # fmt: skip


def _clean_chunk(rows: list[dict[str, object]]) -> list[CleanResult]:
    out = []
    for row in rows:
        rid = str(row.pop("record_id"))
        rec = RawRecord(**{k: ("" if v is None else v) for k, v in row.items()})  # type: ignore[arg-type]
        out.append(clean_record(rec, rid))
    return out


def clean_rows(rows: list[dict[str, object]], workers: int = 1) -> list[CleanResult]:
    """Clean raw rows, in a process pool when there are many (the rules are pure Python)."""
    if workers <= 1 or len(rows) < PARALLEL_THRESHOLD:
        return _clean_chunk(rows)
    size = max(1000, len(rows) // (workers * 4))
    chunks = [rows[k : k + size] for k in range(0, len(rows), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [r for part in pool.map(_clean_chunk, chunks) for r in part]


def pending_rows(con: duckdb.DuckDBPyConnection) -> list[dict[str, object]]:
    cols = ", ".join(f"r.{c}" for c in ["record_id"] + _RAW_FIELDS)
    return (
        con.sql(
            f"SELECT {cols} FROM raw_records r "
            "WHERE NOT EXISTS (SELECT 1 FROM boards b WHERE b.record_id = r.record_id) "
            "AND NOT EXISTS (SELECT 1 FROM exclusions e WHERE e.record_id = r.record_id) "
            "ORDER BY r.partition_id, r.source_file, r.source_line"
        )
        .pl()
        .to_dicts()
    )


def clean_pending(con: duckdb.DuckDBPyConnection, workers: int | None = None) -> CleanSummary:
    """Judge every raw record that is neither a board nor an exclusion yet."""
    rows = pending_rows(con)
    partitions = {str(r["record_id"]): r for r in rows}
    results = clean_rows([dict(r) for r in rows], workers or os.cpu_count() or 1)
    summary = CleanSummary(cleaned=len(results))
    boards, exclusions, a_issues, p_issues = [], [], [], []
    for res in results:
        raw = partitions[res.record_id]
        if res.exclusion:
            reason, detail = res.exclusion
            summary.excluded[reason] += 1
            exclusions.append({"record_id": res.record_id, "reason": reason, "detail": detail,
                               "source_file": raw["source_file"], "source_line": raw["source_line"]})  # fmt: skip
            continue
        board: CleanBoard = res.board  # type: ignore[assignment]
        summary.kept += 1
        boards.append({name: getattr(board, name) for name in _BOARD_SCHEMA})
        if res.auction_issue:
            summary.auction_issues[res.auction_issue[0]] += 1
            a_issues.append({"record_id": res.record_id, "reason": res.auction_issue[0],
                             "detail": res.auction_issue[1]})  # fmt: skip
        if res.play_issue:
            summary.play_issues[res.play_issue[0]] += 1
            p_issues.append({"record_id": res.record_id, "reason": res.play_issue[0],
                             "detail": res.play_issue[1]})  # fmt: skip
        for repair in (board.repairs or "").split("; "):
            if repair:
                summary.repairs[repair.split(":")[0]] += 1
    _write(con, boards, exclusions, a_issues, p_issues)
    return summary


def _write(
    con: duckdb.DuckDBPyConnection,
    boards: list[dict[str, object]],
    exclusions: list[dict[str, object]],
    a_issues: list[dict[str, object]],
    p_issues: list[dict[str, object]],
) -> None:
    con.execute("BEGIN TRANSACTION").fetchall()
    try:
        if boards:
            con.register("new_boards", pl.DataFrame(boards, schema=_BOARD_SCHEMA))
            cols = ", ".join(_BOARD_SCHEMA)
            picked = ", ".join(f"n.{c}" for c in _BOARD_SCHEMA)
            con.execute(
                f"INSERT INTO boards ({cols}, partition_id) SELECT {picked}, r.partition_id "
                "FROM new_boards n JOIN raw_records r ON r.record_id = n.record_id"
            ).fetchall()
        issue_schema = {"record_id": pl.Utf8, "reason": pl.Utf8, "detail": pl.Utf8}
        for table, items in (("auction_issues", a_issues), ("play_issues", p_issues)):
            if items:
                con.register("frame", pl.DataFrame(items, schema=issue_schema))
                con.execute(f"INSERT INTO {table} SELECT * FROM frame").fetchall()
        if exclusions:
            ex_schema = {**issue_schema, "source_file": pl.Utf8, "source_line": pl.Int32}
            con.register("ex", pl.DataFrame(exclusions, schema=ex_schema))
            con.execute("INSERT INTO exclusions SELECT * FROM ex").fetchall()
        con.execute("COMMIT").fetchall()
    except Exception:
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
