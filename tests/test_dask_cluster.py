"""`ddrank run --runner dask --dask-address ...` on a real Dask cluster of separate processes.

Opt-in (marker `cluster`, left out of the default run like `stack`; `pytest -m cluster`): it
starts `dask scheduler` and two `dask worker` processes on localhost (one thread each), as a user
would on their machines, with the environment docs/operations.md §4 asks of a worker (the Prefect
API of the run, `PREFECT_LOCAL_STORAGE_PATH`). It then runs `ddrank run` twice on the same real
boards, the first 160 table results of the bundled 2012 world-class PBN (DD and the rest of the
pipeline): once on the cluster and once on the default process pool (2 workers), cache refreshed
both times, and checks that the DD tables, play traces and player counters are identical and that
both Dask workers ran solves. Prints both wall times (`-s` shows them).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parent.parent
WORLDCLASS = ROOT / "ddrank" / "data" / "sample" / "pbn" / "worldclass-2012-example3.pbn"
GAMES = 160
COMPARED = ("dd_tables", "play_traces", "player_board_stats", "exclusions")

pytestmark = [pytest.mark.cluster, pytest.mark.flow]


def _bin(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


def _started(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """A service in a session of its own, so its whole process tree can be stopped."""
    return subprocess.Popen(cmd, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip


def _stop(procs: list[subprocess.Popen]) -> None:
    for p in reversed(procs):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict, Path]]:
    """A Prefect API (one temporary server for the module), a scheduler and two workers."""
    from distributed import Client

    from flows.server import prefect_api

    tmp = tmp_path_factory.mktemp("cluster")
    os.environ.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false")
    with prefect_api() as api:
        env = dict(os.environ, PREFECT_API_URL=api, DDRANK_DDS_THREADS="1",
                   PREFECT_LOCAL_STORAGE_PATH=str(tmp / "prefect-results"))  # fmt: skip
        sched_file = tmp / "scheduler.json"
        procs = [_started([_bin("dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
                           "--no-dashboard", "--scheduler-file", str(sched_file)],
                          env, tmp / "scheduler.log")]  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not sched_file.is_file() and time.monotonic() < deadline:
                time.sleep(0.5)
            address = json.loads(sched_file.read_text())["address"]
            for i in range(2):
                procs.append(_started([_bin("dask"), "worker", address, "--nthreads", "1",
                                       "--nworkers", "1", "--no-dashboard", "--name", f"w{i}"],
                                      env, tmp / f"worker{i}.log"))  # fmt: skip
            with Client(address, timeout=60) as client:
                client.wait_for_workers(2, timeout=180)
            yield address, env, tmp
        finally:
            _stop(procs)


def _ddrank_run(env: dict, tmp: Path, name: str, pbn: Path, *flags: str) -> tuple[float, dict]:
    began = time.perf_counter()
    done = subprocess.run(
        [_bin("ddrank"), "run", str(pbn), "--db", str(tmp / f"{name}.duckdb"), "--out",
         str(tmp / f"{name}-out"), "--refresh-cache", "--json", *flags],
        env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    wall = time.perf_counter() - began
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return wall, json.loads(done.stdout[done.stdout.index("{") :])


def _dd_rows(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in COMPARED}
    finally:
        con.close()


def test_a_real_cluster_solves_what_the_process_pool_solves(cluster) -> None:
    from distributed import Client

    address, env, tmp = cluster
    blocks = WORLDCLASS.read_text(encoding="latin-1").split("\n\n")
    pbn = tmp / "worldclass-2012-first160.pbn"
    pbn.write_text("\n\n".join(blocks[:GAMES]) + "\n", encoding="latin-1")

    dask_wall, on_dask = _ddrank_run(env, tmp, "dask", pbn, "--runner", "dask",
                                     "--dask-address", address)  # fmt: skip
    with Client(address, timeout=60) as client:
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    pool_wall, on_pool = _ddrank_run(env, tmp, "pool", pbn, "--runner", "process",
                                     "--workers", "2")  # fmt: skip
    print(f"\n{GAMES} table results, {on_pool['dd']['tables_computed']} DD tables, "
          f"{on_pool['dd']['traces_computed']} traces: `ddrank run` on the Dask cluster "
          f"(2 workers x 1 thread) {dask_wall:.1f} s wall (DD {on_dask['timings']['double dummy']}"
          f" s), on the process pool (2 x 1) {pool_wall:.1f} s wall (DD "
          f"{on_pool['timings']['double dummy']} s); ratio {dask_wall / pool_wall:.2f}")  # fmt: skip

    assert on_dask["dd"]["runner"] == "dask" and on_dask["dd"]["workers"] == 2
    # every unit was solved on the cluster, by both of its workers
    assert len(executed) == 2 and min(executed.values()) >= 1, executed
    assert sum(executed.values()) >= 4, executed
    for key in ("tables_computed", "traces_computed", "boards_tallied", "quarantined"):
        assert on_dask["dd"][key] == on_pool["dd"][key], key
    assert on_pool["dd"]["tables_computed"] >= 60 and on_pool["dd"]["traces_computed"] >= 100
    dask_rows, pool_rows = _dd_rows(tmp / "dask.duckdb"), _dd_rows(tmp / "pool.duckdb")
    for table in COMPARED:
        assert dask_rows[table] == pool_rows[table], table
    assert len(pool_rows["dd_tables"]) == 20 * on_pool["dd"]["tables_computed"]
