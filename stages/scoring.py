"""Stage `scoring`: score each event by its own rules into the one results model.

Reads the table results once (from the store, or straight from event files), scores each event
(`ddrank.scoring.events`), keeps `scored_results`, `rankings`, `team_matches` and `scored_events`
in the store, rescoring only events whose content changed, and hands the published files to
`publish.scores`. Every stage after it (Lehman, the bid/play split, the skill ratings) reads
`scored_results`, never the boards again.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from ddrank.cleaning.reasons import EXCLUSION_REASONS
from ddrank.events import group_unnamed
from ddrank.ratings.lehman import sortable_date
from ddrank.raw import ParsedFile, RawRecord, place_of
from ddrank.scoring.arithmetic.matches import matches_only_events
from ddrank.scoring.choice.method import AUTO, event_standings
from ddrank.scoring.events import EventInfo, EventResult, ScoredEvent
from ddrank.scoring.intake.records import (
    event_infos,
    event_label,
    results_from_rows,
    with_scoring_hint,
)
from ddrank.scoring.intake.results import RecordError
from ddrank.scoring.score import EventSource, ScoreSettings, score
from ddrank.scoring.verification.printed import printed_lines
from ddrank.scoring.verification.published import compare_published
from ddrank.scoring.verification.standings import as_float, match_standings
from ddrank.types import board_year
from publish import scores as publish
from store import Store
from store.inputs.files import walk
from store.inputs.read import read_parsed

T = TypeVar("T")

Row = dict[str, Any]
#: Bumped when the stored model gains columns or a scoring rule changes, so a store scored before
#: is rescored once and no cached session score (Prefect's `score-session`) of the old code is
#: reused. 4: IMP totals factored for sit-outs, teams VP scales and point-a-board, kept checks.
#: 5: IMP pairs rules as the scorer declared/published them, individual events (player_results).
#: 6: a producer's own arithmetic (its rulebook's method), pair inputs, strat places.
#: 7: values compared at their printed precision, producers' matchpoint arithmetic (mp_rule).
#: 8: rulebooks; each ranking line kept as its scorer prints it (rankings.place_text, ...).
#: 9: rankings.line_decimals (a scorecard rounds its boards to them, never guessing).
#: 10: a line the file published is kept as printed (score_text, pct_text, place_text) even
#:     where ours differs; the outputs say beside it what its own numbers give; rankings.factor.
MODEL_VERSION = "10"


@dataclass
class Loaded:
    """Table results of one or more events, the facts and standings their sources published."""

    source: str
    results: list[EventResult]
    errors: list[RecordError] = field(default_factory=list)
    facts: list[Row] = field(default_factory=list)
    standings: list[Row] = field(default_factory=list)
    scoring_tags: dict[str, list[str]] = field(default_factory=dict)  # event -> [Scoring] tags
    deals: int = 0  # hand-record deals read (games with a deal and no table result)
    dates: dict[str, str] = field(default_factory=dict)  # event -> earliest date read
    elsewhere: set[str] = field(default_factory=set)  # events with results in other batches

    def infos(self) -> dict[str, EventInfo]:
        """Each event's facts as its sources state them (the method is chosen from them)."""
        out = event_infos(self.results, self.facts)
        for ev, info in out.items():
            info = with_scoring_hint(info, self.scoring_tags.get(ev, []))
            if not info.date and self.dates.get(ev):
                info = replace(info, date=self.dates[ev])
            out[ev] = info
        return out


def _prepare(rows: Sequence[Row], source: str) -> Loaded:
    results, errors = results_from_rows(rows)
    tags: dict[str, list[str]] = defaultdict(list)
    dates: dict[str, str] = {}
    for row in rows:
        ev = event_label(row)
        if row.get("scoring"):
            tags[ev].append(str(row["scoring"]))
        d = str(row.get("date") or "")
        if d and (ev not in dates or sortable_date(d) < sortable_date(dates[ev])):
            dates[ev] = d
    return Loaded(source, results, errors, scoring_tags=dict(tags), dates=dates)


# ---------------------------------------------------------------- reading


