"""Every reader in one table: its format, the sniffer that recognises its bytes, and `bytes -> ParsedFile`.

Pure: no file is opened here. `store.inputs.read(path)` reads a file's bytes, asks `sniff` which
format they are (content decides, never the extension) and hands them to the format's reader.
The two database formats (Bridgemate `.bws`, SQLite) are sniffed here but opened by the store,
since their libraries read files, not bytes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass

from ddrank.limits import DEFAULT_LIMITS, Limits
from ddrank.raw import ParsedFile, RawRecord, number_repeats

#: Bytes read to tell a file's format.
SNIFF_BYTES = 65_536
#: A longer line is not a hand record (a hostile or corrupted file).
MAX_LINE = 1_000_000

# Extensions picked up inside a folder. The format itself is told by content (`sniff`).
FORMATS = {".pbn": "pbn", ".lin": "lin", ".sql": "dump", ".dump": "dump", ".csv": "csv",
           ".db": "sqlite", ".sqlite": "sqlite", ".sqlite3": "sqlite", ".xml": "usebio",
           ".bws": "bws", ".aca": "acblscore", ".acm": "acblscore",
           ".ace": "acblscore"}  # fmt: skip
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

_LIN_START = re.compile(rb"^\s*(?:[a-zA-Z]{2}\|)")
_PBN_START = re.compile(rb"^\s*(?:%|\[[A-Za-z]\w*\s+\")", re.MULTILINE)
_DUMP_START = re.compile(rb"^\s*(?:INSERT\s+INTO|CREATE\s+TABLE|--)", re.IGNORECASE)


class UnreadableFile(ValueError):
    """The file is not any format ddrank reads; the message says why, in plain words."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


# --- sniffers: each looks at the head of a file (text ones after BOM and white space) -----------


#: Control characters no text file has (tab, line ends and form feed excepted).
_CONTROL = re.compile(rb"[\x01-\x08\x0e-\x1a\x1c-\x1f]")


def _is_access(head: bytes) -> bool:
    return head[4:19] in (b"Standard Jet DB", b"Standard ACE DB")


def _is_sqlite(head: bytes) -> bool:
    return head.startswith(b"SQLite format 3\x00")


def _is_acblscore(head: bytes) -> bool:
    from ddrank.parsers.acblscore_layout import is_game_file

    return is_game_file(head)


def _is_usebio(text: bytes) -> bool:
    return text.startswith(b"<") and b"<USEBIO" in text[:4096]


def _is_lin(text: bytes) -> bool:
    return bool(_LIN_START.match(text))


def _is_pbn(text: bytes) -> bool:
    return bool(_PBN_START.match(text) or _PBN_START.search(text[:4096]))


def _is_dump(text: bytes) -> bool:
    return bool(_DUMP_START.match(text))


#: The header of a CSV ddrank reads: the paper's `bridgedeals` table, whose rows are hands with
#: their seats (a `deal` column, or the four seats' names). A CSV of travellers (board, pair
#: numbers, contract, score) is another format, and is refused with a message that says so.
_SEAT_NAME_COLUMNS = {b"northname", b"eastname", b"southname", b"westname"}


def _is_csv(text: bytes) -> bool:
    first = text.split(b"\n", 1)[0].lower()
    columns = {c.strip(b" \t\r\"'").replace(b"_", b"") for c in first.split(b",")}
    return len(columns) > 1 and (b"deal" in columns or columns >= _SEAT_NAME_COLUMNS)


def sniff(head: bytes) -> str:
    """A file's format from its first bytes: bws, sqlite, acblscore, usebio, lin, pbn, dump or csv.

    Extensions lie (a `.xml` that is HTML, a `.pbn` that is a LIN): content decides. Raises
    `UnreadableFile` for anything else, binary junk included.
    """
    for reader in READERS:
        if reader.binary and reader.sniff(head):
            return reader.format
    if head[:2] in UTF16_BOMS:  # UTF-16 with a byte-order mark (Windows exports)
        head = head.decode("utf-16", errors="replace").encode("utf-8")
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text:
        raise UnreadableFile("empty file" if not head else "only white space")
    if b"\x00" in head or _CONTROL.search(head[:4096]):
        raise UnreadableFile("binary content (not text), not a hand-record or results file")
    if text.startswith(b"<") and not _is_usebio(text):
        raise UnreadableFile("XML or HTML that is not USEBIO (no <USEBIO> element)")
    for reader in READERS:
        if not reader.binary and reader.sniff(text):
            return reader.format
    if _is_table(text):
        raise UnreadableFile(
            "a table (CSV) that is not the paper's bridgedeals table (a deal column, or the seats' "
            f"names): ddrank reads results as {FORMATS_READ}, not a CSV of travellers"
        )
    raise UnreadableFile(f"text in no format ddrank reads (it reads {FORMATS_READ})")


