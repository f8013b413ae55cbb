"""The scoring stage's exports from the store: results.csv, ranking.csv, teams.csv, butler.csv,
errors.csv and report.md, each event's part made once and kept (issue 37)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

from ddrank.scoring.intake.results import RecordError
from publish import scores as publish
from stages.rankings import stored_checks
from stages.run import give_back_memory
from stages.scoring import Row, cut, save_errors
from store import Store

#: Table results read from the store per batch while the events' export parts are made.
EXPORT_BATCH = 10_000
#: Bumped when an output file's format changes: every event's kept part is made again.
#: 2: the texts packed (`packed`), the text columns of version 1 left empty.
EXPORT_VERSION = "2"


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
            for r in store.rows("export_parts", events=names[i : i + PARTS_PER_READ]):
                yield unpacked(r)
        return
    import tempfile

    at = {key: i for i, key in enumerate(keys)}  # (event, content hash) -> its place
    kept: list[Row | None] = [None] * len(keys)  # each part, its text where the spool has it
    with tempfile.TemporaryFile() as spool:
        for rows in store.batches("export_parts_stored", size=PARTS_PER_READ):
            for r in rows:
                i = at.pop((r["event"], r["content_hash"]), None)
                if i is None:  # not exported (another event's part, or made from old scores)
                    continue
                data = r.pop("packed")
                r["packed"] = (spool.tell(), len(data))
                spool.write(data)
                kept[i] = r
        give_back_memory(store)  # the table's blocks DuckDB cached as it went through
        for i, r in enumerate(kept):
            if r is None:
                continue
            kept[i] = None  # its text is not kept once written
            offset, size = r["packed"]
            spool.seek(offset)
            r["packed"] = spool.read(size)
            yield unpacked(r)


def packed(block: Row) -> bytes:
    """A part's texts (PART_TEXTS) as one zlib-compressed value: their UTF-8 lengths on a first
    line, then the texts. Kept small, because DuckDB rewrites the whole export_parts table at
    each automatic checkpoint while the parts are made: as text, 177 MB at 1M generated results
    raised the process's peak by 320 MB in the batch that checkpointed (issue 37); packed, 8%."""
    import zlib

    data = [(block[c] or "").encode() for c in PART_TEXTS]
    head = ",".join(str(len(d)) for d in data).encode()
    return zlib.compress(b"\n".join([head, *data]), PACK_LEVEL)


#: zlib's level for the parts: 1 packs CSV text to about a tenth, at over 100 MB a second.
PACK_LEVEL = 1


def unpacked(row: Row) -> Row:
    """A kept part's row with its texts (`packed`'s inverse)."""
    import zlib

    data = zlib.decompress(row.pop("packed"))
    head, _, rest = data.partition(b"\n")
    at = 0
    for c, n in zip(PART_TEXTS, map(int, head.split(b",")), strict=True):
        row[c] = rest[at : at + n].decode()
        at += n + 1  # and the newline after it
    return row


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
            block = publish.event_block(rows["results"], rows["pairs"], rows["butler"],
                                        rows["teams"])  # fmt: skip
            parts.append({"event": ev, "content_hash": hashes[ev], "version": EXPORT_VERSION,
                          "results": block["results"], "teams": block["teams"],
                          "packed": packed(block)})  # fmt: skip
            del rows
        store.run("delete_export_parts", events=names)
        store.insert_frame("export_parts", pl.DataFrame(parts, schema={
            c: pl.Int64 if c in ("results", "teams") else pl.Binary if c == "packed" else pl.String
            for c in EXPORT_PARTS}))  # fmt: skip
        give_back_memory(store)  # the next batch does not start from this one's reads
    return len(todo)


#: A kept part's columns as made (the texts packed: `packed`).
EXPORT_PARTS = ["event", "content_hash", "version", "results", "teams", "packed"]
