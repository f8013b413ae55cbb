"""Prefect tasks of the DD stage: plan work from DuckDB, solve in workers, store, tally.

Workers never open DuckDB (one process owns the file): `plan_dd_work` reads everything a worker
needs into picklable `SolveJob`s, `solve_partition` runs in a worker with no database, and the
flow's own process writes every result (`store_solution`, `tally_partition`).
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
from prefect import task
from prefect.cache_policies import INPUTS, NO_CACHE, TASK_SOURCE
from prefect.tasks import exponential_backoff

import ddrank.dd as dd_package
from ddrank.dd import (
    SolveJob,
    SolveOutput,
    TrickTable,
    board_from_row,
    has_play,
    solve_with_bisection,
    trace_request,
)
from ddrank.dd.sandbox import THREADS_ENV, run_isolated, solve_job
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH, set_dds_threads
from ddrank.mistakes import VARIABLES, board_tallies
from ddrank.types import DomainError, Seat
from tasks.db import sql_file
from tasks.par import compute_par
from tasks.par import tables_for as _tables_for

SOLVER_CRASH = "solver_crash"
TABLE_COST = 13  # one DD table ~ 0.19 CPU-s ~ 13 play traces (measured, 2012 sample)
INVALID_FOR_DD = "invalid_for_dd"
DD_PLAY_ISSUE = "dd_invalid_play"
_PENDING = (
    "SELECT b.* FROM boards b WHERE b.deal IS NOT NULL AND NOT EXISTS "
    "(SELECT 1 FROM player_board_stats s WHERE s.record_id = b.record_id)"
)


@dataclass(slots=True)
class PartitionPlan:
    """The DD work one partition still needs, and the key its cached result is stored under."""

    partition_id: int
    job: SolveJob
    content_hash: str
    pending_boards: int


@dataclass(slots=True)
class DDPlan:
    partitions: list[PartitionPlan] = field(default_factory=list)
    pending_boards: int = 0
    invalid_boards: list[tuple[str, str]] = field(default_factory=list)  # (record_id, why)
    invalid_plays: list[tuple[str, str]] = field(default_factory=list)


def configure_worker(dds_threads: int) -> None:
    """Process-pool initializer: fix the DDS thread count of this worker and its solver children."""
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


def _exec(con: duckdb.DuckDBPyConnection, query: str, params: list[Any] | None = None) -> list:
    """Execute and fetch at once: DuckDB 2 blocks a connection while a result is unfetched."""
    return con.execute(query, params or []).fetchall()


def _rows(
    con: duckdb.DuckDBPyConnection, query: str, params: list[Any] | None = None
) -> list[dict]:
    cur = con.cursor()
    try:
        cur.execute(query, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    finally:
        cur.close()


@task(cache_policy=NO_CACHE)
def plan_dd_work(
    con: duckdb.DuckDBPyConnection,
    partitions: list[int] | None = None,
    table_batch: int = TABLE_BATCH,
    trace_batch: int = TRACE_BATCH,
) -> DDPlan:
    """Find boards without player stats and the tables/traces they still lack, per partition.

    Each missing deal is assigned to exactly one partition, so a deal replayed across partitions
    is still solved once per run; among the partitions that hold it, the least loaded one gets it
    (a table costs about as much as 13 play traces), so shared deals do not pile up in the first
    partition and leave the other workers idle.
    """
    query = _PENDING + (" AND b.partition_id IN (SELECT unnest(?))" if partitions else "")
    rows = _rows(
        con, query + " ORDER BY b.partition_id, b.record_id", [partitions] if partitions else None
    )
    have_tables = {r[0] for r in con.execute("SELECT DISTINCT deal_id FROM dd_tables").fetchall()}
    have_traces = {
        r[0]
        for r in con.execute(
            "SELECT t.record_id FROM play_traces t JOIN boards b USING (record_id)"
        ).fetchall()
    }
    plan = DDPlan(pending_boards=len(rows))
    tables: dict[int, dict[str, str]] = defaultdict(dict)
    traces: dict[int, list] = defaultdict(list)
    counts: dict[int, int] = defaultdict(int)
    holders: dict[str, list[int]] = {}
    pbn_of: dict[str, str] = {}
    for row in rows:
        pid = int(row["partition_id"])
        counts[pid] += 1
        try:
            board = board_from_row(row)
        except (DomainError, ValueError) as exc:
            plan.invalid_boards.append((row["record_id"], str(exc)))
            continue
        if board.deal_id not in have_tables:
            where = holders.setdefault(board.deal_id, [])
            if pid not in where:
                where.append(pid)
            pbn_of.setdefault(board.deal_id, board.deal.to_pbn())
        if has_play(board) and board.record_id not in have_traces:
            try:
                traces[pid].append(trace_request(board))
            except DomainError as exc:
                plan.invalid_plays.append((board.record_id, str(exc)))
    load = {pid: len(traces[pid]) for pid in counts}
    for deal_id in sorted(holders, key=lambda d: (len(holders[d]), d)):
        pid = min(holders[deal_id], key=lambda p: (load[p], p))
        tables[pid][deal_id] = pbn_of[deal_id]
        load[pid] += TABLE_COST
    for pid in sorted(counts):
        job = SolveJob(
            tables=tuple(sorted(tables[pid].items())),
            traces=tuple(traces[pid]),
            table_batch=table_batch,
            trace_batch=trace_batch,
        )
        plan.partitions.append(PartitionPlan(pid, job, job_hash(job), counts[pid]))
    return plan


@task(
    cache_policy=(INPUTS - "job" - "partition_id" - "isolate") + TASK_SOURCE,
    persist_result=True,
    retries=2,
    retry_delay_seconds=exponential_backoff(backoff_factor=2),
    task_run_name="solve-partition-{partition_id}",
)
def solve_partition(
    partition_id: int, content_hash: str, engine: str, job: SolveJob, isolate: bool = True
) -> SolveOutput:
    """Solve one partition's DD tables and traces (runs in a worker; no database here).

    With `isolate` the solver runs in a child process and a crash is bisected down to the deal or
    play that caused it; the rest of the partition is still solved. The cache key is the
    partition's content hash and the engine version, so a rerun of an unchanged partition reads
    the persisted result.
    """
    if not isolate:
        out = solve_job(job)
        out.solver_runs = 1 if len(job) else 0
        return out
    threads = os.environ.get(THREADS_ENV)
    return solve_with_bisection(
        job, lambda j: run_isolated(j, threads=int(threads) if threads else None)
    )


@task(cache_policy=NO_CACHE)
def store_solution(con: duckdb.DuckDBPyConnection, job: SolveJob, out: SolveOutput) -> list[str]:
    """Write a partition's tables and traces, quarantine what crashed DDS; return quarantined ids."""
    if out.tables:
        long = [
            (deal_id, strain.letter, seat.letter, tricks)
            for deal_id, cells in out.tables.items()
            for strain, seat, tricks in TrickTable(cells).rows()
        ]
        df = pl.DataFrame(long, schema=["deal_id", "strain", "declarer", "tricks"], orient="row")
        con.register("dd_new_tables", df.to_arrow())
        _exec(
            con,
            "INSERT INTO dd_tables SELECT deal_id, strain, declarer, CAST(tricks AS TINYINT) "
            "FROM dd_new_tables ON CONFLICT DO NOTHING",
        )
        con.unregister("dd_new_tables")
    if out.traces:
        df = pl.DataFrame(
            {"record_id": list(out.traces), "trace": [list(t) for t in out.traces.values()]},
            schema={"record_id": pl.String, "trace": pl.List(pl.Int8)},
        )
        con.register("dd_new_traces", df.to_arrow())
        _exec(con, "INSERT INTO play_traces SELECT * FROM dd_new_traces ON CONFLICT DO NOTHING")
        con.unregister("dd_new_traces")
    bad: dict[str, str] = {}
    for deal_id, why in out.crashed_deals:
        for (rid,) in con.execute(
            "SELECT record_id FROM boards WHERE deal_id = ?", [deal_id]
        ).fetchall():
            bad[rid] = f"DD table of deal {deal_id}: {why}"
    for rid, why in out.crashed_traces:
        bad.setdefault(rid, f"DD play trace: {why}")
    if bad:
        quarantine(con, bad, SOLVER_CRASH)
    return sorted(bad)


