"""Prefect tasks of the learned DD estimator: thin wrappers over `stages/estimate.py`."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from stages import estimate
from store import estimator

#: Takes the flow's read-only `Store` (not hashable): never cached.
build_states = task(estimate.build_dataset, name="build-estimator-states", cache_policy=NO_CACHE)
fit_model = task(estimate.train_model, name="fit-trick-model")
score_model = task(estimate.evaluate_model, name="score-trick-model")
store_model = task(estimator.save_model, name="save-trick-model")
