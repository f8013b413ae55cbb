"""Flow `dd_analysis`: DD tables, play traces and the 33 player counters for every board.

The flow drives the stage's bookkeeping (`stages.dd_run.DDRun`: plan a wave, store and tally each
unit's output, par, player stats) and runs the solves itself: each wave's units are
`solve_unit_task`s (cached on content, retried) mapped over a task runner made for the wave:
threads of this process (the default: one per core, each driving its own long-lived DDS process,
so no worker interpreter imports Prefect), a process pool (`runner="process"`: each worker imports
Prefect, about 3.5 CPU-s, before its first unit), or a Dask cluster. Once the command is stopping
no solver is started again (`ddrank.processes.solvers_allowed`), so a solve thread whose solver
was killed by the stop neither bisects nor retries. The flow's own process holds the `Store` and
writes each unit's results as soon as they arrive. Inside `ddrank run` it gets the run's open store (`store`);
alone (`ddrank dd`) it opens the store at `db`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from prefect import flow, get_run_logger, unmapped
from prefect.futures import as_completed
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner
from prefect.utilities.annotations import quote

from ddrank.dd import SolveOutput
from ddrank.dd.sandbox import THREADS_ENV
from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH
from ddrank.processes import allow_solvers
from flows.interrupts import workers_stopped_on_interrupt
from flows.server import prefect_api  # noqa: F401 - re-exported for callers
from stages.dd import SolveUnit, configure_worker, engine_version
from stages.dd_run import DDOptions, DDRun, Wave, default_split  # noqa: F401 - re-exported
from store import DEFAULT_DB, Store
from tasks.dd import solve_unit_task


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


def solved(work: Wave, runner: str, dask_address: str | None, isolate: bool,
           refresh_cache: bool) -> Iterator[tuple[SolveUnit, SolveOutput]]:  # fmt: skip
    """The wave's units as `solve_unit_task`s mapped over a task runner of the wave's workers;
    each (unit, output) as it finishes. Ctrl-C kills the workers before the runner waits."""
    task = solve_unit_task.with_options(refresh_cache=True) if refresh_cache else solve_unit_task
    units = work.units
    allow_solvers()  # a previous fan-out's kill_workers must not keep this one's solvers off
    with (
        make_runner(runner, work.workers, work.threads, dask_address) as task_runner,
        workers_stopped_on_interrupt(),  # before the runner's exit waits for them
    ):
        # on threads each job is quoted: Prefect walks a task's parameters twice per task run,
        # looking for futures (a job: hundreds of plays of up to 52 cards), in this process
        # while the workers solve; a job holds none, and the cache key leaves it out
        # (`tasks.dd`). Dask sends a quoted value on as a bare tuple, so other runners get it as is
        jobs = [u.job for u in units]
        futures = task_runner.map(task, {
            "unit": [u.index for u in units], "content_hash": [u.content_hash for u in units],
            "engine": unmapped(engine_version()), "job": quote(jobs) if runner == "thread" else jobs,
            "isolate": unmapped(isolate)})  # fmt: skip
        unit_of = {id(f): u for f, u in zip(futures, units, strict=True)}
        for fut in as_completed(futures):
            yield unit_of[id(fut)], fut.result()


def cluster_threads(address: str) -> int:
    """The worker threads of a running Dask cluster: what its share of the DD work is cut for."""
    from distributed import Client

    with Client(address, timeout=60) as client:
        return sum(client.nthreads().values())


@flow(name="dd_analysis", validate_parameters=False)
def dd_analysis(
    db: str = str(DEFAULT_DB),
    workers: int | None = None,
    runner: str = "thread",
    dds_threads: int | None = None,
    partitions: list[int] | None = None,
    table_batch: int = TABLE_BATCH,
    trace_batch: int = TRACE_BATCH,
    isolate: bool = True,
    refresh_cache: bool = False,
    dask_address: str | None = None,
    store: Store | None = None,
) -> dict[str, Any]:
    """Solve what is missing, tally every pending board, rebuild `player_stats`.

    `refresh_cache` recomputes units even when a persisted result exists for their content
    (benchmarks, or after a solver upgrade that keeps the same wrapper code). `dask_address`
    sends the solve tasks to an existing Dask scheduler (with `runner="dask"`), and the work is
    then planned for its workers' threads instead of `workers`. `store`: the pipeline run's open
    store (`ddrank run`); without it the flow opens the store at `db`.
    """
    if runner == "thread":
        isolate = True  # DDS is not re-entrant across threads of one process
    if runner == "dask" and dask_address:
        workers = cluster_threads(dask_address) or workers  # plan for the cluster, not this host
    options = DDOptions(workers=workers, dds_threads=dds_threads, runner=runner,
                        partitions=tuple(partitions) if partitions else None,
                        table_batch=table_batch, trace_batch=trace_batch)  # fmt: skip
    with ExitStack() as stack:
        if store is None:
            store = stack.enter_context(Store(db))
        dd = DDRun(store, options, get_run_logger())
        for wave in dd.waves():
            work = dd.plan(wave)
            if work.units:
                for unit, output in solved(work, runner, dask_address, isolate, refresh_cache):
                    dd.take(unit, output)
            dd.end_wave()
        return dd.finish()
