"""Work that runs in worker processes: parsing files and cleaning slices of pending records.

This module imports neither Prefect nor DuckDB, so a spawned worker starts in a fraction of a
second, and workers never touch the store (DuckDB allows one writer process): they get file names
and return records or write parquet files.
"""

from __future__ import annotations

import gc
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import polars as pl

from ddrank.cleaning import Reject, clean_record, has_table_result, parse_deal
from ddrank.events import attach_to_event
from ddrank.parsers.bridgedeals import parse_dump, record_from_row
from ddrank.parsers.lin import parse_lin
from ddrank.parsers.pbn import iter_pbn, read_pbn
from ddrank.parsers.pbn_conformance import conformance_warnings
from ddrank.raw import ParsedFile, RawEvent, RawRecord, RawStanding, number_repeats

# Extensions `expand_paths` picks up inside a folder. The format itself is told by content
# (`detect_format`), never by the extension.
FORMATS = {".pbn": "pbn", ".lin": "lin", ".sql": "dump", ".dump": "dump", ".csv": "csv",
           ".db": "sqlite", ".sqlite": "sqlite", ".sqlite3": "sqlite", ".xml": "usebio",
           ".bws": "bws"}  # fmt: skip
_SNIFF = 65_536  # bytes read to tell the format
_LIN_START = re.compile(rb"^\s*(?:[a-zA-Z]{2}\|)")
_PBN_START = re.compile(rb"^\s*(?:%|\[[A-Za-z]\w*\s+\")", re.MULTILINE)
_DUMP_START = re.compile(rb"^\s*(?:INSERT\s+INTO|CREATE\s+TABLE|--)", re.IGNORECASE)
_MAX_LINE = 1_000_000  # a longer line is not a hand record (a hostile or corrupted file)