#: What ddrank reads, as a refusal names it.
FORMATS_READ = ("USEBIO XML, Bridgemate .bws, ACBLscore game files, PBN, BBO LIN or the paper's "
                "bridgedeals dump")  # fmt: skip
#: The event files ddrank reads, in short (an option's help).
EVENT_FORMATS = "USEBIO, Bridgemate .bws, ACBLscore, PBN, BBO LIN"


def _is_table(text: bytes) -> bool:
    """Rows of fields: the first lines split into the same number (two or more) of short fields
    by one separator. Prose with a comma is not a table: its lines do not agree, its phrases are
    long, or its lines end as sentences do."""
    lines = [ln.strip() for ln in text.split(b"\n", 6)[:6] if ln.strip()][:5]
    if sum(ln.endswith((b".", b"!", b"?")) for ln in lines) * 2 > len(lines):
        return False
    for sep in (b",", b";", b"\t"):
        counts = {ln.count(sep) for ln in lines}
        if len(counts) == 1 and counts != {0} and (len(lines) >= 2 or b"\n" not in text):
            return all(len(f.split()) <= 8 for ln in lines for f in ln.split(sep))
    return False


# --- text ----------------------------------------------------------------------------------------


def decode_text(data: bytes) -> str:
    """A file's text: UTF-16 by its byte-order mark, else UTF-8, else Latin-1 (old hand records
    are often Windows-1252/Latin-1)."""
    if data[:2] in UTF16_BOMS:
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def check_lines(text: str) -> None:
    """Refuse a text with an absurdly long line before a parser spends time on it.

    Window by window, not line by line: from the start of a line, a line too long is one with no
    line end in the next `MAX_LINE + 1` characters; otherwise jump past the window's last line
    end. The loop turns about len(text) / MAX_LINE times, so its cost is that of `str.find`."""
    pos, n, limit = 0, len(text), MAX_LINE + 1
    while n - pos > MAX_LINE:
        last = text.rfind("\n", pos, pos + limit)
        if last < 0:
            end = text.find("\n", pos)
            end = n if end < 0 else end
            line = text.count("\n", 0, pos) + 1
            raise UnreadableFile(
                f"line {line} is {end - pos:,} characters long (limit {MAX_LINE:,}): "
                "not a hand record",
                line,
            )
        pos = last + 1


def unreadable(name: str, fmt: str, why: str, line: int = 1) -> ParsedFile:
    """A file that could not be read, as one record saying why (one bad file stops no ingest)."""
    return ParsedFile(fmt, [RawRecord(name, line, fmt, parse_error=why)])


# --- the readers: bytes (+ the file's name, + a companion's text) -> ParsedFile ------------------


def read_pbn_bytes(
    data: bytes, name: str, *, results: str | None = None, **_: object
) -> ParsedFile:
    """A PBN file; beside a `results` file (its name) it is that file's hand record, whose table
    results are left to the results file."""
    from ddrank.parsers.pbn import read_pbn
    from ddrank.parsers.pbn_conformance import conformance_warnings

    text = decode_text(data)
    check_lines(text)
    parsed = read_pbn(text, name, tables=results is None)
    cut = cut_short(text, parsed)
    if cut:
        return ParsedFile("pbn", [], refused=cut)
    parsed.warnings = sorted([*parsed.warnings, *conformance_warnings(text)])
    return parsed


def cut_short(text: str, parsed: ParsedFile) -> str:
    """Why a PBN text is a file cut short (refused whole, `ParsedFile.refused`), else ''.

    A file cut short ends inside its last line: inside a tag, or where its last game cannot be
    read. Its other games would rank the pairs on the boards before the cut, a ranking the
    scorer never published, so none of it is read (a cut inside a comment, an auction or a
    table row is not told from a complete file this way). A last game that cannot be read in a file that ends with
    its line end is a damaged game, left out alone as before; a last line without its line end
    is how some producers end a complete file (the FFB's Magic Contest export)."""
    if not text or text.endswith(("\n", "\r")):
        return ""
    tail = text[text.rfind("\n") + 1 :].strip()
    if tail.startswith("[") and not tail.endswith("]"):  # a tag cut in two
        line = text.count("\n") + 1
        return (f"refused: line {line}: the file ends inside a tag ({tail[:40]!r}): it is cut "
                "short, so none of it is read")  # fmt: skip
    last = max(parsed.records + parsed.deals, key=lambda r: r.source_line, default=None)
    if last is None or not last.parse_error:
        return ""
    return (f"refused: line {last.source_line}: the file ends inside its last game "
            f"({last.parse_error}): it is cut short, so none of it is read")  # fmt: skip


