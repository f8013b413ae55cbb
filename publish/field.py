"""Files of the field measures (`ddrank score/split/lehman --valet|--db`): errors.csv and the
Markdown reports with the top 20 by each measure."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
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


class TopRows:
    """`top_sections` of rows that pass once, a chunk at a time (`through`): it holds the best
    `TOP` rows of each measure (among the rows with enough boards, and among all), not every row
    (issue 37). The same lines: `heapq.nsmallest` keeps the rows `sorted(...)[:n]` keeps, in the
    same order, and the best of the rows so far and a chunk are the best of both."""

    TOP = 20
    CHUNK = 10_000

    def __init__(self, measures: Sequence[str], min_boards: int) -> None:
        self.measures, self.min_boards = list(measures), min_boards
        self.rows: dict[str, int] = {}  # rows seen, by what ('players', 'pairs')
        self.qualified: dict[str, int] = {}  # of them with at least min_boards boards
        self.best: dict[tuple[str, str, bool], list[Row]] = {}  # (what, measure, qualified only)

    def through(self, what: str, rows: Iterable[Row]) -> Iterator[Row]:
        """`rows` as they come, noting the best of them as `what`'s."""
        self.rows[what] = self.qualified[what] = 0
        chunk: list[Row] = []
        for r in rows:
            chunk.append(r)
            if len(chunk) >= self.CHUNK:
                self._keep(what, chunk)
                chunk = []
            yield r
        self._keep(what, chunk)

    def _keep(self, what: str, chunk: list[Row]) -> None:
        ok = [r for r in chunk if int(r["boards"]) >= self.min_boards]
        self.rows[what] += len(chunk)
        self.qualified[what] += len(ok)
        for m in self.measures:
            for only, rows in ((True, ok), (False, chunk)):
                best = self.best.get((what, m, only), [])
                self.best[what, m, only] = heapq.nsmallest(
                    self.TOP, best + rows, key=lambda r, m=m: (-float(r[m]), str(r["players"]))
                )

    def sections(self) -> list[str]:
        """`top_sections`'s lines of the rows that passed."""
        lines: list[str] = []
        for what in ("players", "pairs"):
            only = self.qualified.get(what, 0) > 0  # else everyone, the threshold reported as 0
            used = self.min_boards if only else 0
            for m in self.measures:
                lines += [f"## Top 20 {what} by {m} (at least {used} boards)", "",
                          top_table(self.best.get((what, m, only), []), m, "players"), ""]  # fmt: skip
        return lines


def write_md(path: Path, lines: Sequence[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path
