"""Cleaning in a worker process: a slice of the pending records in, parquet files out.

Imports neither Prefect nor DuckDB, so a spawned worker starts in a fraction of a second, and
never touches the store (DuckDB allows one writer process).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from operator import attrgetter
from pathlib import Path

import polars as pl

from ddrank.cleaning import clean_record
from ddrank.raw import RawRecord, place_of, place_text

BOARD_SCHEMA = {
    "record_id": pl.Utf8, "deal_id": pl.Utf8, "event": pl.Utf8, "year": pl.Int32,
    "board_no": pl.Utf8, "room": pl.Utf8, "home_team": pl.Utf8, "visit_team": pl.Utf8,
    "northname": pl.Utf8, "eastname": pl.Utf8, "southname": pl.Utf8, "westname": pl.Utf8,
    "ns_vulnerable": pl.Boolean, "ew_vulnerable": pl.Boolean, "dealer": pl.Utf8, "deal": pl.Utf8,
    "bidstart": pl.Utf8, "auction": pl.Utf8, "contract": pl.Utf8, "declarer": pl.Utf8,
    "opening_leader": pl.Utf8, "play": pl.List(pl.Utf8), "play_seats": pl.List(pl.Int8),
    "claim_tricks": pl.Int8, "result": pl.Int8, "repairs": pl.Utf8,
    "event_id": pl.Utf8, "date": pl.Utf8, "scoring": pl.Utf8, "organiser": pl.Utf8,
    "session": pl.Utf8, "section": pl.Utf8, "round": pl.Utf8, "table_no": pl.Utf8,
    "ns_pair": pl.Utf8, "ew_pair": pl.Utf8, "north_id": pl.Utf8, "east_id": pl.Utf8,
    "south_id": pl.Utf8, "west_id": pl.Utf8, "ns_score": pl.Int32, "adjusted": pl.Utf8,
    "phantom": pl.Utf8, "published_ns_mp": pl.Float64, "published_ew_mp": pl.Float64,
    "published_ns_pct": pl.Float64, "published_ew_pct": pl.Float64,
    "published_imps": pl.Float64, "par_score": pl.Int32, "par_contract": pl.Utf8,
    "lead_card": pl.Utf8, "published_datum": pl.Float64, "player_numbers": pl.Utf8,
    "ew_score": pl.Int32, "repeat": pl.Utf8,
}  # fmt: skip
_ISSUE_SCHEMA = {"record_id": pl.Utf8, "reason": pl.Utf8, "detail": pl.Utf8}
_EXCLUSION_SCHEMA = {**_ISSUE_SCHEMA, "source_file": pl.Utf8, "source_line": pl.Int32,
                     "place": pl.Utf8}  # fmt: skip
#: What a worker writes for `boards`: the cleaned board, then its raw record's partition (the
#: pending export carries it, so loading the boards needs no join with raw_records).
_BOARDS_OUT = {**BOARD_SCHEMA, "partition_id": pl.Int32}
SCHEMAS = {"boards": _BOARDS_OUT, "exclusions": _EXCLUSION_SCHEMA,
           "auction_issues": _ISSUE_SCHEMA, "play_issues": _ISSUE_SCHEMA}  # fmt: skip
OUTPUTS = tuple(SCHEMAS)


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


#: A cleaned board's values in BOARD_SCHEMA's order (one C call, no dict per board).
_board_values = attrgetter(*BOARD_SCHEMA)
#: A raw record's fields in the order `RawRecord` takes them.
_FIELDS = tuple(f.name for f in fields(RawRecord))
_INT_FIELDS = ("source_line", "occurrence")
_LIST_COLUMNS = {"play": pl.List(pl.String), "play_seats": pl.List(pl.Int8)}
#: From this many boards a slice's list columns go through pyarrow (polars alone builds a Series
#: per list); below it pyarrow (and numpy, pandas: 0.3-0.6 s) stays out of a director's run.
ARROW_BOARDS = 5_000


def _append(columns: dict[str, list], *values: object) -> None:
    for column, value in zip(columns.values(), values, strict=True):
        column.append(value)


def _records(frame: pl.DataFrame) -> Iterator[tuple[str, RawRecord]]:
    """Each row's record id and `RawRecord`, a row's tuple at a time: no dict per row, and a
    missing text is "" (as the readers write it) set in the frame, not per value."""
    if frame.select(pl.col(*_INT_FIELDS).null_count()).sum_horizontal().item():
        for row in frame.iter_rows(named=True):  # a missing line number: as it was
            rid = str(row.pop("record_id"))
            yield rid, RawRecord(**{k: ("" if v is None else v) for k, v in row.items()})  # type: ignore[arg-type]
        return
    texts = [c for c, t in frame.schema.items() if t == pl.String and c != "record_id"]
    frame = frame.with_columns(pl.col(*texts).fill_null("")).select("record_id", *_FIELDS)
    for rid, *values in frame.iter_rows():
        yield rid, RawRecord(*values)


def clean_slice(
    source: str, offset: int, length: int, out_dir: str, tag: str,
    files_with_leading_passes: frozenset[str] = frozenset(),
) -> CleanSummary:  # fmt: skip
    """Clean rows [offset, offset+length) of the pending-records parquet file into parquet files.

    Only the chunk's rows are read (a lazy slice of the file's row groups), one record at a time
    becomes Python objects, and the outputs are kept as columns: memory is the chunk's, not the
    archive's.

    `files_with_leading_passes`: source files that write the passes before an opening bid; the
    leading-pass repair is not applied to their records (ddrank.cleaning.records_leading_passes).
    """
    frame = pl.scan_parquet(source).slice(offset, length).collect()  # this chunk's row groups
    summary = CleanSummary(cleaned=len(frame))
    partitions = frame["partition_id"].to_list()
    frame = frame.drop("partition_id")
    boards: list[tuple] = []
    out: dict[str, dict[str, list]] = {n: {c: [] for c in SCHEMAS[n]} for n in OUTPUTS[1:]}
    for (rid, rec), partition in zip(_records(frame), partitions, strict=True):
        res = clean_record(rec, rid, rec.source_file not in files_with_leading_passes)
        if res.exclusion:
            reason, detail = res.exclusion
            summary.excluded[reason] += 1
            _append(out["exclusions"], rid, reason, detail, rec.source_file, rec.source_line,
                    place_text(place_of(vars(rec))))  # fmt: skip
            continue
        board = res.board
        assert board is not None
        summary.kept += 1
        boards.append((*_board_values(board), partition))
        for kind, issue in (("auction_issues", res.auction_issue), ("play_issues", res.play_issue)):
            if issue:
                getattr(summary, kind)[issue[0]] += 1
                _append(out[kind], rid, issue[0], issue[1])
        for repair in (board.repairs or "").split("; "):
            if repair:
                summary.repairs[repair.split(":")[0]] += 1
    del frame
    folder = Path(out_dir)
    columns = dict(zip(_BOARDS_OUT, map(list, zip(*boards, strict=True) if boards else
                                        ([] for _ in _BOARDS_OUT)), strict=True))  # fmt: skip
    for name, dtype in _LIST_COLUMNS.items():
        if len(boards) >= ARROW_BOARDS:
            import pyarrow as pa  # lazily: see ARROW_BOARDS

            arrow = pa.list_(pa.string()) if dtype == _LIST_COLUMNS["play"] else pa.list_(pa.int8())
            columns[name] = pl.Series(name, pa.array(columns[name], arrow))
        else:
            columns[name] = pl.Series(name, columns[name], dtype=dtype)
    pl.DataFrame(columns, schema=_BOARDS_OUT).write_parquet(folder / f"boards-{tag}.parquet")
    for name, columns in out.items():
        pl.DataFrame(columns, schema=SCHEMAS[name]).write_parquet(folder / f"{name}-{tag}.parquet")
    return summary
