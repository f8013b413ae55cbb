"""Ctrl-C and SIGTERM stop a run cleanly, in seconds.

The first signal kills the command's workers and solver processes (`ddrank.processes`: they left
the terminal's process group, so only this process heard it) and raises KeyboardInterrupt here.
The stack then unwinds in order: a partition being written rolls back, the store is closed, the
flow run is marked crashed on the Prefect server (it runs in its own session, so it is still up),
the server stops, and the lock file goes. A second Ctrl-C skips all that and exits at once.

Prefect swaps its own SIGTERM handler in while a flow runs (it raises `TerminationSignal`) and
re-sends the signal once the flow has unwound; that second delivery reaches the handler below.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from ddrank.processes import kill_workers, note_stop
from store.store import release_held_locks

#: Exit status of a command stopped by a signal (the shell's 128 + SIGINT).
EXIT_INTERRUPTED = 130
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

_received: list[str] = []


def stopping() -> str | None:
    """The name of the signal that is stopping this command, or None."""
    return _received[0] if _received else None


def is_stop(exc: BaseException) -> bool:
    """Is `exc` how a stop signal surfaces (ours, or Prefect's `TerminationSignal`)?"""
    if isinstance(exc, KeyboardInterrupt):
        return True
    return type(exc).__name__ == "TerminationSignal"


def _handler(signum: int, frame: FrameType | None) -> None:
    first = not _received
    if first:
        _received.append(signal.Signals(signum).name)
        note_stop(_received[0])
    kill_workers()
    if first:
        raise KeyboardInterrupt(_received[0])
    if signum == signal.SIGINT:  # a second Ctrl-C: no more cleaning up
        release_held_locks()
        sys.stderr.write("stopped at once (second interrupt); rerun to resume\n")
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)
    # A repeated SIGTERM (Prefect re-sends the one it swapped out): the orderly stop goes on.


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Install the stop handler for SIGINT and SIGTERM for the duration of a command.

    Only the main thread can set handlers; elsewhere (a served deployment's thread) this does
    nothing and the caller's own signal handling stays in charge."""
    try:
        previous = {s: signal.signal(s, _handler) for s in STOP_SIGNALS}
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextmanager
def workers_stopped_on_interrupt() -> Iterator[None]:
    """Kill the worker processes before a pool's shutdown waits for them, whatever stops the
    block (KeyboardInterrupt, Prefect's TerminationSignal, a crash of the main process's code)."""
    try:
        yield
    except BaseException:
        kill_workers()
        raise
