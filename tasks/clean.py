"""Prefect task of the clean stage (`stages.clean`)."""

from __future__ import annotations

from prefect import task

from stages.clean import clean_pending, files_with_leading_passes
from store import Store

# re-exported while callers move to `stages.clean`
__all__ = ["clean_pending", "clean_task", "files_with_leading_passes"]


@task(name="clean", retries=2, retry_delay_seconds=[2, 10])
def clean_task(db: str, workers: int | None = None) -> dict:
    """Clean every pending raw record in the store at `db`."""
    with Store(db) as store:
        return clean_pending(store, workers).as_dict()
