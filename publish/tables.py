"""The one CSV writer: every CSV ddrank writes goes through `write_csv`, with one rounding rule,
text cells neutralised against formulas (`publish.encoding.csv_cell`), and the file replaced only
once it is complete."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from publish.atomic import replace_file
from publish.encoding import csv_cell

#: Decimal places kept in every CSV (scores are published to 2; ratings and rates need more).
DECIMALS = 4


def cell(v: Any) -> Any:
    """A value as it is written: empty for missing or NaN, whole floats as integers, else rounded;
    text neutralised against formulas (a spreadsheet must show `=1+2` from a name, not 3)."""
    if v is None:
        return ""
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        return int(v) if v.is_integer() else round(v, DECIMALS)
    return csv_cell(v)


def csv_text(
    rows: Iterable[Mapping[str, Any]], columns: Sequence[str], header: bool = False
) -> str:
    """`rows` as the lines `write_csv` writes them (the header too with `header`): a part of a
    file kept and written later (`publish.scores.event_block`), byte for byte."""
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    if header:
        w.writerow(columns)
    for r in rows:
        w.writerow([cell(r.get(c)) for c in columns])
    return buf.getvalue()


def write_csv(path: str | Path, rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> Path:
    """Write `rows` (dicts) with exactly `columns`, in that order; missing keys are empty."""
    path = Path(path)
    with replace_file(path) as tmp, tmp.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(columns)
        for r in rows:
            w.writerow([cell(r.get(c)) for c in columns])
    return path
