"""Worker processes that stop when the command stops.

A terminal's Ctrl-C sends SIGINT to the whole foreground process group. If pool workers and
solver children get it too, each dies on its own schedule (a worker mid-task never completes its
future, and a solver killed by it looks like a DDS crash). So every worker leaves the terminal's
group (`detach_worker`), dies with its parent (`die_with_parent`), and only the command's main
process decides what an interrupt means: it kills its workers (`kill_workers`) and stops.
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
from pathlib import Path

_PR_SET_PDEATHSIG = 1

#: The stop signal this command received (SIGINT, SIGTERM), kept besides the KeyboardInterrupt
#: its handler raises: a library can swallow that exception (an optional import guarded by a
#: bare `except`, seen once as a Ctrl-C at 3 s that the run ignored), so the next progress
#: report raises it again (`stages.progress`).
STOPS: list[str] = []


def note_stop(name: str) -> None:
    """Record that SIGINT or SIGTERM has asked this command to stop."""
    STOPS.append(name)


def stop_requested() -> str | None:
    """The first stop signal received, or None."""
    return STOPS[0] if STOPS else None


#: Set by `kill_workers`: the solvers it killed must stay dead. A thread that drives a solver
#: child (the thread runner) would otherwise take the killed child for a DDS crash and start
#: another (bisection, Prefect's retries) while the command stops. A new fan-out clears it.
_SOLVERS_KILLED = threading.Event()


def allow_solvers() -> None:
    """A DD fan-out starts: solver children may be started again (unless a stop came)."""
    _SOLVERS_KILLED.clear()


def solvers_allowed() -> bool:
    """May a solver child be started now? Not once this command is stopping or killed its
    workers."""
    return not STOPS and not _SOLVERS_KILLED.is_set()


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:  # not glibc Linux
        return None


#: Loaded once here: `die_with_parent` also runs between fork and exec, where nothing may spawn.
_LIBC = _libc()


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Ask Linux to send `sig` to this process when its parent dies (a no-op elsewhere), so a
    `kill -9` of the command never leaves a worker or solver running on its own."""
    if _LIBC is not None and hasattr(_LIBC, "prctl"):
        _LIBC.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)


def detach_worker() -> None:
    """Pool-worker initializer: leave the terminal's process group (the main process handles
    Ctrl-C for everyone) and die with the parent."""
    try:
        os.setpgid(0, 0)
    except OSError:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # cannot leave: at least ignore Ctrl-C
    die_with_parent()


def descendants(pid: int | None = None) -> list[int]:
    """Every living descendant of `pid` (default: this process), children first (Linux /proc)."""
    root = os.getpid() if pid is None else pid
    parent_of: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()  # after "pid (comm) "
        parent_of[int(stat.parent.name)] = int(fields[1])
    found: list[int] = []
    frontier = [root]
    while frontier:
        kids = [p for p, pp in parent_of.items() if pp in frontier]
        found += kids
        frontier = kids
    return found


def kill_workers(spare_other_sessions: bool = True) -> list[int]:
    """SIGKILL this process's descendants; return their pids.

    Processes in another session are spared (the command's temporary Prefect server runs in its
    own session so that it can record the interrupted run and then be stopped in order), and so
    is multiprocessing's resource tracker, which exits by itself with this process."""
    _SOLVERS_KILLED.set()  # first: a thread that sees its solver die must not start another
    own = os.getsid(0)
    killed = []
    for pid in descendants():
        try:
            if spare_other_sessions and os.getsid(pid) != own:
                continue
            if b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue  # multiprocessing's bookkeeper: killed, it is relaunched and complains
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        except (ProcessLookupError, PermissionError, FileNotFoundError):
            continue
    return killed


def release_pool_semaphores() -> None:
    """Unlink the semaphores of this process's pools now, before an `os._exit`.

    A stopped command ends with `os._exit(130)`: the interpreter's shutdown, whose exit
    finalizers unlink each pool's queue semaphores and tell multiprocessing's resource tracker,
    never runs. The tracker outlives the command, finds them still registered and prints
    "There appear to be 5 leaked semaphore objects to clean up at shutdown" under the stop
    line. The finalizers of priority 0 and above are the semaphores' and the queues' (close
    the feeder); run them here. The pools' workers are already killed (`kill_workers`)."""
    import contextlib
    import sys

    util = sys.modules.get("multiprocessing.util")
    run = getattr(util, "_run_finalizers", None)
    if run is None:  # no pool was ever made: nothing to release
        return
    with contextlib.suppress(Exception):  # best effort: the stop itself must go on
        run(0)