def quarantine(con: duckdb.DuckDBPyConnection, reasons: dict[str, str], reason: str) -> None:
    """Move boards out of `boards` into `exclusions`, keeping raw = boards + exclusions."""
    _exec(con, "BEGIN")
    try:
        for rid, detail in reasons.items():
            _exec(
                con,
                "INSERT INTO exclusions (record_id, reason, detail, source_file, source_line) "
                "SELECT ?, ?, ?, r.source_file, r.source_line FROM (SELECT 1) "
                "LEFT JOIN raw_records r ON r.record_id = ? ON CONFLICT DO NOTHING",
                [rid, reason, detail, rid],
            )
            for table in ("player_board_stats", "play_traces", "boards"):
                _exec(con, f"DELETE FROM {table} WHERE record_id = ?", [rid])
        _exec(con, "COMMIT")
    except Exception:
        _exec(con, "ROLLBACK")
        raise


@task(cache_policy=NO_CACHE)
def record_invalid(con: duckdb.DuckDBPyConnection, plan: DDPlan) -> None:
    """Boards the engine cannot read leave `boards`; plays DDS must not see go to play_issues."""
    if plan.invalid_boards:
        quarantine(con, dict(plan.invalid_boards), INVALID_FOR_DD)
    for rid, why in plan.invalid_plays:
        _exec(
            con,
            "INSERT INTO play_issues (record_id, reason, detail) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [rid, DD_PLAY_ISSUE, why],
        )


