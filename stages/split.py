"""Stage `split`: Cammarata's split of the IMP events' Butler scores into bid and play.

Reads the one results model (`scored_results`, query `scored_tables`) once, compares the tables
of each board that played the same cards, checks Theorem 1 on every pair of tables and writes
pairs.csv, players.csv, errors.csv and split_report.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddrank.split import aggregate_splits, split_field
from publish.field import report_header, top_sections, write_errors, write_md
from publish.tables import write_csv
from store import Store

if TYPE_CHECKING:
    from stages.field import LoadedField

Row = dict[str, Any]


def split_imp_events(store: Store, events: Sequence[str], out_dir: str | Path,
                     min_boards: int = 30) -> Row:  # fmt: skip
    """The split of the given (IMP) events' boards; matchpoint events have no IMPs to split."""
    from stages.field import tables_from_scored

    wanted = set(events)
    rows = [r for r in store.rows("scored_tables") if r["event"] in wanted]
    if not rows:
        return {"skipped": "no IMP event"}
    return run_split(tables_from_scored(rows, str(store.path)), out_dir, min_boards)


SPLIT_COLUMNS = ["players", "boards", "butler", "bid", "play", "defence", "luck"]


def run_split(loaded: LoadedField, out_dir: str | Path, min_boards: int = 30) -> Row:
    """Cammarata split of every board; pairs.csv and players.csv in IMPs per board."""
    out = Path(out_dir)
    groups = [g for gs in loaded.boards.values() for g in gs]
    splits, residual = split_field(groups)
    if residual > 1e-9:
        raise ArithmeticError(f"Theorem 1 violated by {residual:g} IMPs: a bug, please report")
    pairs, players = aggregate_splits(splits)
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
    return {"tables": len(splits), "pairs": len(pairs), "players": len(players),
            "max_residual": residual, "errors": len(loaded.errors),
            "files": [str(f) for f in files]}  # fmt: skip
