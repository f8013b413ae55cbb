"""Flow `dd_analysis`: DD tables, play traces and the 33 player counters for every board.

One `solve_partition` task per board partition runs on a process pool (one worker per core by
default, DDS threads per worker set by the pool initializer). The flow's own process holds the
DuckDB connection and writes each partition's results as soon as they arrive, so an interrupted run
loses at most the partitions in flight; the next run plans only what is still missing.
Progress goes to `stages.progress` as stages "solve" and "tally" (boards done, boards pending).
"""

from __future__ import annotations

import os
import time
from typing import Any

from prefect import flow, get_run_logger
from prefect.futures import as_completed
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

from ddrank.dd.sandbox import THREADS_ENV
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH
from flows.interrupts import workers_stopped_on_interrupt
from flows.server import prefect_api  # noqa: F401 - re-exported for callers
from stages.dd import TABLE_COST, configure_worker, engine_version
from stages.progress import report as _report
from store import DEFAULT_DB, Store
from tasks.dd import (
    build_player_stats,
    par_task,
    plan_dd_work,
    record_invalid,
    solve_partition,
    store_solution,
    tally_partition,
)


def default_split(workers: int | None, dds_threads: int | None) -> tuple[int, int]:
    """Workers x DDS threads: one worker per core and one thread each unless told otherwise."""
    cores = os.cpu_count() or 1
    w = workers or cores
    return w, dds_threads or max(1, cores // w)


def make_runner(
    runner: str, workers: int, dds_threads: int, dask_address: str | None = None
) -> Any:
    """The task runner for the solve tasks. `dask_address` (runner "dask") uses an existing
    cluster instead of starting a local one; its workers then keep their own environment, so set
    DDRANK_DDS_THREADS there if DDS should not use every core of a worker machine."""
    if runner == "process":
        return ProcessPoolTaskRunner(
            max_workers=workers, initializer=configure_worker, initargs=(dds_threads,)
        )
    if runner == "thread":
        os.environ[THREADS_ENV] = str(dds_threads)  # inherited by each sandboxed solver
        return ThreadPoolTaskRunner(max_workers=workers)
    if runner == "dask":
        from ddrank.extras import require

        DaskTaskRunner = require("prefect_dask", "dask").DaskTaskRunner  # noqa: N806

        os.environ[THREADS_ENV] = str(dds_threads)  # inherited by the spawned Dask workers
        if dask_address:
            return DaskTaskRunner(address=dask_address)
        return DaskTaskRunner(
            cluster_kwargs={"n_workers": workers, "threads_per_worker": 1, "processes": True}
        )
    raise ValueError(f"unknown runner {runner!r}: use process, thread or dask")


@flow(name="dd_analysis", validate_parameters=False)
def dd_analysis(
    db: str = str(DEFAULT_DB),
    workers: int | None = None,
    runner: str = "process",
    dds_threads: int | None = None,
    partitions: list[int] | None = None,
    table_batch: int = TABLE_BATCH,
    trace_batch: int = TRACE_BATCH,
    isolate: bool = True,
    refresh_cache: bool = False,
    dask_address: str | None = None,
) -> dict[str, Any]:
    """Solve what is missing, tally every pending board, rebuild `player_stats`.

    `refresh_cache` recomputes partitions even when a persisted result exists for their content
    (benchmarks, or after a solver upgrade that keeps the same wrapper code). Returns counts:
    boards tallied, tables and traces computed, solver processes started, boards quarantined as
    `solver_crash`, and wall time per stage. `dask_address` sends the solve tasks to an existing
    Dask scheduler (with `runner="dask"`).
    """
    logger = get_run_logger()
    n_workers, threads = default_split(workers, dds_threads)
    if runner == "thread":
        isolate = True  # DDS is not re-entrant across threads of one process
    store = Store(db)
    summary: dict[str, Any] = {"workers": n_workers, "dds_threads": threads, "runner": runner}
    try:
        t0 = time.perf_counter()
        _report("solve", 0, 0)  # planning: size not known yet
        plan = plan_dd_work(store, partitions, table_batch, trace_batch)
        record_invalid(store, plan)
        # heaviest partitions first, so the last one to finish is a small one
        work = sorted(
            (p for p in plan.partitions if len(p.job)),
            key=lambda p: -(len(p.job.tables) * TABLE_COST + len(p.job.traces)),
        )
        total = plan.pending_boards
        logger.info(
            "%d pending boards in %d partitions; %d need DDS (%d tables, %d traces)",
            total, len(plan.partitions), len(work),
            sum(len(p.job.tables) for p in work), sum(len(p.job.traces) for p in work),
        )  # fmt: skip
        done = total - sum(p.pending_boards for p in work)
        _report("solve", *((done, total) if total else (1, 1)))  # (1, 1): nothing to solve
        quarantined: list[str] = []
        tables = traces = runs = 0
        t1 = time.perf_counter()
        if work:
            engine = engine_version()
            solve = (
                solve_partition.with_options(refresh_cache=True)
                if refresh_cache
                else solve_partition
            )
            # No more workers than partitions to solve; their cores go to DDS threads instead.
            n_workers, threads = default_split(min(n_workers, len(work)), dds_threads)
            summary.update(workers=n_workers, dds_threads=threads)
            with (
                make_runner(runner, n_workers, threads, dask_address) as task_runner,
                workers_stopped_on_interrupt(),  # before the runner's exit waits for them
            ):
                futures: dict[int, Any] = {}
                for p in work:
                    params = {
                        "partition_id": p.partition_id,
                        "content_hash": p.content_hash,
                        "engine": engine,
                        "job": p.job,
                        "isolate": isolate,
                    }
                    fut = task_runner.submit(solve, params)
                    futures[id(fut)] = (fut, p)
                for fut in as_completed([f for f, _ in futures.values()]):
                    p = futures[id(fut)][1]
                    out = fut.result()
                    quarantined += store_solution(store, p.job, out)
                    tables += len(out.tables)
                    traces += len(out.traces)
                    runs += out.solver_runs
                    logger.info(
                        "partition %d: %d tables, %d traces, %.1f s in DDS",
                        p.partition_id,
                        len(out.tables),
                        len(out.traces),
                        out.seconds,
                    )
                    done += p.pending_boards
                    _report("solve", done, total)
        t2 = time.perf_counter()
        par_rows = par_task(store)
        tallied = 0
        for p in plan.partitions:
            tallied += tally_partition(store, p.partition_id)
            _report("tally", tallied, total)
        if not total:
            _report("tally", 1, 1)  # nothing to tally: finished
        players = build_player_stats(store)
        t3 = time.perf_counter()
        if quarantined:
            logger.warning(
                "quarantined %d boards as solver_crash: %s", len(quarantined), quarantined
            )
        summary.update(
            pending_boards=total,
            boards_tallied=tallied,
            tables_computed=tables,
            traces_computed=traces,
            solver_runs=runs,
            quarantined=quarantined,
            invalid_plays=len(plan.invalid_plays),
            invalid_boards=len(plan.invalid_boards),
            players=players,
            par_computed=par_rows,
            seconds_plan=round(t1 - t0, 3),
            seconds_solve=round(t2 - t1, 3),
            seconds_tally=round(t3 - t2, 3),
        )
        return summary
    finally:
        store.close()
