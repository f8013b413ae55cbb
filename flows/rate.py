"""Flow ``rate``: ddrank's skill ratings (bidding, declarer, defence, opening lead) in the store."""

from __future__ import annotations

from typing import Any

from prefect import flow

from tasks.skill import rate_store_task


@flow(name="rate")
def rate(db_path: str = "data/ddrank.duckdb", event: str | None = None,
         full: bool = False) -> dict[str, Any]:  # fmt: skip
    """Rate the store's periods not yet rated (all of them with ``full``) into `skill_ratings`."""
    return rate_store_task(db_path, event, full)
