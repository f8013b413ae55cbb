"""Prefect task of the inbox look (`stages.inbox`)."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from stages.inbox import InboxScan, known_hashes, scan_inbox
from store import StoreLockedError


@task(name="scan-inbox", cache_policy=NO_CACHE)
def scan_inbox_task(inbox: str, db: str, settle_seconds: float) -> InboxScan:
    """What is new in the inbox; a store busy with another run is reported, not raised."""
    try:
        known = known_hashes(db)
    except StoreLockedError as exc:
        return InboxScan([], [], [], busy=str(exc))
    return scan_inbox(inbox, known, settle_seconds)
