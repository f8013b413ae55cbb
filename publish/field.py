"""Files of the field measures (`ddrank score/split/lehman --valet|--db`): errors.csv and the
Markdown reports with the top 20 by each measure."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from ddrank.scoring.intake.results import RecordError
from publish.scores import write_errors  # noqa: F401 - the one errors.csv writer, used from here

Row = dict[str, Any]


class Field(Protocol):
    source: str
    errors: list[RecordError]
    boards: dict[str, Any]

    @property
    def tables(self) -> int: ...


def top_table(rows: Sequence[Row], measure: str, label: str, n: int = 20, digits: int = 2) -> str:
    """A Markdown table of the n best rows by `measure` (descending)."""
    ranked = sorted(rows, key=lambda r: (-float(r[measure]), str(r[label])))[:n]
    lines = [f"| # | {label} | boards | {measure} |", "|---:|---|---:|---:|"]
    for i, r in enumerate(ranked, 1):
        lines.append(f"| {i} | {r[label]} | {r['boards']} | {float(r[measure]):.{digits}f} |")
    return "\n".join(lines)


def eligible(rows: Sequence[Row], min_boards: int) -> tuple[list[Row], int]:
    """Rows with enough boards to rank; if nobody qualifies, everyone (threshold reported as 0)."""
    kept = [r for r in rows if int(r["boards"]) >= min_boards]
    return (kept, min_boards) if kept else (list(rows), 0)


def report_header(title: str, loaded: Field, extra: Sequence[str] = ()) -> list[str]:
    lines = [
        f"# {title}",
        "",
        f"- source: `{loaded.source}`",
        f"- tables scored: {loaded.tables} on {len(loaded.boards)} boards",
        f"- records left out: {len(loaded.errors)} (listed in errors.csv)",
        *[f"- {x}" for x in extra],
        "",
    ]
    for e in loaded.errors[:10]:
        lines.insert(-1, f"  - {e}")
    return lines


def top_sections(
    pairs: Sequence[Row], players: Sequence[Row], measures: Sequence[str], min_boards: int
) -> list[str]:
    lines: list[str] = []
    for what, rows in (("players", players), ("pairs", pairs)):
        kept, used = eligible(rows, min_boards)
        for m in measures:
            lines += [f"## Top 20 {what} by {m} (at least {used} boards)", "",
                      top_table(kept, m, "players"), ""]  # fmt: skip
    return lines


def write_md(path: Path, lines: Sequence[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path
