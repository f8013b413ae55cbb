"""The Marriner paper's `bridgedeals` table: rows from SQLite/CSV, and its raw SQL-insert-like dump.

The dump is almost SQL: `INSERT INTO bridgedeals (...) VALUES` followed by one `( ... )` tuple per
board. But fields are separated by semicolons that also occur inside values, tuples end in runs of
0-7 semicolons instead of commas, and single quotes inside names are sometimes escaped (`\\'`) and
sometimes not. The paper repaired it with 13 text substitutions (seed §2.1). Here one tolerant
tokenizer reads every variant: a quote closes a value only when the next non-blank character is a
field or tuple terminator.
"""

from __future__ import annotations

from collections.abc import Mapping

from ddrank.raw import RawRecord, number_repeats

# Column order of create_table.sql.
BRIDGEDEALS_COLUMNS = (
    "id", "event", "site", "date", "board", "stage", "dealer", "deal", "vulnerable", "bidstart",
    "auction", "contract", "lead", "play", "declarer", "result", "note", "westname", "eastname",
    "northname", "southname", "westpoints", "northpoints", "eastpoints", "southpoints", "scoring",
    "hometeam", "visitteam", "room", "description",
)  # fmt: skip

_RENAME = {"board": "board_no", "hometeam": "home_team", "visitteam": "visit_team"}
_RAW_FIELDS = set(RawRecord.__dataclass_fields__)


def record_from_row(row: Mapping[str, object], source_file: str, line: int) -> RawRecord:
    """One bridgedeals row (any column case) as a raw record; NULL becomes ''."""
    rec = RawRecord(source_file=source_file, source_line=line, source_format="bridgedeals")
    for key, value in row.items():
        name = _RENAME.get(key.lower().replace("_", ""), key.lower())
        if name in _RAW_FIELDS and name not in ("source_file", "source_line", "source_format"):
            text = "" if value is None else str(value)
            if name == "result" and text.endswith(".0"):
                text = text[:-2]
            setattr(rec, name, text)
    return rec


def _read_tuple(text: str, i: int) -> tuple[list[str | None], int, str]:
    """Read one `( v; 'v'; ... )` starting at text[i] == '('. Returns (values, next index, error)."""
    n = len(text)
    values: list[str | None] = []
    i += 1
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            return values, i, "file ends inside a record"
        if text[i] == "'":
            j = i + 1
            buf: list[str] = []
            while True:
                if j >= n:
                    return values, j, "file ends inside a quoted value"
                ch = text[j]
                if ch == "\\" and j + 1 < n:
                    buf.append(text[j + 1])
                    j += 2
                    continue
                if ch == "'":
                    if j + 1 < n and text[j + 1] == "'":  # SQL-style doubled quote
                        buf.append("'")
                        j += 2
                        continue
                    k = j + 1
                    while k < n and text[k] in " \t":
                        k += 1
                    if k >= n or text[k] in ";,)":
                        values.append("".join(buf))
                        i = k
                        break
                buf.append(ch)  # an unescaped quote inside a name: O'Brien
                j += 1
        else:
            j = i
            while j < n and text[j] not in ";,)\n":
                j += 1
            token = text[i:j].strip()
            values.append(None if token.upper() == "NULL" else token)
            i = j
        if i >= n:
            return values, i, "file ends inside a record"
        if text[i] == ")":
            return values, i + 1, ""
        if text[i] in ";,":
            i += 1
            continue
        return values, i, f"unexpected {text[i]!r}"


def _header_columns(header: str) -> tuple[str, ...]:
    open_, close = header.find("("), header.find(")")
    if 0 <= open_ < close:
        cols = [
            c.strip().strip("`\"'").lower()
            for c in header[open_ + 1 : close].replace(";", ",").split(",")
        ]
        if all(cols):
            return tuple(cols)
    return BRIDGEDEALS_COLUMNS


def parse_dump(text: str, source_file: str) -> list[RawRecord]:
    """Every tuple of the raw `bridgedeals` dump as a raw record; damage is reported per record."""
    records: list[RawRecord] = []
    values_at = text.upper().find("VALUES")
    columns = _header_columns(text[:values_at]) if values_at >= 0 else BRIDGEDEALS_COLUMNS
    i = values_at + len("VALUES") if values_at >= 0 else 0
    n = len(text)
    line = text.count("\n", 0, i) + 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
            continue
        if ch in " \t\r;,":
            i += 1
            continue
        start_line = line
        if ch != "(":
            j = text.find("\n", i)
            j = n if j < 0 else j
            records.append(
                RawRecord(source_file, start_line, "bridgedeals",
                          parse_error=f"text outside a record: {text[i:j][:60]!r}")
            )  # fmt: skip
            i = j
            continue
        values, j, error = _read_tuple(text, i)
        line += text.count("\n", i, j)
        i = j
        if not error and len(values) != len(columns):
            error = f"{len(values)} values for {len(columns)} columns"
        if error:
            records.append(RawRecord(source_file, start_line, "bridgedeals", parse_error=error))
            if "ends inside" in error:
                break
            nl = text.find("\n", i)  # resynchronise on the next line
            i = n if nl < 0 else nl
            continue
        records.append(
            record_from_row(dict(zip(columns, values, strict=True)), source_file, start_line)
        )
    return number_repeats(records)
