"""Small real stores for the site's tests, built in-process by the stages (no Prefect, no names
stage): ingest, clean, DD (tables, traces, counters, par), scoring, then the site."""

from __future__ import annotations

import fcntl
import os
import shutil
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


def lin_store(tmp_path_factory) -> Path:  # noqa: ANN001 - pytest's TempPathFactory
    """A folder of its own holding a copy of the session's one build of the bundled LIN with DD
    (`store.duckdb`, `out/site`), for a module to read or change.

    Three files read that same store (tests/test_mistake_costs.py, tests/test_site_pages.py,
    tests/test_site_lin_browser.py); building it is most of their cost (about 18 s of CPU, DDS
    included), so it is built once per test run, by whichever worker needs it first (the others
    wait on a file lock), and copied."""
    base = tmp_path_factory.getbasetemp()
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # the same in every worker of one run
    root = base.parent / f"lin-store-{run}" if run else base / "lin-store"
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not root.is_dir():
            building = Path(f"{root}.{os.getpid()}")
            shutil.rmtree(building, ignore_errors=True)
            building.mkdir()
            build(building / "store.duckdb", building / "out", [LIN])
            building.rename(root)  # complete or absent: a failed build is built again
    copy = tmp_path_factory.mktemp("lin")
    shutil.copy2(root / "store.duckdb", copy / "store.duckdb")
    shutil.copytree(root / "out", copy / "out")
    return copy


def query(db: Path, sql: str, params: list | None = None) -> list:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()