def read_lin_bytes(data: bytes, name: str, **_: object) -> ParsedFile:
    from ddrank.parsers.lin import parse_lin_file

    text = decode_text(data)
    check_lines(text)
    return parse_lin_file(text, name)


def read_dump_bytes(data: bytes, name: str, **_: object) -> ParsedFile:
    from ddrank.parsers.bridgedeals import parse_dump

    text = decode_text(data)
    check_lines(text)
    return ParsedFile("dump", parse_dump(text, name))


def read_usebio_bytes(
    data: bytes,
    name: str,
    *,
    hands: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    **_: object,
) -> ParsedFile:
    """A USEBIO results file; `hands` is the text of its hand record (`X.hands.pbn`)."""
    try:
        from ddrank.parsers.usebio import parse_usebio
    except ImportError as exc:
        raise UnreadableFile(f"the USEBIO reader is not installed ({exc})") from exc
    return parse_usebio(data, name, hands_pbn=hands, limits=limits)


def read_acblscore_bytes(data: bytes, name: str, *, limits: Limits = DEFAULT_LIMITS,
                         **_: object) -> ParsedFile:  # fmt: skip
    """An ACBLscore game file (binary; `.ACA`, `.ACM`, `.ACE`), its rows within `limits`."""
    from ddrank.parsers.acblscore import parse_acblscore

    return parse_acblscore(data, name, limits)


def read_csv_bytes(data: bytes, name: str, **_: object) -> ParsedFile:
    """A CSV with the columns of the paper's `bridgedeals` table."""
    import polars as pl

    from ddrank.parsers.bridgedeals import record_from_row

    try:
        df = pl.read_csv(io.BytesIO(data), infer_schema=False, truncate_ragged_lines=False)
    except (pl.exceptions.PolarsError, OSError) as exc:
        return unreadable(name, "csv", f"bad CSV: {exc}")
    return ParsedFile("csv", number_repeats(
        [record_from_row(r, name, k + 2) for k, r in enumerate(df.iter_rows(named=True))]
    ))  # fmt: skip


#: `reader(data, name, hands=..., results=..., limits=...)`: `hands` is the text of the hand record
#: beside a results file, `results` the name of the results file beside a hand record, `limits`
#: the `ddrank.limits.Limits` a reader that counts as it goes checks; a reader ignores what it
#: does not use.
BytesReader = Callable[..., ParsedFile]


@dataclass(frozen=True, slots=True)
class Reader:
    """One format: how to recognise it and how to read it.

    `binary`: the sniffer sees the raw head (databases); otherwise the head as text, BOM and
    leading white space removed. `read` is None for a database, which the store opens."""

    format: str
    sniff: Callable[[bytes], bool]
    read: BytesReader | None
    binary: bool = False


#: In sniffing order: the first reader whose sniffer says yes reads the file.
READERS: tuple[Reader, ...] = (
    Reader("bws", _is_access, None, binary=True),
    Reader("sqlite", _is_sqlite, None, binary=True),
    Reader("acblscore", _is_acblscore, read_acblscore_bytes, binary=True),
    Reader("usebio", _is_usebio, read_usebio_bytes),
    Reader("lin", _is_lin, read_lin_bytes),
    Reader("pbn", _is_pbn, read_pbn_bytes),
    Reader("dump", _is_dump, read_dump_bytes),
    Reader("csv", _is_csv, read_csv_bytes),
)
BY_FORMAT = {r.format: r for r in READERS}


def read_bytes(data: bytes, name: str, fmt: str | None = None, *,
               limits: Limits = DEFAULT_LIMITS, **context: str | None) -> ParsedFile:  # fmt: skip
    """Read bytes of a text format (told by `sniff` when `fmt` is None), within `limits`: raises
    `ddrank.limits.LimitExceeded` for bytes or records over them (whatever the reader checked
    itself as it went)."""
    limits.check("max_file_bytes", len(data))
    fmt = fmt or sniff(data[:SNIFF_BYTES])
    reader = BY_FORMAT[fmt].read
    if reader is None:
        raise UnreadableFile(f"a {fmt} database is read from its file, not from bytes")
    parsed = reader(data, name, limits=limits, **context)
    check_rows(parsed, limits)
    return parsed


def check_rows(parsed: ParsedFile, limits: Limits) -> None:
    """Every reader's records within `max_rows`: table results, hand-record deals, rankings."""
    limits.check_rows(len(parsed.records) + len(parsed.deals) + len(parsed.standings))