class UnreadableFile(ValueError):
    """The file is not any format ddrank reads; the message says why, in plain words."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


def detect_format(path: Path) -> str:
    """Tell a file's format from its first bytes: bws, sqlite, usebio, lin, pbn, dump or csv.

    Extensions lie (a `.xml` that is HTML, a `.pbn` that is a LIN): content decides. Raises
    `UnreadableFile` for anything else, binary junk included, after reading at most 64 KiB.
    """
    with path.open("rb") as fh:
        head = fh.read(_SNIFF)
    if head[4:19] == b"Standard Jet DB" or head[4:19] == b"Standard ACE DB":
        return "bws"
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a byte-order mark (Windows exports)
        head = head.decode("utf-16", errors="replace").encode("utf-8")
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if b"\x00" in head:
        raise UnreadableFile("binary content, not a hand-record or results file")
    if text.startswith(b"<"):
        if b"<USEBIO" in text[:4096]:
            return "usebio"
        raise UnreadableFile("XML or HTML that is not USEBIO (no <USEBIO> element)")
    if _LIN_START.match(text):
        return "lin"
    if _PBN_START.match(text) or _PBN_START.search(text[:4096]):
        return "pbn"
    if _DUMP_START.match(text):
        return "dump"
    first = text.split(b"\n", 1)[0].lower()
    if b"," in first and (b"deal" in first or b"contract" in first):
        return "csv"
    raise UnreadableFile(
        "not a format ddrank reads (PBN, BBO LIN, USEBIO XML, Bridgemate .bws, the paper's "
        "dump, CSV or SQLite)"
    )


def _text(path: Path) -> str:
    data = path.read_bytes()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # old hand records are often Windows-1252/Latin-1


def _check_lines(text: str) -> None:
    """Refuse a text with an absurdly long line before a parser spends time on it.

    Window by window, not line by line: from the start of a line, a line too long is one with no
    line end in the next `_MAX_LINE + 1` characters; otherwise jump past the window's last line
    end. The loop turns about len(text) / _MAX_LINE times, so its cost is that of `str.find`."""
    pos, n, limit = 0, len(text), _MAX_LINE + 1
    while n - pos > _MAX_LINE:
        last = text.rfind("\n", pos, pos + limit)
        if last < 0:
            end = text.find("\n", pos)
            end = n if end < 0 else end
            line = text.count("\n", 0, pos) + 1
            raise UnreadableFile(
                f"line {line} is {end - pos:,} characters long (limit {_MAX_LINE:,}): "
                "not a hand record",
                line,
            )
        pos = last + 1


def _unreadable(path: Path, fmt: str, why: str, line: int = 1) -> ParsedFile:
    return ParsedFile(fmt, [RawRecord(str(path), line, fmt, parse_error=why)])


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


def _read_by_format(path: Path, fmt: str, companion: bool = False) -> ParsedFile:
    name = str(path)
    if fmt == "bws":
        try:
            from tasks.bridgemate_io import read_bws
        except ImportError as exc:
            raise UnreadableFile(f"the Bridgemate .bws reader is not installed ({exc})") from exc
        return read_bws(path)
    if fmt == "sqlite":
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                db.row_factory = sqlite3.Row
                rows = db.execute("SELECT * FROM bridgedeals").fetchall()
            return ParsedFile(fmt, number_repeats(
                [record_from_row(dict(r), name, k + 1) for k, r in enumerate(rows)]
            ))  # fmt: skip
        except sqlite3.DatabaseError as exc:
            return _unreadable(path, fmt, f"not readable: {exc}")
    if fmt == "usebio":
        try:
            from ddrank.parsers.usebio import parse_usebio
        except ImportError as exc:
            raise UnreadableFile(f"the USEBIO reader is not installed ({exc})") from exc
        hands = hands_of(path)
        return parse_usebio(path.read_bytes(), name, hands_pbn=_text(hands) if hands else None)
    if fmt == "csv":
        try:
            df = pl.read_csv(path, infer_schema=False, truncate_ragged_lines=False)
        except (pl.exceptions.PolarsError, OSError) as exc:
            return _unreadable(path, fmt, f"bad CSV: {exc}")
        return ParsedFile(fmt, number_repeats(
            [record_from_row(r, name, k + 2) for k, r in enumerate(df.iter_rows(named=True))]
        ))  # fmt: skip
    text = _text(path)
    _check_lines(text)
    if fmt == "lin":
        try:
            from ddrank.parsers.lin import parse_lin_file
        except ImportError:  # before the readers branch: the vugraph reader alone
            return ParsedFile(fmt, parse_lin(text, name))
        return parse_lin_file(text, name)
    if fmt == "dump":
        return ParsedFile(fmt, parse_dump(text, name))
    parsed = read_pbn(text, name, tables=not companion)
    parsed.warnings = conformance_warnings(text)
    return parsed


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


def read_parsed(path: Path) -> tuple[ParsedFile, list[RawRecord]]:
    """Parse one file, its format told by content. Returns the file's results and its
    hand-record deals (games with a deal and no table result; a whole companion hand record).

    Unreadable content becomes records with `parse_error` (file, line, problem), never an
    exception, so one bad file does not stop an ingest.
    """
    try:
        fmt = detect_format(path)
        companion = fmt == "pbn" and companion_of(path) is not None
        with gc_paused():
            parsed = _read_by_format(path, fmt, companion)
    except UnreadableFile as exc:
        fmt = FORMATS.get(path.suffix.lower(), "unknown")
        return _unreadable(path, fmt, str(exc), exc.line), []
    except (OSError, ValueError, MemoryError, RecursionError) as exc:
        return _unreadable(path, FORMATS.get(path.suffix.lower(), "unknown"),
                           f"{type(exc).__name__}: {exc}"), []  # fmt: skip
    if parsed.format != "pbn":
        return parsed, []
    if companion:
        deals = [r for r in parsed.records if not r.parse_error]
        attach_to_event(deals, _results_events(companion_of(path)))
        parsed.records = [r for r in parsed.records if r.parse_error]
        parsed.format = "pbn-hands"
        return parsed, deals
    deals = [r for r in parsed.records if is_hand_record(r)]
    if deals:
        parsed.records = [r for r in parsed.records if not is_hand_record(r)]
    return parsed, deals


def _results_events(results: Path | None) -> list[RawEvent]:
    """The events of a USEBIO results file (its header: no deals joined), so that its companion
    hand record's deals join that event. [] for a .bws (its reader names no organiser) or a
    results file that cannot be read (its own ingest reports why)."""
    if results is None or detect_format(results) != "usebio":
        return []
    from ddrank.parsers.usebio import parse_usebio

    try:
        return parse_usebio(results.read_bytes(), str(results)).events
    except (OSError, ValueError):
        return []


def is_hand_record(rec: RawRecord) -> bool:
    """A game with a valid deal and no table result at all: a hand record, not a result.

    A deal that does not parse stays a record, so cleaning reports it with its reason and line.
    """
    if not (
        rec.deal.strip()
        and not rec.parse_error
        and not has_table_result(rec)
        and rec.result.strip() in ("", "?")
        and rec.declarer.strip() in ("", "?")
        and rec.lead.strip() in ("", "?")
        and not rec.auction.strip()
        and not rec.play.strip()
        and not any(n.strip() for n in (rec.northname, rec.eastname, rec.southname, rec.westname))
    ):
        return False
    try:
        parse_deal(rec.deal)
    except Reject:
        return False
    return True


STREAM_BYTES = 16 * 2**20  # a PBN file larger than this is read and stored in batches


def _too_long(lineno: int) -> UnreadableFile:
    return UnreadableFile(
        f"line {lineno} is longer than {_MAX_LINE:,} characters: not a hand record", lineno
    )


def _decode_lines(data: bytes) -> list[str]:
    """Lines of a block (split on LF only), each decoded as UTF-8 or else Latin-1, without
    trailing CRs. A block that is valid UTF-8 is decoded at once (LF never occurs inside a
    multi-byte sequence, so every line of it is valid UTF-8 too)."""
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        lines = []
        for raw in data.split(b"\n"):
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                lines.append(raw.decode("latin-1"))
    if b"\r" in data:
        lines = [line.rstrip("\r") for line in lines]
    return lines


# bytes read at once by iter_lines (one read and decode per block, not per line); smaller than
# _MAX_LINE, so that only the first line of a block can be too long
_BLOCK = 1 << 19


def iter_lines(path: Path) -> Iterator[str]:
    """The lines of a text file, one at a time, each decoded as UTF-8 or else Latin-1.

    Memory holds one block and at most one line over it; a line longer than the limit is
    refused (with its number) once the lines before it are given.
    """
    for text in iter_texts(path):
        yield from text.split("\n")


_LINE_END_CR = re.compile(r"\r+(?=\n|\Z)")


def iter_texts(path: Path) -> Iterator[str]:
    """The text of a file in pieces of whole lines (about half a megabyte each, joined by line
    ends; a line end also separates one piece from the next): the lines of `iter_lines`, for a
    reader that works on many lines at once."""
    with path.open("rb") as fh:
        if fh.read(2) in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16: rare, small files
            lines = _text(path).splitlines()
            if lines:
                yield "\n".join(lines)
            return
        fh.seek(0)
        lineno = 0
        rest = b""
        while block := fh.read(_BLOCK):
            data = rest + block
            cut = data.rfind(b"\n")
            if cut < 0:
                if len(data) > _MAX_LINE + 1:  # no line end within the limit
                    raise _too_long(lineno + 1)
                rest = data
                continue
            # only the first line can be too long: every other one lies within this block
            if data.find(b"\n") > _MAX_LINE + 1:
                raise _too_long(lineno + 1)
            rest = data[cut + 1 :]
            text = _decode_text(data[:cut])
            lineno += text.count("\n") + 1
            yield text
            if len(rest) > _MAX_LINE + 1:
                raise _too_long(lineno + 1)
        if rest:  # the last line, without a line end
            if len(rest) > _MAX_LINE:
                raise _too_long(lineno + 1)
            yield _decode_text(rest)


def _decode_text(data: bytes) -> str:
    """`_decode_lines` joined again by LF: each line UTF-8 or else Latin-1, no trailing CRs."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "\n".join(_decode_lines(data))
    return _LINE_END_CR.sub("", text) if "\r" in text else text


