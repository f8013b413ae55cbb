"""Run DDS where a crash cannot take the caller down, and find the input that crashed it.

DDS is native code: bad input, a bug or memory exhaustion kills the whole process, and with it a
process pool and every partition it was working on. So a solve job runs in a child interpreter
(`python -m ddrank.dd.sandbox`, which imports only ddrank.dd and endplay): `run_persistent` takes
a long-lived one that solves job after job (started ahead by `prestart_solvers`, shared by the
threads of a worker, closed by `close_solvers`), `run_isolated` starts one per job. If the child
dies, the job is split in halves and re-run until the single deal or play that kills DDS is
known; everything else is still solved. The caller quarantines the culprits.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH, TraceRequest, solve_tables, solve_traces
from ddrank.processes import die_with_parent, solvers_allowed, stop_requested

#: Test-only fault injection: a comma-separated list of deal_ids that make the sandboxed solver
#: die with SIGSEGV, as DDS does on bad input. Lets tests prove crash isolation with a real dead
#: process instead of a mock. Never set in production.
FAULT_ENV = "DDRANK_DD_FAULT_DEALS"
THREADS_ENV = "DDRANK_DDS_THREADS"
_REPO_ROOT = str(Path(__file__).resolve().parents[2])


@dataclass(frozen=True, slots=True)
class SolveJob:
    """Deals that need a DD table and plays that need a trace."""

    tables: tuple[tuple[str, str], ...] = ()  # (deal_id, canonical PBN)
    traces: tuple[TraceRequest, ...] = ()
    table_batch: int = TABLE_BATCH
    trace_batch: int = TRACE_BATCH

    def __len__(self) -> int:
        return len(self.tables) + len(self.traces)

    def split(self) -> tuple[SolveJob, SolveJob]:
        """Two halves of the job (by item count), for bisecting a crash."""
        items = [("t", x) for x in self.tables] + [("p", x) for x in self.traces]
        mid = len(items) // 2
        halves = []
        for part in (items[:mid], items[mid:]):
            halves.append(
                SolveJob(
                    tables=tuple(x for kind, x in part if kind == "t"),  # type: ignore[misc]
                    traces=tuple(x for kind, x in part if kind == "p"),  # type: ignore[misc]
                    table_batch=self.table_batch,
                    trace_batch=self.trace_batch,
                )
            )
        return halves[0], halves[1]


@dataclass(slots=True)
class SolveOutput:
    """What a job produced: tables by deal_id, traces by record key, and what crashed DDS."""

    tables: dict[str, tuple[int, ...]] = field(default_factory=dict)
    traces: dict[str, tuple[int, ...]] = field(default_factory=dict)
    crashed_deals: list[tuple[str, str]] = field(default_factory=list)  # (deal_id, reason)
    crashed_traces: list[tuple[str, str]] = field(default_factory=list)  # (record key, reason)
    solver_runs: int = 0  # child processes started (1 when nothing crashed)
    seconds: float = 0.0  # wall time spent in solver processes, crashed runs included
    #: CPU seconds the solver process spent on the tables and on the traces (the planner's
    #: weights are checked against these: `ddrank.dd.units`)
    cpu_tables: float = 0.0
    cpu_traces: float = 0.0

    def merge(self, other: SolveOutput) -> None:
        self.tables.update(other.tables)
        self.traces.update(other.traces)
        self.crashed_deals += other.crashed_deals
        self.crashed_traces += other.crashed_traces
        self.solver_runs += other.solver_runs
        self.seconds += other.seconds
        self.cpu_tables += other.cpu_tables
        self.cpu_traces += other.cpu_traces


class SolverCrash(RuntimeError):
    """The solver process died (signal or non-zero exit) instead of returning results."""

    def __init__(self, returncode: int, stderr: str) -> None:
        self.returncode = returncode
        if returncode < 0:
            try:
                what = signal.Signals(-returncode).name
            except ValueError:
                what = f"signal {-returncode}"
        else:
            what = f"exit code {returncode}"
        tail = stderr.strip().splitlines()[-3:]
        super().__init__(f"DDS solver died ({what})" + (": " + " | ".join(tail) if tail else ""))
        self.reason = what
        self.seconds = 0.0


def _refuse_when_stopping() -> None:
    """A command that is stopping (or killed its workers) starts no solver: raise
    KeyboardInterrupt, which neither bisection nor Prefect's retries take for a crash."""
    if not solvers_allowed():
        why = stop_requested() or "its workers were killed"
        raise KeyboardInterrupt(f"no DDS solver started: the command is stopping ({why})")


def solve_job(job: SolveJob) -> SolveOutput:
    """Solve a job in this process (no crash protection)."""
    out = SolveOutput()
    if job.tables:
        began = time.process_time()
        tables = solve_tables([pbn for _, pbn in job.tables], batch=job.table_batch)
        out.tables = {deal_id: t.cells for (deal_id, _), t in zip(job.tables, tables, strict=True)}
        out.cpu_tables = time.process_time() - began
    if job.traces:
        began = time.process_time()
        traces = solve_traces(job.traces, batch=job.trace_batch)
        out.traces = {req.key: tr for req, tr in zip(job.traces, traces, strict=True)}
        out.cpu_traces = time.process_time() - began
    return out


