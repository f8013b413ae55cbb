"""Transitional: the freshness check moved to `stages/freshness.py` (it is no Prefect task)."""

from stages.freshness import *  # noqa: F403
from stages.freshness import EXECUTION_ONLY, MANIFEST, Freshness, check, write_manifest  # noqa: F401