@dataclass
class StreamedFile:
    """A large PBN or LIN file read as it is stored: records come in batches, the rest (deals,
    rankings, events) at the end."""

    format: str  # "pbn" or "lin" (detect_format)
    deals: list[RawRecord] = field(default_factory=list)
    standings: list[RawStanding] = field(default_factory=list)
    events: list[RawEvent] = field(default_factory=list)
    count: int = 0

    def parsed(self) -> ParsedFile:
        """What `read_parsed` gives besides the records."""
        return ParsedFile(self.format, [], self.standings, self.events)

    def batches(self, path: Path, size: int = 20_000) -> Iterator[list[RawRecord]]:
        """The file's table results in lists of `size`, identical records numbered as
        `number_repeats` would; hand-record games go to `deals`; an unreadable line ends the
        file with one unreadable record."""
        companion = self.format == "pbn" and companion_of(path) is not None
        seen: dict[str, int] = {}
        batch: list[RawRecord] = []
        if self.format == "lin":
            records = self._lin_records(path)
        else:
            self.format = "pbn-hands" if companion else "pbn"
            records = iter_pbn(None, str(path), not companion, self.standings,
                               texts=iter_texts(path))  # fmt: skip
        collect = gc.isenabled()  # paused while a batch is read (see gc_paused), not while used
        try:
            gc.disable()
            pbn = self.format != "lin"
            for rec in records:
                if pbn and (
                    (companion and not rec.parse_error) or (not companion and is_hand_record(rec))
                ):
                    self.deals.append(rec)
                    continue
                rid = rec.record_id
                k = seen.get(rid, 0)
                seen[rid] = k + 1
                if k:
                    rec.occurrence = k
                    del rec.record_id
                batch.append(rec)
                if len(batch) >= size:
                    self.count += len(batch)
                    if collect:
                        gc.enable()
                    yield batch
                    gc.disable()
                    batch = []
        except UnreadableFile as exc:
            batch.append(RawRecord(str(path), exc.line, "pbn", parse_error=str(exc)))
        finally:
            if collect:
                gc.enable()
        self.count += len(batch)
        if batch:
            yield batch

    def _lin_records(self, path: Path) -> Iterator[RawRecord]:
        """A LIN file's records as `read_parsed` reads them, the text read in pieces."""
        from ddrank.parsers.lin import iter_lin, parse_lin_file
        from tasks.lin_io import lin_facts, lin_pieces

        facts = lin_facts(path, _MAX_LINE)
        if facts.long_line is not None:
            line = facts.long_line
            raise UnreadableFile(
                f"line {line} is longer than {_MAX_LINE:,} bytes: not a hand record", line
            )
        if not facts.has_pipe:  # the whole text URL-encoded, pipes included: read it whole
            parsed = parse_lin_file(_text(path), str(path))
            self.events += parsed.events
            yield from parsed.records
            return
        yield from iter_lin(lin_pieces(path, facts.encoding), str(path), self.events,
                            facts.url_encoded)  # fmt: skip


