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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddrank.ratings.lehman import LehmanParams
from ddrank.scoring.choice.method import AUTO
from ddrank.scoring.events import (
    EventInfo,
    EventResult,
    ScoredEvent,
    infer_scoring,
    score_session,
)
from ddrank.scoring.score import EventSource, ScoreSettings, score
from publish.rankings import method_words
from publish.scores import write_ratings_csv
from stages import ratings
from stages.rankings import ranking_summary
from stages.scoring import (
    Loaded,
    changed_events,
    event_hash,
    excluded,
    export,
    fouled_in,
    load_store,
    method_rows,
    save_scores,
    score_and_save,
    scored_events,
    top_lines,
)
from stages.scoring_batches import load_store_batches
from store import Store

IMP_SCORINGS = ("IMP", "BUTLER", "TEAMS", "BAM")
#: score_session(event, session, results, info, method, content_hash) -> the session's scores.
SessionScorer = Callable[[str, str, list[EventResult], EventInfo, str, str], ScoredEvent]
#: Changed events scored session by session through the given scorer (the flow's cached Prefect
#: task), up to this many. More (a folder of 10,000 one-table files is an event per file) are
#: scored plainly: a task run and a persisted result per session flooded Prefect's event queue
#: (issue 32).
CACHED_EVENTS_UP_TO = 50


def plain_session(event: str, session: str, results: list[EventResult], info: EventInfo,
                  method: str, content_hash: str) -> ScoredEvent:  # fmt: skip
    """One session's table scores, computed (no cache)."""
    return score_session(results, info, method)  # type: ignore[arg-type]


def session_scorer(event: str, scorer: SessionScorer) -> Any:
    """`scorer` (the flow's cached task, keyed on the session's content) as `score()` calls a
    session's scorer."""

    def one(results: list[EventResult], info: EventInfo, method: str) -> ScoredEvent:
        session = results[0].session if results else ""
        return scorer(event, session, results, info, method, event_hash(results, info, method))

    return one


def score_and_rate(store: Store, s: Any, scorer: SessionScorer = plain_session, *,
                   params: LehmanParams | None = None, split: bool | None = None
                   ) -> dict[str, Any]:  # fmt: skip
    """Score each changed event, store the scores, update the ratings, split the IMP events
    (`params`: the Lehman constants, else the settings'; `split`: else when rating).

    The table results are read and scored a batch of whole events at a time
    (`stages.scoring_batches.load_store_batches`): memory holds one batch, whatever the store's size.
    The events published only as matches (no table result anywhere) are scored last."""
    stored, done = scored_events(store), Done(errors=excluded(store))
    last = Loaded(str(store.path), [], facts=store.rows("event_facts"),
                  standings=store.rows("published_standings"))  # fmt: skip
    for loaded in load_store_batches(store):
        done.add(store, loaded, stored, s, scorer, matches=False)
    last.dates, last.elsewhere = done.dates, done.seen
    done.add(store, last, stored, s, scorer, matches=True)
    summary = export(store, s.out, s.db, done.errors)
    summary["ratings"], summary["rating_table"] = {}, []
    if s.ratings:
        summary["ratings"] = ratings.update_ratings(store, params or ratings.lehman_params(s))
        summary["files"].append(str(write_ratings_csv(ratings.ratings_rows(store), s.out)))
        summary["rating_table"] = ratings.rating_table(store, min_boards=s.min_boards)
    summary["split"] = {}
    if s.ratings if split is None else split:  # numpy loads only when asked (`ddrank results`)
        from stages import split

        summary["split"] = split.split_imp_events(
            store, sorted(done.imp_events), Path(s.out) / "split", s.min_boards
        )
    summary["rankings"] = ranking_summary(store)
    summary["rescored"], summary["unchanged"] = sorted(done.changed), sorted(done.unchanged)
    summary["top"] = sorted(done.top, key=lambda t: t["event"])
    summary["methods"], summary["fouled_boards"] = done.methods, done.fouled
    return summary


