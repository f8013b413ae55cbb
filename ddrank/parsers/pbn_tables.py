"""PBN 2.1 tables: `ScoreTable`, `TotalScoreTable`, `OptimumResultTable`, `ActionTable`, ...

A table tag's value is its column spec, `Name\\widthAlign` items joined by `;` (`MP_NS\\4R`; an
optional `+`/`-` sort mark before the name); its rows follow the tag, one per line, cells
separated by white space, a cell with spaces in double quotes, `-` for absent. Results services
(BridgeComposer, Magic Contest, JFR, Bridgewebs, ACBLscore) publish their travellers this way: a
`ScoreTable` row is a table result with pair numbers, contract, declarer, tricks and the published
score, matchpoints or IMPs; a `TotalScoreTable` row is a line of the published ranking.

Everything here is pure: tokens in, raw records and standings out; problems are returned as
"line N: ..." strings for the reader to attach to the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SPEC_ITEM = re.compile(r"^[+-]?([A-Za-z][A-Za-z0-9_]*)(?:\\(\d+)([LR]?))?$")
_CELL = re.compile(r'"[^"]*"|\S+')
_FORBIDDEN = re.compile(r"[%\[\]{};]")


@dataclass
class Table:
    """One table of a game: its columns (names as written) and its rows with their lines."""

    name: str
    line: int
    columns: list[str] = field(default_factory=list)
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def dicts(self) -> list[tuple[int, dict[str, str]]]:
        """Rows as {column (case-folded): cell} with `-` and quotes removed."""
        keys = [c.casefold() for c in self.columns]
        out = []
        for line, cells in self.rows:
            out.append((line, {k: clean_cell(v) for k, v in zip(keys, cells, strict=False)}))
        return out


def parse_spec(spec: str, line: int) -> tuple[list[str], list[str]]:
    """Column names of a table spec, and errors ("line N: ...") for items that are not
    `Name`, `Name\\width` or `Name\\widthL|R`."""
    columns: list[str] = []
    errors: list[str] = []
    for item in spec.split(";"):
        m = _SPEC_ITEM.match(item.strip())
        if m is None:
            errors.append(f"line {line}: bad table column {item.strip()!r} in {spec!r}")
            continue
        columns.append(m.group(1))
    return columns, errors


def split_cells(text: str) -> list[str]:
    return _CELL.findall(text)


def add_row(table: Table, line: int, raw: str) -> None:
    """One data line of a table. A whole-line comment is skipped; a comment or one of
    `% [ ] { } ;` after the cells is an error (PBN 2.1 forbids them in table elements)."""
    text = raw.strip()
    if not text or text[0] in "{;%":
        return
    quoted = '"' in text
    outside = re.sub(r'"[^"]*"', "", text) if quoted else text
    bad = _FORBIDDEN.search(outside)
    if bad:
        table.errors.append(f"line {line}: {bad.group()!r} is not allowed in a {table.name} row")
        return
    cells = split_cells(text) if quoted else text.split()
    if table.columns and len(cells) != len(table.columns):
        table.errors.append(
            f"line {line}: {len(cells)} cells for the {len(table.columns)} columns of {table.name}"
        )
        return
    table.rows.append((line, cells))


def clean_cell(cell: str) -> str:
    t = cell[1:-1] if len(cell) >= 2 and cell[0] == cell[-1] == '"' else cell
    t = t.strip()
    return "" if t in ("-", "?") else t


# ---------------------------------------------------------------- results
_CONTRACT = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C)\s*(XX|X|R)?$", re.IGNORECASE)


def tricks_of(result: str, contract: str) -> str:
    """Declarer's tricks from a Result cell: "10", "=", "+1", "-2" (relative to the contract),
    or "NS 11"-style (PBN's side prefix); "" when unreadable."""
    t = result.strip().upper()
    if not t:
        return ""
    if t.isdigit():
        return t
    m = _CONTRACT.match(contract.strip())
    level = int(m.group(1)) if m else None
    if level is not None and (t == "=" or re.fullmatch(r"[+-]\d{1,2}", t)):
        return str(level + 6 + (0 if t == "=" else int(t)))
    parts = t.split()
    if len(parts) == 2 and parts[0] in ("NS", "EW") and parts[1].isdigit():
        return parts[1]
    return t  # as written: cleaning judges it


def split_names(text: str) -> tuple[str, str]:
    """A pair's names cell as two players: "A;B", "A - B", "A & B", "A and B", or "Ogawa-Arbian"
    (BridgeComposer joins surnames with one hyphen). One name when it cannot be split."""
    t = text.strip()
    for sep in (";", " - ", " & ", "&", " and ", " + ", "/"):
        if sep in t:
            a, _, b = t.partition(sep)
            return a.strip(), b.strip()
    if t.count("-") == 1 and " " not in t:
        a, _, b = t.partition("-")
        if a and b:
            return a, b
    return t, ""


def dd_hex(rows: list[tuple[int, dict[str, str]]]) -> str:
    """An OptimumResultTable as the 20 hex digits of `DoubleDummyTricks` (declarers N S E W,
    strains NT S H D C); "" when incomplete."""
    tricks: dict[tuple[str, str], int] = {}
    for _, row in rows:
        seat = row.get("declarer", "").upper()[:1]
        strain = row.get("denomination", "").upper()
        strain = "N" if strain in ("NT", "N") else strain[:1]
        try:
            tricks[(seat, strain)] = int(row.get("result", ""))
        except ValueError:
            return ""
    digits = []
    for seat in "NSEW":
        for strain in "NSHDC":
            if (seat, strain) not in tricks or not 0 <= tricks[(seat, strain)] <= 13:
                return ""
            digits.append(format(tricks[(seat, strain)], "x"))
    return "".join(digits)
