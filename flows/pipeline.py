"""The whole ddrank pipeline as one Prefect flow over the one stage list (`stages.pipeline`).

Run it with `ddrank run` or `python -m flows.pipeline` (no server needed), or serve it as a
deployment (`ddrank serve`) and watch it in the Prefect UI. Each stage runs in a task named after
it; the DD stage is the `dd_analysis` subflow (its solves fan out to a process pool or Dask) and
scoring the `score-events-and-lehman` subflow (its sessions are cached tasks).
"""

from __future__ import annotations

import os
import time
from contextlib import ExitStack
from typing import Any

from prefect import flow

from flows.dd_analysis import dd_analysis
from flows.interrupts import stop_on_signals
from flows.run_names import pipeline_run_name
from flows.scoring import score_events_and_lehman
from flows.server import prefect_api
from stages.pipeline import Run, Stage, freshness_of, lookup, open_run, run_stages
from stages.progress import report
from stages.settings import PipelineSettings, load_settings
from tasks.run import publish_artifacts_task, stage_task

#: The progress stage from the call of the flow to its body: Prefect creates the flow run.
FLOW_START = "prefect-flow"


def in_prefect(st: Stage, run: Run) -> Any:
    """Run one stage as Prefect shows it: a task, or the DD and scoring subflows."""
    s = run.settings
    if st.key == "dd":
        return dd_analysis(db=s.db, workers=s.workers, runner=s.runner,
                           dds_threads=s.dds_threads, dask_address=s.dask_address,
                           table_batch=s.table_batch, trace_batch=s.trace_batch,
                           refresh_cache=s.refresh_cache, run_id=run.id)  # fmt: skip
    if st.key == "scoring":
        return score_events_and_lehman(s, run_id=run.id)
    task = stage_task.with_options(retries=st.retries, retry_delay_seconds=[2, 10]) \
        if st.retries else stage_task  # fmt: skip
    return task(run.id, st.name)


@flow(name="pipeline", log_prints=True, flow_run_name=pipeline_run_name)
def pipeline(settings: PipelineSettings | None = None, run_id: str | None = None) -> dict[str, Any]:
    """Ingest → clean → names → DD analysis → regression report → audit → scoring and Lehman →
    skill ratings → site (`stages.pipeline.STAGES`). The settings can leave out names, DD, the
    regression and the ratings (`ddrank results` does: scores and the site only).

    `run_id` is a run the caller opened (`stages.run.open_run`: the store open, the inputs
    hashed) and found something new in. Without it (a deployment) the flow opens the run itself,
    and with nothing new since the last finished run (and `force` off) returns at once."""
    report(FLOW_START, 1, 1)
    s = settings or PipelineSettings()
    with ExitStack() as stack:
        if run_id:
            run = lookup(run_id)
        else:
            run = stack.enter_context(open_run(s))
            fresh = freshness_of(run)
            if fresh.nothing_new:
                print(fresh.message(s.out))
                return fresh.as_dict()
        summary = run_stages(run, in_prefect)
        publish_artifacts_task(run.id, summary)
        return summary


def run_pipeline(settings: PipelineSettings, run: Run | None = None) -> dict[str, Any]:
    """Run the flow with one Prefect API for the whole command, holding the store's lock; the
    first Ctrl-C or SIGTERM stops it in order (`flows.interrupts`) and raises KeyboardInterrupt.

    `run`: the caller's open run, already found to hold something new (`ddrank run` decides that
    before importing Prefect). Without it the run is opened here; nothing new since the last
    finished run: say so without starting any server."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    begun = time.monotonic()
    with stop_on_signals(), ExitStack() as stack:
        if run is None:
            run = stack.enter_context(open_run(settings))
            fresh = freshness_of(run)
            if fresh.nothing_new:
                return fresh.as_dict()
        with prefect_api():
            api_ready = time.monotonic()
            report(FLOW_START, 0, 0)  # a progress line until the flow's body starts (seconds)
            result = pipeline(settings, run_id=run.id)
    stages = result.get("timings", {})
    total = time.monotonic() - begun
    result["timings"] = {
        "start Prefect API": round(api_ready - begun, 2),
        **stages,
        "Prefect flow overhead": round(total - (api_ready - begun) - sum(stages.values()), 2),
    }
    return result


if __name__ == "__main__":
    import json

    print(json.dumps(run_pipeline(load_settings()), indent=2, default=str))