@dataclass(frozen=True)
class StoreScoring:
    """What `ddrank score --db` decides of the scoring stage: the output folder, the method and
    top (as the scorer did by default); the stage always rates, it does not split."""

    out: str
    db: str
    mp_method: str = AUTO
    mp_top: float | None = None
    ratings: bool = True
    min_boards: int = 0


def score_store(
    store: Store, out_dir: str, method: str = AUTO, event: str | None = None,
    params: LehmanParams | None = None, mp_top: float | None = None,
) -> dict[str, Any]:  # fmt: skip
    """`ddrank score --db`: the pipeline's clean and scoring stages on the store (rescore the
    changed events, keep them and the Lehman ratings, export), or one `event` rescored and
    exported alone (no ratings: one event is not a rating period)."""
    from stages.clean import clean_pending

    # Records ingested but not cleaned yet are no boards: clean them first, or they would
    # score as nothing at all (`ingest` then `score --db`).
    cleaned = clean_pending(store)
    if event is None:
        s = StoreScoring(out_dir, str(store.path), method, mp_top)
        summary = score_and_rate(store, s, params=params or LehmanParams(), split=False)
    else:
        loaded = load_store(store)
        done = score_and_save(store, loaded, method, mp_top, event)
        summary = export(store, out_dir, loaded.source, loaded.errors, events=[event])
        summary["fouled_boards"] = fouled_in(loaded.results)
        summary["rescored"], summary["unchanged"] = done["rescored"], done["unchanged"]
        summary["ratings"] = {}
        summary["top"] = (top_lines(done["scores"], standings=loaded.standings)
                          if done["rescored"] else [])  # fmt: skip
        summary["methods"] = method_rows(done["scores"])
    summary["cleaned_first"] = cleaned.cleaned
    return summary


@dataclass
class Done:
    """What the batches of a scoring run did: the events scored and left as they were, the
    leaders, the IMP events (for the split), the records left out; the events seen and their
    dates (for the matches-only events scored last)."""

    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    top: list[dict[str, Any]] = field(default_factory=list)
    imp_events: list[str] = field(default_factory=list)
    errors: list[Any] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    dates: dict[str, str] = field(default_factory=dict)
    methods: list[dict[str, Any]] = field(default_factory=list)  # how each was scored
    fouled: int = 0  # fouled boards in the events read

    def add(self, store: Store, loaded: Loaded, stored: dict[str, str], s: Any,
            scorer: SessionScorer, matches: bool) -> None:  # fmt: skip
        """Score the batch's changed events (as the scorer did, unless the settings say:
        ddrank.scoring.choice.method) and store them."""
        groups, infos, hashes, changed = changed_events(loaded, stored, s.mp_method, s.mp_top,
                                                        matches)  # fmt: skip
        if len(self.changed) + len(changed) > CACHED_EVENTS_UP_TO:  # an event per file
            scorer = plain_session
        scores = {}
        for ev in changed:
            settings = ScoreSettings(s.mp_method, s.mp_top, session_scorer(ev, scorer))
            scores[ev] = score(EventSource(groups[ev], infos[ev], loaded.standings), settings)
        save_scores(store, scores, hashes, loaded.standings)
        self.changed += changed
        self.unchanged += sorted(set(groups) - set(changed))
        self.top += top_lines(scores, standings=loaded.standings)
        self.imp_events += [ev for ev, i in infos.items() if ev in groups
                            and infer_scoring(groups[ev], i.scoring) in IMP_SCORINGS]  # fmt: skip
        self.errors += loaded.errors
        self.methods += method_rows(scores)
        self.fouled += fouled_in(loaded.results)
        self.seen |= {r.event for r in loaded.results}
        self.dates.update(loaded.dates)


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
            lines.append(f"  {ev['event']}: {lead['place']}. {lead['pair']} ({lead['players']}) "
                         f"{lead['score_text']}"
                         + ("" if lead["pct"] is None else f" = {lead['pct_text']}%"))  # fmt: skip
    for r in summary["rating_table"][:10]:
        lines.append(f"  rating {r['rating']:6.2f} ± {r['std_error']:.2f}  {r['player']} "
                     f"({r['boards']} boards, last {r['last_period']})")  # fmt: skip
    return lines
