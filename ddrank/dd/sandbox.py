"""Run DDS where a crash cannot take the caller down, and find the input that crashed it.

DDS is native code: bad input, a bug or memory exhaustion kills the whole process, and with it a
process pool and every partition it was working on. So a solve job runs in a short-lived child
interpreter (`python -m ddrank.dd.sandbox`, which imports only ddrank.dd and endplay). If the child
dies, the job is split in halves and re-run until the single deal or play that kills DDS is known;
everything else is still solved. The caller quarantines the culprits.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ddrank.dd.solver import TABLE_BATCH, TRACE_BATCH, TraceRequest, solve_tables, solve_traces
from ddrank.processes import die_with_parent

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

    def merge(self, other: SolveOutput) -> None:
        self.tables.update(other.tables)
        self.traces.update(other.traces)
        self.crashed_deals += other.crashed_deals
        self.crashed_traces += other.crashed_traces
        self.solver_runs += other.solver_runs
        self.seconds += other.seconds


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


def solve_job(job: SolveJob) -> SolveOutput:
    """Solve a job in this process (no crash protection)."""
    out = SolveOutput()
    if job.tables:
        tables = solve_tables([pbn for _, pbn in job.tables], batch=job.table_batch)
        out.tables = {deal_id: t.cells for (deal_id, _), t in zip(job.tables, tables, strict=True)}
    if job.traces:
        traces = solve_traces(job.traces, batch=job.trace_batch)
        out.traces = {req.key: tr for req, tr in zip(job.traces, traces, strict=True)}
    return out


def run_isolated(
    job: SolveJob, threads: int | None = None, timeout: float | None = None
) -> SolveOutput:
    """Solve `job` in a child interpreter; raise SolverCrash if it dies."""
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
        crash = SolverCrash(proc.returncode, proc.stderr.decode(errors="replace"))
        crash.seconds = time.perf_counter() - started
        raise crash
    out: SolveOutput = pickle.loads(proc.stdout)
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


def _child_main() -> None:
    """Entry point of the sandboxed solver: pickled SolveJob on stdin, SolveOutput on stdout."""
    # endplay's package __init__ imports its deal generator, which imports matplotlib.pyplot: over
    # a second per child. The solver never uses it, so this purpose-built process skips it.
    import types

    sys.modules.setdefault("endplay.dealer", types.ModuleType("endplay.dealer"))
    result_fd = os.dup(1)
    os.dup2(2, 1)  # anything DDS or endplay prints goes to stderr, not into the result stream
    job: SolveJob = pickle.loads(sys.stdin.buffer.read())
    faulty = {d for d in os.environ.get(FAULT_ENV, "").split(",") if d}
    if faulty and any(deal_id in faulty for deal_id, _ in job.tables):
        os.kill(os.getpid(), signal.SIGSEGV)
    if faulty and job.traces:
        from ddrank.types import Deal

        if any(Deal.from_pbn(r.deal_pbn).deal_id in faulty for r in job.traces):
            os.kill(os.getpid(), signal.SIGSEGV)
    threads = os.environ.get(THREADS_ENV)
    if threads:
        from ddrank.dd.solver import set_dds_threads

        set_dds_threads(int(threads))
    out = solve_job(job)
    with os.fdopen(result_fd, "wb") as stream:
        pickle.dump(out, stream, protocol=pickle.HIGHEST_PROTOCOL)


if __name__ == "__main__":
    # Run the copy imported under its real name, so pickled results name ddrank.dd.sandbox classes.
    from ddrank.dd.sandbox import _child_main as _main

    _main()
