"""The benchmark's data: each stream's table results in chronological periods, in one form.

A stream is rated in order (players keep their ratings across its events); a dataset is the part
of a stream that is scored on its own (one event), with its warm-up, development and test
periods fixed by the protocol.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ddrank.ratings import skill as sk

from .protocol import ROOT

try:  # the skill rows' builder moves from tasks/ to stages/ (issue 20)
    from stages.skill import skill_rows, valet_skill_rows  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - before the move
    from tasks.skill import skill_rows, valet_skill_rows


@dataclass(frozen=True, slots=True)
class Row:
    """One table result of a stream, in the form every method reads."""

    period: int  # 1-based, chronological within the stream
    dataset: str  # the scored dataset (event) the row belongs to
    board: str  # tables with the same board played the same deal in the same field
    ns: tuple[str, str]
    ew: tuple[str, str]
    ns_score: int
    imps: float  # NS IMPs against the board's Butler datum
    skill: sk.SkillBoard


@dataclass
class Stream:
    name: str
    rows: list[Row]
    has_dd: bool
    # dataset -> (warm-up, development, test) periods
    splits: dict[str, tuple[list[int], list[int], list[int]]] = field(default_factory=dict)

    def scored(self, split: str) -> dict[str, list[int]]:
        k = {"dev": 1, "test": 2}[split]
        return {name: s[k] for name, s in self.splits.items()}


def without_dd(stream: Stream) -> Stream:
    """The same rows with every DD fact removed (the results-only ablation)."""
    rows = [
        replace(r, skill=sk.SkillBoard(r.skill.ns, r.skill.ew, r.skill.result_imps))
        for r in stream.rows
    ]
    return Stream(stream.name, rows, False, stream.splits)


def _split(rows: Sequence[Row], spec: Sequence[Mapping[str, Any]]) -> dict:
    out = {}
    for d in spec:
        periods = sorted({r.period for r in rows if r.dataset == d["name"]})
        w, v = int(d["warmup"]), int(d["dev"])
        out[d["name"]] = (periods[:w], periods[w : w + v], periods[w + v :])
    return out


def load_valet(spec: Mapping[str, Any]) -> Stream:
    """A Valet directory (Bermuda Bowl / Venice Cup 2013): one period per round."""
    name = spec["dataset"][0]["name"]
    rows = [
        Row(int(r.period), name, r.board, r.result.ns_pair, r.result.ew_pair,
            r.result.ns_score, r.butler, r.skill)
        for r in valet_skill_rows(ROOT / spec["path"])
    ]  # fmt: skip
    rows.sort(key=lambda r: (r.period, r.board))
    has_dd = any(r.skill.declarer is not None for r in rows)
    return Stream(spec["name"], rows, has_dd, _split(rows, spec["dataset"]))


_STAGES = ("qual", "rr", "r64", "r32", "r16", "qtrf", "semif", "final")


def _stage_key(stage: str) -> tuple[int, int]:
    """'QtrF:3' -> (5, 3): knock-out stages in playing order, segments by number."""
    kind, _, seg = stage.partition(":")
    k = kind.strip().lower()
    return (_STAGES.index(k) if k in _STAGES else len(_STAGES), int(seg) if seg.isdigit() else 0)


def store_dd(db: Path) -> tuple[dict[str, list[int]], dict[str, tuple[list[int], list[int]]]]:
    """DD cells by deal and (trace, card seats) by record, from a store `ddrank dd` filled."""
    from store import Store

    cells: dict[str, list[int]] = {}
    with Store(db, read_only=True) as st:
        for deal_id, strain, declarer, tricks in st.tuples("bench_dd_cells"):
            c = cells.setdefault(deal_id, [0] * 20)
            c["CDHSN".index(strain) * 4 + "NESW".index(declarer)] = int(tricks)
        traces = {
            rid: (list(t), list(ps))
            for rid, t, ps in st.tuples("bench_play_traces")
            if t is not None and len(t) >= 2 and ps
        }
    return cells, traces


def store_counts(db: Path) -> tuple[int, int]:
    """(deals with a DD table, play traces) in a store `ddrank dd` filled."""
    cells, traces = store_dd(db)
    return len(cells), len(traces)


def load_pbn(spec: Mapping[str, Any], by_board: bool = False) -> Stream:
    """A PBN file read and cleaned by ddrank, with the store's DD facts where `store` is given.

    Periods are the file's segments in date order (date, then stage and segment number), or,
    for a single session (`by_board`), the board numbers in playing order. Player names are the
    cleaned names, so one player is one identity across the file's events.
    """
    from ddrank.cleaning import clean_record
    from ddrank.parsers.pbn import parse_pbn
    from ddrank.scoring.intake.results import TableResult, group_boards, make_result
    from ddrank.scoring.tournament import score_field
    from ddrank.types import Seat

    path = ROOT / spec["path"]
    records = parse_pbn(path.read_text(encoding="latin-1"), str(path))
    results, order, event_of = [], {}, {}
    for rec in records:
        b = clean_record(rec).board
        if b is None:
            continue
        key: tuple = (int(b.board_no),) if by_board else (rec.date, _stage_key(rec.stage), b.event)
        made = make_result(
            board=f"{b.event}|{rec.stage}|{b.deal_id}", deal=b.deal_id, table=b.record_id,
            names=(b.northname, b.eastname, b.southname, b.westname),
            contract_text=b.contract, declarer_text=b.declarer, tricks=b.result,
            ns_vulnerable=b.ns_vulnerable, ew_vulnerable=b.ew_vulnerable,
            period=repr(key), year=b.year,
        )  # fmt: skip
        if isinstance(made, TableResult):
            results.append(made)
            order[key] = made.period
            event_of[made.board] = b.event
    index = {order[k]: i + 1 for i, k in enumerate(sorted(order))}
    cells: dict[str, list[int]] = {}
    traces: dict[str, tuple[list[int], list[int]]] = {}
    if spec.get("store"):
        cells, traces = store_dd(ROOT / spec["store"])

    def lead_lookup(res: TableResult, decl: Seat) -> tuple[Seat, tuple[int, int] | None]:
        t = traces.get(res.table)
        return decl, (int(t[0][0]), int(t[0][1])) if t else None

    boards, _ = group_boards(results)
    single = spec["dataset"][0]["name"] if len(spec["dataset"]) == 1 else None
    by_event = {d.get("event"): d["name"] for d in spec["dataset"]}
    rows = []
    for r in skill_rows(score_field(boards), cells, lead_lookup if traces else None):
        s = r.skill
        t, c = traces.get(r.result.table), r.result.contract
        if t is not None and c is not None and c.declarer is not None and s.declarer is not None:
            decl_cost, defence = sk.play_costs(t[0], t[1], int(c.declarer))
            costs = tuple((r.result.names[Seat(k)], v) for k, v in sorted(defence.items()))
            s = replace(s, declarer_cost=decl_cost, defence_costs=costs)
        ds = single or by_event[event_of[r.board]]
        rows.append(Row(index[r.period], ds, r.board, r.result.ns_pair, r.result.ew_pair,
                        r.result.ns_score, r.butler, s))  # fmt: skip
    rows.sort(key=lambda r: (r.period, r.board))
    has_dd = any(r.skill.declarer is not None for r in rows)
    return Stream(spec["name"], rows, has_dd, _split(rows, spec["dataset"]))


def load_stream(spec: Mapping[str, Any]) -> Stream:
    if spec["source"] == "valet":
        return load_valet(spec)
    if spec["source"] == "pbn":
        return load_pbn(spec)
    if spec["source"] == "pbn-boards":
        return load_pbn(spec, by_board=True)
    raise ValueError(f"unknown source {spec['source']!r}")


def by_period(rows: Sequence[Row]) -> list[tuple[int, list[int]]]:
    idx: dict[int, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        idx[r.period].append(i)
    return sorted(idx.items())
