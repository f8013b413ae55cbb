"""Numbers that docs/methodology.md states about the bundled data, recomputed from that data."""

from __future__ import annotations

from pathlib import Path

from stages.clean import clean_pending
from stages.ingest import ingest_paths
from store.store import open_connection as connect

ROOT = Path(__file__).resolve().parent.parent
WORLDCLASS_2012 = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"


def test_trick_winner_repair_count(tmp_path: Path) -> None:
    """methodology.md: the buggy trick-winner's columns are re-read on 3,589 table results of the
    2012 file (1,633 distinct deals), and every re-read play validates (it is kept with a play)."""
    con = connect(tmp_path / "s.duckdb")
    try:
        ingest_paths(con, [WORLDCLASS_2012])
        clean_pending(con, 1)
        rows, deals, with_play = con.execute(
            "SELECT count(*), count(DISTINCT deal_id), count(play) FROM boards "
            "WHERE repairs LIKE '%columns realigned (exporter let every trump overtake)%'"
        ).fetchall()[0]
    finally:
        con.close()
    assert (rows, deals, with_play) == (3589, 1633, 3589)
