"""The whole ddrank pipeline as one Prefect flow; it reads like the table of contents.

Run it with `ddrank run` or `python -m flows.pipeline` (no server needed), or serve it as a
deployment (`ddrank serve`) and watch it in the Prefect UI.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from prefect import flow

from flows.dd_analysis import dd_analysis
from flows.interrupts import stop_on_signals
from flows.names import match_names
from flows.regression import regression_report
from flows.run_names import pipeline_run_name
from flows.scoring import score_events_and_lehman
from flows.server import prefect_api
from flows.site import publish_site
from flows.skill_ratings import skill_ratings
from publish.run_summary import thresholds_line
from stages import freshness
from stages.progress import stage
from stages.regression import MIN_REGRESSION_PLAYERS
from stages.settings import PipelineSettings, limits_of, load_settings
from store import store_lock
from tasks.clean import clean_task
from tasks.ingest import ingest_task
from tasks.regression import regression_thresholds_task
from tasks.run import audit_task, publish_artifacts_task


@flow(name="pipeline", log_prints=True, flow_run_name=pipeline_run_name)
def pipeline(settings: PipelineSettings | None = None) -> dict[str, Any]:
    """Ingest → clean → names → DD analysis → regression report → scoring and Lehman → skill
    ratings → artifacts → site. The settings can leave out names, DD, the regression and the
    ratings (`ddrank results` does: scores and the site only).

    With nothing new since the last finished run (and `force` off) it returns at once."""
    s = settings or PipelineSettings()
    fresh = freshness.check(s)
    if fresh.nothing_new:
        print(fresh.message(s.out))
        return fresh.as_dict()
    started = time.time()
    timings: dict[str, float] = {}
    with timed("ingest", timings):
        ingested = ingest_task(s.db, s.inputs, s.partition_size, limits_of(s))
        for refused in ingested.get("refused", []):
            print(f"refused: {refused['file']}: {refused['reason']}")
    with timed("clean", timings):
        cleaned = clean_task(s.db, s.workers)
    names: dict[str, Any] = {"skipped": "names_scope is none"}
    if s.names_scope != "none":
        with timed("names", timings):
            names = match_names(rankings=s.rankings, db=s.db, aliases=s.aliases,
                                strategy=s.names_strategy, scope=s.names_scope)  # fmt: skip
    dd: dict[str, Any] = {"skipped": "double_dummy is off"}
    if s.double_dummy:
        with timed("double dummy", timings, progress=False):  # DD reports its own bars
            dd = dd_analysis(db=s.db, workers=s.workers, runner=s.runner,
                             dds_threads=s.dds_threads, dask_address=s.dask_address,
                             table_batch=s.table_batch, trace_batch=s.trace_batch,
                             refresh_cache=s.refresh_cache)  # fmt: skip
    thresholds: dict[str, float] = {}
    report: dict[str, Any] = {"skipped": "regression is off"}
    if s.regression and s.double_dummy:
        with timed("regression", timings, progress=False):
            thresholds, eligible = regression_thresholds_task(s.db, s)
            print(thresholds_line(thresholds, s.db))
            report = regression_stage(s, thresholds, eligible)
    audit = audit_task(s.db)
    summary = {"ingest": ingested, "clean": cleaned, "names": names, "dd": dd,
               "thresholds": thresholds, "report": report, "audit": audit}  # fmt: skip
    with timed("scoring", timings):
        summary["scoring"] = score_events_and_lehman(s)  # score → Lehman ratings → bid/play split
    if s.ratings:
        with timed("skill ratings", timings):
            summary["skill"] = skill_ratings(db_path=s.db)  # ddrank skill ratings -> skill_ratings
    with timed("site", timings):
        publish_artifacts_task(s.db, summary)
        site = publish_site(db=s.db, out=s.out, return_state=True)
        summary["site"] = site.result() if site.is_completed() else {"failed": str(site.message)}
    summary["timings"] = timings
    if not any(isinstance(v, dict) and "failed" in v for v in summary.values()) and not (
        ingested.get("refused")  # a refused file is not done: it is read again next time
    ):
        freshness.write_manifest(s, started, summary)  # a failed stage must run again
    return summary


def regression_stage(s: PipelineSettings, thresholds: dict[str, float], eligible: int) -> dict:
    """The regression report when enough players pass the (scaled) thresholds, else why not."""
    if eligible < MIN_REGRESSION_PLAYERS:
        skipped = (f"{eligible} players pass the opportunity thresholds; "
                   f"the regression needs {MIN_REGRESSION_PLAYERS}")  # fmt: skip
        print(f"regression skipped: {skipped}")
        return {"skipped": skipped}
    with stage("regression"):
        state = regression_report(db_path=s.db, response=s.response, variables=s.variables,
                                  out_dir=str(Path(s.out) / "regression"), thresholds=thresholds,
                                  settings=selection_levels(s), log_response=s.log_response,
                                  cv_folds=s.cv_folds, cv_seed=s.cv_seed,
                                  return_state=True)  # fmt: skip
    return state.result() if state.is_completed() else {"failed": str(state.message)}


def selection_levels(s: PipelineSettings) -> dict[str, float]:
    """The regression's VIF limit and SAS selection levels, from the run settings."""
    names = ("vif_limit", "forward_slentry", "backward_slstay", "stepwise_slentry",
             "stepwise_slstay", "significance")  # fmt: skip
    return {n: getattr(s, n) for n in names}


@contextmanager
def timed(name: str, timings: dict[str, float], progress: bool = True) -> Iterator[None]:
    """Time a stage (wall seconds into `timings`) and, unless it reports its own, show it."""
    begun = time.monotonic()
    try:
        if progress:
            with stage(name):
                yield
        else:
            yield
    finally:
        timings[name] = round(time.monotonic() - begun, 2)


def run_pipeline(settings: PipelineSettings) -> dict[str, Any]:
    """Run the flow with one Prefect API for the whole command, holding the store's lock; the
    first Ctrl-C or SIGTERM stops it in order (`flows.interrupts`) and raises KeyboardInterrupt.

    Nothing new since the last finished run: say so without starting any server."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    begun = time.monotonic()
    fresh = freshness.check(settings)
    if fresh.nothing_new:
        result = fresh.as_dict()
    else:
        with stop_on_signals(), store_lock(settings.db), prefect_api():
            api_ready = time.monotonic()
            result = pipeline(settings)
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
