"""Fault injection with real signals, real kills, a real full disk and a real truncated file.

One store goes through a chain of faults, each run started as a terminal would start it (its own
process group, so a signal to the group is a Ctrl-C): SIGINT at 3, 8 and 15 s (while Prefect
loads and its temporary API starts); kill -9 of the main process while DDS solves, in the first
run that ingests, started as `python -m flows.pipeline` (README's other no-server entry), then
its WAL (holding that run's ingest, clean and names) cut short; SIGTERM while DDS solves; two
quick Ctrl-C; and a run whose solver is killed with -9. After each stop every process of the run
must be gone within 10 s and the lock file with it (kill -9 excepted: the lock is released, its
file stays). The last run completes, and its results.csv, ranking.csv and store tables must
equal an uninterrupted run's. docs/operations.md lists these faults and what each leaves behind.

The runs whose stop must also take down their own temporary Prefect server (SIGINT during the
API start, kill -9 of the main process, SIGTERM to the main process alone) start one, as
`ddrank run` and `python -m flows.pipeline` do; the two whose fault is not about the server (a
second Ctrl-C, a killed solver) use the worker's Prefect API (tests/prefect_server.py) and skip a
server start each. Every run keeps the chain's own PREFECT_HOME, so no solve is answered from
the result cache of another test's run.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_pipeline import _snapshot

from ddrank.processes import descendants

# The reference, an uninterrupted run, is the session's run over the LIN (tests/conftest.py
# `lin_pipeline`, partitions of 4 boards): this file is in its share (conftest's SHARES).
pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parent.parent
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
GONE_WITHIN = 10.0


def _start(tmp: Path, name: str, api: str | None = None,
           entry: str = "cli") -> subprocess.Popen[str]:  # fmt: skip
    """`ddrank run` on the LIN in partitions of 4 boards (as the reference), or with `entry="flow"`
    the other documented no-server entry, `python -m flows.pipeline`, on the same settings (its
    DDRANK_* variables); with `api`, on that Prefect API instead of a temporary one of its own."""
    db, out = tmp / f"{name}.duckdb", tmp / f"{name}-out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DO_NOT_TRACK": "1", "COLUMNS": "120",
           "PREFECT_HOME": str(tmp / f"{name}.prefect"), "DDRANK_PARTITION_SIZE": "4"}  # fmt: skip
    env.pop("PREFECT_API_URL", None)
    if api is not None:
        env["PREFECT_API_URL"] = api
    if entry == "flow":
        env.update(DDRANK_INPUTS=f'["{LIN}"]', DDRANK_DB=str(db), DDRANK_OUT=str(out))
        args = [sys.executable, "-m", "flows.pipeline"]
    else:
        args = [sys.executable, "-m", "cli.main", "run", str(LIN), "--db", str(db),
                "--out", str(out)]  # fmt: skip
    log = open(tmp / f"{name}.log", "a")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(args, cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)  # fmt: skip


def _solver(proc: subprocess.Popen[str], timeout: float = 300) -> int:
    """Wait until a DDS solver process of this run exists; return its pid."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in descendants(proc.pid):
            try:
                if b"ddrank.dd.sandbox" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
            except OSError:
                continue
        assert proc.poll() is None, "the run ended before DDS started"
        time.sleep(0.05)
    raise AssertionError("no DDS solver process appeared")


def _stopped(proc: subprocess.Popen[str], family: list[int]) -> float:
    """Seconds until the run and every process it had are gone (asserting within 10 s)."""
    begun = time.monotonic()
    proc.wait(timeout=GONE_WITHIN + 5)
    while any(Path(f"/proc/{pid}").exists() and not _zombie(pid) for pid in family):
        assert time.monotonic() - begun < GONE_WITHIN, [p for p in family if _alive(p)]
        time.sleep(0.1)
    took = time.monotonic() - begun
    assert took < GONE_WITHIN, took
    return took


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and not _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _reached(proc: subprocess.Popen[str], log: Path, begun: int, line: str,
             timeout: float = 300) -> None:  # fmt: skip
    """Wait until this run's progress has printed `line` (a step's "...: started")."""
    deadline = time.monotonic() + timeout
    while line not in log.read_text()[begun:]:
        assert proc.poll() is None, f"the run ended before {line!r}"
        assert time.monotonic() < deadline, f"no {line!r} within {timeout} s"
        time.sleep(0.02)


