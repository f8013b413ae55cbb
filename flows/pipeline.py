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

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from ddrank.regression.defaults import regress_flags
from flows.dd_analysis import dd_analysis
from flows.names import match_names
from flows.rate import rate
from flows.regression import regression_report
from flows.report import site_report
from flows.run_names import pipeline_run_name
from flows.scoring import score_and_rate
from flows.server import prefect_api
from flows.settings import PipelineSettings, load_settings
from stages.progress import stage
from tasks import freshness
from tasks.clean import clean_task
from tasks.db import connect, store_lock
from tasks.ingest import ingest_task
from tasks.report import (
    MIN_REGRESSION_PLAYERS,
    audit_tables,
    eligible_players,
    player_table,
    scaled_thresholds,
)


@task(name="audit", cache_policy=NO_CACHE)
def audit_task(db: str) -> dict[str, Any]:
    con = connect(db)
    try:
        return audit_tables(con)
    finally:
        con.close()


@task(name="regression-thresholds", cache_policy=NO_CACHE)
def thresholds_task(db: str, settings: PipelineSettings) -> tuple[dict[str, float], int]:
    """Table 9's minima scaled to the store, and how many players pass them."""
    con = connect(db)
    try:
        thresholds = scaled_thresholds(con, settings)
        return thresholds, eligible_players(con, thresholds)
    finally:
        con.close()


@task(name="publish-artifacts", cache_policy=NO_CACHE)
def publish_task(db: str, summary: dict[str, Any]) -> None:
    """A Markdown summary and a table of the top players, visible in the Prefect UI."""
    con = connect(db)
    try:
        top = player_table(con, limit=25)
    finally:
        con.close()
    create_markdown_artifact(key="ddrank-summary", markdown=summary_markdown(summary),
                             description="ddrank pipeline run")  # fmt: skip
    if top:
        create_table_artifact(key="ddrank-top-players", table=top,
                              description="Players with the most boards, and their DD mistake rates")  # fmt: skip


@flow(name="pipeline", log_prints=True, flow_run_name=pipeline_run_name)
def pipeline(settings: PipelineSettings | None = None) -> dict[str, Any]:
    """Ingest → clean → names → DD analysis → regression report → scoring and Lehman → skill
    ratings → artifacts → site.

    With nothing new since the last finished run (and `force` off) it returns at once."""
    s = settings or PipelineSettings()
    fresh = freshness.check(s)
    if fresh.nothing_new:
        print(fresh.message(s.out))
        return fresh.as_dict()
    started = time.time()
    timings: dict[str, float] = {}
    with timed("ingest", timings):
        ingested = ingest_task(s.db, s.inputs, s.partition_size)
    with timed("clean", timings):
        cleaned = clean_task(s.db, s.workers)
    with timed("names", timings):
        names = match_names(rankings=s.rankings, db=s.db, aliases=s.aliases)
    with timed("double dummy", timings, progress=False):  # DD reports its own bars
        dd = dd_analysis(db=s.db, workers=s.workers, runner=s.runner,
                         dds_threads=s.dds_threads, dask_address=s.dask_address)  # fmt: skip
    with timed("regression", timings, progress=False):
        thresholds, eligible = thresholds_task(s.db, s)
        print(thresholds_line(thresholds, s.db))
        report = regression_stage(s, thresholds, eligible)
    audit = audit_task(s.db)
    summary = {"ingest": ingested, "clean": cleaned, "names": names, "dd": dd,
               "thresholds": thresholds, "report": report, "audit": audit}  # fmt: skip
    with timed("scoring", timings):
        summary["scoring"] = score_and_rate(s)  # score → Lehman ratings → bid/play split
    with timed("skill ratings", timings):
        summary["skill"] = rate(db_path=s.db)  # ddrank skill ratings -> skill_ratings
    with timed("site", timings):
        publish_task(s.db, summary)
        site = site_report(db=s.db, out=s.out, return_state=True)
        summary["site"] = site.result() if site.is_completed() else {"failed": str(site.message)}
    summary["timings"] = timings
    if not any(isinstance(v, dict) and "failed" in v for v in summary.values()):
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
                                  out_dir=str(Path(s.out) / "regression"),
                                  thresholds=thresholds, return_state=True)  # fmt: skip
    return state.result() if state.is_completed() else {"failed": str(state.message)}


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


def thresholds_line(thresholds: dict[str, float], db: str) -> str:
    """The scaled Table 9 minima in words, with the `ddrank regress` call that reproduces them."""
    words = ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in thresholds.items())
    return (
        f"regression thresholds (Table 9 scaled to this store's size): {words}; "
        f"reproduce with: ddrank regress --db {db} {regress_flags(thresholds)}"
    )