par_task = task(name="dd-par", cache_policy=NO_CACHE)(compute_par)


@task(cache_policy=NO_CACHE)
def tally_partition(con: duckdb.DuckDBPyConnection, partition_id: int) -> int:
    """Compute and store the 33 counters of every seat of the partition's pending boards."""
    rows = _rows(con, _PENDING + " AND b.partition_id = ?", [partition_id])
    if not rows:
        return 0
    ids = [r["record_id"] for r in rows]
    tables = _tables_for(con, sorted({r["deal_id"] for r in rows}))
    traces = dict(
        con.execute(
            "SELECT record_id, trace FROM play_traces WHERE record_id IN (SELECT unnest(?))", [ids]
        ).fetchall()
    )
    out: dict[str, list] = {"record_id": [], "seat": [], "raw_name": []}
    for v in VARIABLES:
        out[v] = []
    for row in rows:
        board = board_from_row(row)
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
    df = pl.DataFrame(out, schema=schema)
    con.register("dd_new_stats", df.to_arrow())
    _exec(con, "INSERT INTO player_board_stats SELECT * FROM dd_new_stats ON CONFLICT DO NOTHING")
    con.unregister("dd_new_stats")
    return len(rows)


def _who_query(con: duckdb.DuckDBPyConnection) -> str:
    """(record_id, seat, player, mp, pp): matched names when `board_players` exists, else raw."""
    cols = {
        r[0]
        for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'board_players'"
        ).fetchall()
    }
    if {"record_id", "seat", "player"} <= cols:
        mp = "CAST(mp AS DOUBLE)" if "mp" in cols else "CAST(NULL AS DOUBLE)"
        pp = "CAST(pp AS DOUBLE)" if "pp" in cols else "CAST(NULL AS DOUBLE)"
        return f"SELECT record_id, CAST(seat AS TINYINT) AS seat, player, {mp} AS mp, {pp} AS pp FROM board_players"
    return (
        "SELECT record_id, seat, raw_name AS player, CAST(NULL AS DOUBLE) AS mp, "
        "CAST(NULL AS DOUBLE) AS pp FROM player_board_stats"
    )


@task(cache_policy=NO_CACHE)
def build_player_stats(con: duckdb.DuckDBPyConnection) -> int:
    """(Re)build `player_stats` from `player_board_stats` with sql/player_stats.sql."""
    _exec(con, sql_file("player_stats.sql").replace("{who}", _who_query(con)))
    return _exec(con, "SELECT count(*) FROM player_stats")[0][0]
