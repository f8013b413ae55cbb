"""Reruns on new hand records: the `inbox_rerun` flow and a watcher that announces arrivals.

Two ways to get new data processed (both defined in prefect.yaml and served by `ddrank serve`):

* on a schedule: `inbox_rerun` runs hourly, looks at the inbox folder (`DDRANK_INBOX`) and only
  runs the pipeline when a file holds content the store has not seen (by SHA-1 against
  `source_files`); otherwise it returns at once without writing to the store;
* on an event: `watch_inbox` (`ddrank watch`) emits a `ddrank.inbox.file-arrived` Prefect event
  per new file, and a deployment trigger matching that event starts `inbox_rerun`.

Only the new records are processed downstream: the pipeline is given just the new files, ingest
keeps records it already has out (content ids) and puts the rest in new partitions, and every
later stage works on pending boards only.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.pipeline import pipeline
from flows.settings import PipelineSettings, load_settings
from store import Store, StoreLockedError, store_lock
from store.inputs.files import FORMATS, file_sha1

INBOX_EVENT = "ddrank.inbox.file-arrived"
RESOURCE_PREFIX = "ddrank.inbox."
#: A file modified this recently may still be being copied in; it waits for the next look.
SETTLE_SECONDS = 5.0
#: How long a run waits for the store lock, which the watcher holds for a moment while it reads
#: the store; a pipeline run holds it far longer, and the run then reports "store-busy".
LOCK_WAIT_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class InboxFile:
    path: Path
    sha1: str

    @property
    def resource_id(self) -> str:
        """The Prefect resource id of this file's arrival event: `ddrank.inbox.<path>`."""
        return f"{RESOURCE_PREFIX}{self.path}"


@dataclass(slots=True)
class InboxScan:
    new: list[InboxFile]
    known: list[InboxFile]
    settling: list[Path]
    busy: str | None = None  # why the store could not be read (another run is writing it)


def inbox_files(inbox: str | Path) -> list[Path]:
    """Hand-record files in the inbox (recursive, sorted; other files and dot-files ignored)."""
    root = Path(inbox)
    if not root.is_dir():
        raise FileNotFoundError(f"inbox {root} is not a folder (set DDRANK_INBOX or --inbox)")
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() in FORMATS and not p.name.startswith(".")
    )


def known_hashes(db: str | Path) -> set[str]:
    """SHA-1s of every file already ingested, read without taking the writer lock.

    A store that does not exist yet knows nothing. Raises StoreLockedError while another ddrank
    process writes the store (DuckDB refuses even readers then).
    """
    path = Path(db)
    if not path.exists():
        return set()
    with Store(path, read_only=True) as store:
        if ("source_files",) not in store.tuples("table_names"):  # made before any ingest
            return set()
        return {sha for (sha,) in store.tuples("source_file_hashes")}


def scan_inbox(
    inbox: str | Path,
    known: set[str],
    settle_seconds: float = SETTLE_SECONDS,
    now: float | None = None,
) -> InboxScan:
    """Split the inbox into new files, files whose content is known, and files still settling.

    Two inbox files with the same content count once (the first by path).
    """
    now = time.time() if now is None else now
    scan = InboxScan([], [], [])
    seen = set(known)
    for path in inbox_files(inbox):
        if now - path.stat().st_mtime < settle_seconds:
            scan.settling.append(path)
            continue
        f = InboxFile(path, file_sha1(path))
        (scan.known if f.sha1 in seen else scan.new).append(f)
        seen.add(f.sha1)
    return scan


@task(name="scan-inbox", cache_policy=NO_CACHE)
def scan_inbox_task(inbox: str, db: str, settle_seconds: float) -> InboxScan:
    """What is new in the inbox; a store busy with another run is reported, not raised."""
    try:
        known = known_hashes(db)
    except StoreLockedError as exc:
        return InboxScan([], [], [], busy=str(exc))
    return scan_inbox(inbox, known, settle_seconds)


@flow(name="inbox-rerun", log_prints=True)
def inbox_rerun(
    inbox: str | None = None,
    settings: PipelineSettings | None = None,
    settle_seconds: float = SETTLE_SECONDS,
) -> dict[str, Any]:
    """Run the pipeline on the inbox files the store has not seen; do nothing if there are none.

    `inbox` defaults to `settings.inbox` (`DDRANK_INBOX`). Returns what was found and, when it
    ran, the pipeline's own result.
    """
    logger = get_run_logger()
    s = settings or load_settings()
    folder = inbox or s.inbox
    if not folder:
        raise ValueError("no inbox folder: pass inbox=... or set DDRANK_INBOX")
    out: dict[str, Any] = {"inbox": str(folder), "new_files": [], "pipeline": None}
    with ExitStack() as held:
        # One run at a time per store (scheduled, event and CLI runs). Only a store that is busy
        # before the run starts means "store-busy"; a failure inside the pipeline fails the run.
        try:
            held.enter_context(store_lock(s.db, wait=LOCK_WAIT_SECONDS))
            scan = scan_inbox_task(str(folder), s.db, settle_seconds)
            if scan.busy:
                raise StoreLockedError(scan.busy)
        except StoreLockedError as exc:
            logger.warning("%s; the next run picks the new files up", exc)
            return {**out, "status": "store-busy"}
        out.update(
            already_ingested=[str(f.path) for f in scan.known],
            settling=[str(p) for p in scan.settling],
        )
        if scan.settling:
            logger.info("%d file(s) still being written, left for the next run",
                        len(scan.settling))  # fmt: skip
        if not scan.new:
            logger.info("no new hand records in %s (%d known)", folder, len(scan.known))
            return {**out, "status": "nothing-new"}
        new = [str(f.path) for f in scan.new]
        logger.info("%d new file(s): %s", len(new), ", ".join(Path(p).name for p in new))
        result = pipeline(s.model_copy(update={"inputs": new}))
    return {**out, "new_files": new, "pipeline": result, "status": "ran"}


