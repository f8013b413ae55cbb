"""Pipeline stages score → ratings → bid/play split, each session scored once per content.

Reads like its table of contents: load the store's results, score each event whose content
changed, session by session in tasks cached on the session's content hash (a rerun with one new
event scores only that event; a new session of an event scores only that session), keep
the scores and update the Lehman ratings recursively, split the IMP events' Butler scores into
bid and play (Cammarata), export results.csv, ranking.csv and ratings.csv into the run's `out/`,
and publish the rankings and the rating table as Prefect artifacts.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    EventScores,
    assemble_event,
    by_session,
    event_info_for,
    score_session,
)
from flows.settings import PipelineSettings
from tasks.db import connect
from tasks.event_scoring import (
    Loaded,
    by_event,
    event_hash,
    export_from_store,
    load_store,
    rating_table,
    save_scores,
    scored_events,
    top_lines,
    update_ratings,
    write_ratings_csv,
)

IMP_SCORINGS = ("IMP", "BUTLER", "TEAMS")


@task(name="load-scoring-input", cache_policy=NO_CACHE)
def load_task(db: str) -> tuple[Loaded, dict[str, str]]:
    """The store's table results per event, and what is already scored (event -> hash)."""
    con = connect(db)
    try:
        return load_store(db, con), scored_events(con)
    finally:
        con.close()


@task(
    name="score-session",
    cache_key_fn=lambda _ctx, params: f"score-session-{params['content_hash']}",
    cache_expiration=timedelta(days=365),
    persist_result=True,
)
def score_session_task(
    event: str, session: str, results: list[EventResult], info: EventInfo, method: str,
    content_hash: str,
) -> EventScores:  # fmt: skip
    """One session's table scores; cached on its content, so an unchanged session is reused."""
    return score_session(results, info, method)  # type: ignore[arg-type]


def score_event_cached(event: str, results: list[EventResult], info: EventInfo,
                       method: str) -> EventScores:  # fmt: skip
    """An event from its sessions' (cached) scores, ranked as a whole."""
    info = event_info_for(results, info)
    parts = [
        score_session_task(event, session, rs, info, method, event_hash(rs, info, method))
        for session, rs in by_session(results).items()
    ]
    return assemble_event(info, parts)


@task(name="save-scores-and-rate", cache_policy=NO_CACHE)
def save_and_rate_task(
    db: str, scores: dict[str, EventScores], hashes: dict[str, str], loaded: Loaded, out: str
) -> dict[str, Any]:
    """Store the new scores, update ratings from the first changed period, export the CSVs."""
    con = connect(db)
    try:
        save_scores(con, scores, hashes, loaded.standings)
        ratings = update_ratings(con)
        summary = export_from_store(con, out, db, loaded.errors)
        summary["files"].append(str(write_ratings_csv(con, out)))
        summary["ratings"] = ratings
        summary["rating_table"] = rating_table(con)
        return summary
    finally:
        con.close()


@task(name="split-imp-events", cache_policy=NO_CACHE)
def split_task(db: str, events: list[str], out: str) -> dict[str, Any]:
    """Cammarata's bid/play split of the IMP events' boards (matchpoint events have no IMPs)."""
    from tasks.scoring import read_db_boards, run_split

    loaded = read_db_boards(db)
    keep = {k: v for k, v in loaded.boards.items() if k.split("|", 1)[0] in events}
    loaded.boards = keep
    if not keep:
        return {"skipped": "no IMP event"}
    summary = run_split(loaded, str(Path(out) / "split"))
    return {k: v for k, v in summary.items() if k != "files"} | {"files": summary["files"]}


@flow(name="score-and-rate", log_prints=True)
def score_and_rate(
    settings: PipelineSettings | None = None, method: str = "neuberg"
) -> dict[str, Any]:
    """Score each event (cached on content), store scores, update ratings, split IMP events."""
    s = settings or PipelineSettings()
    loaded, stored = load_task(s.db)
    infos = loaded.infos()
    groups = by_event(loaded.results)
    hashes = {ev: event_hash(rs, infos[ev], method) for ev, rs in groups.items()}
    changed = sorted(ev for ev in groups if stored.get(ev) != hashes[ev])
    scores = {ev: score_event_cached(ev, groups[ev], infos[ev], method) for ev in changed}
    summary = save_and_rate_task(s.db, scores, hashes, loaded, s.out)
    imp_events = sorted(ev for ev, i in infos.items() if _is_imp(i, groups[ev]))
    summary["split"] = split_task(s.db, imp_events, s.out)
    summary["rescored"], summary["unchanged"] = changed, sorted(set(groups) - set(changed))
    summary["top"] = top_lines(scores)
    print(f"scoring: {len(changed)} event(s) scored, {len(summary['unchanged'])} unchanged; "
          f"{summary['results']:,} table results, {summary['errors']} left out; ratings of "
          f"{summary['ratings'].get('players', 0)} players over "
          f"{summary['ratings'].get('periods', 0)} periods")  # fmt: skip
    for ev in summary["top"]:
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
    from ddrank.scoring.events import infer_scoring

    return infer_scoring(results, info.scoring) in IMP_SCORINGS


def _publish(summary: dict[str, Any]) -> None:
    """The rankings of the events scored in this run and the rating table, in the Prefect UI."""
    lines = ["# Event rankings", ""]
    for ev in summary["top"]:
        lines += [f"## {ev['event']} ({ev['scoring']})", "",
                  "| place | direction | pair | players | boards | score | % |",
                  "|---:|---|---|---|---:|---:|---:|"]  # fmt: skip
        for r in ev["lines"]:
            pct = "" if r["pct"] is None else f"{r['pct']:.2f}"
            lines.append(f"| {r['rank']} | {r['direction']} | {r['pair']} | {r['players']} | "
                         f"{r['boards']} | {r['score']:.2f} | {pct} |")  # fmt: skip
        lines.append("")
    if not summary["top"]:
        lines.append("No event changed since the last run.")
    for c in summary.get("published", []):
        lines.append(f"* published {c['what']}: {c['agree']} of {c['compared']} agree")
    create_markdown_artifact(key="ddrank-rankings", markdown="\n".join(lines) + "\n",
                             description="Event rankings of this run")  # fmt: skip
    if summary.get("rating_table"):
        create_table_artifact(key="ddrank-ratings", table=summary["rating_table"],
                              description="Lehman ratings (at least 30 boards)")  # fmt: skip
