"""Prefect task of the site stage: a thin wrapper over `stages.site.build_site`."""

from __future__ import annotations

from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from stages.site import build_site


@task(name="site", cache_policy=NO_CACHE)
def site_task(db: str, out: str) -> dict[str, Any]:
    """Write `out/site/` from the store; return its summary."""
    return build_site(db, out)
