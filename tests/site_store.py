"""Small real stores for the site's tests, built in-process by the stages (no Prefect, no names
stage): ingest, clean, DD (tables, traces, counters, par), scoring, then the site."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIN = REPO / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
EVENTS = REPO.parent / "shared" / "data" / "events"
WELWYN = [EVENTS / "usebio" / "welwyn-2025-04-09.usebio.xml",
          EVENTS / "usebio" / "welwyn-2025-04-09.hands.pbn"]  # fmt: skip


def build(db: Path, out: Path, files: list[Path], dd: bool = True) -> dict:
    """A store of `files` at `db` and its site under `out/site`; returns the site's summary."""
    from ddrank.dd import solve_with_bisection
    from stages import scoring
    from stages.clean import clean_pending
    from stages.dd import compute_par, plan_dd_work, record_invalid, store_solution, tally_partition
    from stages.ingest import ingest_paths
    from stages.site import build_site
    from store import Store

    with Store(db) as store:
        ingest_paths(store, [str(f) for f in files], workers=1)
        clean_pending(store, workers=1)
        if dd:
            plan = plan_dd_work(store)
            record_invalid(store, plan)
            for u in plan.units:
                store_solution(store, u.job, solve_with_bisection(u.job))
            compute_par(store)
            for pid in plan.partitions:
                tally_partition(store, pid)
        scoring.score_and_save(store, scoring.load_store(store))
    return build_site(db, out)


def query(db: Path, sql: str, params: list | None = None) -> list:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()