def summary_markdown(summary: dict[str, Any]) -> str:
    ing, audit, dd, names = summary["ingest"], summary["audit"], summary["dd"], summary["names"]
    lines = [
        "# ddrank run",
        "",
        f"* records read {ing['records_read']:,}, **new {ing['new']:,}**, "
        f"already stored {ing['duplicate']:,}",
        f"* raw records {audit['raw_records']:,} = boards {audit['boards']:,} "
        f"+ excluded {audit['excluded']:,} ({'balanced' if audit['balanced'] else 'NOT balanced'})",
        f"* names: {names.get('matched', 0):,} of {names.get('names', 0):,} matched, "
        f"{names.get('review', 0):,} to review",
        f"* double dummy: {dd.get('tables_computed', 0):,} tables and "
        f"{dd.get('traces_computed', 0):,} traces computed, {dd.get('boards_tallied', 0):,} "
        f"boards tallied, {len(dd.get('quarantined', [])):,} quarantined",
        f"* regression report: `{summary['report'].get('markdown', summary['report'].get('skipped', summary['report'].get('failed')))}`",
        "",
        "## Exclusions (Table 5)",
        "",
        "| reason | boards |",
        "|---|---:|",
    ]
    lines += [f"| {r['description']} | {r['count']:,} |" for r in audit["table5_exclusions"]
              if r["count"] or r["reason"] in ("total", "no_error")]  # fmt: skip
    return "\n".join(lines) + "\n"


def run_pipeline(settings: PipelineSettings, show: bool = True) -> dict[str, Any]:
    """Run the flow with one Prefect API for the whole command, holding the store's lock.

    Nothing new since the last finished run: say so without starting any server."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    begun = time.monotonic()
    fresh = freshness.check(settings)
    if fresh.nothing_new:
        result = fresh.as_dict()
    else:
        with store_lock(settings.db), prefect_api():
            api_ready = time.monotonic()
            result = pipeline(settings)
        stages = result.get("timings", {})
        total = time.monotonic() - begun
        result["timings"] = {
            "start Prefect API": round(api_ready - begun, 2),
            **stages,
            "Prefect flow overhead": round(total - (api_ready - begun) - sum(stages.values()), 2),
        }
    if show:
        show_summary(result, settings)
    return result


def show_summary(result: dict[str, Any], settings: PipelineSettings) -> None:
    from cli.render import console, print_audit

    if result.get("nothing_new"):
        console.print(freshness.Freshness(**result).message(settings.out), highlight=False,
                      soft_wrap=True)  # fmt: skip
        site = Path(settings.out) / "site" / "index.html"
        if site.is_file():
            console.print(f"site: {site} (open it in a browser)", markup=False)
        return
    ing, dd = result["ingest"], result["dd"]
    console.print(
        f"ingest: {ing['records_read']:,} records read, [bold]{ing['new']:,} new[/], "
        f"{ing['duplicate']:,} already in the store"
    )
    print_audit(result["audit"])
    names = result["names"]
    console.print(f"names: {names.get('matched', 0):,} of {names.get('names', 0):,} matched")
    console.print(
        f"double dummy: {dd.get('tables_computed', 0):,} tables, "
        f"{dd.get('traces_computed', 0):,} traces computed; {dd.get('players', 0):,} players"
    )
    if dd.get("quarantined"):
        console.print(f"{len(dd['quarantined']):,} board(s) quarantined (solver_crash): "
                      f"{', '.join(dd['quarantined'][:5])}", markup=False)  # fmt: skip
    console.print(thresholds_line(result["thresholds"], settings.db), markup=False, soft_wrap=True)
    report = result["report"]
    console.print(
        f"regression report: {report.get('markdown', report.get('skipped', report.get('failed')))}"
    )
    show_outputs(result.get("site"), report)
    show_timings(result.get("timings", {}))


def show_timings(timings: dict[str, float]) -> None:
    """Each stage's wall time, the slowest visible at a glance."""
    from cli.render import console

    if timings:
        parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in timings.items())
        console.print(f"stage wall times: {parts}; total {sum(timings.values()):.1f} s",
                      markup=False)  # fmt: skip


def show_outputs(site: dict[str, Any] | None, report: dict[str, Any]) -> None:
    """The run's last lines: the top of the rating table, the model verdict, where files are."""
    from rich.markup import escape

    from cli.render import console
    from ddrank.site.stats import regression_verdict

    if not site or "failed" in site:
        console.print(f"site: not written ({(site or {}).get('failed', 'no site stage')})",
                      markup=False)  # fmt: skip
        return
    if site.get("ratings"):
        top = "; ".join(f"{escape(r.get('name') or r['player'])} {r['rating']:.1f}"
                        for r in site["ratings"][:5])  # fmt: skip
        console.print(f"top ratings (at least 30 boards): {top}")
    else:
        console.print("ratings: none in the store yet")
    verdict = site.get("verdict") or regression_verdict(report)
    console.print(f"model: {verdict}", markup=False)
    out = Path(site["site"]).parent.parent
    csvs = sorted(p for p in out.rglob("*.csv") if "site" not in p.relative_to(out).parts)
    if csvs:
        folders = sorted({str(p.parent) for p in csvs})
        console.print(f"CSV files: {len(csvs)} in {', '.join(folders)}", markup=False)
    console.print(
        f"site: {site['events']} events, {site['players']:,} players → "
        f"[bold]{escape(site['site'])}[/] (open it in a browser)"
    )


if __name__ == "__main__":
    run_pipeline(load_settings())