def run_isolated(
    job: SolveJob, threads: int | None = None, timeout: float | None = None
) -> SolveOutput:
    """Solve `job` in a child interpreter; raise SolverCrash if it dies."""
    _refuse_when_stopping()
    started = time.perf_counter()
    env = dict(os.environ)
    # The child must import this very package, installed or not.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_REPO_ROOT, env.get("PYTHONPATH")) if p)
    if threads is not None:
        env[THREADS_ENV] = str(threads)
    proc = subprocess.run(
        [sys.executable, "-m", "ddrank.dd.sandbox"],
        input=pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL),
        capture_output=True,
        env=env,
        timeout=timeout,
        preexec_fn=die_with_parent,  # a killed worker never leaves its solver running
    )
    if proc.returncode in (-signal.SIGINT, -signal.SIGTERM):
        # stopped by the user (Ctrl-C reached it), not a DDS crash: never quarantine for that
        raise KeyboardInterrupt(f"DDS solver stopped by {signal.Signals(-proc.returncode).name}")
    if proc.returncode != 0:
        _refuse_when_stopping()  # killed by the command's stop, not a DDS crash
        crash = SolverCrash(proc.returncode, proc.stderr.decode(errors="replace"))
        crash.seconds = time.perf_counter() - started
        raise crash
    out: SolveOutput = pickle.loads(proc.stdout)
    out.solver_runs = 1
    out.seconds = time.perf_counter() - started
    return out


class _Server:
    """A solver child that stays up and solves job after job (`python -m ddrank.dd.sandbox
    --serve`): its interpreter, endplay and DDS load once per worker, not once per job. Jobs and
    outputs cross its pipes as length-prefixed pickles; its stderr goes to a file, read only when
    it dies."""

    def __init__(self, threads: int | None) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_REPO_ROOT, env.get("PYTHONPATH")) if p)
        if threads is not None:
            env[THREADS_ENV] = str(threads)
        self.threads = threads
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the child
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ddrank.dd.sandbox", "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, env=env,
            preexec_fn=die_with_parent,  # a killed worker never leaves its solver running
        )  # fmt: skip

    def solve(self, job: SolveJob) -> SolveOutput:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.proc.stdin.write(_HEADER.pack(len(data)) + data)
            self.proc.stdin.flush()
            (size,) = _HEADER.unpack(_read_exactly(self.proc.stdout, _HEADER.size))
            return pickle.loads(_read_exactly(self.proc.stdout, size))
        except (OSError, EOFError):
            code = self.proc.wait()
            self.errors.seek(0)
            stderr = self.errors.read()[-4000:].decode(errors="replace")
            self.close()
            if code in (-signal.SIGINT, -signal.SIGTERM):
                stop = signal.Signals(-code).name
                raise KeyboardInterrupt(f"DDS solver stopped by {stop}") from None
            _refuse_when_stopping()  # killed by the command's stop, not a DDS crash
            raise SolverCrash(code, stderr) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # end of input: the child returns
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.errors.close()


_HEADER = struct.Struct("<Q")
#: Solver children waiting for their next job, taken by whichever thread of this process needs
#: one (DDS is not re-entrant: one job per child at a time). They outlive a fan-out's threads,
#: so the next wave reuses them, and can be started before the first unit (`prestart_solvers`).
_idle: list[_Server] = []
_live: set[_Server] = set()  # every child not yet closed, idle or busy (closed at exit)
_lock = threading.Lock()