def _interrupt(tmp: Path, name: str, how: str, at: str | None = None,
               api: str | None = None, entry: str = "cli") -> str:  # fmt: skip
    """Start a run, hurt it, check it stopped cleanly; return the run's output. `at`: the
    progress line after which the fault comes; without it, a DDS solver's start (mid-solve).
    Progress, not seconds: on a quiet fast machine the whole LIN run takes about 4 s, so a fault
    at a fixed second could come after the DD work it means to cut (CI of a8a530e)."""
    log = tmp / f"{name}.log"
    begun = log.stat().st_size if log.exists() else 0
    proc = _start(tmp, name, api, entry)
    if at is not None:
        _reached(proc, log, begun, at)
        target = None
    else:
        target = _solver(proc)
        time.sleep(0.1)  # mid-solve
    family = [proc.pid, *descendants(proc.pid)]
    if how == "SIGINT":  # a terminal's Ctrl-C: the whole foreground group
        os.killpg(proc.pid, signal.SIGINT)
    elif how == "SIGINT x2":  # the second while the first one's orderly stop still runs
        os.killpg(proc.pid, signal.SIGINT)
        # The second as soon as the first signal's handler has run (it kills the solver, which
        # is in a process group of its own: only the handler kills it), so the two are not one
        # and the second comes while the orderly stop still unwinds: a fixed pause raced that
        # stop, which now ends within 0.05-0.2 s (flows.server.no_flow_heartbeats)
        assert target is not None
        deadline = time.monotonic() + GONE_WITHIN
        while _alive(target) and time.monotonic() < deadline:
            time.sleep(0.001)
        os.killpg(proc.pid, signal.SIGINT)
    elif how == "SIGTERM":  # `kill PID`, a service manager's stop
        os.kill(proc.pid, signal.SIGTERM)
    elif how == "kill -9 main":
        os.kill(proc.pid, signal.SIGKILL)
    elif how == "kill -9 solver":
        assert target is not None
        os.kill(target, signal.SIGKILL)
        proc.wait(timeout=600)
        return log.read_text()[begun:]
    _stopped(proc, family)
    out = log.read_text()[begun:]
    if how == "kill -9 main":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 130, (how, proc.returncode, out[-2000:])
        assert not (tmp / f"{name}.duckdb.lock").exists(), how
        assert "Traceback" not in out, out[-3000:]
    return out


