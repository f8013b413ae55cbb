"""The DD stage from end to end: plan the missing work, solve it in workers, store, tally, par.

One implementation for every runner. `analyse` takes a `Solve`: a function that runs solve jobs
somewhere and yields each job's output as it finishes. `pool_solve` (below) runs them on a
process pool of this process, without Prefect (`ddrank results --double-dummy`, tests); the
`dd_analysis` flow passes one that submits cached, retried Prefect tasks to a process pool or a
Dask cluster. Workers never open the store: the process that called `analyse` writes every
result as soon as it arrives, so an interrupted run loses only the jobs in flight.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from ddrank.dd import SolveJob, SolveOutput, solve_with_bisection
from ddrank.dd.sandbox import THREADS_ENV, run_isolated, solve_job
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH
from ddrank.processes import kill_workers
from stages.dd import (
    SolveUnit,
    compute_par,
    configure_worker,
    plan_dd_work,
    record_invalid,
    store_solution,
    tally_partition,
)
from stages.progress import report
from stages.stats import build_player_stats
from store import Store

#: solve(units, workers, dds_threads) -> (unit, output) pairs in the order they finish.
Solve = Callable[[list[SolveUnit], int, int], Iterator[tuple[SolveUnit, SolveOutput]]]


@dataclass(frozen=True)
class DDOptions:
    """How the DD stage runs (the run settings' DD fields)."""

    workers: int | None = None
    dds_threads: int | None = None
    runner: str = "process"
    partitions: tuple[int, ...] | None = None
    table_batch: int = TABLE_BATCH
    trace_batch: int = TRACE_BATCH

    @classmethod
    def of(cls, settings: Any) -> DDOptions:
        return cls(workers=settings.workers, dds_threads=settings.dds_threads,
                   runner=settings.runner, table_batch=settings.table_batch,
                   trace_batch=settings.trace_batch)  # fmt: skip


def default_split(workers: int | None, dds_threads: int | None) -> tuple[int, int]:
    """Workers x DDS threads: one worker per core and one thread each unless told otherwise."""
    cores = os.cpu_count() or 1
    w = workers or cores
    return w, dds_threads or max(1, cores // w)


def solve_unit(job: SolveJob, isolate: bool = True) -> SolveOutput:
    """Solve one job in a worker (no database here). With `isolate` DDS runs in a child process
    and a crash is bisected down to the deal or play that caused it; the rest is still solved."""
    if not isolate:
        out = solve_job(job)
        out.solver_runs = 1 if len(job) else 0
        return out
    threads = os.environ.get(THREADS_ENV)
    return solve_with_bisection(
        job, lambda j: run_isolated(j, threads=int(threads) if threads else None)
    )


def executor_solve(make: Callable[[int, int], Executor], isolate: bool = True) -> Solve:
    """A `Solve` over a `concurrent.futures` executor made for (workers, dds_threads)."""

    def solve(units: list[SolveUnit], workers: int, threads: int) -> Iterator[Any]:
        with make(workers, threads) as pool:
            try:
                pending: dict[Future, SolveUnit] = {
                    pool.submit(solve_unit, u.job, isolate): u for u in units
                }
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        yield pending.pop(fut), fut.result()
            except BaseException:
                kill_workers()  # before the pool's shutdown waits for them
                raise

    return solve


def pool_solve(runner: str = "process") -> Solve:
    """Solve jobs on this process's own pool: spawned processes (default) or threads."""
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
    from multiprocessing import get_context

    if runner == "thread":

        def threads(workers: int, dds_threads: int) -> Executor:
            os.environ[THREADS_ENV] = str(dds_threads)  # inherited by each sandboxed solver
            return ThreadPoolExecutor(max_workers=workers)

        return executor_solve(threads, isolate=True)  # DDS is not re-entrant across threads

    def processes(workers: int, dds_threads: int) -> Executor:
        return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                                   initializer=configure_worker, initargs=(dds_threads,))  # fmt: skip

    return executor_solve(processes)


def analyse(store: Store, options: DDOptions, solve: Solve,
            log: logging.Logger | logging.LoggerAdapter | None = None) -> dict[str, Any]:  # fmt: skip
    """Solve what is missing, tally every pending board, rebuild `player_stats`.

    Returns counts: boards tallied, tables and traces computed, solver processes started, boards
    quarantined as `solver_crash`, and wall time per step. Progress goes to `stages.progress`
    as "solve" (tables and traces computed, of those needed) and "tally" (boards done, pending).
    """
    log = log or logging.getLogger("ddrank.dd")
    n_workers, threads = default_split(options.workers, options.dds_threads)
    summary: dict[str, Any] = {"workers": n_workers, "dds_threads": threads,
                               "runner": options.runner}  # fmt: skip
    t0 = time.perf_counter()
    report("solve", 0, 0)  # planning: size not known yet
    plan = plan_dd_work(store, list(options.partitions) if options.partitions else None,
                        options.table_batch, options.trace_batch, n_workers)  # fmt: skip
    record_invalid(store, plan)
    work = plan.units  # the heaviest first, so the last one to finish is a small one
    total = sum(len(u.job) for u in work)
    log.info("%d pending boards in %d partitions; %d tables and %d traces to compute in %d "
             "units for %d workers (est. %.0f CPU-s, largest unit %.1f s)", plan.pending_boards,
             len(plan.partitions), sum(len(u.job.tables) for u in work),
             sum(len(u.job.traces) for u in work), len(work), n_workers,
             sum(u.cost for u in work), max((u.cost for u in work), default=0))  # fmt: skip
    report("solve", *((0, total) if total else (1, 1)))  # (1, 1): nothing to solve
    quarantined: list[str] = []
    tables = traces = runs = done = 0
    t1 = time.perf_counter()
    if work:
        # No more workers than units to solve; their cores go to DDS threads instead.
        n_workers, threads = default_split(min(n_workers, len(work)), options.dds_threads)
        summary.update(workers=n_workers, dds_threads=threads)
        for u, out in solve(work, n_workers, threads):
            quarantined += store_solution(store, u.job, out)
            tables += len(out.tables)
            traces += len(out.traces)
            runs += out.solver_runs
            log.info("unit %d: %d tables, %d traces, %.1f s in DDS (est. %.1f s)", u.index,
                     len(out.tables), len(out.traces), out.seconds, u.cost)  # fmt: skip
            done += len(u.job)
            report("solve", done, total)
    t2 = time.perf_counter()
    par_rows = compute_par(store)
    tallied = 0
    for pid in plan.partitions:
        tallied += tally_partition(store, pid)
        report("tally", tallied, plan.pending_boards)
    if not plan.pending_boards:
        report("tally", 1, 1)  # nothing to tally: finished
    players = build_player_stats(store)
    t3 = time.perf_counter()
    if quarantined:
        log.warning("quarantined %d boards as solver_crash: %s", len(quarantined), quarantined)
    summary.update(
        pending_boards=plan.pending_boards, boards_tallied=tallied, tables_computed=tables,
        traces_computed=traces, solver_runs=runs, quarantined=quarantined,
        invalid_plays=len(plan.invalid_plays), invalid_boards=len(plan.invalid_boards),
        players=players, par_computed=par_rows, seconds_plan=round(t1 - t0, 3),
        seconds_solve=round(t2 - t1, 3), seconds_tally=round(t3 - t2, 3),
    )  # fmt: skip
    return summary
