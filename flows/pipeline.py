"""The whole ddrank pipeline as one Prefect flow; it reads like the table of contents.

Run it with `ddrank run` or `python -m flows.pipeline` (no server needed), or serve it as a
deployment (`ddrank serve`) and watch it in the Prefect UI.
"""

from __future__ import annotations

import os
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.settings import PipelineSettings, load_settings
from tasks.clean import clean_task
from tasks.db import connect
from tasks.ingest import ingest_task
from tasks.report import audit_tables


@task(name="audit", cache_policy=NO_CACHE)
def audit_task(db: str) -> dict[str, Any]:
    con = connect(db)
    try:
        return audit_tables(con)
    finally:
        con.close()


@flow(name="pipeline", log_prints=True)
def pipeline(settings: PipelineSettings | None = None) -> dict[str, Any]:
    """Ingest → clean → audit (→ names → DD analysis → player stats → regression → ratings)."""
    s = settings or PipelineSettings()
    ingested = ingest_task(s.db, s.inputs, s.partition_size)
    cleaned = clean_task(s.db, s.workers)
    audit = audit_task(s.db)
    return {"ingest": ingested, "clean": cleaned, "audit": audit}


def run_pipeline(settings: PipelineSettings, show: bool = True) -> dict[str, Any]:
    """Run the flow against one Prefect API for the whole command, then print the audit."""
    from flows.dd_analysis import prefect_api

    os.environ.setdefault("DO_NOT_TRACK", "1")
    with prefect_api():
        result = pipeline(settings)
    if show:
        from cli.render import console, print_audit

        ing = result["ingest"]
        console.print(
            f"ingest: {ing['records_read']:,} records read, [bold]{ing['new']:,} new[/], "
            f"{ing['duplicate']:,} already in the store"
        )
        print_audit(result["audit"])
    return result


if __name__ == "__main__":
    run_pipeline(load_settings())
