"""Prefect tasks of the run as a whole: one task per stage of the stage list, and the UI artifacts.

Each stage's task takes the run (`stages.run.Run`: its settings, its one `Store`, its inputs
hashed once) as its input, calls the stage's function, and logs to the task's run logger. The
tasks are not cached: each stage itself skips what the store already holds (ingest by content,
clean and DD by pending boards, scoring by event content), which is the cache that matters across
runs, so Prefect neither hashes nor stores the run. They run in the flow's own process, where the
store is open.
"""

from __future__ import annotations

from typing import Any

from prefect import Task, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from publish.run_summary import summary_markdown
from stages.pipeline import STAGES, Run, Stage
from stages.regression_gate import player_table


def stage_task(st: Stage) -> Task[..., Any]:
    """The stage as a task named after it (`st.name` in the UI), retried as the stage allows."""

    def run_stage(run: Run) -> Any:
        with run.logging_to(get_run_logger()):
            return st.run(run)

    run_stage.__qualname__ = run_stage.__name__ = f"stage_{st.key}"  # the task's key
    run_stage.__doc__ = st.run.__doc__
    return task(run_stage, name=st.name, cache_policy=NO_CACHE, retries=st.retries,
                retry_delay_seconds=[2, 10] if st.retries else 0)  # fmt: skip


#: Each stage's task, by stage key (`stages.pipeline.STAGES`).
STAGE_TASKS: dict[str, Task[..., Any]] = {st.key: stage_task(st) for st in STAGES}


@task(name="publish-artifacts", cache_policy=NO_CACHE)
def publish_artifacts_task(run: Run, summary: dict[str, Any]) -> None:
    """A Markdown summary and a table of the top players, visible in the Prefect UI."""
    top = player_table(run.store, limit=25)
    create_markdown_artifact(key="ddrank-summary", markdown=summary_markdown(summary),
                             description="ddrank pipeline run")  # fmt: skip
    if top:
        create_table_artifact(key="ddrank-top-players", table=top,
                              description="Players with the most boards, and their DD mistake rates")  # fmt: skip