@pytest.fixture(scope="module")
def reference(lin_pipeline: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    """The folder of an uninterrupted run over the LIN: `full.duckdb` and `full-out/`. It is the
    session's run (tests/conftest.py, checked by tests/test_pipeline.py), read here, never
    written (partitions of 4 boards). The chain's runs use the same partitions; its last run
    must equal it."""
    db, done = lin_pipeline
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return db.parent


def test_every_stop_is_clean_and_the_rerun_equals_an_uninterrupted_run(
    reference: Path, tmp_path: Path
) -> None:
    from prefect_server import worker_api

    # before any DD: while Prefect's API starts, while the flow run starts, while cleaning
    for at in ("start Prefect API: started", "start the flow run: started", "clean: started"):
        out = _interrupt(tmp_path, "chain", "SIGINT", at=at)
        assert "stopped by SIGINT" in out and "run the same command again" in out.lower(), out
    # kill -9 of the main process mid-DD, in the first run that gets past the API start, started
    # as `python -m flows.pipeline` (README, "no server"; the other runs are `ddrank run`): its
    # server, pool workers and solver must die with it, and its WAL holds its own writes
    out = _interrupt(tmp_path, "chain", "kill -9 main", entry="flow")
    assert " pending boards in " in out, out[-3000:]  # it got to DD: ingested and cleaned first
    wal = tmp_path / "chain.duckdb.wal"
    if wal.exists() and wal.stat().st_size > 64:  # a write cut short by the kill
        os.truncate(wal, wal.stat().st_size - 37)
    assert "stopped by SIGTERM" in _interrupt(tmp_path, "chain", "SIGTERM")
    with worker_api() as api:
        assert "stopped at once" in _interrupt(tmp_path, "chain", "SIGINT x2", api=api)
        out = _interrupt(tmp_path, "chain", "kill -9 solver", api=api)  # bisection re-solves
    assert "stage wall times" in out, out[-3000:]
    for name in ("results.csv", "ranking.csv"):
        ours = (tmp_path / "chain-out" / name).read_bytes()
        assert ours == (reference / "full-out" / name).read_bytes(), name
    assert _snapshot(tmp_path / "chain.duckdb") == _snapshot(reference / "full.duckdb")


def _ddrank(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DO_NOT_TRACK": "1", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


@pytest.fixture
def small_disk(tmp_path: Path) -> Path:
    """A real 1 MiB tmpfs (root), grown to 64 MiB by `_grow` once the fault has been seen."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}); CI runs as root")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_is_one_line_and_loses_nothing(small_disk: Path, tmp_path: Path) -> None:
    db = small_disk / "s.duckdb"
    pbn = ROOT / "ddrank" / "data" / "sample" / "pbn" / "online-qualifier-2021-example2.pbn"
    steps = [("ingest", str(LIN), str(pbn), "--db", str(db)), ("clean", "--db", str(db))]
    failed = None
    for step in steps:
        done = _ddrank(*step, cwd=tmp_path)
        if done.returncode != 0:
            failed = done
            break
    assert failed is not None, "1 MiB held everything: the fault was not injected"
    assert failed.returncode == 2
    assert "Traceback" not in failed.stderr
    errors = [ln for ln in failed.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "no space left on the disk" in errors[0], failed.stderr
    subprocess.run(["mount", "-o", "remount,size=64m", "tmpfs", str(small_disk)], check=True)
    for step in steps:  # the same commands again, now with room
        again = _ddrank(*step, cwd=tmp_path)
        assert again.returncode == 0, again.stderr
    clean_db = tmp_path / "clean.duckdb"
    for step in steps:
        _ddrank(*[a if a != str(db) else str(clean_db) for a in step], cwd=tmp_path)
    audit = _ddrank("audit", "--db", str(db), "--json", cwd=tmp_path)
    clean_audit = _ddrank("audit", "--db", str(clean_db), "--json", cwd=tmp_path)
    assert audit.returncode == 0 and audit.stdout == clean_audit.stdout


def test_a_truncated_store_is_one_line_naming_it(reference: Path, tmp_path: Path) -> None:
    db = tmp_path / "cut.duckdb"
    shutil.copy(reference / "full.duckdb", db)
    os.truncate(db, db.stat().st_size // 3)
    done = _ddrank("report", "--db", str(db), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "the store is damaged" in errors[0], done.stderr


def test_a_reader_during_a_run_is_told_a_run_holds_the_store(
    reference: Path, tmp_path: Path
) -> None:
    db = tmp_path / "busy.duckdb"
    shutil.copy(reference / "full.duckdb", db)
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; "
                               f"con = duckdb.connect({str(db)!r}); print('held', flush=True); "
                               "time.sleep(120)"], stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for command in (["report", "--out", str(tmp_path / "o")], ["player", "Meckstroth"]):
            done = _ddrank(*command, "--db", str(db), cwd=tmp_path)
            assert done.returncode == 2, done.stdout + done.stderr
            assert "Traceback" not in done.stderr
            errors = [ln for ln in done.stderr.splitlines() if ln.startswith("error:")]
            assert len(errors) == 1 and "in use by another ddrank process" in errors[0], errors
    finally:
        holder.kill()
        holder.wait()


def test_dd_with_nothing_left_starts_no_server(reference: Path, tmp_path: Path) -> None:
    db = tmp_path / "done.duckdb"  # a copy: the session's store is only read
    shutil.copy(reference / "full.duckdb", db)
    done = _ddrank("dd", "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("nothing to analyse: every board of ")
    assert "Prefect" not in done.stdout + done.stderr
