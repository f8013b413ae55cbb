"""`read(path)`: one file through the reader its content names, with its companion file if any.

The formats, their sniffers and their `bytes -> ParsedFile` readers are one table in the pure
`ddrank.parsers.registry`; this module does the file I/O around it: it reads the head and the
bytes, finds the companion file (a hand record beside its results), and opens the two database
formats, whose libraries read files.
"""

from __future__ import annotations

import gc
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from ddrank.cleaning import is_hand_record
from ddrank.events import attach_to_event, name_unnamed
from ddrank.limits import DEFAULT_LIMITS, LimitExceeded, Limits, RefusedInput
from ddrank.parsers.bridgedeals import record_from_row
from ddrank.parsers.registry import (
    FORMATS,
    SNIFF_BYTES,
    UnreadableFile,
    check_rows,
    decode_text,
    read_bytes,
    sniff,
    unreadable,
)
from ddrank.parsers.values import check_lengths, check_values
from ddrank.raw import ParsedFile, RawEvent, RawRecord, number_repeats
from store.inputs.files import expand_paths, named_safely, open_input, read_input, shown


def detect_format(path: Path) -> str:
    """A file's format from its first 64 KiB (`ddrank.parsers.registry.sniff`)."""
    with open_input(path) as fh:
        return sniff(fh.read(SNIFF_BYTES))


def companion_of(path: Path) -> Path | None:
    """The results file a hand-record PBN belongs to: `X.bws` beside `X.pbn`, or `X.usebio.xml`
    beside `X.hands.pbn`. Its deals are joined to those results by their reader."""
    name = path.name
    if name.lower().endswith(".hands.pbn"):
        stem = name[: -len(".hands.pbn")]
        for cand in (f"{stem}.usebio.xml", f"{stem}.xml"):
            if (path.parent / cand).exists():
                return path.parent / cand
    if path.suffix.lower() == ".pbn":
        for ext in (".bws", ".BWS"):
            if path.with_suffix(ext).exists():
                return path.with_suffix(ext)
    return None


def hands_of(path: Path) -> Path | None:
    """The hand record beside a results file: `X.hands.pbn` beside `X.usebio.xml` (or `X.xml`),
    the mirror of `companion_of`; the results reader joins its deals by board number."""
    name = path.name
    for suffix in (".usebio.xml", ".xml"):
        if name.lower().endswith(suffix):
            hands = path.parent / f"{name[: -len(suffix)]}.hands.pbn"
            return hands if hands.exists() else None
    return None


#: Longest string or blob a SQLite value may be while ddrank reads (SQLITE_LIMIT_LENGTH): a
#: `bridgedeals` row holds a deal and an auction and play of a few hundred characters.
SQLITE_MAX_VALUE = 1 << 20


def _open_sqlite(path: Path) -> sqlite3.Connection:
    """The file read-only, no value longer than `SQLITE_MAX_VALUE` (a generated `zeroblob`)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, SQLITE_MAX_VALUE)
    return db


def check_sqlite(db: sqlite3.Connection, limits: Limits) -> None:
    """Refuse a `bridgedeals` that could compute rows or values without bound, before any row is
    read: a view (a recursive one is a few KB and endless), a virtual table, a table with
    generated columns, or a table with more rows than `max_rows`."""
    found = db.execute("SELECT type, sql FROM sqlite_master WHERE name = 'bridgedeals' COLLATE "
                       "NOCASE AND type IN ('table', 'view')").fetchall()  # fmt: skip
    if not found:
        return  # no such table: the SELECT says so, as before
    kind, sql = found[0]
    if kind == "view":
        raise RefusedInput("its bridgedeals is a view, not a table (a view computes its rows "
                           "when read, without bound); export the rows into a table")  # fmt: skip
    if re.match(r"\s*CREATE\s+VIRTUAL\s+TABLE", sql or "", re.IGNORECASE):
        raise RefusedInput("its bridgedeals is a virtual table, not a plain table; export the "
                           "rows into a table")  # fmt: skip
    if any(col[6] in (2, 3) for col in db.execute("PRAGMA table_xinfo(bridgedeals)")):
        raise RefusedInput("its bridgedeals table has generated columns (computed when read); "
                           "export the rows into a plain table")  # fmt: skip
    # one row past the limit is enough to refuse: the count stops there
    rows = db.execute("SELECT count(*) FROM (SELECT 1 FROM bridgedeals LIMIT ?)",
                      (limits.max_rows + 1,)).fetchall()[0][0]  # fmt: skip
    limits.check("max_rows", rows, "table bridgedeals", exact=False)


def _read_sqlite(path: Path, limits: Limits = DEFAULT_LIMITS) -> ParsedFile:
    """The paper's `bridgedeals` table in a SQLite file (`check_sqlite` first)."""
    try:
        with closing(_open_sqlite(path)) as db:
            check_sqlite(db, limits)
            db.row_factory = sqlite3.Row
            records = [record_from_row(dict(r), str(path), k + 1)
                       for k, r in enumerate(db.execute("SELECT * FROM bridgedeals"))]  # fmt: skip
        return ParsedFile("sqlite", number_repeats(records))
    except sqlite3.DatabaseError as exc:
        return unreadable(str(path), "sqlite", f"not readable: {exc}")


