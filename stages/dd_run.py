"""The DD stage from end to end: plan the missing work, solve it in workers, store, tally, par.

`DDRun` is the stage's bookkeeping between the solves; whoever runs the solves drives it:

    dd = DDRun(store, options, log)
    for wave in dd.waves():              # at most `WAVE_BOARDS` pending boards each
        work = dd.plan(wave)             # solve units, and the workers x DDS threads to run them
        for unit, output in <each unit of work.units solved, as it finishes>:
            dd.take(unit, output)        # store it; tally every partition it completes
        dd.end_wave()                    # par; tally what waited for a crashed unit
    summary = dd.finish()                # player stats; counts and seconds

`analyse` drives it with this process's own pool, without Prefect (`ddrank results
--double-dummy`, tests); the `dd_analysis` flow drives it with Prefect tasks mapped over the units.
Workers never open the store: the process that drives `DDRun` writes every result as soon as it
arrives, so an interrupted run loses only the units in flight.
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
from ddrank.dd.sandbox import (
    THREADS_ENV,
    close_solvers,
    prestart_solvers,
    run_persistent,
    solve_job,
)
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH
from ddrank.processes import allow_solvers, kill_workers
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
    runner: str = "thread"
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
        allow_solvers()  # a previous fan-out's kill_workers must not keep this one's solvers off
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
                for fut in pending:
                    fut.cancel()  # units not started stay so
                raise

    return solve


def pool_solve(runner: str = "thread") -> Solve:
    """Solve jobs on this process's own pool: threads, each driving its solver child (default),
    or spawned processes."""
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


@dataclass(frozen=True)
class Wave:
    """One wave's solve units (in the order workers take them: they shrink toward the end, so the
    workers finish together, `ddrank.dd.units`) and the workers x DDS threads to solve them on: no more workers than units, their cores go to DDS."""

    units: list[SolveUnit]
    workers: int
    threads: int


def idle_tail(finished: list[float], workers: int) -> float:
    """Worker-seconds idle at the end of a wave whose units all queued at its start: once fewer
    units than workers are left, each finish leaves a worker with nothing to take until the
    last unit is done."""
    if not finished:
        return 0.0
    last = finished[-1]
    return sum(last - t for t in finished[max(0, len(finished) - workers) : -1])


class DDRun:
    """Plan, store, tally and count one DD stage; the caller solves the units (module doc)."""

    def __init__(self, store: Store, options: DDOptions,
                 log: logging.Logger | logging.LoggerAdapter | None = None) -> None:  # fmt: skip
        self.store, self.options = store, options
        self.log = log or logging.getLogger("ddrank.dd")
        self.workers, threads = default_split(options.workers, options.dds_threads)
        self.summary: dict[str, Any] = {"workers": self.workers, "dds_threads": threads,
                                        "runner": options.runner}  # fmt: skip
        self.totals = dict.fromkeys(("pending_boards", "tables", "traces", "runs", "tallied",
                                     "par", "invalid_plays", "invalid_boards"), 0)  # fmt: skip
        self.quarantined: list[str] = []
        self.seconds = {"plan": 0.0, "solve": 0.0, "tally": 0.0, "idle_tail": 0.0}
        #: CPU seconds: of this process while the workers solve (Prefect's task runs, storing,
        #: tallying: on a machine with a core per worker, each is a second a solver waits), and
        #: of the solver processes on the tables and on the traces (the planner's weights)
        self.cpu = {"own_solving": 0.0, "tables": 0.0, "traces": 0.0}
        self._cpu_clock = time.process_time()
        self._finished: list[float] = []  # when each unit of the wave was taken
        self._wave_workers = 0
        self.solved = [0, 0]  # jobs done, jobs known so far (a wave's are known when planned)
        self.work = [0.0, 0.0]  # the same in estimated CPU seconds (the time left is paced on it)
        self._clock = time.perf_counter()
        report("solve", 0, 0)  # planning: size not known yet
        partitions = list(options.partitions) if options.partitions else None
        self._waves, self.pending = plan_waves(store, partitions)
        if self.pending and options.runner == "thread":
            prestart_solvers(self.workers, threads)  # they load while this process plans
        self._plan, self._tally = DDPlan(), TallyWhenReady(store, DDPlan())

    def waves(self) -> list[list[int]]:
        """The pending partitions, cut into waves; one empty wave when nothing is pending (par
        may still be missing)."""
        return self._waves or [[]]

    def plan(self, wave: list[int]) -> Wave:
        """Plan one wave's solves (and record its boards and plays DDS must not see)."""
        o = self.options
        plan = plan_dd_work(self.store, wave, o.table_batch, o.trace_batch,
                            self.workers) if wave else DDPlan()  # fmt: skip
        record_invalid(self.store, plan)
        self._plan, self._tally = plan, TallyWhenReady(self.store, plan)
        now = time.perf_counter()
        self.seconds["plan"] += now - self._clock
        self._clock, self._cpu_clock = now, time.process_time()
        work = plan.units
        total = sum(len(u.job) for u in work)
        self.solved[1] += total
        self.work[1] += sum(u.cost for u in work)
        self.log.info("%d pending boards in %d partitions; %d tables and %d traces to compute "
                      "in %d units for %d workers (est. %.0f CPU-s, largest unit %.1f s)",
                      plan.pending_boards, len(plan.partitions),
                      sum(len(u.job.tables) for u in work), sum(len(u.job.traces) for u in work),
                      len(work), self.workers, sum(u.cost for u in work),
                      max((u.cost for u in work), default=0))  # fmt: skip
        if self.solved[1]:
            report("solve", self.solved[0], self.solved[1], work=(self.work[0], self.work[1]))
        else:
            report("solve", 1, 1)
        if not work:
            return Wave([], 0, 0)
        workers, threads = default_split(min(self.workers, len(work)), o.dds_threads)
        self.summary.update(workers=workers, dds_threads=threads)
        self._finished, self._wave_workers = [], workers
        return Wave(work, workers, threads)

    def take(self, u: SolveUnit, out: SolveOutput) -> None:
        """Store one unit's output, and tally each partition that waited for nothing else."""
        self._finished.append(time.perf_counter())
        for rid in store_solution(self.store, u.job, out):
            # a board whose table and trace crashed DDS in two units is quarantined once (the
            # exclusion keeps the first unit's reason); the count must not list it twice
            if rid not in self.quarantined:
                self.quarantined.append(rid)
        self.totals["tables"] += len(out.tables)
        self.totals["traces"] += len(out.traces)
        self.totals["runs"] += out.solver_runs
        self.cpu["tables"] += out.cpu_tables
        self.cpu["traces"] += out.cpu_traces
        self.log.info("unit %d: %d tables, %d traces, %.1f s in DDS, %.1f CPU-s (est. %.1f)",
                      u.index, len(out.tables), len(out.traces), out.seconds,
                      out.cpu_tables + out.cpu_traces, u.cost)  # fmt: skip
        self.solved[0] += len(u.job)
        self.work[0] += u.cost
        report("solve", self.solved[0], self.solved[1], work=(self.work[0], self.work[1]))
        for _ in self._tally.settled(solved_keys(u.job)):
            report("tally", self.totals["tallied"] + self._tally.tallied, self.pending)

    def end_wave(self) -> None:
        """Par of the deals solved; tally the partitions still waiting (a crashed unit's)."""
        t_solved = time.perf_counter()
        self.seconds["solve"] += t_solved - self._clock
        self.cpu["own_solving"] += time.process_time() - self._cpu_clock
        self.seconds["idle_tail"] += idle_tail(self._finished, self._wave_workers)
        t = self.totals
        t["par"] += compute_par(self.store)
        for _ in self._tally.rest():
            report("tally", t["tallied"] + self._tally.tallied, self.pending)
        t["tallied"] += self._tally.tallied
        t["pending_boards"] += self._plan.pending_boards
        t["invalid_plays"] += len(self._plan.invalid_plays)
        t["invalid_boards"] += len(self._plan.invalid_boards)
        self._plan, self._tally = DDPlan(), TallyWhenReady(self.store, DDPlan())
        self._clock = time.perf_counter()
        self.seconds["tally"] += self._clock - t_solved

    def finish(self) -> dict[str, Any]:
        """Rebuild `player_stats`; the stage's counts: boards tallied, tables and traces
        computed, solver processes started, boards quarantined as `solver_crash`, seconds."""
        t = self.totals
        if not t["pending_boards"]:
            report("tally", 1, 1)  # nothing to tally: finished
        began = time.perf_counter()
        close_solvers()  # the thread runner's solver children: the stage is done
        players = build_player_stats(self.store)
        self.seconds["tally"] += time.perf_counter() - began
        if self.quarantined:
            self.log.warning("quarantined %d boards as solver_crash: %s", len(self.quarantined),
                             self.quarantined)  # fmt: skip
        self.summary.update(
            pending_boards=t["pending_boards"], boards_tallied=t["tallied"],
            tables_computed=t["tables"], traces_computed=t["traces"], solver_runs=t["runs"],
            quarantined=self.quarantined, invalid_plays=t["invalid_plays"],
            invalid_boards=t["invalid_boards"], players=players, par_computed=t["par"],
            seconds_plan=round(self.seconds["plan"], 3),
            seconds_solve=round(self.seconds["solve"], 3),
            seconds_tally=round(self.seconds["tally"], 3),
            seconds_idle_tail=round(self.seconds["idle_tail"], 3),
            cpu_own_solving=round(self.cpu["own_solving"], 3),
            cpu_solver_tables=round(self.cpu["tables"], 3),
            cpu_solver_traces=round(self.cpu["traces"], 3),
        )  # fmt: skip
        return self.summary


def analyse(store: Store, options: DDOptions,
            log: logging.Logger | logging.LoggerAdapter | None = None) -> dict[str, Any]:  # fmt: skip
    """The DD stage without Prefect: solve what is missing on this process's own pool (threads
    driving solver children, or spawned processes with `options.runner == "process"`), store and
    tally as units finish,
    rebuild `player_stats`. Progress goes to `stages.progress` as "solve" (tables and traces
    computed, of those needed) and "tally" (boards done, pending)."""
    dd = DDRun(store, options, log)
    solve = pool_solve(options.runner)
    for wave in dd.waves():
        work = dd.plan(wave)
        if work.units:
            for u, out in solve(work.units, work.workers, work.threads):
                dd.take(u, out)
        dd.end_wave()
    return dd.finish()
