"""Prefect task of the DD stage's fan-out: one solve unit in a worker (`stages.dd_run`).

`solve_unit_task` runs in a pool or Dask worker with no database; the flow's own process owns the
`Store` and writes what it returns. Solves are cached on content: the key is the unit's content
hash and the engine version, so a rerun of unchanged work reads the persisted result.
"""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import INPUTS, TASK_SOURCE
from prefect.tasks import exponential_backoff

from ddrank.dd import SolveJob, SolveOutput
from stages.dd_run import solve_unit


# The decorator and body below are the cache key's TASK_SOURCE: keep them as they are, or every
# persisted solve is computed again.
@task(
    cache_policy=(INPUTS - "job" - "unit" - "isolate") + TASK_SOURCE,
    persist_result=True,
    retries=2,
    retry_delay_seconds=exponential_backoff(backoff_factor=2),
    task_run_name="solve-unit-{unit}",
)
def solve_unit_task(
    unit: int, content_hash: str, engine: str, job: SolveJob, isolate: bool = True
) -> SolveOutput:
    """Solve one unit's DD tables and traces (runs in a worker; no database here)."""
    return solve_unit(job, isolate)
