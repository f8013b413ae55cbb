"""Stage `split`: Cammarata's split of the IMP events' Butler scores into bid and play.

Reads the one results model (`scored_results`, query `scored_tables_of`) a batch of whole events
at a time (bounded memory: issue 37), compares the tables of each board that played the same
cards, checks Theorem 1 on every pair of tables, sums each pair's and player's splits in the
order one pass would (the same sums to the last bit) and writes pairs.csv, players.csv,
errors.csv and split_report.md.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddrank.scoring.intake.results import (
    PairAndPlayerSums,
    RecordError,
    group_boards,
    pair_label,
)
from ddrank.split import SplitTotals, aggregate_splits, split_field
from ddrank.types import Seat
from publish.field import TopRows, report_header, write_errors, write_md
from publish.tables import write_csv
from stages.run import give_back_memory
from stages.scoring import cut
from store import Store

if TYPE_CHECKING:
    from stages.field import LoadedField

Row = dict[str, Any]


#: Scored table results split per read of whole events (bounded memory).
SPLIT_BATCH = 20_000


@dataclass
class SplitField:
    """What the report says of the field split: its source, tables, boards and the records
    left out (rows first, then duplicate tables, as one pass lists them)."""

    source: str
    tables: int = 0
    boards: range = range(0)
    errors: list[RecordError] = field(default_factory=list)


def split_imp_events(store: Store, events: Sequence[str], out_dir: str | Path,
                     min_boards: int = 30) -> Row:  # fmt: skip
    """The split of the given (IMP) events' boards; matchpoint events have no IMPs to split.

    Each event's table splits are kept (`split_tables`, with the event's counts and records left
    out in `split_events`), and every pair's and player's running sums (`split_totals`): a run
    splits only the events whose scores changed since (read a batch of whole events at a time),
    and sums again, in the order of one pass over every event, only the pairs and players those
    events hold (issue 37: adding one event to an archive splits one event), a part of them at a
    time. pairs.csv and players.csv are written from the kept sums a chunk of rows at a time
    (issue 37: the split's memory does not grow with the archive's pairs and players, beyond one
    pass's running sums). The files are the same bytes as one pass over every event."""
    wanted = sorted(set(events))
    key = f"{SPLIT_VERSION}|{store.path}"
    # a run that stopped halfway left its mark: nothing kept is trusted, every event is split
    kept = {} if store.scalar("split_unfinished") else dict(store.tuples("split_event_hashes"))
    asked = set(wanted)
    now = {ev: f"{key}|{h}" for ev, h in store.tuples("scored_event_hashes") if ev in asked}
    todo = [ev for ev in wanted if kept.get(ev) != now.get(ev)]
    whole = len(todo) == len(wanted)  # nothing kept to reuse: the pass's sums are the totals
    # Not one transaction: DuckDB holds a transaction's rows in memory until it commits (an
    # archive's million table splits). The mark says a run is unfinished until its last write.
    store.run("mark_split_unfinished")
    if whole:
        touched = None
        store.run("delete_split_tables", events=None)
        store.run("delete_split_events", events=None)
        store.run("delete_split_totals")
    else:
        again = todo + sorted(set(kept) - asked)  # changed, and no longer asked for
        touched = _labels(store.tuples("split_labels_of", events=again))
        store.run("delete_split_tables", events=again)
        store.run("delete_split_events", events=again)
    sums = _split_events(store, todo, [now.get(ev, key) for ev in todo], touched)
    if whole:
        _keep_totals(store, sums)
        del sums
    else:
        pairs, players = touched or (set(), set())
        store.run("delete_split_totals_of", pairs=sorted(pairs), players=sorted(players))
        _keep_sums(store, pairs, players)
    counts = store.rows("split_event_counts")
    store.run("mark_split_finished")
    loaded = SplitField(str(store.path))
    worst, boards = 0.0, 0
    dups: list[RecordError] = []
    for c in counts:  # in event order, as one pass reads them
        loaded.tables += c["tables"]
        boards += c["boards"]
        worst = max(worst, c["worst"])
        loaded.errors += [RecordError(**e) for e in json.loads(c["errors"])]
        dups += [RecordError(**e) for e in json.loads(c["duplicates"])]
    if not boards and not loaded.errors:
        return {"skipped": "no IMP event"}
    loaded.errors += dups
    loaded.boards = range(boards)
    return write_split(loaded, (_kept_rows(store, "pair"), _kept_rows(store, "player")),
                       sum(c["splits"] for c in counts), worst, out_dir, min_boards)  # fmt: skip


#: Bumped when the split's arithmetic or what it keeps changes: every event is split again.
SPLIT_VERSION = "2"  # 2: the four names as columns


def _labels(rows: Sequence[tuple]) -> tuple[set[str], set[str]]:
    """(pair label, name, name) rows -> the pair labels and player names they hold."""
    pairs, players = set(), set()
    for label, a, b in rows:
        pairs.add(label)
        players.update((a, b))
    return pairs, players


def _split_events(store: Store, events: Sequence[str], hashes: Sequence[str],
                  touched: tuple[set[str], set[str]] | None) -> PairAndPlayerSums | None:  # fmt: skip
    """Split the given events (a batch of whole events at a time, in event order), keep each
    one's table splits and counts, and note the pairs and players they hold in `touched` (when
    given).
    Returns the running sums of one pass over them when every event is split (`touched` None):
    the pairs and players of the archive, a few hundred bytes each, not read again from the
    kept table splits (that read sorts them: more memory, issue 37)."""
    from stages.field import scored_tables_field

    hash_of = dict(zip(events, hashes, strict=True))
    sizes: dict[str, int] = {}
    for ev, _, _, n in store.tuples("skill_event_sizes"):  # an event's rows of each date
        if ev in hash_of:
            sizes[ev] = sizes.get(ev, 0) + n
    sums = PairAndPlayerSums(SplitTotals) if touched is None else None
    source = str(store.path)
    empty = [ev for ev in events if ev not in sizes]  # no table result: kept as such
    _insert_columns(store, "split_events", {k: [ev if k == "event" else hash_of[ev] if
                                                k == "content_hash" else "[]" if t == "s" else 0
                                                for ev in empty] for k, t in EVENT_TYPES.items()},
                    EVENT_TYPES)  # fmt: skip
    for batch in cut(sorted(sizes.items()), SPLIT_BATCH):
        of: dict[str, list[Row]] = {ev: [] for ev in batch}
        for r in store.rows("scored_tables_of", events=batch):
            of[r["event"]].append(r)
        tables: dict[str, list[Any]] = defaultdict(list)
        counts = []
        for ev in batch:
            part = scored_tables_field(of.pop(ev), source)
            grouped, dup_errors = group_boards(part.results)
            groups = [g for gs in grouped.values() for g in gs]
            splits, residual = split_field(groups)
            if sums is not None:
                sums.add(splits)
            for seq, t in enumerate(splits):
                declarer = t.result.declarer
                names = t.result.names  # N E S W: the pairs are (N, S) and (E, W)
                if touched is not None:
                    touched[0].update((pair_label(t.result.ns_pair), pair_label(t.result.ew_pair)))
                    touched[1].update(names)
                for k, v in zip(TABLE_TYPES, (ev, seq, names[Seat.N], names[Seat.S],
                                              names[Seat.E], names[Seat.W], t.butler, t.bid,
                                              t.play, t.luck,
                                              None if declarer is None else declarer.is_ns),
                                strict=True):  # fmt: skip
                    tables[k].append(v)
            counts.append({"event": ev, "content_hash": hash_of[ev],
                           "tables": sum(len(g) for g in groups), "boards": len(grouped),
                           "splits": len(splits), "worst": residual,
                           "errors": json.dumps([asdict(e) for e in part.errors]),
                           "duplicates": json.dumps([asdict(e) for e in dup_errors])})  # fmt: skip
        _insert_columns(store, "split_tables", tables, TABLE_TYPES)
        _insert_columns(store, "split_events", {k: [c[k] for c in counts] for k in EVENT_TYPES},
                        EVENT_TYPES)  # fmt: skip
        del of, tables, counts, part, grouped, groups, splits
        # nor the blocks this batch read (DuckDB keeps them: +50 MB over a 1M archive's batches)
        # nor its freed heap are kept for the next batch
        give_back_memory(store)
    return sums


TABLE_TYPES = {"event": "s", "seq": "i", "north": "s", "south": "s", "east": "s", "west": "s",
               "butler": "f", "bid": "f", "play": "f", "luck": "f",
               "declarer_ns": "b"}  # fmt: skip
EVENT_TYPES = {"event": "s", "content_hash": "s", "tables": "i", "boards": "i", "splits": "i",
               "worst": "f", "errors": "s", "duplicates": "s"}  # fmt: skip
TOTAL_TYPES = {"kind": "s", "label": "s", "boards": "i", "butler": "f", "bid": "f", "play": "f",
               "defence": "f", "luck": "f", "declared": "i", "defended": "i"}  # fmt: skip


def _insert_columns(store: Store, table: str, columns: dict[str, list[Any]],
                    types: dict[str, str]) -> None:  # fmt: skip
    import polars as pl

    of = {"s": pl.String, "i": pl.Int64, "f": pl.Float64, "b": pl.Boolean}
    if columns and len(next(iter(columns.values()))):
        store.insert_frame(table, pl.DataFrame({k: columns[k] for k in types},
                                               schema={k: of[t] for k, t in types.items()}))  # fmt: skip


#: A read of the kept table splits' sides (a table split counted for one pair or player) covers
#: about this many sides: DuckDB sorts one read's sides by label, Python holds one label's sums
#: (issue 37: memory that does not grow with the archive).
SIDES_PER_READ = 500_000
#: Rows fetched at a time (sides summed, pairs.csv's and players.csv's rows written).
SPLIT_ROWS = 10_000


def _keep_totals(store: Store, sums: PairAndPlayerSums | None) -> None:
    """Keep the running sums of the pairs and players in `sums`, SPLIT_ROWS at a time."""
    for kind, of in (("pair", sums.pairs), ("player", sums.players)) if sums else ():
        _insert_totals(store, kind, of.items())


def _insert_totals(store: Store, kind: str, sums: Iterable[tuple[str, SplitTotals]]) -> None:
    """Keep the (label, sums) of pairs or players (`kind`) in split_totals, SPLIT_ROWS a write."""
    cols: dict[str, list[Any]] = defaultdict(list)
    for label, t in sums:
        cols["kind"].append(kind)
        cols["label"].append(label)
        for k in TOTAL_TYPES:
            if k not in ("kind", "label"):
                cols[k].append(getattr(t, k))
        if len(cols["label"]) >= SPLIT_ROWS:
            _insert_columns(store, "split_totals", cols, TOTAL_TYPES)
            cols.clear()
    _insert_columns(store, "split_totals", cols, TOTAL_TYPES)


def _keep_sums(store: Store, pairs: set[str] | None, players: set[str] | None) -> None:
    """Sum every pair's and player's table splits again from the kept ones (only those of
    `pairs` and `players` when given) and keep the sums in `split_totals`.

    Each label's splits are added in the order of one pass over every event (event, the table's
    place in its pass, then North-South before East-West and the seats N, S, E, W), so the sums
    are the same to the last bit. A read holds a part of the labels (by the label's hash) with
    their sides sorted by label, so Python holds the sums of one label at a time and DuckDB
    sorts about SIDES_PER_READ sides at a time (the given labels' share of the sides taken as
    their share of the labels)."""
    tables = store.table_count("split_tables")
    for kind, labels, sides in (("pair", pairs, 2), ("player", players, 4)):
        if labels is not None and not labels:
            continue
        share = 1.0
        if labels is not None:  # the others' sums are kept
            others = store.scalar(sql="select count(*) from split_totals where kind = $kind",
                                  kind=kind)  # fmt: skip
            share = len(labels) / (len(labels) + others)
        parts = max(1, math.ceil(tables * sides * share / SIDES_PER_READ))
        for part in range(parts):  # a part's sums are kept once its read is done
            read = store.batches(f"split_{kind}_sides", size=SPLIT_ROWS, parts=parts, part=part,
                                 labels=None if labels is None else sorted(labels))  # fmt: skip
            _insert_totals(store, kind, list(_label_sums(read)))


def _label_sums(read: Iterable[list[Row]]) -> Iterator[tuple[str, SplitTotals]]:
    """(label, its sums) from batches of sides sorted by label (each label's in pass order)."""
    label: Any = _NO_LABEL
    t = SplitTotals()
    for rows in read:
        for r in rows:
            if r["label"] != label:
                if label is not _NO_LABEL:
                    yield label, t
                label, t = r["label"], SplitTotals()
            t.add_values(r["butler"], r["bid"], r["play"], r["luck"], r["declarer_ns"],
                         r["side_ns"])  # fmt: skip
    if label is not _NO_LABEL:
        yield label, t


_NO_LABEL = object()  # before the first side (a label may be any string)


def _kept_rows(store: Store, kind: str) -> Iterator[Row]:
    """The kept sums of every pair (or player) as pairs.csv's (players.csv's) rows, by label,
    read SPLIT_ROWS at a time."""
    for rows in store.batches("split_totals_by_label", size=SPLIT_ROWS, kind=kind):
        for r in rows:
            yield SplitTotals(**{k: r[k] for k in TOTAL_TYPES if k not in ("kind", "label")}
                              ).row(r["label"])  # fmt: skip


SPLIT_COLUMNS = ["players", "boards", "butler", "bid", "play", "defence", "luck"]


def run_split(loaded: LoadedField, out_dir: str | Path, min_boards: int = 30) -> Row:
    """Cammarata split of every board; pairs.csv and players.csv in IMPs per board."""
    groups = [g for gs in loaded.boards.values() for g in gs]
    splits, residual = split_field(groups)
    return write_split(loaded, aggregate_splits(splits), len(splits), residual, out_dir,
                       min_boards)  # fmt: skip


def write_split(loaded: Any, sums: tuple[Iterable[Row], Iterable[Row]], tables: int,
                residual: float, out_dir: str | Path, min_boards: int) -> Row:  # fmt: skip
    """Theorem 1 checked, then pairs.csv, players.csv, errors.csv and split_report.md. The rows
    pass once (they may be read a chunk at a time): the report keeps only the best of them."""
    out = Path(out_dir)
    if residual > 1e-9:
        raise ArithmeticError(f"Theorem 1 violated by {residual:g} IMPs: a bug, please report")
    pairs, players = sums
    top = TopRows(SPLIT_COLUMNS[2:], min_boards)
    files = [
        write_csv(out / "pairs.csv", top.through("pairs", pairs), SPLIT_COLUMNS),
        write_csv(out / "players.csv", top.through("players", players), SPLIT_COLUMNS),
        write_errors(out, loaded.errors),
    ]
    lines = report_header(
        "Cammarata split of the Butler score",
        loaded,
        [
            f"Theorem 1 (Butler_jk = Bid_jk + Play_j + Play_k) holds on every pair of tables: "
            f"max residual {residual:.2e} IMPs",
            "columns in IMPs per board; butler = bid + play + defence + luck",
        ],
    )
    lines += top.sections()
    files.append(write_md(out / "split_report.md", lines))
    return {"tables": tables, "pairs": top.rows["pairs"], "players": top.rows["players"],
            "max_residual": residual, "errors": len(loaded.errors),
            "files": [str(f) for f in files]}  # fmt: skip
