"""DD fan-out on Dask (issue 7): the same real boards solved with the process runner and on a
2-worker Dask LocalCluster must give identical dd_tables, play_traces and player_board_stats.

Data: the first 80 table results of the 2012 world-class PBN (40 boards, two tables each): DD
work enough for several solve units (`ddrank.dd.units`), so the solve tasks really spread over
both workers. Cached solves are refreshed
(PREFECT_TASKS_REFRESH_CACHE) so the second runner computes everything again instead of reading
the first runner's persisted results.
"""

from __future__ import annotations

import inspect
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from stages.clean import clean_pending
from stages.ingest import ingest_paths
from store import Store

ROOT = Path(__file__).resolve().parent.parent
WORLDCLASS = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
GAMES = 80


def dd_flow_takes_address() -> bool:
    from flows.dd_analysis import dd_analysis

    return "dask_address" in inspect.signature(dd_analysis.fn).parameters


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One Prefect API for the module, a private result store, cache refresh on; the variables
    are exported before any pool or Dask worker is spawned so every worker inherits them."""
    from prefect_server import worker_api

    root = tmp_path_factory.mktemp("dask")
    wanted = {
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_LOCAL_STORAGE_PATH": str(root / "prefect-results"),
        "PREFECT_TASKS_REFRESH_CACHE": "true",
    }
    saved = {k: os.environ.get(k) for k in wanted}
    os.environ.update(wanted)
    try:
        with worker_api():  # the worker's Prefect API (tests/prefect_server.py)
            yield root
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def cleaned_store(env: Path) -> Path:
    """The 80 table results ingested and cleaned, not yet DD-analysed."""
    blocks = WORLDCLASS.read_text(encoding="latin-1").split("\n\n")
    subset = env / "worldclass-2012-first80.pbn"
    subset.write_text("\n\n".join(blocks[:GAMES]) + "\n", encoding="latin-1")
    db = env / "cleaned.duckdb"
    with Store(db) as store:
        assert ingest_paths(store, [subset]).new == GAMES
        clean_pending(store, workers=1)
        boards = store.table_count("boards")
    assert boards >= 60
    return db


def dd_results(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            table: con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
            for table in ("dd_tables", "play_traces", "player_board_stats", "exclusions")
        }
    finally:
        con.close()


def run_dd(store: Path, name: str, **kwargs: Any) -> tuple[dict[str, Any], dict[str, list]]:
    from flows.dd_analysis import dd_analysis

    db = store.parent / f"{name}.duckdb"
    shutil.copy(store, db)
    summary = dd_analysis(db=str(db), workers=2, dds_threads=1, **kwargs)
    return summary, dd_results(db)


def test_dask_cluster_results_equal_process_runner(cleaned_store: Path) -> None:
    from distributed import Client, LocalCluster

    proc_summary, proc = run_dd(cleaned_store, "process", runner="process")
    assert proc_summary["tables_computed"] >= 30 and proc_summary["traces_computed"] >= 60
    assert len(proc["player_board_stats"]) == 4 * proc_summary["boards_tallied"]

    # the cluster named by --dask-address, as in production
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                     dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):  # fmt: skip
        assert len(client.scheduler_info()["workers"]) == 2
        dask_summary, on_dask = run_dd(
            cleaned_store, "dask", runner="dask", dask_address=cluster.scheduler_address
        )
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
        # every partition's solve ran on this cluster, spread over both workers
        assert sum(executed.values()) >= 4 and min(executed.values()) >= 1, executed

    assert dask_summary["runner"] == "dask" and dask_summary["workers"] == 2
    for key in ("tables_computed", "traces_computed", "boards_tallied", "quarantined"):
        assert dask_summary[key] == proc_summary[key], key
    for table, rows in proc.items():
        assert on_dask[table] == rows, table


def test_dd_flow_connects_to_a_given_dask_scheduler() -> None:
    """`--runner dask --dask-address tcp://...` must use that cluster, not start a local one."""
    from prefect_dask import DaskTaskRunner

    from flows.dd_analysis import make_runner

    assert dd_flow_takes_address()
    runner = make_runner("dask", 2, 1, dask_address="tcp://127.0.0.1:8786")
    assert isinstance(runner, DaskTaskRunner)
    assert runner.address == "tcp://127.0.0.1:8786"
