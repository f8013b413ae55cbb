"""The pipeline's scoring stage: score → Lehman ratings → bid/play split, on the run's store.

Loads the store's results, scores each event whose content changed session by session (a rerun
with one new event scores only that event), keeps the scores, updates the Lehman ratings from the
first changed period, splits the IMP events' Butler scores into bid and play (Cammarata), and
exports results.csv, ranking.csv and ratings.csv into the run's `out/`. Every option (the
matchpoint method, the MP top, the Lehman constants) comes from the run's settings.

`score_session` scores one session; the Prefect flow passes a task cached on the session's
content hash (`tasks.scoring.score_session_task`), the CLI the plain function.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    EventScores,
    assemble_event,
    by_session,
    event_info_for,
    infer_scoring,
    score_session,
)
from publish.rankings import method_words
from publish.scores import write_ratings_csv
from stages import ratings
from stages.rankings import ranking_summary
from stages.scoring import (
    changed_events,
    event_hash,
    export,
    load_store,
    save_scores,
    score_one,
    scored_events,
    top_lines,
)
from store import Store

IMP_SCORINGS = ("IMP", "BUTLER", "TEAMS", "BAM")
#: score_session(event, session, results, info, method, content_hash) -> the session's scores.
SessionScorer = Callable[[str, str, list[EventResult], EventInfo, str, str], EventScores]
#: Changed events scored session by session through the given scorer (the flow's cached Prefect
#: task), up to this many. More (a folder of 10,000 one-table files is an event per file) are
#: scored plainly: a task run and a persisted result per session flooded Prefect's event queue
#: (issue 32).
CACHED_EVENTS_UP_TO = 50


def plain_session(event: str, session: str, results: list[EventResult], info: EventInfo,
                  method: str, content_hash: str) -> EventScores:  # fmt: skip
    """One session's table scores, computed (no cache)."""
    return score_session(results, info, method)  # type: ignore[arg-type]


def score_event_by_session(event: str, results: list[EventResult], info: EventInfo, method: str,
                           scorer: SessionScorer = plain_session) -> EventScores:  # fmt: skip
    """An event from its sessions' scores, ranked as a whole."""
    info = event_info_for(results, info)
    parts = [scorer(event, session, rs, info, method, event_hash(rs, info, method))
             for session, rs in by_session(results).items()]  # fmt: skip
    return assemble_event(info, parts)


def score_and_rate(store: Store, s: Any, scorer: SessionScorer = plain_session) -> dict[str, Any]:
    """Score each changed event, store the scores, update the ratings, split the IMP events."""
    loaded, stored = load_store(store), scored_events(store)
    groups, infos, hashes, changed = changed_events(loaded, stored, s.mp_method, s.mp_top)
    if len(changed) > CACHED_EVENTS_UP_TO:  # a folder of one-table files: an event per file
        scorer = plain_session
    scores = {}
    for ev in changed:  # as the scorer did, unless the settings say (ddrank.scoring.method)
        scores[ev] = score_one(groups[ev], infos[ev], loaded.standings, s.mp_method, s.mp_top,
                               lambda rs, info, m, ev=ev: score_event_by_session(ev, rs, info, m,
                                                                                 scorer))  # fmt: skip
    save_scores(store, scores, hashes, loaded.standings)
    summary = export(store, s.out, s.db, loaded.errors)
    summary["ratings"], summary["rating_table"] = {}, []
    if s.ratings:
        summary["ratings"] = ratings.update_ratings(store, ratings.lehman_params(s))
        summary["files"].append(str(write_ratings_csv(ratings.ratings_rows(store), s.out)))
        summary["rating_table"] = ratings.rating_table(store, min_boards=s.min_boards)
    imp_events = sorted(ev for ev, i in infos.items()
                        if infer_scoring(groups[ev], i.scoring) in IMP_SCORINGS)  # fmt: skip
    summary["split"] = {}
    if s.ratings:  # the split (numpy) loads only when asked: `ddrank results` has no ratings
        from stages import split

        summary["split"] = split.split_imp_events(
            store, imp_events, Path(s.out) / "split", s.min_boards
        )
    summary["rankings"] = ranking_summary(store)
    summary["rescored"], summary["unchanged"] = changed, sorted(set(groups) - set(changed))
    summary["top"] = top_lines(scores)
    return summary


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """What the stage tells the log: events scored, each winner, the top of the ratings."""
    lines = [f"scoring: {len(summary['rescored'])} event(s) scored, {len(summary['unchanged'])} "
             f"unchanged; {summary['results']:,} table results, {summary['errors']} left out; "
             f"ratings of {summary['ratings'].get('players', 0)} players over "
             f"{summary['ratings'].get('periods', 0)} periods"]  # fmt: skip
    for ev in summary["top"]:
        lines.append(f"  {ev['event']}: {method_words(ev)}")
        lead = ev["lines"][0] if ev["lines"] else None
        if lead:
            lines.append(f"  {ev['event']}: 1. {lead['pair']} ({lead['players']}) "
                         f"{lead['score']:.2f}"
                         + ("" if lead["pct"] is None else f" = {lead['pct']:.2f}%"))  # fmt: skip
    for r in summary["rating_table"][:10]:
        lines.append(f"  rating {r['rating']:6.2f} ± {r['std_error']:.2f}  {r['player']} "
                     f"({r['boards']} boards, last {r['last_period']})")  # fmt: skip
    return lines
