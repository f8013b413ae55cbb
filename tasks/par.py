"""DD par of every dealt deal, from the stored DD tables (no Prefect here: `ddrank report` fills
the par of stores made before par existed without paying for Prefect's import)."""

from __future__ import annotations

from collections import defaultdict

import duckdb
import polars as pl

from ddrank.dd.par import par_from_table
from ddrank.dd.tables import TrickTable
from ddrank.types import Seat, Strain


def _exec(con: duckdb.DuckDBPyConnection, query: str, params: list | None = None) -> list:
    """Execute and fetch at once: DuckDB 2 blocks a connection while a result is unfetched."""
    return con.execute(query, params or []).fetchall()


def tables_for(con: duckdb.DuckDBPyConnection, deal_ids: list[str]) -> dict[str, TrickTable]:
    """The stored DD tables of `deal_ids` (only complete ones: 20 cells)."""
    rows = con.execute(
        "SELECT deal_id, strain, declarer, tricks FROM dd_tables "
        "WHERE deal_id IN (SELECT unnest(?))",
        [deal_ids],
    ).fetchall()
    cells: dict[str, list[int]] = defaultdict(lambda: [0] * 20)
    seen: dict[str, int] = defaultdict(int)
    for deal_id, strain, declarer, tricks in rows:
        cells[deal_id][int(Strain.parse(strain)) * 4 + int(Seat.parse(declarer))] = tricks
        seen[deal_id] += 1
    return {d: TrickTable(tuple(c)) for d, c in cells.items() if seen[d] == 20}


#: (deal_id, dealer, vulnerable) of every kept board that has a full DD table but no par yet.
_PAR_PENDING = """
WITH dealt AS (
    SELECT DISTINCT deal_id, dealer,
        CASE WHEN ns_vulnerable AND ew_vulnerable THEN 'All' WHEN ns_vulnerable THEN 'NS'
             WHEN ew_vulnerable THEN 'EW' ELSE 'None' END AS vulnerable
    FROM boards
    WHERE dealer IS NOT NULL AND ns_vulnerable IS NOT NULL AND ew_vulnerable IS NOT NULL
)
SELECT d.deal_id, d.dealer, d.vulnerable FROM dealt d
WHERE EXISTS (SELECT 1 FROM dd_tables t WHERE t.deal_id = d.deal_id)
  AND NOT EXISTS (SELECT 1 FROM dd_par p WHERE p.deal_id = d.deal_id AND p.dealer = d.dealer
                  AND p.vulnerable = d.vulnerable)
"""


def compute_par(con: duckdb.DuckDBPyConnection) -> int:
    """Par of every dealt deal that has a DD table and no par yet; returns rows added.

    Par comes from the stored table (DDS DealerParBin, microseconds per deal): no second solve.
    Boards whose record gave no dealer or vulnerability get no par (par depends on both).
    """
    pending = _exec(con, _PAR_PENDING)
    if not pending:
        return 0
    tables = tables_for(con, sorted({r[0] for r in pending}))
    rows = []
    for deal_id, dealer, vulnerable in pending:
        table = tables.get(deal_id)
        if table is None:  # a partial table (never stored by this engine) gets no par
            continue
        par = par_from_table(table, Seat.parse(dealer), vulnerable in ("NS", "All"),
                             vulnerable in ("EW", "All"))  # fmt: skip
        rows.append((deal_id, dealer, vulnerable, par.ns_score, par.contract_text))
    if rows:
        df = pl.DataFrame(
            rows, schema=["deal_id", "dealer", "vulnerable", "par_score", "par_contract"],
            orient="row",
        )  # fmt: skip
        con.register("dd_new_par", df.to_arrow())
        _exec(con, "INSERT INTO dd_par SELECT * FROM dd_new_par ON CONFLICT DO NOTHING")
        con.unregister("dd_new_par")
    return len(rows)
