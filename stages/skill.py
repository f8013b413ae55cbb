"""Stage `skill`: the ddrank skill rating on a scored field: table results + DD facts.

Reads either a Valet directory (with the cached `dd_tables.csv` / `dd_leads.csv` that
`bench/make_valet_dd.py` writes) or the store (the one results model `scored_results`, read once,
with `dd_tables` and `play_traces`), turns each table result into a `SkillBoard`, and runs
`ddrank.ratings.skill` period by period. In the store the result is kept in `skill_ratings`, and
every period's new states in `skill_history`; a later run finds the events whose inputs changed
(an order-free hash per event, in SQL), and rates from the first period they touch, on the states
stored before it (the Gaussian states are all the model needs), reading only the events of those
periods: adding an event costs that event's periods, and the result equals one rating of
everything (`rate_store`).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ddrank.ratings import skill as sk
from ddrank.ratings.lehman import sortable_date
from ddrank.ratings.skill_fit import FitColumns, fit_params_from
from ddrank.scoring.arithmetic.crossimps import butler
from ddrank.scoring.arithmetic.duplicate import duplicate_score
from ddrank.scoring.intake.results import TableResult
from ddrank.scoring.tournament import TableScore, score_field
from ddrank.types import Card, DomainError, Seat
from stages.field import LoadedField, load_field, tables_from_scored
from stages.run import give_back_memory, trim_heap
from stages.skill_states import StateTable
from store import Store

#: (before, after): the declaring side's DD tricks before and after the opening lead.
LeadDD = tuple[int, int]
#: Given a table result and its recorded declarer: the true declarer and the lead's DD facts.
LeadLookup = Callable[[TableResult, Seat], tuple[Seat, LeadDD | None]]


@dataclass(frozen=True, slots=True)
class SkillRow:
    """A scored table result and what the skill model reads from it."""

    period: str
    board: str
    result: TableResult
    butler: float
    skill: sk.SkillBoard


def _ns_score(res: TableResult, declarer: Seat, tricks: int) -> int:
    assert res.contract is not None
    vul = res.ns_vulnerable if declarer.is_ns else res.ew_vulnerable
    s = duplicate_score(res.contract, tricks, vul, res.year)
    return s if declarer.is_ns else -s


def skill_rows(
    scores: Sequence[TableScore],
    dd_cells: Mapping[str, Sequence[int]],
    lead_lookup: LeadLookup | None = None,
) -> list[SkillRow]:
    """One SkillRow per table; DD facts where the deal has a DD table (keyed by `result.deal`).

    The contract's DD result is scored against the field's DD results on the same board (Butler
    datum), which separates the contract reached from the play.
    """
    by_board: dict[str, list[TableScore]] = defaultdict(list)
    for s in scores:
        by_board[s.result.board].append(s)
    out: list[SkillRow] = []
    for board in sorted(by_board):
        group = by_board[board]
        facts: list[dict[str, Any]] = []
        dd_scores: list[int] = []
        all_dd = True
        for s in group:
            res, f = s.result, {}
            cells = dd_cells.get(res.deal)
            if cells is None:
                all_dd = False
            elif res.contract is None:
                dd_scores.append(0)
            else:
                assert res.contract.declarer is not None
                decl, lead = res.contract.declarer, None
                if lead_lookup is not None:
                    decl, lead = lead_lookup(res, decl)
                dd = int(cells[int(res.contract.strain) * 4 + int(decl)])
                dd_scores.append(_ns_score(res, decl, dd))
                f = {"declarer": res.names[decl], "declarer_ns": decl.is_ns,
                     "play_tricks": float(res.tricks - dd)}  # fmt: skip
                if lead is not None:
                    f["play_tricks"] = float(res.tricks - lead[1])
                    f["leader"] = res.names[decl.lho]
                    f["lead_cost"] = float(lead[1] - lead[0])
            facts.append(f)
        bid: list[float | None] = (
            [float(v) for v in butler(dd_scores)] if all_dd else [None] * len(group)
        )
        for s, f, b in zip(group, facts, bid, strict=True):
            res = s.result
            f = f if all_dd else {}
            sb = sk.SkillBoard(res.ns_pair, res.ew_pair, float(s.butler), b, **f)
            out.append(SkillRow(res.period, board, res, float(s.butler), sb))
    out.sort(key=lambda r: (r.period, r.board, r.result.table))
    return out


# ---------------------------------------------------------------- Valet directories


def read_valet_dd(valet_dir: Path) -> tuple[dict[tuple[int, int], tuple[int, ...]], dict]:
    """The cached DD tables and lead traces of a Valet directory (empty when not made)."""
    tables: dict[tuple[int, int], tuple[int, ...]] = {}
    leads: dict[tuple[int, int, str, str, str], LeadDD] = {}
    tpath, lpath = valet_dir / "dd_tables.csv", valet_dir / "dd_leads.csv"
    if tpath.is_file():
        with tpath.open() as fh:
            for r in csv.DictReader(fh):
                tables[int(r["round"]), int(r["board"])] = tuple(map(int, r["cells"].split()))
    if lpath.is_file():
        with lpath.open() as fh:
            for r in csv.DictReader(fh):
                key = (int(r["round"]), int(r["board"]), r["strain"], r["leader"], r["lead"])
                leads[key] = (int(r["dd_before"]), int(r["dd_after"]))
    return tables, leads


def valet_skill_rows(valet_dir: str | Path, loaded: LoadedField | None = None) -> list[SkillRow]:
    """A Valet directory's table results with its cached DD facts (one period per round)."""
    from ddrank.valet import parse_scores

    d = Path(valet_dir)
    loaded = loaded or load_field(str(d), None, None)
    scores, _ = parse_scores((d / "scores.txt").read_text(), str(d / "scores.txt"))
    where = {f"{s.source}:{s.line}": (s.round, s.board, s.lead) for s in scores}
    tables, leads = read_valet_dd(d)
    cells_by_deal: dict[str, tuple[int, ...]] = {}
    for res in loaded.results:
        rnd, bno, _ = where[res.table]
        if (rnd, bno) in tables:
            cells_by_deal[res.deal] = tables[rnd, bno]

    def lead_lookup(res: TableResult, decl: Seat) -> tuple[Seat, LeadDD | None]:
        rnd, bno, lead = where[res.table]
        try:
            card = str(Card.parse(lead)) if lead else None
        except DomainError:
            card = None
        if card is None or res.contract is None:
            return decl, None
        for seat in (decl, decl.partner):  # the led card says who declared
            key = (rnd, bno, res.contract.strain.letter, seat.lho.letter, card)
            if key in leads:
                return seat, leads[key]
        return decl, None

    return skill_rows(score_field(loaded.boards), cells_by_deal, lead_lookup)


