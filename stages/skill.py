"""Stage `skill`: the ddrank skill rating on a scored field: table results + DD facts.

Reads either a Valet directory (with the cached `dd_tables.csv` / `dd_leads.csv` that
`bench/make_valet_dd.py` writes) or the store (the one results model `scored_results`, read once,
with `dd_tables` and `play_traces`), turns
each table result into a `SkillBoard`, and runs `ddrank.ratings.skill` period by period. In the
store the result is kept in `skill_ratings`; a later run rates only the periods that are new
(the Gaussian states are all the model needs), so it is incremental on new events.
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


#: Rated table results read from the store per batch of whole events (`skill_row_batches`).
SKILL_BATCH = 50_000


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


def skill_event_batches(store: Store, event: str | None = None,
                        batch: int = SKILL_BATCH) -> list[list[str]]:  # fmt: skip
    """The scored events (`event`: that one, or its parts "EVENT (...)"), the earliest period
    first, cut into batches of whole events of about `batch` rated table results each."""
    first: dict[str, str] = {}
    count: dict[str, int] = defaultdict(int)
    for name, day, year, n in store.tuples("skill_event_sizes"):
        if event is not None and name != event and not name.startswith(f"{event} ("):
            continue
        label = f"{sortable_date(str(day or year or ''))} {name}"  # as the field's periods
        first[name] = min(first.get(name, label), label)
        count[name] += int(n)
    out: list[list[str]] = []
    size = batch
    for name in sorted(first, key=lambda e: (first[e], e)):
        if size + count[name] > batch:
            out.append([])
            size = 0
        out[-1].append(name)
        size += count[name]
    return out


def skill_row_batches(store: Store, event: str | None = None,
                      batch: int = SKILL_BATCH) -> Iterator[list[SkillRow]]:  # fmt: skip
    """The store's rated table results as SkillRows, a batch of whole events at a time (a board
    never spans events), each batch in period order and the batches in period order too."""
    for names in skill_event_batches(store, event, batch):
        yield _skill_rows_of(store, names)


def _skill_rows_of(store: Store, events: list[str]) -> list[SkillRow]:
    """The events' scored table results with their DD tables and opening-lead traces."""
    scored = store.rows("scored_tables_of", events=events)
    loaded = tables_from_scored(scored, str(store.path))
    deal_of = {r["record_id"]: r["deal_id"] for r in scored}
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


def rate_store(store: Store, event: str | None = None, full: bool = False,
               batch: int = SKILL_BATCH) -> dict[str, Any]:  # fmt: skip
    """Rate the store's new periods on top of the stored `skill_ratings` (all with `full`).

    The store is read a batch of whole events (about `batch` results) at a time: each batch's boards are added to the
    fit's columns (`ddrank.ratings.skill_fit`: a few numbers a board) and the boards of periods
    to rate are spooled to a temporary file, so memory holds one batch, not the archive. Then
    the fitted model rates the new periods in order, one period's boards read back at a time."""
    import pickle
    import tempfile

    import polars as pl

    if full:
        store.run("delete_skill_ratings")
        store.run("delete_skill_periods")
    done = dict(store.tuples("skill_periods"))
    final: sk.States = {
        (p, c): sk.SkillState(r, se * se, b, lp)
        for p, c, r, se, b, lp in store.tuples("skill_states")
    }
    cols, labels, boards = FitColumns(), set(done), 0
    spooled: dict[str, list[int]] = defaultdict(list)  # period -> where its boards are
    with tempfile.TemporaryFile(prefix="ddrank-skill-") as spool:
        for rows in skill_row_batches(store, event, batch):
            boards += len(rows)
            cols.add(r.skill for r in rows)
            for label, period in periods_of(rows):
                labels.add(label)
                if label not in done:
                    spooled[label].append(spool.tell())
                    pickle.dump(period, spool, protocol=pickle.HIGHEST_PROTOCOL)
            del rows  # not kept while the next batch is read
        params = fit_params_from(cols, sk.SkillParams())
        del cols
        all_labels = sorted(labels)
        index = {p: i for i, p in enumerate(all_labels)}
        rated = sorted(spooled)
        for label in rated:
            period = []
            for offset in spooled[label]:
                spool.seek(offset)
                period += pickle.load(spool)  # noqa: S301 - this run's own spool file
            final = sk.update_period(final, period, index[label], params)
    out = sk.player_rows(final)
    store.run("delete_skill_ratings")
    store.insert_rows("skill_ratings", out, _skill_rating_schema())
    store.run("delete_skill_periods")
    store.insert_rows("skill_periods", [{"period": p, "idx": i} for i, p in enumerate(all_labels)],
                      {"period": pl.String, "idx": pl.Int32})  # fmt: skip
    return {"periods_rated": rated, "periods_total": len(all_labels), "rows": len(out),
            "boards": boards, "imps_per_trick": params.imps_per_trick}  # fmt: skip


def _skill_rating_schema() -> dict[str, Any]:
    import polars as pl

    return {"player": pl.String, "component": pl.String, "rating": pl.Float64, "se": pl.Float64,
            "boards": pl.Int32, "last_period": pl.Int32}  # fmt: skip


def skill_table(store: Store) -> list[dict[str, Any]]:
    """Every stored skill rating, by player and component."""
    return store.rows("skill_ratings_all")