# --- served deployments (the same three as prefect.yaml, without a work pool) ----------------

HOURLY = "ddrank-inbox-hourly"
ON_EVENT = "ddrank-inbox-on-event"
PIPELINE = "ddrank-pipeline"


def inbox_trigger() -> Any:
    """The deployment trigger of `ddrank-inbox-on-event`: any `ddrank.inbox.file-arrived`."""
    from prefect.events import DeploymentEventTrigger

    return DeploymentEventTrigger(
        name="ddrank inbox file arrived",
        match={"prefect.resource.id": f"{RESOURCE_PREFIX}*"},
        expect={INBOX_EVENT},
        threshold=1,
        parameters={"settle_seconds": 0},  # the watcher announces only settled files
    )


def served_deployments(
    interval: float = 3600, on_event: bool = True, parameters: dict[str, Any] | None = None
) -> list[Any]:
    """RunnerDeployments for `prefect.serve`: the hourly inbox run, the event-triggered inbox
    run and the manual pipeline, named as in prefect.yaml. Entrypoints are module paths, so the
    runs import the installed package whatever the working directory."""
    from prefect.client.schemas.objects import ConcurrencyLimitConfig, ConcurrencyLimitStrategy
    from prefect.deployments.runner import EntrypointType

    params = parameters or {}
    one_at_a_time = ConcurrencyLimitConfig(
        limit=1, collision_strategy=ConcurrencyLimitStrategy.ENQUEUE
    )
    common = {"entrypoint_type": EntrypointType.MODULE_PATH}
    out = [
        inbox_rerun.to_deployment(
            HOURLY, interval=interval, parameters=params, tags=["ddrank", "inbox"],
            concurrency_limit=ConcurrencyLimitConfig(
                limit=1, collision_strategy=ConcurrencyLimitStrategy.CANCEL_NEW
            ),
            description="Runs the pipeline on new files of the inbox, otherwise returns at once.",
            **common,
        )
    ]  # fmt: skip
    if on_event:
        out.append(
            inbox_rerun.to_deployment(
                ON_EVENT, triggers=[inbox_trigger()], parameters=params,
                tags=["ddrank", "inbox", "event"], concurrency_limit=one_at_a_time,
                description="Started by a ddrank.inbox.file-arrived event from `ddrank watch`.",
                **common,
            )
        )  # fmt: skip
    out.append(
        pipeline.to_deployment(
            PIPELINE, tags=["ddrank"], concurrency_limit=one_at_a_time,
            description="The whole pipeline on demand.", **common,
        )
    )  # fmt: skip
    return out


# --- the watcher -------------------------------------------------------------------------------

Emit = Callable[..., Any]


def announce(files: list[InboxFile], inbox: str | Path, emit: Emit | None = None) -> list[Any]:
    """Emit one `ddrank.inbox.file-arrived` event per file; returns what `emit` returned."""
    if emit is None:
        from prefect.events import emit_event

        emit = emit_event
    return [
        emit(
            event=INBOX_EVENT,
            resource={
                "prefect.resource.id": f.resource_id,
                "prefect.resource.name": f.path.name,
                "ddrank.inbox": str(inbox),
                "ddrank.sha1": f.sha1,
            },
            payload={"path": str(f.path), "sha1": f.sha1, "bytes": f.path.stat().st_size},
        )
        for f in files
    ]


def poll_once(
    inbox: str | Path,
    db: str | Path,
    announced: set[str],
    settle_seconds: float = SETTLE_SECONDS,
    emit: Emit | None = None,
) -> list[InboxFile]:
    """One look at the inbox: announce files whose content neither the store nor this watcher
    has seen.

    The store is read under its lock, held for that moment only: DuckDB refuses a writer while
    any other process has the file open, even read-only, so an unguarded read here made a
    running pipeline fail. While a run holds the store (or another process writes it) this look
    is skipped: that run could not take a new file anyway, and the next look announces it.
    """
    try:
        with store_lock(db):
            known = known_hashes(db)
    except StoreLockedError:
        return []
    scan = scan_inbox(inbox, known | announced, settle_seconds)
    announce(scan.new, inbox, emit)
    announced.update(f.sha1 for f in scan.new)
    return scan.new


def watch_inbox(
    inbox: str | Path,
    db: str | Path,
    once: bool = False,
    poll_seconds: float = 10.0,
    settle_seconds: float = SETTLE_SECONDS,
    emit: Emit | None = None,
    on_arrival: Callable[[InboxFile], None] | None = None,
    max_polls: int | None = None,
) -> int:
    """Poll the inbox and announce new files as Prefect events until stopped; returns the count.

    Lightweight on purpose: no flow run, no store writes; events need PREFECT_API_URL.
    """
    os.environ.setdefault("DO_NOT_TRACK", "1")
    announced: set[str] = set()
    sent = polls = 0
    try:
        while True:
            for f in poll_once(inbox, db, announced, settle_seconds, emit):
                sent += 1
                if on_arrival:
                    on_arrival(f)
            polls += 1
            if once or (max_polls is not None and polls >= max_polls):
                return sent
            time.sleep(poll_seconds)
    finally:
        if emit is None and sent:
            from prefect.events.worker import EventsWorker

            EventsWorker.drain_all(timeout=30)  # deliver before the process exits


if __name__ == "__main__":
    print(inbox_rerun())