def _read_bws(path: Path, limits: Limits = DEFAULT_LIMITS) -> ParsedFile:
    try:
        from store.inputs.bridgemate import read_bws
    except ImportError as exc:
        raise UnreadableFile(f"the Bridgemate .bws reader is not installed ({exc})") from exc
    return read_bws(path, limits)


#: The database formats of the registry (`read=None` there): opened from their file, since their
#: libraries read files, not bytes. `reader(path, limits)`.
FILE_READERS: dict[str, Callable[[Path, Limits], ParsedFile]] = {"bws": _read_bws,
                                                                 "sqlite": _read_sqlite}  # fmt: skip


def _read_format(path: Path, fmt: str, results: Path | None, limits: Limits,
                 data: bytes | None = None) -> ParsedFile:  # fmt: skip
    """Bytes (`data`, else the file's) to the registry's reader, with the companion's text or
    name; a database by file."""
    if fmt in FILE_READERS:
        parsed = FILE_READERS[fmt](path, limits)
        check_rows(parsed, limits)
        return parsed
    hands = hands_of(path) if fmt == "usebio" else None
    data = read_input(path, limits) if data is None else data
    return read_bytes(data, str(path), fmt, limits=limits,
                      hands=decode_text(read_input(hands, limits)) if hands else None,
                      results=str(results) if results else None)  # fmt: skip


def check_size(path: Path, limits: Limits) -> None:
    """Refuse a file over `max_file_bytes` from its size, before a byte of it is read."""
    limits.check("max_file_bytes", path.stat().st_size)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a reader builds a file's records.

    A reader allocates hundreds of thousands of small objects and makes no reference cycles, so
    every collection finds nothing, yet each scans a heap that grows with the file: 15 % of a
    200,000-result USEBIO read (`bench/bench_ingest.py`). Reference counting still frees memory
    as usual; the collector runs again when the file is read."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read(path: Path, limits: Limits = DEFAULT_LIMITS) -> ParsedFile:
    """One file, its format told by content (see `_read`); table results of a file that names no
    event get one from its folder or its name (`ddrank.events.event_from_path`). A file over one
    of the `limits` comes back refused (`ParsedFile.refused`), with no records."""
    parsed = check_values(_read(Path(path), limits))  # a non-finite or absurd number: refused
    named = name_unnamed(parsed.records, str(path))
    parsed.named_by_path = named > 0 and named == sum(not r.parse_error for r in parsed.records)
    return parsed


