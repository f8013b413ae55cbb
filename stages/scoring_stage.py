"""The pipeline's scoring stage: score → Lehman ratings → bid/play split, on the run's store.

Loads the store's results, scores each event whose content changed session by session (a rerun
with one new event scores only that event), keeps the scores, updates the Lehman ratings from the
first changed period, splits the IMP events' Butler scores into bid and play (Cammarata), and
exports results.csv, ranking.csv and ratings.csv into the run's `out/`. Every option (the
matchpoint method, the MP top, the Lehman constants) comes from the run's settings.

The stage reads only the groups of events whose inputs changed since the last scoring, told in
SQL (`stages.scoring_groups`), a batch of whole events at a time (`ScoringRun.batches`); whoever
drives it scores each changed event (`ddrank.scoring.score`: the director's path plainly, the
Prefect flow with a task per session cached on its content) and hands the scores back
(`ScoringRun.take`); `ScoringRun.finish` scores the events published as matches only, exports,
rates and splits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ddrank.ratings.lehman import LehmanParams
from ddrank.scoring.choice.method import AUTO
from ddrank.scoring.events import EventInfo, EventResult, ScoredEvent, infer_scoring
from ddrank.scoring.score import EventSource, ScoreSettings, score
from publish.rankings import method_words
from publish.scores import write_ratings_csv
from stages import ratings, scoring_batches
from stages.rankings import ranking_summary
from stages.run import give_back_memory
from stages.scoring import (
    Loaded,
    changed_events,
    cut,
    fouled_in,
    load_store,
    loaded_rows,
    matched_players,
    method_rows,
    option_key,
    save_scores,
    score_and_save,
    scored_events,
    top_lines,
)
from stages.scoring_export import export
from stages.scoring_groups import (
    Group,
    GroupState,
    StoredErrors,
    changed_groups,
    forget_others,
    keep_states,
    scoring_groups,
    stored_states,
)
from store import Store

IMP_SCORINGS = ("IMP", "BUTLER", "TEAMS", "BAM")
#: Changed events scored session by session through the flow's cached Prefect task, up to this
#: many. More (a folder of 10,000 one-table files is an event per file) are scored plainly: a
#: task run and a persisted result per session flooded Prefect's event queue (issue 32).
CACHED_EVENTS_UP_TO = 50


@dataclass
class Work:
    """One batch of changed groups: each group's table results, and the events to score (their
    sources and content hashes). `cached`: within CACHED_EVENTS_UP_TO (the flow may cache)."""

    groups: list[tuple[Group, Loaded, list[str]]]  # (group, its results, its events)
    sources: dict[str, EventSource]
    hashes: dict[str, str]
    standings: list[Any]
    cached: bool = True


class ScoringRun:
    """One scoring of the store, driven by whoever scores the events (see the module's docstring):

    run = ScoringRun(store, settings)
    for work in run.batches():
        run.take(work, {ev: score(src, run.settings) for ev, src in work.sources.items()})
    summary = run.finish()
    """

    def __init__(self, store: Store, s: Any, batch: int | None = None) -> None:
        self.store, self.s = store, s
        self.settings = ScoreSettings(s.mp_method, s.mp_top)
        self.groups = scoring_groups(store, option_key(s.mp_method, s.mp_top))
        # the groups' fingerprints hash every input row of the archive: what DuckDB read for
        # them is not kept through the batches (at 1M results: RSS 77 -> 355 MB, issue 37)
        give_back_memory(store)
        self.todo = changed_groups(store, self.groups)
        self.batch = batch or scoring_batches.BATCH_RESULTS
        self.stored = scored_events(store)
        self.states: dict[str, GroupState] = {}
        self.done = Done()
        self.facts = store.rows("event_facts")
        self.standings = store.rows("published_standings")

    def batches(self) -> Iterator[Work]:
        """The changed groups a batch at a time (one read each), with the events to score."""
        matched = matched_players(self.store)
        todo = {g.key: g for g in self.todo}
        for batch in cut([(g.names, g.results) for g in self.todo], self.batch):
            # built in a call of its own: this generator keeps no batch while it reads the next
            yield self._work([todo["\x1f".join(names)] for names in batch], matched)
            self._write_out()

    def _write_out(self) -> None:
        """After a batch was taken (its rows and objects gone): its rows written into the store
        file (a checkpoint) while the run holds little, and what that read given back. DuckDB
        otherwise checkpoints inside whichever insert passes 16 MB of log, on top of a batch's
        rows in memory; a checkpoint that rewrites a full row group of scored_results costs
        about 225 MB however it is started (1M generated results, issue 37)."""
        forget_memos()
        self.store.checkpoint()
        give_back_memory(self.store)

    def _work(self, groups: list[Group], matched: dict[tuple[str, str], str]) -> Work:
        """One batch of groups read (one query) and made ready to score."""
        s = self.s
        group_of = {name: g.key for g in groups for name in g.names}
        of: dict[str, list[Any]] = {g.key: [] for g in groups}
        for r in self.store.rows("scoring_boards", events=[n for g in groups for n in g.names]):
            of[group_of[r.get("event") or ""]].append(r)  # in the query's order
        work = Work([], {}, {}, self.standings)
        for g in groups:
            loaded = loaded_rows(self.store, of.pop(g.key), matched, self.facts,
                                 self.standings)  # fmt: skip
            events, infos, hashes, changed = changed_events(loaded, self.stored,
                                                             s.mp_method, s.mp_top, False)  # fmt: skip
            work.groups.append((g, loaded, sorted(events)))
            work.hashes.update(hashes)
            for ev in changed:
                work.sources[ev] = EventSource(events[ev], infos[ev], loaded.standings)
            self.done.imp(events, infos)
        work.sources = dict(sorted(work.sources.items()))  # scored in event order
        work.cached = len(self.done.changed) + len(work.sources) <= CACHED_EVENTS_UP_TO
        return work

    def take(self, work: Work, scores: dict[str, ScoredEvent]) -> None:
        """Keep a batch's scores and its groups' states."""
        save_scores(self.store, scores, work.hashes, work.standings)
        self.done.scored(scores, work.standings)
        kept = []
        for g, loaded, events in work.groups:
            state = GroupState(events, loaded.errors, sorted(self.done.imp_of(events)),
                               fouled_in(loaded.results), dict(loaded.dates))  # fmt: skip
            # the records it left out are kept in the store with its state, not here:
            # errors.csv reads them back (`StoredErrors`), an archive's are not all in memory
            self.states[g.key] = replace(state, errors=[])
            self.done.unchanged += [ev for ev in events if ev not in scores]
            kept.append((g, state))
        keep_states(self.store, kept)
        give_back_memory(self.store)  # the next batch does not start from this one's reads

    def finish(self, params: LehmanParams | None = None, split: bool | None = None
               ) -> dict[str, Any]:  # fmt: skip
        """The events published as matches only, then the outputs: export, ratings, split."""
        store, s, done = self.store, self.s, self.done
        clean = [g for g in self.groups if g.key not in self.states]
        self.states.update(stored_states(store, clean, errors=False))
        forget_others(store, self.groups)
        errors = StoredErrors(store, self.groups)  # read again where they are written
        last = Loaded(str(store.path), [], facts=self.facts, standings=self.standings)
        read = {g.key for g in self.todo}
        for g in self.groups:  # in scoring order
            state = self.states.get(g.key) or GroupState()
            done.fouled += state.fouled
            done.imp_events += state.imp_events
            last.dates.update(state.dates)
            last.elsewhere |= set(state.events)
            if g.key not in read:
                done.unchanged += state.events
        events, infos, hashes, changed = changed_events(last, self.stored, s.mp_method, s.mp_top,
                                                        True)  # fmt: skip
        scores = {ev: score(EventSource(events[ev], infos[ev], self.standings), self.settings)
                  for ev in changed}  # fmt: skip
        save_scores(store, scores, hashes, self.standings)
        done.scored(scores, self.standings)
        done.unchanged += sorted(set(events) - set(changed))
        done.imp(events, infos)
        done.imp_events += done.imp_of(list(events))
        return outputs(store, s, done, errors, params, split)


def forget_memos() -> None:
    """Empty scoring's memos of pure functions (a table's four names, a pair's names, a deal):
    each keeps up to 65,536 entries, a batch's tables fill them and the next batch's events are
    others, so kept from batch to batch they grew with the archive up to their size (issue 37)."""
    from ddrank.scoring import model
    from ddrank.scoring.intake import identity, records

    for memo in (identity.side_label, identity._two_seats, identity._seat_identities,
                 model._identity, records.canonical_deal):  # fmt: skip
        memo.cache_clear()


def score_and_rate(store: Store, s: Any, *, params: LehmanParams | None = None,
                   split: bool | None = None) -> dict[str, Any]:  # fmt: skip
    """Score each changed event, store the scores, update the ratings, split the IMP events
    (`params`: the Lehman constants, else the settings'; `split`: else when rating): the
    director's path, each event scored in this process."""
    run = ScoringRun(store, s)
    for work in run.batches():
        run.take(work, {ev: score(src, run.settings) for ev, src in work.sources.items()})
        del work  # not kept while the next batch is read
    return run.finish(params, split)


def outputs(store: Store, s: Any, done: Done, errors: Iterable[Any], params: LehmanParams | None,
            split: bool | None) -> dict[str, Any]:  # fmt: skip
    """Export, the Lehman ratings and the bid/play split, and the run's summary."""
    # each part starts from what the run holds, not from the last part's reads (issue 37)
    give_back_memory(store)
    summary = export(store, s.out, s.db, errors)
    give_back_memory(store)
    summary["ratings"], summary["rating_table"] = {}, []
    if s.ratings:
        summary["ratings"] = ratings.update_ratings(store, params or ratings.lehman_params(s))
        summary["files"].append(str(write_ratings_csv(ratings.ratings_rows(store), s.out)))
        summary["rating_table"] = ratings.rating_table(store, min_boards=s.min_boards)
        give_back_memory(store)
    summary["split"] = {}
    if s.ratings if split is None else split:  # numpy loads only when asked (`ddrank results`)
        from stages import split as split_stage

        summary["split"] = split_stage.split_imp_events(
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
    """What a scoring run did: the events scored and left as they were, the leaders, how each
    was scored, the IMP events (for the split), fouled boards."""

    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    top: list[dict[str, Any]] = field(default_factory=list)
    imp_events: list[str] = field(default_factory=list)
    methods: list[dict[str, Any]] = field(default_factory=list)  # how each was scored
    fouled: int = 0  # fouled boards in the events read
    imps: set[str] = field(default_factory=set)  # IMP events of the batches read

    def imp(self, events: dict[str, list[EventResult]], infos: dict[str, EventInfo]) -> None:
        """Note which of a group's events are IMP events (as its rows and facts say)."""
        self.imps |= {ev for ev, rs in events.items()
                      if infer_scoring(rs, infos[ev].scoring) in IMP_SCORINGS}  # fmt: skip

    def imp_of(self, events: list[str]) -> list[str]:
        return [ev for ev in events if ev in self.imps]

    def scored(self, scores: dict[str, ScoredEvent], standings: list[Any]) -> None:
        self.changed += list(scores)
        self.top += top_lines(scores, standings=standings)
        self.methods += method_rows(scores)


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