# ---------------------------------------------------------------- the DuckDB store


#: Rated table results read from the store per batch of whole events (`skill_row_batches`). A
#: batch's rows, fields and scores are the stage's largest transient, the same at any archive size:
#: at 50,000 a batch of the 100k generated store peaked 152 MB above the process's floor, and the
#: whole stage at 287 MB (bench/bench_skill_memory.py, load 6-9); at 20,000 the stage peaked at
#: 206 MB, set by rating, not reading (issue 37).
SKILL_BATCH = 20_000


def db_skill_rows(store: Store | str | Path, event: str | None = None) -> list[SkillRow]:
    """The store's scored table results with their DD tables and opening-lead traces, all at
    once (a study's store; the pipeline's stage reads them a batch at a time: `rate_store`).

    Given a path rather than the run's store, the store's events not scored yet are scored first.
    """
    if not isinstance(store, Store):
        from stages.scoring import load_store, score_and_save

        with Store(store) as own:
            score_and_save(own, load_store(own))
            return db_skill_rows(own, event)
    rows = [r for batch in skill_row_batches(store, event) for r in batch]
    rows.sort(key=lambda r: (r.period, r.board, r.result.table))
    return rows


def _selected(name: str, event: str | None) -> bool:
    """Whether event `name` is `event` or one of its parts "EVENT (...)" (None: every event)."""
    return event is None or name == event or name.startswith(f"{event} (")


def _period_label(day: Any, year: Any, name: str) -> str:
    return f"{sortable_date(str(day or year or ''))} {name}"  # as the field's periods


def skill_event_batches(store: Store, event: str | None = None, batch: int = SKILL_BATCH,
                        since: str | None = None) -> list[list[str]]:  # fmt: skip
    """The scored events (`event`: that one, or its parts "EVENT (...)"), the earliest period
    first, cut into batches of whole events of about `batch` rated table results each
    (`since`: only the events with a period at or after that one)."""
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    count: dict[str, int] = defaultdict(int)
    for name, day, year, n in store.tuples("skill_event_sizes"):
        if not _selected(name, event):
            continue
        label = _period_label(day, year, name)
        first[name] = min(first.get(name, label), label)
        last[name] = max(last.get(name, label), label)
        count[name] += int(n)
    out: list[list[str]] = []
    size = batch
    for name in sorted(first, key=lambda e: (first[e], e)):
        if since is not None and last[name] < since:
            continue
        if size + count[name] > batch:
            out.append([])
            size = 0
        out[-1].append(name)
        size += count[name]
    return out


