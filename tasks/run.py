"""Prefect tasks of the run as a whole: the audit, the regression thresholds, the UI artifacts."""

from __future__ import annotations

from typing import Any

from prefect import task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from publish.run_summary import summary_markdown
from stages.audit import audit_tables
from stages.regression import player_table
from store import Store


@task(name="audit", cache_policy=NO_CACHE)
def audit_task(db: str) -> dict[str, Any]:
    """Tables 5-7: every raw record is a board or an exclusion with its reason."""
    with Store(db) as store:
        return audit_tables(store)


@task(name="publish-artifacts", cache_policy=NO_CACHE)
def publish_artifacts_task(db: str, summary: dict[str, Any]) -> None:
    """A Markdown summary and a table of the top players, visible in the Prefect UI."""
    with Store(db) as store:
        top = player_table(store, limit=25)
    create_markdown_artifact(key="ddrank-summary", markdown=summary_markdown(summary),
                             description="ddrank pipeline run")  # fmt: skip
    if top:
        create_table_artifact(key="ddrank-top-players", table=top,
                              description="Players with the most boards, and their DD mistake rates")  # fmt: skip
