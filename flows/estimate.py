"""Flow ``train_dd_estimator``: DDS-labelled states -> one model per hand size -> saved models."""

from __future__ import annotations

from pathlib import Path

from prefect import flow

from ddrank.estimate.models import DEFAULT_SPECS
from stages.estimate import boards_store
from store.estimator import CACHE_DIR, MODELS_DIR
from tasks.estimate import build_states, fit_model, score_model, store_model


@flow(name="train_dd_estimator")
def train_dd_estimator(
    random_deals: int = 5000,
    seed: int = 1,
    db: str | None = None,
    models: list[str] | None = None,
    random_play: bool = True,
    max_boards: int | None = None,
    cache_dir: str = str(CACHE_DIR),
    models_dir: str = str(MODELS_DIR),
) -> dict[str, float]:
    """Everything `ddrank dd-estimate train` does, as a flow.

    DDS work (random deals' tables, play traces) is cached under `cache_dir`, so a re-run only
    trains. Returns each model's exact-trick accuracy on the held-out 13-card states.
    """
    specs = [s for s in DEFAULT_SPECS if not models or s.name in models]
    with boards_store(db) as store:
        states = build_states(random_deals, seed, store, Path(cache_dir), random_play, max_boards)
    summary: dict[str, float] = {}
    for spec in specs:
        model = fit_model(states, spec)
        model.metrics = score_model(model, states)
        store_model(
            model, Path(models_dir), {"train_states": int((states["split"] == "train").sum())}
        )
        summary[model.name] = next(
            r["accuracy"] for r in model.metrics if r["hand_size"] == 13 and r["strains"] == "all"
        )
    return summary
