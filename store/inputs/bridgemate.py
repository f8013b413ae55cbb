"""Open a Bridgemate `.bws` (MS Access) database and its hand record: the I/O half of the reader.

The tables are read with `access-parser` (pure Python, no ODBC driver) and joined by the pure
`ddrank.parsers.bridgemate.join_bws`. The companion hand record is the PBN with the same stem
(`LBC-2026-01-26.bws` + `LBC-2026-01-26.pbn`), as Bridgemate and BridgeComposer leave them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ddrank.limits import DEFAULT_LIMITS, Limits
from ddrank.parsers.bridgemate import join_bws
from ddrank.parsers.handrecord import hand_record_deals
from ddrank.raw import ParsedFile, RawRecord
from store.inputs.files import open_input, read_input

TABLES = ("ReceivedData", "RoundData", "PlayerNumbers", "Section", "Session", "HandRecord")
# The club's whole member list (14,000 rows, seconds to read): only read for ids entered nameless.
NAMES_TABLE = "PlayerNames"
# An Access (Jet 3/4, ACE) file names its engine at byte 4 of the first page.
_MAGIC = (b"Standard Jet DB", b"Standard ACE DB")


@contextmanager
def _quiet_access_parser() -> Iterator[None]:
    """access-parser logs dozens of harmless errors per file; mute its logger only, then restore."""
    logger = logging.getLogger("access_parser")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _unreadable(path: Path, problem: str) -> ParsedFile:
    return ParsedFile(format="bws", records=[RawRecord(str(path), 1, "bws", parse_error=problem)])


def read_bws(path: Path, limits: Limits = DEFAULT_LIMITS) -> ParsedFile:
    """The results of a `.bws` file, joined to the deals of the PBN beside it when there is one."""
    with open_input(path) as fh:
        head = fh.read(32)
    if head[4:19] not in _MAGIC:
        return _unreadable(path, "not a Bridgemate .bws file: no MS Access (Jet/ACE) header")
    from store.inputs import bws_odbc

    page = 2048 if head[0x14] == 0 else 4096  # Jet 3, else Jet 4 and ACE
    whole_pages = path.stat().st_size % page == 0  # else truncated: access-parser says where
    hands = _hands(path, limits)
    deals = hand_record_deals(hands) if hands else {}
    # with a hand record beside it, the database's HandRecord is read only if the PBN lacks a board
    first = tuple(t for t in TABLES if t != "HandRecord") if hands else TABLES
    tables = bws_odbc.read_tables(path, first) if whole_pages else None
    if tables is not None and "ReceivedData" in tables:
        more = (NAMES_TABLE,) if _nameless(tables) else ()
        if hands and _lacks_a_board(tables, deals):
            more += ("HandRecord",)
        if more and (extra := bws_odbc.read_tables(path, more)):
            tables.update(extra)
    else:
        tables = _access_parser_tables(path)
        if isinstance(tables, ParsedFile):
            return tables
    return join_bws(tables, hands, str(path), pbn_deals=deals)


def _lacks_a_board(tables: dict[str, dict], deals: dict[str, object]) -> bool:
    """Whether a board of ReceivedData has no deal in the hand record's PBN."""
    boards = {str(b).strip() for b in tables["ReceivedData"].get("Board", [])}
    return not boards <= deals.keys()


def _nameless(tables: dict[str, dict]) -> bool:
    """Whether players were entered by number alone (their names are in PlayerNames then)."""
    entered = tables.get("PlayerNumbers", {})
    return any(
        str(number or "").strip() not in ("", "0") and not str(name or "").strip()
        for number, name in zip(entered.get("Number", []), entered.get("Name", []), strict=False)
    )


def _access_parser_tables(path: Path) -> dict[str, dict] | ParsedFile:
    """The tables read with access-parser (pure Python), or the file as unreadable."""
    from access_parser import AccessParser  # imported here: only .bws files need it

    tables: dict[str, dict] = {}
    with _quiet_access_parser():
        try:
            db = AccessParser(str(path))
        except Exception as exc:  # noqa: BLE001 - a damaged file can fail anywhere inside it
            problem = f"{type(exc).__name__}: {exc}"
            return _unreadable(
                path, f"not readable as an MS Access database, truncated? ({problem})"
            )
        for name in TABLES:
            if name not in db.catalog:
                continue
            try:
                tables[name] = db.parse_table(name)
            except Exception:  # noqa: BLE001, S112 - a damaged optional table is left out
                if name == "ReceivedData":
                    return _unreadable(path, "the ReceivedData table (the results) is damaged")
        if _nameless(tables) and NAMES_TABLE in db.catalog:
            with suppress(Exception):  # names are optional
                tables[NAMES_TABLE] = db.parse_table(NAMES_TABLE)
    return tables


def _hands(path: Path, limits: Limits = DEFAULT_LIMITS) -> str | None:
    """The companion hand record's text, if there is one (read as inputs are: `read_input`)."""
    companion = path.with_suffix(".pbn")
    hands = None
    if companion.exists():
        data = read_input(companion, limits)
        try:
            hands = data.decode("utf-8")
        except UnicodeDecodeError:
            hands = data.decode("latin-1")  # BridgeComposer writes ISO-8859-1
    return hands