def _read_exactly(stream: Any, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError("the solver process ended")
    return data


def _start_server(threads: int | None) -> _Server:
    server = _Server(threads)
    with _lock:
        _live.add(server)
    if not solvers_allowed():  # the stop came while it started: kill_workers may have missed it
        _discard(server)
        _refuse_when_stopping()
    return server


def _discard(server: _Server) -> None:
    """Close a child that is no longer trusted (it died, or its job was interrupted)."""
    with _lock:
        _live.discard(server)
    if server.proc.poll() is None:
        server.proc.kill()
    server.close()


def _take_server(threads: int | None) -> _Server:
    """An idle living child solving on `threads` DDS threads, or a new one."""
    stale = []
    found = None
    with _lock:
        while _idle:
            server = _idle.pop()
            if server.proc.poll() is None and server.threads == threads:
                found = server
                break
            stale.append(server)
    for server in stale:
        _discard(server)
    return found or _start_server(threads)


def prestart_solvers(count: int, threads: int | None) -> None:
    """Start solver children until `count` wait idle, without waiting for them: their interpreter
    and DDS load while this process plans the work."""
    if not solvers_allowed():
        return
    with _lock:
        ready = sum(1 for s in _idle if s.threads == threads and s.proc.poll() is None)
    for _ in range(count - ready):
        server = _start_server(threads)
        with _lock:
            _idle.append(server)


def close_solvers() -> None:
    """Close the idle solver children (the DD stage is done), so none is left waiting."""
    with _lock:
        idle = list(_idle)
        _idle.clear()
    for server in idle:  # end of input: each child returns, all of them at once
        with contextlib.suppress(OSError):
            if server.proc.stdin is not None:
                server.proc.stdin.close()
    for server in idle:
        with _lock:
            _live.discard(server)
        server.close()


@atexit.register
def _close_all() -> None:
    with _lock:
        live = list(_live)
        _live.clear()
        _idle.clear()
    for server in live:
        server.close()


def run_persistent(job: SolveJob, threads: int | None = None) -> SolveOutput:
    """Solve `job` in a long-lived solver child (an idle one, or one started now); raise
    SolverCrash if it dies (the next job then starts a fresh child). Once the command is
    stopping, no child is started (or kept: one started while `kill_workers` looked is killed)
    and KeyboardInterrupt is raised instead."""
    started = time.perf_counter()
    _refuse_when_stopping()
    server = _take_server(threads)
    try:
        out = server.solve(job)
    except BaseException as exc:
        _discard(server)
        if isinstance(exc, SolverCrash):
            exc.seconds = time.perf_counter() - started
        raise
    with _lock:
        _idle.append(server)
    out.solver_runs = 1
    out.seconds = time.perf_counter() - started
    return out


def solve_with_bisection(
    job: SolveJob,
    run: Callable[[SolveJob], SolveOutput] | None = None,
) -> SolveOutput:
    """Solve `job`; when the solver dies, bisect to the items that kill it and report them.

    A single crashing item costs about two extra passes over its half of the job (log2 n runs).
    """
    runner = run or run_isolated
    if len(job) == 0:
        return SolveOutput()
    try:
        return runner(job)
    except SolverCrash as crash:
        if len(job) == 1:
            out = SolveOutput(solver_runs=1, seconds=crash.seconds)
            if job.tables:
                out.crashed_deals.append((job.tables[0][0], str(crash)))
            else:
                out.crashed_traces.append((job.traces[0].key, str(crash)))
            return out
        out = SolveOutput(solver_runs=1, seconds=crash.seconds)
        for half in job.split():
            out.merge(solve_with_bisection(half, runner))
        return out


def skip_endplay_dealer() -> None:
    """In a process that only solves (a solver child, the site's DD-alternatives worker): endplay's
    package __init__ imports its deal generator, which imports matplotlib.pyplot, about a second
    per process; a solver never uses it, so that process skips it."""
    import types

    sys.modules.setdefault("endplay.dealer", types.ModuleType("endplay.dealer"))


def _child_main() -> None:
    """Entry point of the sandboxed solver: pickled SolveJob on stdin, SolveOutput on stdout;
    with `--serve`, length-prefixed jobs and outputs until stdin ends (`run_persistent`)."""
    skip_endplay_dealer()
    result_fd = os.dup(1)
    os.dup2(2, 1)  # anything DDS or endplay prints goes to stderr, not into the result stream
    threads = os.environ.get(THREADS_ENV)
    if threads:
        from ddrank.dd.solver import set_dds_threads

        set_dds_threads(int(threads))
    if "--serve" in sys.argv[1:]:
        with os.fdopen(result_fd, "wb") as stream:
            while head := sys.stdin.buffer.read(_HEADER.size):
                (size,) = _HEADER.unpack(head)
                job = pickle.loads(_read_exactly(sys.stdin.buffer, size))
                _inject_fault(job)
                data = pickle.dumps(solve_job(job), protocol=pickle.HIGHEST_PROTOCOL)
                stream.write(_HEADER.pack(len(data)) + data)
                stream.flush()
        return
    job: SolveJob = pickle.loads(sys.stdin.buffer.read())
    _inject_fault(job)
    out = solve_job(job)
    with os.fdopen(result_fd, "wb") as stream:
        pickle.dump(out, stream, protocol=pickle.HIGHEST_PROTOCOL)


def _inject_fault(job: SolveJob) -> None:
    """Test-only (`FAULT_ENV`): die as DDS does when the job holds one of the listed deals."""
    faulty = {d for d in os.environ.get(FAULT_ENV, "").split(",") if d}
    if faulty and any(deal_id in faulty for deal_id, _ in job.tables):
        os.kill(os.getpid(), signal.SIGSEGV)
    if faulty and job.traces:
        from ddrank.types import Deal

        if any(Deal.from_pbn(r.deal_pbn).deal_id in faulty for r in job.traces):
            os.kill(os.getpid(), signal.SIGSEGV)


if __name__ == "__main__":
    # Run the copy imported under its real name, so pickled results name ddrank.dd.sandbox classes.
    from ddrank.dd.sandbox import _child_main as _main

    _main()
