"""Prefect tasks of the DD stage: thin wrappers over `stages/dd.py` and `stages/stats.py`.

`solve_partition` runs in a pool worker with no database; every other task runs in the flow's own
process, which owns the `Store`. Solves are cached on content: the key is the partition's content
hash and the engine version, so a rerun of an unchanged partition reads the persisted result.
"""

from __future__ import annotations

import os

from prefect import task
from prefect.cache_policies import INPUTS, NO_CACHE, TASK_SOURCE
from prefect.tasks import exponential_backoff

from ddrank.dd import SolveJob, SolveOutput, solve_with_bisection
from ddrank.dd.sandbox import THREADS_ENV, run_isolated, solve_job
from stages import dd, stats

plan_dd_work = task(name="plan_dd_work", cache_policy=NO_CACHE)(dd.plan_dd_work)
store_solution = task(name="store_solution", cache_policy=NO_CACHE)(dd.store_solution)
record_invalid = task(name="record_invalid", cache_policy=NO_CACHE)(dd.record_invalid)
tally_partition = task(
    name="tally_partition", cache_policy=NO_CACHE, task_run_name="tally-partition-{partition_id}"
)(dd.tally_partition)
par_task = task(name="dd-par", cache_policy=NO_CACHE)(dd.compute_par)
build_player_stats = task(name="build_player_stats", cache_policy=NO_CACHE)(
    stats.build_player_stats
)


# The decorator and body below are the cache key's TASK_SOURCE: keep them as they are, or every
# persisted solve is computed again.
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