def load_files(paths: Iterable[str | Path]) -> Loaded:
    """Read files directly (no store): every record, standing and event fact they hold."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(walk(p))  # not recursive: any depth of folders
        elif p.is_file():
            files.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    return load_parsed([(f, read_parsed(f)[0]) for f in files])


def _as_played(rec: RawRecord) -> Row:
    """A record's row. One that writes no contract, only its auction (a BBO LIN never writes the
    contract), gets the contract, declarer and tricks that cleaning gives the store (tricks from
    a claim, or from a play finished without one: `ddrank.cleaning.record.clean_record`), so
    `ddrank score FILE` and `ddrank check` score the tables `ddrank results` scores."""
    row = rec.as_row()
    if rec.contract.strip() or not rec.auction.strip():
        return row
    from ddrank.cleaning.record import clean_record

    board = clean_record(rec).board
    if board is not None and board.contract:
        row.update(contract=board.contract, declarer=board.declarer or "",
                   result="" if board.result is None else str(board.result))  # fmt: skip
    return row


def load_parsed(parsed_files: Sequence[tuple[Path, ParsedFile]]) -> Loaded:
    """What readers got from files (`store.inputs.read`) as table results to score; files of one
    folder that name no event grouped into their events (`ddrank.events.group_unnamed`)."""
    group_unnamed([(str(path), parsed.records) for path, parsed in parsed_files
                   if parsed.named_by_path])  # fmt: skip
    rows: list[Row] = []
    facts: list[Row] = []
    standings: list[Row] = []
    unreadable: list[RecordError] = []
    deals = 0
    for _, parsed in parsed_files:
        deals += len(parsed.deals)
        for rec in parsed.records:
            if rec.parse_error:
                unreadable.append(RecordError(rec.source_file, rec.source_line, rec.parse_error,
                                              **place_of(rec.as_row())))  # fmt: skip
                continue
            rows.append(_as_played(rec))
        for ev in parsed.events:
            fact = asdict(ev)
            fact["event_id"] = event_label({"event": ev.event, "date": ev.date_start})
            facts.append(fact)
        for st in parsed.standings:
            row = asdict(st)
            year = board_year(st.date, st.event)
            row["event_id"] = event_label({"event": st.event, "date": st.date, "year": year})
            standings.append(row)
    loaded = _prepare(rows, ", ".join(str(f) for f, _ in parsed_files))
    loaded.errors = unreadable + loaded.errors
    loaded.facts, loaded.standings, loaded.deals = facts, standings, deals
    return loaded


def load_store(store: Store, events: Sequence[str] | None = None) -> Loaded:
    """The store's clean table results (one read; only the events named `events`, if given),
    with player identities from name matching."""
    rows = store.rows("scoring_boards", events=events)
    loaded = loaded_rows(store, rows, matched_players(store), store.rows("event_facts"),
                         store.rows("published_standings"))  # fmt: skip
    loaded.errors = excluded(store) + loaded.errors
    return loaded


def matched_players(store: Store) -> dict[tuple[str, str], str]:
    """Name matching's verdicts: (context, raw name) -> the ranking's name."""
    return {(c, n): m for n, c, m in store.tuples("matched_players")}


def loaded_rows(store: Store, rows: list[Row], matched: Mapping[tuple[str, str], str],
                facts: list[Row], standings: list[Row]) -> Loaded:  # fmt: skip
    """`scoring_boards` rows as table results, each named by its record, with matched players."""
    for r in rows:
        if not r.get("source_file"):  # a board with no raw record: named by its store row
            r["source_file"] = f"{store.path}:boards[{r['record_id']}]"
        context = f"{(r.get('event') or '').strip()}|{r.get('year') or 0}"
        for seat in ("north", "east", "south", "west"):
            m = matched.get((context, r.get(f"{seat}name") or ""))
            if m:
                r[f"{seat}_player"] = m
    loaded = _prepare(rows, str(store.path))
    loaded.facts, loaded.standings = facts, standings
    return loaded


def excluded(store: Store) -> list[RecordError]:
    """The records cleaning left out, each with its file, line, place and reason."""
    return list(excluded_stream(store))


#: Records left out read from the store at a time (`excluded_stream`).
EXCLUDED_PER_READ = 10_000


def excluded_stream(store: Store) -> Iterator[RecordError]:
    """`excluded`, read EXCLUDED_PER_READ at a time: an archive's tens of thousands of records
    left out are not all held at once, neither as rows nor as errors (issue 37)."""
    for rows in store.batches("exclusion_errors", size=EXCLUDED_PER_READ):
        for r in rows:
            yield _excluded_error(store, r)


def _excluded_error(store: Store, r: Row) -> RecordError:
    source = str(r["source_file"] or store.path)
    if r["reason"] == "unreadable" and r.get("file_records") == 1:  # a whole file no reader
        # takes: said once, as what it is, not as a record left out (its file and line are
        # columns of their own)
        detail = str(r.get("detail") or "").removeprefix(f"{source}:{r['source_line']}: ")
        return RecordError(source, r["source_line"], detail or "unreadable", **place_of(r),
                           kind="unreadable")  # fmt: skip
    why = EXCLUSION_REASONS.get(r["reason"], r["reason"]).rstrip(".")
    detail = f": {r['detail']}" if r.get("detail") else ""
    return RecordError(source, r["source_line"], f"{why}{detail}", **place_of(r))


# ---------------------------------------------------------------- scoring


def event_hash(results: Iterable[EventResult], info: EventInfo, method: str,
               standings: Iterable[Row] = ()) -> str:  # fmt: skip
    """A hash of everything that decides an event's scores (its results, facts, the method option
    and the standings it is checked against): rescoring is skipped when it holds."""
    h = hashlib.sha1(f"{MODEL_VERSION}|{info}|{method}".encode())
    for r in sorted(results, key=lambda x: x.record_id):
        h.update(repr(r).encode())
    for st in sorted(repr(sorted((k, str(v)) for k, v in st.items() if k != "source_file"))
                     for st in standings):  # fmt: skip
        h.update(st.encode())
    return h.hexdigest()[:20]


def option_key(method: str, mp_top: float | None) -> str:
    """The scoring options as hashed: 'auto|auto', 'none|2.0'."""
    return f"{method}|{'auto' if mp_top is None else float(mp_top)}"


def method_rows(scores: Mapping[str, ScoredEvent]) -> list[Row]:
    """Per event: how it was scored and its agreement with what its source published."""
    return [{"event": ev, "scoring": sc.info.scoring, "mp_method": sc.method,
             "mp_top": sc.info.mp_top, "method_reason": sc.method_reason,
             "published_compared": sc.published_compared, "published_agree": sc.published_agree}
            for ev, sc in scores.items()]  # fmt: skip


def by_event(results: Iterable[EventResult]) -> dict[str, list[EventResult]]:
    out: dict[str, list[EventResult]] = defaultdict(list)
    for r in results:
        out[r.event].append(r)
    return dict(out)


def score_events(
    loaded: Loaded, method: str = AUTO, mp_top: float | None = None
) -> dict[str, ScoredEvent]:
    """Every event of `loaded`, each by its own scoring, as its scorer did unless `method` or
    `mp_top` say otherwise."""
    infos = loaded.infos()
    settings = ScoreSettings(method, mp_top)
    out = {}
    for ev, rs in sorted(by_event(loaded.results).items()):
        out[ev] = score(EventSource(rs, infos[ev], loaded.standings), settings)
    for ev, info in matches_only(loaded).items():
        out[ev] = score(EventSource([], info, loaded.standings), settings)
    return out


def matches_only(loaded: Loaded) -> dict[str, EventInfo]:
    """Teams events the files publish as their matches' IMPs only (no table result)."""
    events = matches_only_events(loaded.standings,
                                 {r.event for r in loaded.results} | loaded.elsewhere)  # fmt: skip
    return {
        ev: EventInfo(ev, scoring="TEAMS", date=loaded.dates.get(ev, "")) for ev in sorted(events)
    }