def skill_row_batches(store: Store, event: str | None = None, batch: int = SKILL_BATCH,
                      since: str | None = None) -> Iterator[list[SkillRow]]:  # fmt: skip
    """The store's rated table results as SkillRows, a batch of whole events at a time (a board
    never spans events), each batch in period order and the batches in period order too
    (`since`: only the events with a period at or after that one)."""
    for names in skill_event_batches(store, event, batch, since):
        yield _skill_rows_of(store, names)


def _skill_rows_of(store: Store, events: list[str]) -> list[SkillRow]:
    """The events' scored table results with their DD tables and opening-lead traces."""
    deal_of: dict[str, str] = {}

    def scored() -> Iterator[dict[str, Any]]:  # a few thousand rows as dicts at a time, not all
        for part in store.batches("scored_tables_of", size=5_000, events=events):
            for r in part:
                deal_of[r["record_id"]] = r["deal_id"]
                yield r

    loaded = tables_from_scored(scored(), str(store.path))
    cells: dict[str, list[int]] = {}
    for deal_id, strain, declarer, tricks in store.tuples("skill_dd_tables_of", events=events):
        c = cells.setdefault(deal_id, [0] * 20)
        c["CDHSN".index(strain) * 4 + "NESW".index(declarer)] = int(tricks)
    played = store.tuples("skill_play_traces_of", events=events)
    traces = {rid: list(t) for rid, t, _ in played if t is not None and len(t) >= 2}
    seats_of = {rid: list(ps) for rid, _, ps in played if ps}

    def lead_lookup(res: TableResult, decl: Seat) -> tuple[Seat, LeadDD | None]:
        t = traces.get(res.table)
        return decl, (int(t[0]), int(t[1])) if t else None

    # A result's `deal` is how the scorer groups tables (it may add vulnerability); the DD table
    # belongs to the cards, the store's deal_id.
    by_result = {
        r.deal: cells[deal_of[r.table]]
        for r in loaded.results
        if r.table in deal_of and deal_of[r.table] in cells
    }
    rows = skill_rows(score_field(loaded.boards), by_result, lead_lookup)
    out = []
    for r in rows:  # where the play is recorded, whose cards cost the tricks
        t, ps = traces.get(r.result.table), seats_of.get(r.result.table)
        c = r.result.contract
        if t is None or ps is None or c is None or c.declarer is None:
            out.append(r)
            continue
        decl_cost, defence = sk.play_costs(t, ps, int(c.declarer))
        costs = tuple((r.result.names[Seat(s)], v) for s, v in sorted(defence.items()))
        out.append(replace(r, skill=replace(r.skill, declarer_cost=decl_cost,
                                            defence_costs=costs)))  # fmt: skip
    return out


def periods_of(rows: Sequence[SkillRow]) -> list[tuple[str, list[sk.SkillBoard]]]:
    by: dict[str, list[sk.SkillBoard]] = defaultdict(list)
    for r in rows:
        by[r.period].append(r.skill)
    return sorted(by.items())


def rate_rows(
    rows: Sequence[SkillRow],
    params: sk.SkillParams | None = None,
    states: Mapping[sk.Key, sk.SkillState] | None = None,
    done: Sequence[str] = (),
) -> tuple[sk.States, list[str], sk.SkillParams]:
    """Rate the periods not in `done`, in order, from `states`; returns states, periods rated
    and the parameters used (noise and IMPs per trick fitted on these boards)."""
    params = sk.fit_params([r.skill for r in rows], params or sk.SkillParams())
    periods = periods_of(rows)
    labels = [p for p, _ in periods]
    index = {p: i for i, p in enumerate(sorted(set(labels) | set(done)))}
    current: sk.States = dict(states or {})
    rated = []
    for label, boards in periods:
        if label in done:
            continue
        current = sk.update_period(current, boards, index[label], params)
        rated.append(label)
    return current, rated, params


