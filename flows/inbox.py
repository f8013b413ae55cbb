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
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger

from flows.pipeline import pipeline
from flows.run_names import inbox_run_name
from stages.inbox import (  # noqa: F401 - the inbox look, re-exported for its callers
    RESOURCE_PREFIX,
    SETTLE_SECONDS,
    InboxFile,
    InboxScan,
    inbox_files,
    known_hashes,
    scan_inbox,
)
from stages.run import open_run
from stages.settings import PipelineSettings, load_settings
from store import StoreLockedError, store_lock
from tasks.inbox import scan_inbox_task

INBOX_EVENT = "ddrank.inbox.file-arrived"
#: How long a run waits for the store lock, which the watcher holds for a moment while it reads
#: the store; a pipeline run holds it far longer, and the run then reports "store-busy".
LOCK_WAIT_SECONDS = 10.0


@flow(name="inbox-rerun", log_prints=True, flow_run_name=inbox_run_name)
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
        ran = s.model_copy(update={"inputs": new})
        hashed = {f.path: f.sha1 for f in scan.new}  # each new file hashed once, by the scan
        with open_run(ran, lock=False, digests=hashed) as run:  # the lock is held above
            result = pipeline(ran, run=run)
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
