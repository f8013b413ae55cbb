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
from ddrank.dd.sandbox import THREADS_ENV, run_persistent, solve_job
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH
from ddrank.processes import kill_workers
from stages.dd import (
    DDPlan,
    SolveUnit,
    TallyWhenReady,
    compute_par,
    configure_worker,
    plan_dd_work,
    plan_waves,
    record_invalid,
    solved_keys,
    store_solution,
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
    """Solve one job in a worker (no database here). With `isolate` DDS runs in the worker's
    long-lived solver child (started once, it solves unit after unit) and a crash is bisected
    down to the deal or play that caused it; the rest is still solved."""
    if not isolate:
        out = solve_job(job)
        out.solver_runs = 1 if len(job) else 0
        return out
    threads = os.environ.get(THREADS_ENV)
    return solve_with_bisection(
        job, lambda j: run_persistent(j, threads=int(threads) if threads else None)
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


def _solve_wave(store: Store, plan: DDPlan, options: DDOptions, solve: Solve, n_workers: int,
                summary: dict[str, Any], totals: dict[str, int], solved: list[int],
                log: logging.Logger | logging.LoggerAdapter, tally: TallyWhenReady,
                pending: int) -> list[str]:  # fmt: skip
    """Solve one wave's units, storing each output as it arrives and tallying each partition
    once all it waits for is stored; returns the boards quarantined."""
    work = plan.units  # the heaviest first, so the last one to finish is a small one
    total = sum(len(u.job) for u in work)
    solved[1] += total
    log.info("%d pending boards in %d partitions; %d tables and %d traces to compute in %d "
             "units for %d workers (est. %.0f CPU-s, largest unit %.1f s)", plan.pending_boards,
             len(plan.partitions), sum(len(u.job.tables) for u in work),
             sum(len(u.job.traces) for u in work), len(work), n_workers,
             sum(u.cost for u in work), max((u.cost for u in work), default=0))  # fmt: skip
    report("solve", *((solved[0], solved[1]) if solved[1] else (1, 1)))  # (1, 1): nothing to do
    quarantined: list[str] = []
    if not work:
        return quarantined
    # No more workers than units to solve; their cores go to DDS threads instead.
    n_workers, threads = default_split(min(n_workers, len(work)), options.dds_threads)
    summary.update(workers=n_workers, dds_threads=threads)
    for u, out in solve(work, n_workers, threads):
        quarantined += store_solution(store, u.job, out)
        totals["tables"] += len(out.tables)
        totals["traces"] += len(out.traces)
        totals["runs"] += out.solver_runs
        log.info("unit %d: %d tables, %d traces, %.1f s in DDS (est. %.1f s)", u.index,
                 len(out.tables), len(out.traces), out.seconds, u.cost)  # fmt: skip
        solved[0] += len(u.job)
        report("solve", solved[0], solved[1])
        for _ in tally.settled(solved_keys(u.job)):
            report("tally", totals["tallied"] + tally.tallied, pending)
    return quarantined


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
    waves, pending = plan_waves(store, list(options.partitions) if options.partitions else None)
    totals = dict.fromkeys(("pending_boards", "tables", "traces", "runs", "tallied", "par",
                            "invalid_plays", "invalid_boards"), 0)  # fmt: skip
    quarantined: list[str] = []
    seconds = {"plan": 0.0, "solve": 0.0, "tally": 0.0}
    solved = [0, 0]  # jobs done, jobs known so far (a wave's are known when it is planned)
    for wave in waves or [[]]:  # no wave: nothing to solve, but par may still be missing
        plan = plan_dd_work(store, wave, options.table_batch, options.trace_batch,
                            n_workers) if wave else DDPlan()  # fmt: skip
        record_invalid(store, plan)
        t1 = time.perf_counter()
        seconds["plan"] += t1 - t0
        tally = TallyWhenReady(store, plan)
        quarantined += _solve_wave(store, plan, options, solve, n_workers, summary, totals,
                                   solved, log, tally, pending)  # fmt: skip
        t2 = time.perf_counter()
        seconds["solve"] += t2 - t1
        totals["par"] += compute_par(store)
        for _ in tally.rest():  # partitions waiting for nothing more (none, or a crashed unit's)
            report("tally", totals["tallied"] + tally.tallied, pending)
        totals["tallied"] += tally.tallied
        totals["pending_boards"] += plan.pending_boards
        totals["invalid_plays"] += len(plan.invalid_plays)
        totals["invalid_boards"] += len(plan.invalid_boards)
        t0 = time.perf_counter()
        seconds["tally"] += t0 - t2
    if not totals["pending_boards"]:
        report("tally", 1, 1)  # nothing to tally: finished
    t3 = time.perf_counter()
    players = build_player_stats(store)
    seconds["tally"] += time.perf_counter() - t3
    if quarantined:
        log.warning("quarantined %d boards as solver_crash: %s", len(quarantined), quarantined)
    summary.update(
        pending_boards=totals["pending_boards"], boards_tallied=totals["tallied"],
        tables_computed=totals["tables"], traces_computed=totals["traces"],
        solver_runs=totals["runs"], quarantined=quarantined,
        invalid_plays=totals["invalid_plays"], invalid_boards=totals["invalid_boards"],
        players=players, par_computed=totals["par"], seconds_plan=round(seconds["plan"], 3),
        seconds_solve=round(seconds["solve"], 3), seconds_tally=round(seconds["tally"], 3),
    )  # fmt: skip
    return summary