#: The model's constants (noise, offsets, IMPs per trick: `ddrank.ratings.skill_fit`) are fitted
#: on the earliest periods that hold at least this many rated table results (every period of a
#: smaller archive) and kept for the later ones, so adding an event after them changes no
#: earlier period's ratings: it is rated from the stored states, and equals a full rating.
SKILL_FIT_RESULTS = 50_000
#: Skill states held while rating; beyond them the least recently rated half is dropped (it is in
#: `skill_history`) and read back when its player plays again. At 1M generated results (132,223
#: states) a cap of 50,000 saved 12 MB and cost 18 CPU-s of reading back, so the cap is above
#: that: a bound for larger archives.
KEEP_STATES = 200_000
#: States written to `skill_history` per insert.
HISTORY_ROWS = 50_000
_FITTED = ("play_mean", "lead_mean", "imps_per_trick", "declarer_cost_mean", "defence_cost_mean",
           "noise_sd")  # fmt: skip


def _fit_prefix(counts: Mapping[str, int], fit_results: int) -> tuple[str, int, bool]:
    """The last period of the earliest periods holding `fit_results` rated results, their
    count, and whether there were that many (False: every period, the archive is smaller)."""
    total, last = 0, ""
    for label in sorted(counts):
        total, last = total + counts[label], label
        if total >= fit_results:
            return last, total, True
    return last, total, False


def _params_json(params: sk.SkillParams) -> str:
    import json

    return json.dumps({f: getattr(params, f) for f in _FITTED})  # floats round-trip exactly


def _params_from(text: str) -> sk.SkillParams:
    import json

    return replace(sk.SkillParams(), **json.loads(text))


