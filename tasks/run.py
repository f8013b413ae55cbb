"""Prefect tasks of the run as a whole: one pipeline stage, and the UI artifacts.

A stage task gets the run's id, not its `Store`: task parameters are hashed and shown in the UI,
and a store is neither. The id finds the run that the flow opened in this process
(`stages.run.lookup`), so every stage works on the one `Store` of the run.
"""

from __future__ import annotations

from typing import Any

from prefect import get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from publish.run_summary import summary_markdown
from stages.pipeline import BY_NAME
from stages.regression import player_table
from stages.run import lookup


#: Not cached: each stage itself skips what the store already holds (ingest by content, clean and
#: DD by pending boards, scoring by event content), which is the cache that matters across runs.
@task(name="stage", cache_policy=NO_CACHE, task_run_name="{name}")
def stage_task(run_id: str, name: str) -> Any:
    """One stage of the stage list (`stages.pipeline.STAGES`) on the run's store."""
    run = lookup(run_id)
    with run.logging_to(get_run_logger()):
        return BY_NAME[name].run(run)


@task(name="publish-artifacts", cache_policy=NO_CACHE)
def publish_artifacts_task(run_id: str, summary: dict[str, Any]) -> None:
    """A Markdown summary and a table of the top players, visible in the Prefect UI."""
    top = player_table(lookup(run_id).store, limit=25)
    create_markdown_artifact(key="ddrank-summary", markdown=summary_markdown(summary),
                             description="ddrank pipeline run")  # fmt: skip
    if top:
        create_table_artifact(key="ddrank-top-players", table=top,
                              description="Players with the most boards, and their DD mistake rates")  # fmt: skip
