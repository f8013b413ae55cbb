"""Per-player statistics over a `Store`: the 33 Table 3 sums and the 28 Table 4 rates."""

from __future__ import annotations

from pathlib import Path

from ddrank.mistakes import VARIABLES
from publish.tables import write_csv
from store import Store

#: `ddrank stats` columns: the layout of the paper's dds_final_results.csv.
STATS_COLUMNS: tuple[str, ...] = ("name", "mp", "pp", *VARIABLES)


def build_player_stats(store: Store) -> int:
    """(Re)build `player_stats` from `player_board_stats`; returns the number of players."""
    store.run("build_player_stats")
    ((players,),) = store.tuples("player_stats_count")  # fetched whole: DuckDB 2 blocks on a rest
    return int(players)


def write_player_stats(store: Store, out: str | Path) -> int:
    """Rebuild `player_stats` and write it as CSV (name, mp, pp, the 33 variables)."""
    players = build_player_stats(store)
    write_csv(out, store.rows("player_stats_table"), STATS_COLUMNS)
    return players
