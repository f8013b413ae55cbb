"""Flow `site`: the static results-and-players site under `OUT/site/` (last pipeline stage).

A subflow so it shows as its own run in the Prefect UI; `ddrank report` runs the same stage
without a server (`stages.site.build_site`).
"""

from __future__ import annotations

from typing import Any

from prefect import flow

from store import DEFAULT_DB
from tasks.site import site_task


@flow(name="site", validate_parameters=False)
def publish_site(db: str = str(DEFAULT_DB), out: str = "out") -> dict[str, Any]:
    """Write `out/site/` (index, events, players, model) from the store; return its summary."""
    return site_task(db, out)