def _read(path: Path, limits: Limits = DEFAULT_LIMITS) -> ParsedFile:
    """One file, its format told by content: its table results, published rankings, event facts,
    conformance warnings and hand-record deals (`.deals`: games with a deal and no table result;
    the whole of a hand record beside its results file).

    Unreadable content becomes records with `parse_error` (file, line, problem), never an
    exception, so one bad file does not stop an ingest.
    """
    path = Path(path)
    results: Path | None = None
    fmt = FORMATS.get(path.suffix.lower(), "unknown")
    try:
        named_safely(path)
        check_size(path, limits)
        with open_input(path) as fh:  # opened once: the head tells the format, then the rest
            head = fh.read(SNIFF_BYTES)
            fmt = sniff(head)
            data = None
            if fmt not in FILE_READERS:  # read within the limit, whatever the size said
                data = read_input(path, limits, head, fh)
        results = companion_of(path) if fmt == "pbn" else None
        with gc_paused():
            parsed = _read_format(path, fmt, results, limits, data)
            check_lengths(parsed, limits)  # no value of it is copied per record when stored
            if results is not None:
                results_events = _results_events(results, limits)
    except (LimitExceeded, RefusedInput) as exc:
        return ParsedFile(fmt, [], refused=str(exc))
    except UnreadableFile as exc:
        return unreadable(str(path), FORMATS.get(path.suffix.lower(), "unknown"), str(exc),
                          exc.line)  # fmt: skip
    except (OSError, ValueError, MemoryError, RecursionError) as exc:
        return unreadable(str(path), FORMATS.get(path.suffix.lower(), "unknown"),
                          f"{type(exc).__name__}: {exc}")  # fmt: skip
    if parsed.format != "pbn":
        return parsed
    if results is not None:
        parsed.deals = [r for r in parsed.records if not r.parse_error]
        attach_to_event(parsed.deals, results_events)
        parsed.records = [r for r in parsed.records if r.parse_error]
        parsed.format = "pbn-hands"
        return parsed
    deals = [r for r in parsed.records if is_hand_record(r)]
    if deals:
        parsed.records = [r for r in parsed.records if not is_hand_record(r)]
        parsed.deals = deals
    return parsed


def _results_events(results: Path, limits: Limits = DEFAULT_LIMITS) -> list[RawEvent]:
    """The events of a USEBIO results file (its header: no deals joined), so that its companion
    hand record's deals join that event. [] for a .bws (its reader names no organiser) or a
    results file that cannot be read (its own ingest reports why, or refuses it)."""
    try:
        if detect_format(results) != "usebio":
            return []
        return read_bytes(read_input(results, limits), str(results), "usebio").events
    except (OSError, ValueError):
        return []


def read_parsed(path: Path) -> tuple[ParsedFile, list[RawRecord]]:
    """`read`, with the hand-record deals apart: (the file's results, its deals)."""
    parsed = read(path)
    return parsed, parsed.deals


def read_records(path: Path) -> tuple[str, list[RawRecord]]:
    """The table results of one file (format told by content), for callers that need no more."""
    parsed = read(path)
    return parsed.format, parsed.records


def read_with_ids(path: Path, limits: Limits = DEFAULT_LIMITS) -> tuple[ParsedFile, list[str]]:
    """`read` in a worker process: the record ids are computed there, not in the store's."""
    parsed = read(path, limits)
    return parsed, [r.record_id for r in parsed.records]


def unreadable_inputs(inputs: list[str | Path], limits: Limits = DEFAULT_LIMITS,
                      skip: Iterable[str | Path] = ()
                      ) -> tuple[list[Path], list[tuple[Path, str]]]:  # fmt: skip
    """The input files a reader takes, and each other one with why: decided from the first
    64 KiB of each (and its size, and a SQLite file's `bridgedeals`: `check_sqlite`), before any
    stage starts."""
    readable: list[Path] = []
    refused: list[tuple[Path, str]] = []
    for path in expand_paths(inputs, skip):
        try:
            named_safely(path)
            check_size(path, limits)
            if detect_format(path) == "sqlite":
                with closing(_open_sqlite(path)) as db:
                    check_sqlite(db, limits)
        except (UnreadableFile, LimitExceeded, RefusedInput) as exc:
            refused.append((Path(shown(path)), str(exc)))
        except sqlite3.DatabaseError as exc:
            refused.append((path, f"not readable: {exc}"))
        except OSError as exc:
            refused.append((path, exc.strerror or str(exc)))
        else:
            readable.append(path)
    return readable, refused
