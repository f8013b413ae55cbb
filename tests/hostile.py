"""Helpers of the hostile-input tests (issue 32): run a ddrank command in a child process and
measure its peak memory, and read what a store holds afterwards.

The command runs under a small wrapper process that waits for it and reports the child's peak
resident memory (`resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`, the largest of the command and
the processes it waited for). The command also gets an address-space cap of 4 GiB, so a reader
that regresses fails the test with a MemoryError instead of taking the shared machine's memory.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIN = ROOT / "ddrank" / "data" / "sample" / "lin" / "usbf-2010-sf-14502.lin"
#: The acceptance bound of issue 32 for a refused hostile file.
PEAK_RSS_LIMIT = 1 << 30
_CAP = 4 << 30

_WRAPPER = """
import resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
done = subprocess.run(sys.argv[1:], preexec_fn=cap)
sys.stderr.write("\\nPEAK_RSS_KB %d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(done.returncode)
"""


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str  # without the wrapper's line
    peak_rss: int  # bytes

    @property
    def lines(self) -> list[str]:
        """Every non-empty line the command printed, stdout then stderr."""
        return [ln for ln in (self.stdout + "\n" + self.stderr).splitlines() if ln.strip()]


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "DO_NOT_TRACK": "1", "COLUMNS": "400",
            **extra}  # fmt: skip


def ddrank(*args: str, cwd: Path, timeout: float = 600, **extra: str) -> Done:
    """`ddrank ARGS` in a child process, with its peak RSS."""
    wrapper = _WRAPPER.format(cap=_CAP)
    run = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable, "-m", "cli.main", *args],
        cwd=cwd, env=env(**extra), capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    match = re.search(r"\nPEAK_RSS_KB (\d+)\n$", run.stderr)
    assert match, run.stderr[-3000:]
    return Done(run.returncode, run.stdout, run.stderr[: match.start()], int(match.group(1)) * 1024)


def counts(db: Path) -> dict[str, int]:
    """Rows of the tables an ingest writes (read-only)."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"select count(*) from {t}").fetchall()[0][0]
                for t in ("raw_records", "source_files", "events", "deals")}  # fmt: skip
    finally:
        con.close()
