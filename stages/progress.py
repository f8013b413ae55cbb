"""Progress of long stages, reported to whoever displays it (the CLI's rich bars).

Flows and tasks call `report(stage, done, total)`; a caller that wants to show progress wraps the
run in `reporting(hook)`. Hooks live in the process that runs the flow: not a flow parameter,
because flow parameters travel to pool workers and a live progress bar cannot be pickled.
Without a hook, reporting costs nothing. Pure Python: no Prefect, importable by the CLI.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ddrank.processes import stop_requested

#: hook(stage, done, total): total 0 means "size unknown" (a spinner), done == total "finished".
Progress = Callable[[str, int, int], None]
_hooks: list[Progress] = []
#: stage -> (done, total) of its work in estimated CPU seconds, when its items differ in cost
_work: dict[str, tuple[float, float]] = {}


@contextmanager
def reporting(hook: Progress) -> Iterator[None]:
    """Call `hook` for every progress report made while the context is open."""
    _hooks.append(hook)
    try:
        yield
    finally:
        _hooks.remove(hook)
        if not _hooks:  # a finished run's work must not pace the next display's time left
            _work.clear()


def report(stage: str, done: int, total: int, work: tuple[float, float] | None = None) -> None:
    """Tell the hooks; first, stop here if a stop signal came and its interrupt was lost.

    `work`: the same progress in estimated CPU seconds, (done, total), for a stage whose items
    differ in cost (a DD table costs about twelve traces): a display paces the time left on it
    (`work_of`), not on the count, which a unit of cheap traces makes run ahead."""
    stop = stop_requested()
    if stop and sys.exc_info()[1] is None:  # not while an exception (the stop itself) unwinds
        raise KeyboardInterrupt(stop)
    if work is None or not _hooks:  # kept only while a display listens
        _work.pop(stage, None)
    else:
        _work[stage] = work
    for hook in list(_hooks):
        hook(stage, done, total)


def work_of(stage: str) -> tuple[float, float] | None:
    """The stage's last reported (done, total) in estimated CPU seconds, if it reports them."""
    return _work.get(stage)


@contextmanager
def stage(name: str, heartbeat: float = 0.0, after: float = 0.0) -> Iterator[None]:
    """A stage whose size is unknown: started on entry, finished on a normal exit.

    `heartbeat` > 0: while the stage runs, the hooks hear `(name, 0, 0)` again every `heartbeat`
    seconds from a helper thread, so a log shows that a long silent wait (Prefect's API starting,
    its import) is still under way. `after` > 0: the stage is told only if it is still running
    `after` seconds from entry (a check that is usually instant, like "what is new", then prints
    nothing: a rerun with nothing new stays one line)."""
    told = after <= 0
    if told:
        report(name, 0, 0)
    if heartbeat <= 0 and told:
        yield
        report(name, 1, 1)
        return
    import threading

    done = threading.Event()

    def tell() -> bool:
        for hook in list(_hooks):
            try:
                hook(name, 0, 0)
            except Exception:  # a display's trouble never stops the work
                return False
        return True

    def beat() -> None:
        nonlocal told
        if not told:
            if done.wait(after):
                return
            told = tell()
        while heartbeat > 0 and not done.wait(heartbeat):
            if not tell():
                return

    thread = threading.Thread(target=beat, name=f"progress {name}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=1)
    if told:
        report(name, 1, 1)