def streams(path: Path) -> bool:
    """Whether `ingest` reads this file in batches (a PBN or LIN file over STREAM_BYTES, not
    UTF-16)."""
    try:
        if path.stat().st_size <= STREAM_BYTES:
            return False
        with path.open("rb") as fh:
            if fh.read(2) in (b"\xff\xfe", b"\xfe\xff"):
                return False
        return detect_format(path) in ("pbn", "lin")
    except (OSError, UnreadableFile):
        return False


def read_records(path: Path) -> tuple[str, list[RawRecord]]:
    """The table results of one file (format told by content), for callers that need no more."""
    parsed, _ = read_parsed(path)
    return parsed.format, parsed.records


def read_with_ids(path: Path) -> tuple[ParsedFile, list[RawRecord], list[str]]:
    parsed, deals = read_parsed(path)
    return parsed, deals, [r.record_id for r in parsed.records]


_RAW_FIELDS = list(RawRecord.__dataclass_fields__)
BOARD_SCHEMA = {
    "record_id": pl.Utf8, "deal_id": pl.Utf8, "event": pl.Utf8, "year": pl.Int32,
    "board_no": pl.Utf8, "room": pl.Utf8, "home_team": pl.Utf8, "visit_team": pl.Utf8,
    "northname": pl.Utf8, "eastname": pl.Utf8, "southname": pl.Utf8, "westname": pl.Utf8,
    "ns_vulnerable": pl.Boolean, "ew_vulnerable": pl.Boolean, "dealer": pl.Utf8, "deal": pl.Utf8,
    "bidstart": pl.Utf8, "auction": pl.Utf8, "contract": pl.Utf8, "declarer": pl.Utf8,
    "opening_leader": pl.Utf8, "play": pl.List(pl.Utf8), "play_seats": pl.List(pl.Int8),
    "claim_tricks": pl.Int8, "result": pl.Int8, "repairs": pl.Utf8,
    "event_id": pl.Utf8, "date": pl.Utf8, "scoring": pl.Utf8, "organiser": pl.Utf8,
    "session": pl.Utf8, "section": pl.Utf8, "round": pl.Utf8, "table_no": pl.Utf8,
    "ns_pair": pl.Utf8, "ew_pair": pl.Utf8, "north_id": pl.Utf8, "east_id": pl.Utf8,
    "south_id": pl.Utf8, "west_id": pl.Utf8, "ns_score": pl.Int32, "adjusted": pl.Utf8,
    "phantom": pl.Utf8, "published_ns_mp": pl.Float64, "published_ew_mp": pl.Float64,
    "published_ns_pct": pl.Float64, "published_ew_pct": pl.Float64,
    "published_imps": pl.Float64, "par_score": pl.Int32, "par_contract": pl.Utf8,
}  # fmt: skip
_ISSUE_SCHEMA = {"record_id": pl.Utf8, "reason": pl.Utf8, "detail": pl.Utf8}
_EXCLUSION_SCHEMA = {**_ISSUE_SCHEMA, "source_file": pl.Utf8, "source_line": pl.Int32}
PARALLEL_THRESHOLD = 20_000  # below this, a process pool costs more than it saves
_OUTPUTS = ("boards", "exclusions", "auction_issues", "play_issues")


