"""Prefect tasks of the field measures (flow `field-measures`): thin wrappers over `stages.field`."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from stages.field import lehman_params, load_field, run_lehman, run_score, run_split

__all__ = ["lehman_params", "lehman_task", "load_field_task", "score_task", "split_task"]

load_field_task = task(name="load-table-results", cache_policy=NO_CACHE)(load_field)
score_task = task(name="score-field", cache_policy=NO_CACHE)(run_score)
split_task = task(name="split-field", cache_policy=NO_CACHE)(run_split)
lehman_task = task(name="lehman-ratings", cache_policy=NO_CACHE)(run_lehman)
