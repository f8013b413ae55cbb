"""One pipeline run's state: its settings, its one `Store`, its inputs hashed once, its results.

`open_run` takes the store's lock, opens the `Store` once and hashes each input file once; every
stage of the run gets the `Run` (stages/pipeline.py), never a path. Prefect tasks cannot take a
`Run` as a parameter (task parameters are hashed for caching and shown in the UI), so a run is
registered under a string id while it is open and a task gets the id (`lookup`). A task that ran
in another process than the flow's would find no run there, and says so: stage tasks share the
flow's `Store`, so they run in the flow's process (the DD solves, which need no store, fan out).
No Prefect here.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from store import Store, store_lock
from store.inputs import files

_RUNS: dict[str, Run] = {}
LOG = logging.getLogger("ddrank.pipeline")


class InputFiles:
    """The run's input files and their SHA-1s, each file hashed at most once per run.

    `digests` covers every regular file under the inputs (freshness: a changed file that no reader
    takes costs a needless rerun, never a missed one); ingest asks for the files it reads through
    `digest`, which hashes only a file not seen yet.
    """

    def __init__(self, inputs: list[str], known: dict[Path, str] | None = None,
                 skip: list[str] | None = None) -> None:  # fmt: skip
        self.inputs = list(inputs)
        self.skip = list(skip or [])  # the output folder: never an input
        self._sha1: dict[Path, str] = {Path(p).resolve(): s for p, s in (known or {}).items()}
        self.digests = {f: self.digest(f) for f in files.input_files(self.inputs, self.skip)}

    def digest(self, path: Path) -> str:
        """The file's SHA-1; a file that cannot be opened as a regular file (a pipe, a device, a
        name not UTF-8) gets a digest of its name, and its reading refuses it."""
        key = Path(path).resolve()
        if key not in self._sha1:
            try:
                self._sha1[key] = files.file_sha1(Path(path))
            except (OSError, ValueError):
                self._sha1[key] = "unreadable:" + files.shown(key)
        return self._sha1[key]

    def by_content(self) -> dict[str, str]:
        """sha1 -> one file holding that content: what "nothing new" compares (not where)."""
        return {sha: str(p) for p, sha in sorted(self.digests.items(), reverse=True)}


@dataclass
class Run:
    """What every stage of one run shares. `hooks` lets a runner swap how the costly pieces run
    (`solve`: the DD fan-out; `score_session`: one session's scores) without a second pipeline:
    the Prefect flow puts cached, retried tasks there, `ddrank results` the plain functions."""

    settings: Any
    store: Store
    inputs: InputFiles
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    results: dict[str, Any] = field(default_factory=dict)
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    log: logging.Logger | logging.LoggerAdapter = LOG

    def hook(self, name: str, default: Callable[..., Any]) -> Callable[..., Any]:
        return self.hooks.get(name, default)

    @contextmanager
    def logging_to(self, logger: Any) -> Iterator[None]:
        """Stage messages go to `logger` meanwhile (a Prefect task's run logger)."""
        before, self.log = self.log, logger
        try:
            yield
        finally:
            self.log = before


@contextmanager
def open_run(settings: Any, *, lock: bool = True, store: Store | None = None,
             digests: dict[Path, str] | None = None) -> Iterator[Run]:  # fmt: skip
    """Lock the store (unless the caller holds the lock), hash the inputs, open the `Store`.

    The run is registered (`lookup`) until the block ends; the store is closed then. With `store`
    the caller's open store is used (and left open); `digests` are files the caller has hashed
    already (the inbox scan), not hashed again."""
    with ExitStack() as stack:
        if lock:
            stack.enter_context(store_lock(settings.db))
        # a missing input is an error before the store opens
        inputs = InputFiles(settings.inputs, digests, skip=[settings.out])
        if store is None:
            store = stack.enter_context(Store(settings.db))
        run = Run(settings=settings, store=store, inputs=inputs)
        _RUNS[run.id] = run
        try:
            yield run
        finally:
            _RUNS.pop(run.id, None)


def lookup(run_id: str) -> Run:
    """The open run with this id (a Prefect task's way to its `Store`)."""
    try:
        return _RUNS[run_id]
    except KeyError:
        raise LookupError(
            f"pipeline run {run_id} is not open in this process: stage tasks use the run's "
            "Store, so they must run in the flow's own process"
        ) from None


def freshness_of(run: Run) -> Any:
    """Is there anything new for this run (`stages.freshness.Freshness`)? By content, from the
    run's own hashes and store: nothing is hashed or opened again."""
    from stages import freshness

    return freshness.check(run.settings, run)
