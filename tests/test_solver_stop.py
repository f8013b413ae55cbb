"""A stop kills the solvers for good: a solve thread whose DDS child is killed by the stop neither
bisects nor retries, and no solver is started after it (the thread runner's Ctrl-C).

Run in a child interpreter of its own: `kill_workers` kills every descendant of the process that
calls it, which in pytest's own process would be other tests' helpers. The job is 60 real deals
of DDS's regression list (data/dds/list100.txt), several seconds of solving, killed 0.3 s after
its solver process appears.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import sys, threading, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/tests")
from fixtures.list100 import parse_list100
from ddrank.dd import SolveJob, solve_with_bisection
from ddrank.dd.sandbox import run_persistent
from ddrank.processes import allow_solvers, descendants, kill_workers
from ddrank.types import Deal

def solvers():
    found = []
    for pid in descendants():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            if stat != "Z" and b"ddrank.dd.sandbox" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found

deals = [Deal.from_pbn(c.pbn) for c in parse_list100()[:60]]
job = SolveJob(tables=tuple((d.deal_id, d.to_pbn()) for d in deals))
allow_solvers()
result = {}

def solve():
    try:
        result["out"] = solve_with_bisection(job, run_persistent)
    except BaseException as exc:
        result["exc"] = exc

thread = threading.Thread(target=solve)
thread.start()
deadline = time.monotonic() + 120
while not solvers():
    assert time.monotonic() < deadline, "no solver process appeared"
    time.sleep(0.02)
time.sleep(0.3)
kill_workers()
thread.join(timeout=10)
assert not thread.is_alive(), "the solve thread went on after the stop"
assert "out" not in result, f"solved again after the stop: {result['out'].solver_runs} runs"
assert isinstance(result.get("exc"), KeyboardInterrupt), result
time.sleep(0.2)
assert not solvers(), solvers()
try:
    run_persistent(SolveJob(tables=job.tables[:1]))
except KeyboardInterrupt:
    pass
else:
    raise AssertionError("a solver was started after the stop")
assert not solvers(), solvers()
allow_solvers()  # a new fan-out
out = run_persistent(SolveJob(tables=job.tables[:1]))
assert len(out.tables) == 1 and out.solver_runs == 1, out
print("ok")
"""


def test_a_killed_solver_is_not_restarted_and_is_no_crash() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
