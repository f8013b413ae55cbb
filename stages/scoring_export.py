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


#: Events whose kept export parts are read per query: a few, since a part holds an event's text.
PARTS_PER_READ = 8


def stored_parts(store: Store, events: list[str] | None) -> Iterator[Row]:
    """The kept export parts in event order, a few events per query. The event names are
    ordered first (small); ordering the parts themselves would sort every event's text at once,
    which ran DuckDB out of its 512 MB at 1M results (issue 37)."""
    names = [r[0] for r in store.tuples("export_part_events", events=events)]
    for i in range(0, len(names), PARTS_PER_READ):
        yield from store.rows("export_parts", events=names[i : i + PARTS_PER_READ])


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
