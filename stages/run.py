"""One pipeline run's state: its settings, its one `Store`, its inputs hashed once, its results.

`open_run` takes the store's lock, opens the `Store` once and hashes each input file once; every
stage of the run gets the `Run` (stages/pipeline.py), never a path. The Prefect flow hands the
same `Run` to each stage's task as its input (`tasks.stages`): those tasks are not cached, so
Prefect neither hashes nor stores it, and they run in the flow's own process, where the `Store`
is open (the DD solves, which need no store, fan out). A `Run` is a plain object, not a dataclass,
so Prefect passes it to a task as it is instead of walking and rebuilding its fields.
No Prefect here.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from store import Store, store_lock
from store.inputs import files

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


class Run:
    """What every stage of one run shares: its settings, its one `Store`, its inputs (hashed
    once), each stage's result so far (by stage key) and where stage messages go."""

    def __init__(self, settings: Any, store: Store, inputs: InputFiles) -> None:
        self.settings = settings
        self.store = store
        self.inputs = inputs
        self.id = uuid.uuid4().hex
        self.results: dict[str, Any] = {}
        self.log: logging.Logger | logging.LoggerAdapter = LOG

    def __repr__(self) -> str:  # what Prefect shows of a task's input
        return f"Run({self.settings.db!s})"

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

    The store is closed when the block ends. With `store` the caller's open store is used (and left open); `digests` are files the caller has hashed
    already (the inbox scan), not hashed again."""
    with ExitStack() as stack:
        if lock:
            stack.enter_context(store_lock(settings.db))
        # a missing input is an error before the store opens
        inputs = InputFiles(settings.inputs, digests, skip=[settings.out])
        if store is None:
            store = stack.enter_context(Store(settings.db))
        yield Run(settings, store, inputs)


def give_back_memory(store: Store) -> None:
    """What one stage (or one batch of a stage) read or freed is not kept for the next. DuckDB's
    cache of the store's blocks is evicted (`Store.release_cache`: one connection serves the
    run), and the C heap's free pages go back to the system (glibc's `malloc_trim`), so each
    stage's peak starts from what the run really holds, not from an earlier stage's leftovers."""
    store.release_cache()
    trim_heap()


def trim_heap() -> None:
    """glibc's `malloc_trim(0)`: the free pages of the C heap (Python's larger objects, freed
    lists and dicts) are given back to the system; elsewhere (musl, macOS) nothing."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim  # the process's own C library
    except (OSError, AttributeError):
        return
    trim(0)


def freshness_of(run: Run) -> Any:
    """Is there anything new for this run (`stages.freshness.Freshness`)? By content, from the
    run's own hashes and store: nothing is hashed or opened again."""
    from stages import freshness

    return freshness.check(run.settings, run)