def fouled_in(results: Iterable[EventResult]) -> int:
    """Boards (event, session, section, board[, match]) whose results hold more than one deal."""
    deals: dict[tuple, set[str]] = defaultdict(set)
    for r in results:
        deals[(r.event, r.session, r.section, r.board,
               frozenset((r.home_team, r.visit_team)))].add(r.played)  # fmt: skip
    return sum(1 for v in deals.values() if len(v) > 1)


def top_lines(scores: Mapping[str, ScoredEvent], n: int = 5, standings: Sequence[Row] = ()
              ) -> list[Row]:  # fmt: skip
    """The leaders of each event's final ranking(s), for the console and the run summary, each
    also as its scorer prints it (`place`, `score_text`, `pct_text`: ddrank.scoring.verification.printed)."""
    out = []
    pairs = match_standings(scores, standings)
    for ev, sc in scores.items():
        printed = printed_lines(sc, pairs)
        finals = [x for x in sc.rankings if x.session == ""] or sc.rankings
        groups: dict[tuple[str, str], list[Any]] = defaultdict(list)
        for x in finals:
            groups[(x.section, x.direction)].append(x)
        lines = [x for g in groups.values() for x in sorted(g, key=lambda y: y.rank)[:n]]
        out.append({"event": ev, "scoring": sc.info.scoring, "mp_method": sc.method,
                    "mp_top": sc.info.mp_top, "method_reason": sc.method_reason,
                    "published_compared": sc.published_compared,
                    "published_agree": sc.published_agree,
                    "lines": [{"rank": x.rank, "direction": x.direction, "pair": x.pair,
                               "players": x.players, "boards": x.boards, "score": x.mp,
                               "pct": x.pct, "place": printed[id(x)].place,
                               "score_text": printed[id(x)].score,
                               "pct_text": printed[id(x)].pct} for x in lines]})  # fmt: skip
    return out


