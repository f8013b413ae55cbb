"""Flow `score-events-and-lehman`: score → Lehman ratings → bid/play split, from the store.

Reads like its table of contents: load the store's results, score each event whose content
changed, session by session in tasks cached on the session's content hash (a rerun with one new
event scores only that event; a new session of an event scores only that session), keep
the scores and update the Lehman ratings recursively, split the IMP events' Butler scores into
bid and play (Cammarata), export results.csv, ranking.csv and ratings.csv into the run's `out/`,
and publish the rankings and the rating table as Prefect artifacts. Every option (the
matchpoint method, the MP top, the Lehman constants) comes from the run's `PipelineSettings`.
"""

from __future__ import annotations

from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact, create_table_artifact

from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    EventScores,
    assemble_event,
    by_session,
    event_info_for,
    infer_scoring,
)
from publish.encoding import markdown_text as md
from publish.rankings import method_words
from stages.ratings import lehman_params
from stages.scoring import changed_events, event_hash, score_one, top_lines
from stages.settings import PipelineSettings
from tasks.scoring import (
    load_task,
    rankings_task,
    save_and_rate_task,
    score_events_task,
    score_session_task,
    split_task,
)

IMP_SCORINGS = ("IMP", "BUTLER", "TEAMS", "BAM")
#: Changed events scored session by session as cached Prefect tasks, up to this many. More (a
#: folder of 10,000 one-table files is an event per file) are scored in one task: a task run and
#: a persisted result per session flooded Prefect's event queue (issue 32).
CACHED_EVENTS_UP_TO = 50


def score_event_cached(event: str, results: list[EventResult], info: EventInfo,
                       method: str) -> EventScores:  # fmt: skip
    """An event from its sessions' (cached) scores, ranked as a whole."""
    info = event_info_for(results, info)
    parts = [
        score_session_task(event, session, rs, info, method, event_hash(rs, info, method))
        for session, rs in by_session(results).items()
    ]
    return assemble_event(info, parts)


@flow(name="score-events-and-lehman", log_prints=True)
def score_events_and_lehman(settings: PipelineSettings | None = None) -> dict[str, Any]:
    """Score each event (cached on content), store scores, update ratings, split IMP events."""
    s = settings or PipelineSettings()
    loaded, stored = load_task(s.db)
    groups, infos, hashes, changed = changed_events(loaded, stored, s.mp_method, s.mp_top)
    if len(changed) > CACHED_EVENTS_UP_TO:  # a folder of one-table files: an event per file
        scores = score_events_task(groups, infos, loaded.standings, changed, s.mp_method, s.mp_top)
    else:  # as the scorer did, unless the settings say (ddrank.scoring.method)
        scores = {ev: score_one(groups[ev], infos[ev], loaded.standings, s.mp_method, s.mp_top,
                                lambda rs, info, m, ev=ev: score_event_cached(ev, rs, info, m))
                  for ev in changed}  # fmt: skip
    summary = save_and_rate_task(s.db, scores, hashes, loaded, s.out, lehman_params(s),
                                 s.min_boards, rate=s.ratings)  # fmt: skip
    imp_events = sorted(ev for ev, i in infos.items() if _is_imp(i, groups[ev]))
    summary["split"] = split_task(s.db, imp_events, s.out, s.min_boards) if s.ratings else {}
    summary["rankings"] = rankings_task(s.db)
    summary["rescored"], summary["unchanged"] = changed, sorted(set(groups) - set(changed))
    summary["top"] = top_lines(scores)
    print(f"scoring: {len(changed)} event(s) scored, {len(summary['unchanged'])} unchanged; "
          f"{summary['results']:,} table results, {summary['errors']} left out; ratings of "
          f"{summary['ratings'].get('players', 0)} players over "
          f"{summary['ratings'].get('periods', 0)} periods")  # fmt: skip
    for ev in summary["top"]:
        print(f"  {ev['event']}: {method_words(ev)}")
        lead = ev["lines"][0] if ev["lines"] else None
        if lead:
            print(f"  {ev['event']}: 1. {lead['pair']} ({lead['players']}) {lead['score']:.2f}"
                  + ("" if lead["pct"] is None else f" = {lead['pct']:.2f}%"))  # fmt: skip
    for r in summary["rating_table"][:10]:
        print(f"  rating {r['rating']:6.2f} ± {r['std_error']:.2f}  {r['player']} "
              f"({r['boards']} boards, last {r['last_period']})")  # fmt: skip
    _publish(summary)
    return summary


def _is_imp(info: EventInfo, results: list[EventResult]) -> bool:
    return infer_scoring(results, info.scoring) in IMP_SCORINGS


def _publish(summary: dict[str, Any]) -> None:
    """The rankings of the events scored in this run and the rating table, in the Prefect UI."""
    lines = ["# Event rankings", ""]
    for ev in summary["top"]:
        lines += [f"## {md(ev['event'])} ({md(ev['scoring'])})", "",
                  "| place | direction | pair | players | boards | score | % |",
                  "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
        for r in ev["lines"]:
            pct = "" if r["pct"] is None else f"{r['pct']:.2f}"
            lines.append(f"| {r['rank']} | {md(r['direction'])} | {md(r['pair'])} | "
                         f"{md(r['players'])} | {r['boards']} | {r['score']:.2f} | {pct} |")  # fmt: skip
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
