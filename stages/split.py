"""Stage `split`: Cammarata's split of the IMP events' Butler scores into bid and play.

Reads the one results model (`scored_results`, query `scored_tables_of`) a batch of whole events
at a time (bounded memory: issue 37), compares the tables of each board that played the same
cards, checks Theorem 1 on every pair of tables, sums each pair's and player's splits in the
order one pass would (the same sums to the last bit) and writes pairs.csv, players.csv,
errors.csv and split_report.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddrank.scoring.intake.results import PairAndPlayerSums, RecordError, group_boards
from ddrank.split import SplitTotals, aggregate_splits, split_field
from publish.field import report_header, top_sections, write_errors, write_md
from publish.tables import write_csv
from store import Store

if TYPE_CHECKING:
    from stages.field import LoadedField

Row = dict[str, Any]


#: Scored table results split per read of whole events (bounded memory).
SPLIT_BATCH = 50_000


@dataclass
class SplitField:
    """What the report says of the field split: its source, tables, boards and the records
    left out (rows first, then duplicate tables, as one pass lists them)."""

    source: str
    tables: int = 0
    boards: range = range(0)
    errors: list[RecordError] = field(default_factory=list)


def split_imp_events(store: Store, events: Sequence[str], out_dir: str | Path,
                     min_boards: int = 30) -> Row:  # fmt: skip
    """The split of the given (IMP) events' boards; matchpoint events have no IMPs to split.
    Read a batch of whole events at a time, in the order of one read."""
    from stages.field import scored_tables_field

    wanted = set(events)
    sizes: dict[str, int] = {}
    for ev, _, _, n in store.tuples("skill_event_sizes"):  # an event's rows of each date
        if ev in wanted:
            sizes[ev] = sizes.get(ev, 0) + n
    batches: list[list[str]] = []
    size = SPLIT_BATCH
    for ev, n in sorted(sizes.items()):
        if size + n > SPLIT_BATCH:
            batches.append([])
            size = 0
        batches[-1].append(ev)
        size += n
    loaded = SplitField(str(store.path))
    sums, dups, worst, boards = PairAndPlayerSums(SplitTotals), [], 0.0, 0
    splits_n = 0
    for batch in batches:
        part = scored_tables_field(store.rows("scored_tables_of", events=batch), str(store.path))
        grouped, dup_errors = group_boards(part.results)
        loaded.errors += part.errors
        dups += dup_errors
        groups = [g for gs in grouped.values() for g in gs]
        loaded.tables += sum(len(g) for g in groups)
        boards += len(grouped)
        splits, residual = split_field(groups)
        worst = max(worst, residual)
        splits_n += len(splits)
        sums.add(splits)
    if not boards and not loaded.errors:
        return {"skipped": "no IMP event"}
    loaded.errors += dups
    loaded.boards = range(boards)
    return write_split(loaded, sums.rows(), splits_n, worst, out_dir, min_boards)


SPLIT_COLUMNS = ["players", "boards", "butler", "bid", "play", "defence", "luck"]


def run_split(loaded: LoadedField, out_dir: str | Path, min_boards: int = 30) -> Row:
    """Cammarata split of every board; pairs.csv and players.csv in IMPs per board."""
    groups = [g for gs in loaded.boards.values() for g in gs]
    splits, residual = split_field(groups)
    return write_split(loaded, aggregate_splits(splits), len(splits), residual, out_dir,
                       min_boards)  # fmt: skip


def write_split(loaded: Any, sums: tuple[list[Row], list[Row]], tables: int, residual: float,
                out_dir: str | Path, min_boards: int) -> Row:  # fmt: skip
    """Theorem 1 checked, then pairs.csv, players.csv, errors.csv and split_report.md."""
    out = Path(out_dir)
    if residual > 1e-9:
        raise ArithmeticError(f"Theorem 1 violated by {residual:g} IMPs: a bug, please report")
    pairs, players = sums
    files = [
        write_csv(out / "pairs.csv", pairs, SPLIT_COLUMNS),
        write_csv(out / "players.csv", players, SPLIT_COLUMNS),
        write_errors(out, loaded.errors),
    ]
    lines = report_header(
        "Cammarata split of the Butler score",
        loaded,
        [
            f"Theorem 1 (Butler_jk = Bid_jk + Play_j + Play_k) holds on every pair of tables: "
            f"max residual {residual:.2e} IMPs",
            "columns in IMPs per board; butler = bid + play + defence + luck",
        ],
    )
    lines += top_sections(pairs, players, SPLIT_COLUMNS[2:], min_boards)
    files.append(write_md(out / "split_report.md", lines))
    return {"tables": tables, "pairs": len(pairs), "players": len(players),
            "max_residual": residual, "errors": len(loaded.errors),
            "files": [str(f) for f in files]}  # fmt: skip