# ---------------------------------------------------------------- the store


def scored_events(store: Store) -> dict[str, str]:
    """event -> content hash of what is stored."""
    return dict(store.tuples("scored_event_hashes"))


def changed_events(
    loaded: Loaded, stored: Mapping[str, str], method: str = AUTO, mp_top: float | None = None,
    matches: bool = True,
) -> tuple[dict[str, list[EventResult]], dict[str, EventInfo], dict[str, str], list[str]]:  # fmt: skip
    """Results per event, their facts and hashes, and the events whose hash is not stored (with
    `matches`, also the events published as matches only)."""
    infos = loaded.infos()
    groups = by_event(loaded.results)
    for ev, info in (matches_only(loaded) if matches else {}).items():
        infos[ev], groups[ev] = info, []  # scored from its published matches
    options = option_key(method, mp_top)
    hashes = {ev: event_hash(rs, infos[ev], options, event_standings(ev, loaded.standings))
              for ev, rs in groups.items()}  # fmt: skip
    changed = sorted(ev for ev in groups if stored.get(ev) != hashes[ev])
    return groups, infos, hashes, changed


def save_scores(store: Store, scores: Mapping[str, ScoredEvent], hashes: Mapping[str, str],
                standings: Sequence[Row] = ()) -> None:  # fmt: skip
    """Replace each given event's rows in scored_results, rankings and team_matches."""
    events = list(scores)
    if not events:
        return
    for name in ("delete_scored_results", "delete_rankings", "delete_team_matches",
                 "delete_scored_events", "delete_player_results", "delete_export_parts"):  # fmt: skip
        store.run(name, events=events)
    # an event's rows at a time, inserted a chunk at a time: a batch's 50,000 rows as dicts and
    # as one inferred frame were 300 MB of transient memory (issue 37)
    res = ({**r, "content_hash": hashes[ev]} for ev, sc in scores.items()
           for r in publish.results_rows({ev: sc}))  # fmt: skip
    rank = publish.ranking_rows(scores, standings) + publish.butler_rows(scores)
    published = {id(line): st for st, line in match_standings(scores, standings) if line}
    lines = [x for sc in scores.values() for x in sc.rankings]
    for r, line in zip(rank, lines + [None] * (len(rank) - len(lines)), strict=True):
        p = published.get(id(line)) if line is not None else None
        r["published_pct"] = as_float(p.get("published_pct")) if p else None
        r["published_place"] = str(p.get("published_place") or "") if p else None
    _insert(store, "scored_results", res, publish.SCORED_RESULTS_COLUMNS)
    _insert(store, "rankings", rank, publish.RANKINGS_TABLE_COLUMNS)
    _insert(store, "team_matches", publish.team_rows(scores), publish.TEAMS_COLUMNS)
    _insert(store, "player_results", publish.player_rows(scores), publish.PLAYER_RESULTS_COLUMNS)
    _insert(store, "scored_events", [{**m, "date": scores[m["event"]].info.date,
                                      "content_hash": hashes[m["event"]],
                                      "results": len(scores[m["event"]].results),
                                      "checks": checks_json(scores[m["event"]])}
                                     for m in method_rows(scores)], SCORED_EVENTS_COLUMNS)  # fmt: skip


SCORED_EVENTS_COLUMNS = ["event", "date", "scoring", "content_hash", "results", "mp_method",
                         "mp_top", "method_reason", "published_compared", "published_agree",
                         "checks"]  # fmt: skip


