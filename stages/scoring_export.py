"""The scoring stage's exports from the store: results.csv, ranking.csv, teams.csv, butler.csv,
errors.csv and report.md, each event's part made once and kept (issue 37)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

from ddrank.scoring.intake.results import RecordError
from publish import scores as publish
from stages.rankings import stored_checks
from stages.scoring import Row, cut, save_errors
from store import Store

#: Table results read from the store per batch while the events' export parts are made.
EXPORT_BATCH = 10_000
#: Bumped when an output file's format changes: every event's kept part is made again.
EXPORT_VERSION = "1"


def export(store: Store, out_dir: str, source: str, errors: Iterable[RecordError],
           events: Sequence[str] | None = None) -> Row:  # fmt: skip
    """results.csv, ranking.csv, teams.csv, butler.csv, errors.csv and report.md from the store.
    Each event's part of them is made once from its stored rows (`make_export_parts`) and kept
    in `export_parts`; the files are the parts one after the other, streamed from the store in
    event order, so adding one event to an archive of a million results renders one event
    (issue 37), and the archive's rows are never all in memory. `errors` is read twice (kept,
    then written): a list, or a `stages.scoring_groups.StoredErrors` that reads the store again
    each time, so that the archive's errors are not all in memory either."""
    save_errors(store, errors)
    make_export_parts(store)
    ev = None if events is None else list(events)
    return publish.write_block_outputs(out_dir, source, stored_parts(store, ev),
                                       stored_checks(store, ev), errors)  # fmt: skip


#: Events whose kept export parts are read per query when a few events are exported.
PARTS_PER_READ = 8
#: Exporting more events than this, the parts are read in one pass through the table (spooled).
PARTS_BY_QUERY_UP_TO = 64
#: The text columns of a kept part (the rest are its key and counts).
PART_TEXTS = ("results_csv", "ranking_csv", "teams_csv", "butler_csv", "report_md")


def stored_parts(store: Store, events: list[str] | None) -> Iterator[Row]:
    """The kept export parts in event order. The event names are ordered first (small);
    ordering the parts themselves would sort every event's text at once, which ran DuckDB out
    of its 512 MB at 1M results (issue 37). A few events are read a few per query; more are
    read in one pass through the table, in its order, their text spooled to a temporary file
    and written from it in event order: a query per few events read the whole table's text
    each time (a table of 500 events is one vector), quadratic in the archive (11 CPU-s of
    export at 1M results)."""
    keys = store.tuples("export_part_keys", events=events)
    names = [ev for ev, _ in keys]
    if len(names) <= PARTS_BY_QUERY_UP_TO:
        for i in range(0, len(names), PARTS_PER_READ):
            yield from store.rows("export_parts", events=names[i : i + PARTS_PER_READ])
        return
    import tempfile

    at = {key: i for i, key in enumerate(keys)}  # (event, content hash) -> its place
    kept: list[Row | None] = [None] * len(keys)  # each part without its text: where it is
    with tempfile.TemporaryFile() as spool:
        for rows in store.batches("export_parts_stored", size=PARTS_PER_READ):
            for r in rows:
                i = at.pop((r["event"], r["content_hash"]), None)
                if i is None:  # not exported (another event's part, or made from old scores)
                    continue
                for c in PART_TEXTS:
                    text = r[c]
                    if text is not None:
                        data = text.encode()
                        r[c] = (spool.tell(), len(data))
                        spool.write(data)
                kept[i] = r
        for r in kept:
            if r is None:
                continue
            for c in PART_TEXTS:
                if r[c] is not None:
                    offset, size = r[c]
                    spool.seek(offset)
                    r[c] = spool.read(size).decode()
            yield r


def make_export_parts(store: Store) -> int:
    """Make and keep the export part of each scored event that has none (new, rescored, or made
    by an older EXPORT_VERSION): its rows read a batch of whole events at a time, in the files'
    order. Returns the events made."""
    import polars as pl

    todo = store.tuples("events_without_export_parts", version=EXPORT_VERSION)
    hashes = {ev: h for ev, h, _ in todo}
    for names in cut([(ev, n) for ev, _, n in todo], EXPORT_BATCH):
        of: dict[str, dict[str, list[Row]]] = {ev: defaultdict(list) for ev in names}
        for key, query in (("results", "export_results"), ("pairs", "export_pair_rankings"),
                           ("butler", "export_butler_rankings"), ("teams", "export_team_matches")):  # fmt: skip
            for rows in store.batches(query, size=EXPORT_BATCH, events=names):
                for r in rows:
                    of[r["event"]][key].append(r)
        parts = []
        for ev in names:
            rows = of.pop(ev)
            parts.append({"event": ev, "content_hash": hashes[ev], "version": EXPORT_VERSION,
                          **publish.event_block(rows["results"], rows["pairs"], rows["butler"],
                                                rows["teams"])})  # fmt: skip
            del rows
        store.run("delete_export_parts", events=names)
        store.insert_frame("export_parts", pl.DataFrame(parts, schema={
            c: pl.Int64 if c in ("results", "teams") else pl.String for c in EXPORT_PARTS}))  # fmt: skip
    return len(todo)


EXPORT_PARTS = ["event", "content_hash", "version", "results", "teams", "results_csv",
                "ranking_csv", "teams_csv", "butler_csv", "report_md"]  # fmt: skip
