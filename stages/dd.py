"""The DD stage over a `Store`: plan the missing work, store what workers solved, tally, par.

Workers never open the store (DuckDB lets one process hold the file): `plan_dd_work` reads
everything a worker needs into picklable `SolveJob`s, workers solve them with no database, and the
flow's own process writes every result (`store_solution`, `tally_partition`, `compute_par`).
No Prefect here: `ddrank report` fills par without paying for Prefect's import.
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

import ddrank.dd as dd_package
from ddrank.dd import SolveJob, SolveOutput, TrickTable, board_from_row, has_play, trace_request
from ddrank.dd.boards import DealCache
from ddrank.dd.par import par_from_table
from ddrank.dd.sandbox import THREADS_ENV
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH, set_dds_threads
from ddrank.dd.units import plan_units
from ddrank.mistakes import VARIABLES, board_tallies
from ddrank.processes import detach_worker
from ddrank.raw import place_of, place_text
from ddrank.types import DomainError, Seat, Strain
from store import Store

SOLVER_CRASH = "solver_crash"
INVALID_FOR_DD = "invalid_for_dd"
DD_PLAY_ISSUE = "dd_invalid_play"


@dataclass(slots=True)
class SolveUnit:
    """One unit of DD work for a worker, and the key its cached result is stored under."""

    index: int
    job: SolveJob
    content_hash: str
    cost: float  # estimated CPU seconds (ddrank.dd.units)


@dataclass(slots=True)
class DDPlan:
    """The run's DD work: the partitions with boards to tally (the unit of storage) and the solve
    units (the unit of work, cut for the machine's workers)."""

    partitions: list[int] = field(default_factory=list)
    units: list[SolveUnit] = field(default_factory=list)
    pending_boards: int = 0
    invalid_boards: list[tuple[str, str]] = field(default_factory=list)  # (record_id, why)
    invalid_plays: list[tuple[str, str]] = field(default_factory=list)
    #: what each partition waits for before it can be tallied: "T|deal_id" (a table) and
    #: "P|record_id" (a trace) of its boards that this plan solves
    needs: dict[int, set[str]] = field(default_factory=dict)


def configure_worker(dds_threads: int) -> None:
    """Process-pool initializer: fix the DDS thread count of this worker and its solver children,
    and leave Ctrl-C to the main process (`ddrank.processes`)."""
    detach_worker()
    os.environ[THREADS_ENV] = str(dds_threads)
    set_dds_threads(dds_threads)


def engine_version() -> str:
    """Hash of the DD engine's code and solver version: part of every cached solve's key, so a
    change to the solver wrappers invalidates persisted results (TASK_SOURCE sees only the task)."""
    from importlib.metadata import version

    h = hashlib.sha1(version("endplay").encode())
    for path in sorted(Path(dd_package.__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def job_hash(job: SolveJob) -> str:
    """Content hash of a job: the deals and plays alone (batch sizes do not change results)."""
    h = hashlib.sha1()
    for deal_id, pbn in sorted(job.tables):
        h.update(f"T|{deal_id}|{pbn}\n".encode())
    for req in sorted(job.traces, key=lambda r: r.key):
        h.update(
            f"P|{req.key}|{req.deal_pbn}|{req.trump}|{req.leader}|{' '.join(req.cards)}\n".encode()
        )
    return h.hexdigest()


# ---------------------------------------------------------------------------------- planning
#: Pending boards planned, solved and tallied at a time: the run holds one wave's boards and
#: solve jobs, whatever the archive's size (a wave is many units: workers stay busy).
WAVE_BOARDS = 50_000


def plan_waves(store: Store, partitions: list[int] | None = None,
               size: int = WAVE_BOARDS) -> tuple[list[list[int]], int]:  # fmt: skip
    """The partitions with pending boards, cut into waves of at most `size` boards (a partition
    is never split; one larger than `size` is a wave of its own), and the pending boards."""
    waves: list[list[int]] = []
    current: list[int] = []
    boards = total = 0
    for pid, count in store.tuples("dd_pending_partitions", partitions=partitions or None):
        if current and boards + count > size:
            waves.append(current)
            current, boards = [], 0
        current.append(int(pid))
        boards += int(count)
        total += int(count)
    return ([*waves, current] if current else waves), total


def plan_dd_work(
    store: Store,
    partitions: list[int] | None = None,
    table_batch: int = TABLE_BATCH,
    trace_batch: int = TRACE_BATCH,
    workers: int = 1,
) -> DDPlan:
    """Find boards without player stats and the tables and traces they still lack, and cut that
    work into solve units for `workers` (`ddrank.dd.units`: sized from the cost of their tables
    and traces, shrinking toward the end, partition by partition).

    Each missing deal needs one table however many boards and partitions replay it, so a deal is
    solved once per run."""
    have_tables = {r[0] for r in store.tuples("dd_solved_deal_ids")}
    plan = DDPlan()
    tables: dict[str, tuple[int, str]] = {}  # deal_id -> (first partition, PBN), in plan order
    traces, trace_groups = [], []
    pids: set[int] = set()
    wanted = list(partitions) if partitions else None
    deals = DealCache()  # a deal replayed at many tables is parsed and hashed once
    for rows in store.batches("dd_pending_boards", partitions=wanted):  # a batch at a time
        plan.pending_boards += len(rows)
        for row in rows:
            pid = int(row["partition_id"])
            pids.add(pid)
            needs = plan.needs.setdefault(pid, set())
            try:
                board = board_from_row(row, deals)
            except (DomainError, ValueError) as exc:
                plan.invalid_boards.append((row["record_id"], str(exc)))
                continue
            pbn, deal_id = deals.pbn_and_id(row["deal"])  # computed once per deal
            if deal_id not in have_tables:
                if deal_id not in tables:
                    tables[deal_id] = (pid, pbn)
                needs.add(f"T|{deal_id}")
            if has_play(board) and not row["has_trace"]:
                try:
                    traces.append(trace_request(board, pbn))
                    trace_groups.append(pid)
                    needs.add(f"P|{board.record_id}")
                except DomainError as exc:
                    plan.invalid_plays.append((board.record_id, str(exc)))
    plan.partitions = sorted(pids)
    # in plan order (partition by partition): the first partitions are tallied while the
    # workers solve the rest
    units = plan_units([(d, pbn) for d, (_, pbn) in tables.items()], traces, workers,
                       table_batch, trace_batch,
                       groups=([pid for pid, _ in tables.values()], trace_groups))  # fmt: skip
    plan.units = [SolveUnit(u.index, u.job, job_hash(u.job), u.cost) for u in units]
    return plan


def solved_keys(job: SolveJob) -> list[str]:
    """What a unit settles (solved or found to crash DDS), as `DDPlan.needs` names it."""
    return [f"T|{d}" for d, _ in job.tables] + [f"P|{r.key}" for r in job.traces]


class TallyWhenReady:
    """Tally each partition of a plan as soon as the last table and trace it waits for is
    stored, while the workers solve the rest (the run's own process would otherwise wait)."""

    def __init__(self, store: Store, plan: DDPlan) -> None:
        self.store = store
        self.waiting = {pid: set(keys) for pid, keys in plan.needs.items()}
        self.partitions_of: dict[str, list[int]] = defaultdict(list)
        for pid, keys in self.waiting.items():
            for key in keys:
                self.partitions_of[key].append(pid)
        self.tallied = 0

    def settled(self, keys: list[str]) -> Iterator[int]:
        """Mark `keys` settled, tally every partition left waiting for nothing; yields each
        partition's boards tallied."""
        for key in keys:
            for pid in self.partitions_of.pop(key, ()):
                self.waiting[pid].discard(key)
        for pid in [p for p, keys in self.waiting.items() if not keys]:
            del self.waiting[pid]
            n = tally_partition(self.store, pid)
            self.tallied += n
            yield n

    def rest(self) -> Iterator[int]:
        """Tally whatever is still waiting (all its units are done)."""
        for pid in list(self.waiting):
            self.waiting[pid] = set()
        yield from self.settled([])


# ---------------------------------------------------------------------------------- storing
def store_solution(store: Store, job: SolveJob, out: SolveOutput) -> list[str]:
    """Write a partition's tables and traces, quarantine what crashed DDS; return quarantined ids.

    `job` is what was asked: the output holds only what DDS solved of it. All of it is committed
    together or not at all, so an interrupt never leaves a partition half written.
    """
    bad: dict[str, str] = {}
    with store.transaction():
        if out.tables:
            long = [
                (deal_id, strain.letter, seat.letter, tricks)
                for deal_id, cells in out.tables.items()
                for strain, seat, tricks in TrickTable(cells).rows()
            ]
            store.insert_frame("dd_tables", pl.DataFrame(
                long, schema={"deal_id": pl.String, "strain": pl.String, "declarer": pl.String,
                              "tricks": pl.Int8}, orient="row",
            ))  # fmt: skip
        if out.traces:
            store.insert_frame("play_traces", pl.DataFrame(
                {"record_id": list(out.traces), "trace": [list(t) for t in out.traces.values()]},
                schema={"record_id": pl.String, "trace": pl.List(pl.Int8)},
            ))  # fmt: skip
        for deal_id, why in out.crashed_deals:
            for (rid,) in store.tuples("record_ids_of_deal", deal_id=deal_id):
                bad[rid] = f"DD table of deal {deal_id}: {why}"
        for rid, why in out.crashed_traces:
            bad.setdefault(rid, f"DD play trace: {why}")
        exclude(store, bad, SOLVER_CRASH)
    return sorted(bad)


def quarantine(store: Store, reasons: dict[str, str], reason: str) -> None:
    """Move boards out of `boards` into `exclusions`, keeping raw = boards + exclusions."""
    with store.transaction():
        exclude(store, reasons, reason)


def exclude(store: Store, reasons: dict[str, str], reason: str) -> None:
    """`quarantine` inside a transaction the caller holds."""
    fields = {r["record_id"]: r for r in store.rows("raw_fields_of_records",
                                                    record_ids=list(reasons))}  # fmt: skip
    for rid, detail in reasons.items():
        place = place_text(place_of(fields.get(rid, {})))
        store.run("exclude_record", record_id=rid, reason=reason, detail=detail, place=place)
        for query in ("delete_player_board_stats_of_record", "delete_play_trace_of_record",
                      "delete_board"):  # fmt: skip
            store.run(query, record_id=rid)


def record_invalid(store: Store, plan: DDPlan) -> None:
    """Boards the engine cannot read leave `boards`; plays DDS must not see go to play_issues."""
    if plan.invalid_boards:
        quarantine(store, dict(plan.invalid_boards), INVALID_FOR_DD)
    store.insert_rows("play_issues", (
        {"record_id": rid, "reason": DD_PLAY_ISSUE, "detail": why} for rid, why in plan.invalid_plays
    ), {"record_id": pl.String, "reason": pl.String, "detail": pl.String}, or_ignore=True)  # fmt: skip


# ---------------------------------------------------------------------------------- tallying
def tables_for(store: Store, deal_ids: list[str]) -> dict[str, TrickTable]:
    """The stored DD tables of `deal_ids` (only complete ones: 20 cells)."""
    cells: dict[str, list[int]] = defaultdict(lambda: [0] * 20)
    seen: dict[str, int] = defaultdict(int)
    for deal_id, strain, declarer, tricks in store.tuples("dd_tables_of_deals", deal_ids=deal_ids):
        cells[deal_id][int(Strain.parse(strain)) * 4 + int(Seat.parse(declarer))] = tricks
        seen[deal_id] += 1
    return {d: TrickTable(tuple(c)) for d, c in cells.items() if seen[d] == 20}


def tally_partition(store: Store, partition_id: int) -> int:
    """Compute and store the 33 counters of every seat of the partition's pending boards."""
    rows = store.rows("dd_pending_boards_of_partition", partition_id=partition_id)
    if not rows:
        return 0
    ids = [r["record_id"] for r in rows]
    tables = tables_for(store, sorted({r["deal_id"] for r in rows}))
    traces = dict(store.tuples("play_traces_of_records", record_ids=ids))
    out: dict[str, list] = {"record_id": [], "seat": [], "raw_name": []}
    for v in VARIABLES:
        out[v] = []
    deals = DealCache()
    for row in rows:
        board = board_from_row(row, deals)
        trace = traces.get(board.record_id)
        tallies = board_tallies(
            board, tables.get(board.deal_id), tuple(trace) if trace is not None else None
        )
        for seat, tally in zip(Seat, tallies, strict=True):
            out["record_id"].append(board.record_id)
            out["seat"].append(int(seat))
            out["raw_name"].append(board.names[seat])
            for v in VARIABLES:
                out[v].append(float(tally[v]))
    schema = {"record_id": pl.String, "seat": pl.Int8, "raw_name": pl.String}
    schema.update(dict.fromkeys(VARIABLES, pl.Float64))
    store.insert_frame("player_board_stats", pl.DataFrame(out, schema=schema))
    return len(rows)


# ---------------------------------------------------------------------------------- par
def compute_par(store: Store) -> int:
    """Par of every dealt deal that has a DD table and no par yet; returns rows added.

    Par comes from the stored table (DDS DealerParBin, microseconds per deal): no second solve.
    Boards whose record gave no dealer or vulnerability get no par (par depends on both).
    """
    pending = store.tuples("par_pending")
    if not pending:
        return 0
    tables = tables_for(store, sorted({r[0] for r in pending}))
    rows = []
    for deal_id, dealer, vulnerable in pending:
        table = tables.get(deal_id)
        if table is None:  # a partial table (never stored by this engine) gets no par
            continue
        par = par_from_table(table, Seat.parse(dealer), vulnerable in ("NS", "All"),
                             vulnerable in ("EW", "All"))  # fmt: skip
        rows.append((deal_id, dealer, vulnerable, par.ns_score, par.contract_text))
    store.insert_frame("dd_par", pl.DataFrame(
        rows, schema={"deal_id": pl.String, "dealer": pl.String, "vulnerable": pl.String,
                      "par_score": pl.Int32, "par_contract": pl.String}, orient="row",
    ))  # fmt: skip
    return len(rows)


def dd_work_left(store: Store) -> int:
    """Boards still waiting for their DD analysis, plus deals still waiting for their par."""
    return int(store.scalar("dd_pending_count") or 0) + len(store.rows("par_pending"))