def rate_store(store: Store, event: str | None = None, full: bool = False,
               batch: int = SKILL_BATCH, fit_results: int = SKILL_FIT_RESULTS,
               keep_states: int = KEEP_STATES) -> dict[str, Any]:  # fmt: skip
    """Rate the store's events (`event`: that one and its parts) into `skill_ratings`, from the
    first period whose events changed (added, removed, or their inputs changed: fingerprinted in
    SQL), on the states stored before it (`skill_history`); every period with `full`.

    The result equals one rating of every period: periods are rated in order and each period's
    update reads only the states before it, and the model's constants are fitted on the earliest
    periods (`SKILL_FIT_RESULTS`), so a change after them leaves them as they are (a change
    among them fits them again and rates every period).

    The events read are read a batch of whole events (about `batch` results) at a time, and the
    boards of the periods to rate are spooled to a temporary file, so memory holds one batch and
    at most `keep_states` states, not the archive. Then the periods are rated in order, one
    period's boards read back at a time, and each period's new states are stored."""
    import pickle
    import tempfile

    import polars as pl

    counts: dict[str, int] = defaultdict(int)
    firsts: dict[str, str] = {}
    for name, day, year, n in store.tuples("skill_event_sizes"):
        if _selected(name, event):
            label = _period_label(day, year, name)
            counts[label] += int(n)
            firsts[name] = min(firsts.get(name, label), label)
    prints = {e: fp for e, fp in store.tuples("skill_event_fingerprints") if e in firsts}
    now = {e: (prints.get(e), first) for e, first in firsts.items()}
    was = {} if full else {e: (fp, first) for e, fp, first in store.tuples("skill_events")}
    give_back_memory(store)  # the blocks those whole-table reads cached (40 MB at 1M results)
    changed = [f for e in set(now) | set(was) if now.get(e) != was.get(e)
               for f in (now.get(e, (0, None))[1], was.get(e, (0, None))[1]) if f is not None]  # fmt: skip
    all_labels = sorted(counts)
    index = {p: i for i, p in enumerate(all_labels)}
    prefix = _fit_prefix(counts, fit_results)
    fitted = store.tuples("skill_fit")
    start = min(changed) if changed else None
    refit = (full or not fitted or not fitted[0][2] or (start is not None and start <= fitted[0][0])
             or tuple(fitted[0][:3]) != prefix)  # fmt: skip
    if start is None and not full:  # nothing changed since the stored rating
        params = _params_from(fitted[0][3]) if fitted else sk.SkillParams()
        return {"periods_rated": [], "periods_total": len(all_labels), "boards": 0,
                "rows": store.table_count("skill_ratings"),
                "imps_per_trick": params.imps_per_trick}  # fmt: skip
    if refit:
        start = all_labels[0] if all_labels else ""
    rated = [p for p in all_labels if p >= start]
    boards = 0
    spooled: dict[str, list[int]] = defaultdict(list)  # period -> where its boards are
    with tempfile.TemporaryFile(prefix="ddrank-skill-") as spool:

        def period_boards(label: str) -> list[sk.SkillBoard]:
            out: list[sk.SkillBoard] = []
            for offset in spooled[label]:
                spool.seek(offset)
                out += pickle.load(spool)  # noqa: S301 - this run's own spool file
            return out

        for rows in skill_row_batches(store, event, batch, start):
            boards += len(rows)
            for label, period in periods_of(rows):
                if label >= start:
                    spool.seek(0, 2)
                    spooled[label].append(spool.tell())
                    pickle.dump(period, spool, protocol=pickle.HIGHEST_PROTOCOL)
            del rows  # not kept while the next batch is read
            give_back_memory(store)  # nor the blocks it read, nor its freed heap
        if refit:  # the constants: the earliest periods' boards, in period order
            cols = FitColumns()
            for label in rated:
                if label <= prefix[0]:
                    cols.add(period_boards(label))
            params = fit_params_from(cols, sk.SkillParams())
            del cols
            trim_heap()
            # a run stopped from here on leaves no constants and no events: the next fits again
            store.run("delete_skill_fit")
            store.run("delete_skill_events")
            store.run("delete_skill_history")
        else:
            params = _params_from(fitted[0][3])
            store.run("delete_skill_history_from", period=start)
        states = StateTable()  # skills rated in this run at their last period (skill_states)
        restore = bool(rated) and not refit and start != all_labels[0]
        pending: list[tuple] = []
        for label in rated:
            period = period_boards(label)
            if restore:  # the last stored state of the skills not held (before `start`, or evicted)
                need = [k for k in sk.period_keys(period, params) if k not in states]
                if need:
                    for p, c, mean, var, n, i in store.tuples(
                        "skill_restore", period=label, players=[k[0] for k in need],
                        components=[k[1] for k in need],
                    ):  # fmt: skip
                        states.put((p, c), sk.SkillState(mean, var, n, i))
            new = sk.period_states(states, period, index[label], params)
            for k, s in new.items():
                states.put(k, s)
            pending += [(label, s.last_period, k[0], k[1], s.mean, s.var, s.boards)
                        for k, s in new.items()]  # fmt: skip
            if len(pending) >= HISTORY_ROWS or len(states) > keep_states:
                _store_history(store, pending)
                pending = []
            if len(states) > keep_states:  # stored: the least recent half is read back if met
                states.keep_recent(keep_states // 2)
                restore = True
        _store_history(store, pending)
    del states
    store.run("delete_skill_ratings")
    store.run("skill_ratings_from_history")
    store.run("delete_skill_periods")
    store.insert_rows("skill_periods", [{"period": p, "idx": i} for i, p in enumerate(all_labels)],
                      {"period": pl.String, "idx": pl.Int32})  # fmt: skip
    if refit:
        store.insert_rows("skill_fit", [{"prefix_end": prefix[0], "prefix_results": prefix[1],
                                         "complete": prefix[2], "params": _params_json(params)}],
                          {"prefix_end": pl.String, "prefix_results": pl.Int64,
                           "complete": pl.Boolean, "params": pl.String})  # fmt: skip
    store.run("delete_skill_events")  # last: a run stopped before here starts over from `start`
    store.insert_rows("skill_events", [{"event": e, "fingerprint": fp, "first_period": first}
                                       for e, (fp, first) in sorted(now.items())],
                      {"event": pl.String, "fingerprint": pl.UInt64, "first_period": pl.String})  # fmt: skip
    return {"periods_rated": rated, "periods_total": len(all_labels),
            "rows": store.table_count("skill_ratings"), "boards": boards,
            "imps_per_trick": params.imps_per_trick}  # fmt: skip


def _store_history(store: Store, rows: list[tuple]) -> None:
    import polars as pl

    if not rows:
        return
    schema = {"period": pl.String, "idx": pl.Int32, "player": pl.String, "component": pl.String,
              "mean": pl.Float64, "var": pl.Float64, "boards": pl.Int32}  # fmt: skip
    store.insert_frame("skill_history", pl.DataFrame([list(c) for c in zip(*rows, strict=True)],
                                                     schema=schema, orient="col"))  # fmt: skip
    # Written to the file now, and DuckDB's blocks given back: left to the automatic checkpoint,
    # the inserts' rows were held until the WAL reached 16 MB, and the insert that crossed it
    # wrote them all; at 1M generated results the rating loop's peak rose 56 MB (issue 37).
    store.checkpoint()
    give_back_memory(store)


def skill_table(store: Store) -> list[dict[str, Any]]:
    """Every stored skill rating, by player and component."""
    return store.rows("skill_ratings_all")
