"""The whole pipeline flow on real records: end to end, rerun, store lock.

Each pipeline run is a real Prefect flow run (one temporary API per process), so this file keeps
to a few runs on the 30 table results of the bundled BBO vugraph file. The uninterrupted run is
the session's `lin_pipeline` (tests/conftest.py), shared with tests/test_faults.py and
tests/test_scoring_flow.py: the three files are one share (conftest's SHARES), on one worker.
A run killed with -9 mid-DD, then run again to an end equal to the uninterrupted run, is in
tests/test_faults.py's chain (kill -9 of the main process, in the first run that ingests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from cli_lines import without_start_up_lines
from pipeline_run import pipeline_env

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
# Tables whose content must not depend on how the run got there (ingested_at excluded).
COMPARED = {
    "boards": "SELECT * EXCLUDE (partition_id) FROM boards ORDER BY record_id",
    "exclusions": "SELECT * FROM exclusions ORDER BY record_id",
    "dd_tables": "SELECT * FROM dd_tables ORDER BY ALL",
    "play_traces": "SELECT * FROM play_traces ORDER BY ALL",
    "player_board_stats": "SELECT * FROM player_board_stats ORDER BY ALL",
    "player_stats": "SELECT * FROM player_stats ORDER BY ALL",
}


def _env(tmp: Path, name: str) -> dict[str, str]:
    return pipeline_env(tmp, name, [LIN])


def _snapshot(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {name: con.sql(q).fetchall() for name, q in COMPARED.items()}
    finally:
        con.close()


@pytest.fixture(scope="module")
def uninterrupted(lin_pipeline: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    """The session's one uninterrupted run over the LIN (tests/conftest.py, shared with
    tests/test_scoring_flow.py)."""
    return lin_pipeline[0]


def test_pipeline_end_to_end(uninterrupted: Path) -> None:
    snap = _snapshot(uninterrupted)
    assert len(snap["boards"]) + len(snap["exclusions"]) == 30
    assert len(snap["dd_tables"]) > 0 and len(snap["play_traces"]) > 0
    # every board with a play has a trace one longer than its cards
    con = duckdb.connect(str(uninterrupted), read_only=True)
    bad = con.sql(
        "SELECT count(*) FROM boards b JOIN play_traces t USING (record_id) "
        "WHERE len(t.trace) <> len(b.play) + 1"
    ).fetchall()[0][0]
    players = con.sql("SELECT player FROM player_stats ORDER BY player").fetchall()
    con.close()
    assert bad == 0
    # the 8 vugraph players of the USBF semifinal, matched to the WBF list
    assert ("Jeff Meckstroth",) in players and ("Eric Rodwell",) in players


def test_rerun_adds_and_computes_nothing(uninterrupted: Path, tmp_path: Path) -> None:
    """Forced (every stage runs), a rerun on the same inputs adds and computes nothing. On the
    worker's Prefect API (tests/prefect_server.py), as a deployment runs: no server start of its
    own (the "start Prefect API" stage's lines, from its start to done, are checked on the
    session's `ddrank run` in tests/test_site_browser.py)."""
    from prefect_server import worker_api

    before = _snapshot(uninterrupted)
    env = {**_env(uninterrupted.parent, "full"), "DDRANK_FORCE": "true"}
    with worker_api() as api:
        env["PREFECT_API_URL"] = api
        out = _rerun(env)
    assert out.returncode == 0, out.stderr[-3000:]
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT"))
    assert line == 'RESULT {"new": 0, "tables": 0, "traces": 0, "cleaned": 0}'
    assert _snapshot(uninterrupted) == before
    # every long stage reported its progress, and each one finished (done == total > 0)
    stages = json.loads(next(x for x in out.stdout.splitlines() if x.startswith("STAGES"))[7:])
    for name in ("ingest", "clean", "names", "solve", "tally", "scoring"):
        done, total = stages[name]
        assert total > 0 and done == total, (name, stages)


def _rerun(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The pipeline flow in a subprocess, with every stage's progress recorded."""
    return subprocess.run(
        [sys.executable, "-c",
         "import json\nfrom flows.pipeline import run_pipeline\nfrom stages.settings import load_settings\n"
         "from stages.progress import reporting\nseen = {}\n"
         "with reporting(lambda st, d, t: seen.__setitem__(st, (d, t))):\n"
         "    r = run_pipeline(load_settings())\n"
         "print('STAGES', json.dumps(seen))\n"
         "print('RESULT', json.dumps({'new': r['ingest']['new'], 'tables': r['dd']['tables_computed'],"
         " 'traces': r['dd']['traces_computed'], 'cleaned': r['clean']['cleaned']}))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_regress_on_a_small_store_hints_at_the_min_flags(uninterrupted: Path) -> None:
    """The paper's Table 9 minima leave too few of the 8 vugraph players: say which flags to lower,
    with the values `ddrank run` used for this store."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "400"}
    out = subprocess.run([sys.executable, "-m", "cli.main", "regress", "--db", str(uninterrupted),
                          "--out", str(uninterrupted.parent / "reg"), "--json"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 2  # bad input: one error style, exit 2 (README, exit codes)
    assert "players left after exclusions" in out.stderr
    assert "hint: lower the opportunity thresholds with --min-claims, --min-leads" in out.stderr
    assert f"ddrank regress --db {uninterrupted} --min-claims 1 --min-leads 1" in out.stderr


def test_run_with_nothing_new_starts_no_server(uninterrupted: Path) -> None:
    """`ddrank run` after a finished run: one line, and Prefect is never imported."""
    env = _env(uninterrupted.parent, "full")
    manifest = Path(env["DDRANK_OUT"]) / ".ddrank-run.json"
    assert manifest.is_file(), "no finished run was recorded: did a stage of the pipeline fail?"
    probe = (
        "import sys\nfrom typer.main import get_command\nimport cli.main\n"
        "try:\n    get_command(cli.main.app).main(['run'], prog_name='ddrank')\n"
        "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
        "print('PREFECT', 'prefect' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**env, "COLUMNS": "300"},
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    # one line, after the start-up's progress lines where checking took more than a moment
    lines = without_start_up_lines(out.stdout)
    assert lines[-1] == "PREFECT False"
    assert len(lines) == 2 and lines[0].startswith("nothing new since "), out.stdout
    assert f"1 file(s) unchanged; results in {env['DDRANK_OUT']}/" in lines[0]


def test_second_run_on_a_locked_store_is_refused(tmp_path: Path) -> None:
    from store import StoreLockedError, store_lock

    db = tmp_path / "busy.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         f"from store import store_lock\nimport time\nwith store_lock({str(db)!r}):\n"
         "    print('held', flush=True)\n    time.sleep(60)"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreLockedError, match="another ddrank run"), store_lock(db):
            pass
    finally:
        holder.kill()
        holder.wait()
    with store_lock(db):  # released when its holder died
        pass