@dataclass
class CleanSummary:
    cleaned: int = 0
    kept: int = 0
    excluded: Counter = field(default_factory=Counter)
    auction_issues: Counter = field(default_factory=Counter)
    play_issues: Counter = field(default_factory=Counter)
    repairs: Counter = field(default_factory=Counter)

    def add(self, other: CleanSummary) -> None:
        self.cleaned += other.cleaned
        self.kept += other.kept
        for name in ("excluded", "auction_issues", "play_issues", "repairs"):
            getattr(self, name).update(getattr(other, name))

    def as_dict(self) -> dict[str, object]:
        return {
            "cleaned": self.cleaned, "kept": self.kept, "excluded": dict(self.excluded),
            "auction_issues": dict(self.auction_issues), "play_issues": dict(self.play_issues),
            "repairs": dict(self.repairs),
        }  # fmt: skip


def clean_slice(
    source: str, offset: int, length: int, out_dir: str, tag: str,
    files_with_leading_passes: frozenset[str] = frozenset(),
) -> CleanSummary:  # fmt: skip
    """Clean rows [offset, offset+length) of the pending-records parquet file into parquet files.

    `files_with_leading_passes`: source files that write the passes before an opening bid; the
    leading-pass repair is not applied to their records (ddrank.cleaning.records_leading_passes).
    """
    rows = pl.read_parquet(source).slice(offset, length).to_dicts()
    summary = CleanSummary(cleaned=len(rows))
    out: dict[str, list[dict[str, object]]] = {name: [] for name in _OUTPUTS}
    for row in rows:
        rid = str(row.pop("record_id"))
        rec = RawRecord(**{k: ("" if v is None else v) for k, v in row.items()})  # type: ignore[arg-type]
        res = clean_record(rec, rid, rec.source_file not in files_with_leading_passes)
        if res.exclusion:
            reason, detail = res.exclusion
            summary.excluded[reason] += 1
            out["exclusions"].append({"record_id": rid, "reason": reason, "detail": detail,
                                      "source_file": rec.source_file,
                                      "source_line": rec.source_line})  # fmt: skip
            continue
        board = res.board
        assert board is not None
        summary.kept += 1
        out["boards"].append({name: getattr(board, name) for name in BOARD_SCHEMA})
        for kind, issue in (("auction_issues", res.auction_issue), ("play_issues", res.play_issue)):
            if issue:
                getattr(summary, kind)[issue[0]] += 1
                out[kind].append({"record_id": rid, "reason": issue[0], "detail": issue[1]})
        for repair in (board.repairs or "").split("; "):
            if repair:
                summary.repairs[repair.split(":")[0]] += 1
    schemas = {"boards": BOARD_SCHEMA, "exclusions": _EXCLUSION_SCHEMA,
               "auction_issues": _ISSUE_SCHEMA, "play_issues": _ISSUE_SCHEMA}  # fmt: skip
    for name in _OUTPUTS:
        pl.DataFrame(out[name], schema=schemas[name]).write_parquet(
            Path(out_dir) / f"{name}-{tag}.parquet"
        )
    return summary


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """Spawned, not forked: a fork of a process running polars or DuckDB threads can deadlock."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