def checks_json(sc: ScoredEvent) -> str:
    """The event's published-value checks, kept so that every later reader shows these counts."""
    import json

    return json.dumps([{"what": c.what, "compared": c.compared, "agree": c.agree,
                        "disagree": c.disagree} for c in sc.checks])  # fmt: skip


#: Rows turned into one frame and inserted at a time (`_insert`): memory holds a chunk as dicts.
INSERT_ROWS = 5_000


def _insert(store: Store, table: str, rows: Iterable[Row], columns: Sequence[str]) -> None:
    """Append `rows` (dicts; a list or a stream) to `table`, a chunk of INSERT_ROWS at a time.
    Each chunk's frame infers its own types from all its rows; the table's columns cast them,
    so the stored values are those of one frame of every row."""
    import polars as pl

    it = iter(rows)
    while chunk := [{c: r.get(c) for c in columns} for r in islice(it, INSERT_ROWS)]:
        store.insert_frame(table, pl.DataFrame(chunk, infer_schema_length=None))


# ---------------------------------------------------------------- entry points


def score_files(
    paths: Sequence[str], out_dir: str, method: str = AUTO, mp_top: float | None = None
) -> Row:
    """`ddrank score FILE...`: score the files' events, write the output files, no store."""
    loaded = load_files(paths)
    scores = score_events(loaded, method, mp_top)
    checks = compare_published(scores, loaded.standings, prove=True)
    summary = publish.write_outputs(out_dir, loaded.source, loaded.errors, scores, checks,
                                    fouled_in(s.result for sc in scores.values()
                                              for s in sc.results), loaded.standings)  # fmt: skip
    summary["top"] = top_lines(scores, standings=loaded.standings)
    summary["methods"] = method_rows(scores)
    summary["records_read"] = len(loaded.results) + summary["errors"]
    summary["hand_record_deals"] = loaded.deals
    return summary


def score_and_save(
    store: Store, loaded: Loaded, method: str = AUTO, mp_top: float | None = None,
    event: str | None = None,
) -> Row:  # fmt: skip
    """Rescore the changed events of `loaded` (or only `event`) and keep them in the store."""
    if event is not None:
        loaded.results = [r for r in loaded.results if r.event == event or
                          r.event.startswith(f"{event} (")]  # fmt: skip
        if not loaded.results:
            raise ValueError(f"no event {event!r} in {store.path}")
    groups, infos, hashes, changed = changed_events(loaded, scored_events(store), method, mp_top)
    settings = ScoreSettings(method, mp_top)
    scores = {ev: score(EventSource(groups[ev], infos[ev], loaded.standings), settings)
              for ev in changed}  # fmt: skip
    save_scores(store, scores, hashes, loaded.standings)
    if scores:  # scored here, perhaps on other options: the next run reads every group again
        store.run("forget_scoring_groups")
    return {"scores": scores, "rescored": changed,
            "unchanged": sorted(set(groups) - set(changed))}  # fmt: skip


def save_errors(store: Store, errors: Iterable[RecordError]) -> None:
    """Keep what this scoring found (records left out, lines missing) for the event pages
    (`errors`: a list or a stream, read once, a frame of ERRORS_PER_FRAME at a time)."""
    import polars as pl

    store.run("delete_scoring_errors")
    fields = {c: "table" if c == "table_no" else c for c in SCORING_ERRORS_COLUMNS}
    it = iter(errors)
    while chunk := list(islice(it, ERRORS_PER_FRAME)):  # a frame of columns, not of dicts
        store.insert_frame("scoring_errors", pl.DataFrame(
            {c: [getattr(e, f) for e in chunk] for c, f in fields.items()},
            schema={c: pl.Int64 if c == "line" else pl.String for c in fields},
            strict=False))  # fmt: skip


#: Records left out kept per frame (`save_errors`): an archive leaves tens of thousands out.
ERRORS_PER_FRAME = 10_000


SCORING_ERRORS_COLUMNS = ["event", "source", "line", "session", "section", "round", "table_no",
                          "board", "kind", "message"]  # fmt: skip


def cut(sized: Iterable[tuple[T, int]], batch: int) -> list[list[T]]:
    """Items with their sizes (results) cut, in order, into batches of about `batch` results; an
    item (an event, a group of events) is never split."""
    out: list[list[T]] = []
    size = 0
    for item, n in sized:
        if not out or size + n > batch:  # the first item opens a batch even when it has no result
            out.append([])
            size = 0
        out[-1].append(item)
        size += n
    return out
