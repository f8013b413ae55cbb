"""Flow `site_report`: the static results-and-players site under `OUT/site/` (last pipeline stage).

A subflow so it shows as its own run in the Prefect UI; `ddrank report` runs the same task body
without a server (`tasks.site.build_site`).
"""

from __future__ import annotations

from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from tasks.db import DEFAULT_DB
from tasks.site import build_site

site_task = task(name="site", cache_policy=NO_CACHE)(build_site)


@flow(name="site_report", validate_parameters=False)
def site_report(db: str = str(DEFAULT_DB), out: str = "out") -> dict[str, Any]:
    """Write `out/site/` (index, events, players, model) from the store; return its summary."""
    return site_task(db, out)
