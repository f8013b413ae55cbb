"""Prefect task of the ingest stage (`stages.ingest`)."""

from __future__ import annotations

from prefect import task

from ddrank.limits import DEFAULT_LIMITS, Limits
from stages.ingest import DEFAULT_PARTITION_SIZE, IngestSummary, ingest_paths
from store import Store
from store.inputs import expand_paths, read_records
from store.inputs.files import FORMATS

# re-exported while callers move to `stages.ingest` and `store.inputs`
__all__ = ["FORMATS", "IngestSummary", "expand_paths", "ingest_paths", "ingest_task",
           "read_records"]  # fmt: skip


@task(name="ingest", retries=2, retry_delay_seconds=[2, 10])
def ingest_task(db: str, paths: list[str], partition_size: int = DEFAULT_PARTITION_SIZE,
                limits: Limits = DEFAULT_LIMITS) -> dict:  # fmt: skip
    """Ingest files into the store at `db` (all in one task, however many: no task per file);
    returns the summary. A file over one of the input `limits` is refused, nothing of it stored."""
    with Store(db) as store:
        return ingest_paths(store, paths, partition_size, limits=limits).as_dict()
