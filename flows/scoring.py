"""Flow `score-events-and-lehman`: score → Lehman ratings → bid/play split, from the store.

The flow drives the stage's `ScoringRun` itself: for each batch of changed events it plans each
event (`ddrank.scoring.score.plan_event`), calls the task `score-session` with each session's
plain inputs (cached on the session's content hash: a new session of an event scores only that
session), assembles the event (`scored_event`) and hands the batch's scores back; then the
stage's `finish` exports, rates and splits. It logs what was scored and publishes the rankings
and the rating table as Prefect artifacts. Every option (the matchpoint method, the MP
top, the Lehman constants) comes from the run's `PipelineSettings`. Inside `ddrank run` it gets
the run's open store (`store`); alone it opens the run's store itself.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact

from ddrank.scoring.score import EventSource, ScoredEvent, plan_event, score, scored_event
from publish.encoding import markdown_text as md
from stages.pipeline import open_run
from stages.scoring import event_hash
from stages.scoring_stage import ScoringRun, summary_lines
from stages.settings import PipelineSettings
from store import Store
from tasks.scoring import score_session_task


def score_by_sessions(event: str, source: EventSource, run: ScoringRun) -> ScoredEvent:
    """One event: each session's scores from the task cached on the session's content."""
    plan = plan_event(source, run.settings)
    parts = [score_session_task(event, rs[0].session, rs, plan.info, plan.method,
                                event_hash(rs, plan.info, plan.method)) for rs in plan.sessions]  # fmt: skip
    return scored_event(plan, parts)


@flow(name="score-events-and-lehman", log_prints=True)
def score_events_and_lehman(settings: PipelineSettings | None = None,
                            store: Store | None = None) -> dict[str, Any]:  # fmt: skip
    """Score each event (cached on content), store scores, update ratings, split IMP events."""
    s = settings or PipelineSettings()
    with ExitStack() as stack:
        if store is None:
            store = stack.enter_context(open_run(s)).store
        run = ScoringRun(store, s)
        for work in run.batches():
            run.take(work, {ev: score_by_sessions(ev, src, run) if work.cached and src.results
                            else score(src, run.settings) for ev, src in work.sources.items()})  # fmt: skip
            del work  # not kept while the next batch is read
        summary = run.finish()
    for line in summary_lines(summary):
        print(line)
    _publish(summary)
    return summary


def _publish(summary: dict[str, Any]) -> None:
    """The rankings of the events scored in this run and the rating table, in the Prefect UI."""
    lines = ["# Event rankings", ""]
    for ev in summary["top"]:
        lines += [f"## {md(ev['event'])} ({md(ev['scoring'])})", "",
                  "| place | direction | pair | players | boards | score | % |",
                  "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
        for r in ev["lines"]:
            lines.append(f"| {r['place']} | {md(r['direction'])} | {md(r['pair'])} | "
                         f"{md(r['players'])} | {r['boards']} | {r['score_text']} | "
                         f"{r['pct_text']} |")  # fmt: skip
        lines.append("")
    if not summary["top"]:
        lines.append("No event changed since the last run.")
    for c in summary.get("published", []):
        lines.append(f"* published {md(c['what'])}: {c['agree']} of {c['compared']} agree")
    create_markdown_artifact(key="ddrank-rankings", markdown="\n".join(lines) + "\n",
                             description="Event rankings of this run")  # fmt: skip
    if summary.get("rating_table"):
        create_table_artifact(key="ddrank-ratings", table=summary["rating_table"],
                              description="Lehman ratings (the settings' min_boards)")  # fmt: skip
